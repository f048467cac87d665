//! The record model shared by every format: header, start, move tree, times, comments, ending.

use crate::ending::EndingKind;
use crate::error::Diagnostic;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use shogi_core::{Color, Handicap, Move, Piece, PlayError, Position, Setup, Variant};
use std::sync::Arc;

/// A header key: the usual ones typed, any other kept verbatim.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum HeaderKey {
    /// 先手 / 下手 / CSA `N+`.
    Black,
    /// 後手 / 上手 / CSA `N-`.
    White,
    /// 開始日時 / `$START_TIME`.
    StartTime,
    /// 終了日時 / `$END_TIME`.
    EndTime,
    /// 対局日.
    Date,
    /// 棋戦 / `$EVENT`.
    Event,
    /// 場所 / `$SITE`.
    Site,
    /// 戦型 / `$OPENING`.
    Opening,
    /// 表題.
    Title,
    /// 持ち時間 / `$TIME_LIMIT`.
    TimeLimit,
    /// 秒読み.
    Byoyomi,
    /// 消費時間 (totals).
    TimeUsed,
    /// 備考 / `$NOTE`.
    Note,
    /// 掲載.
    Published,
    /// 先手省略名.
    BlackShort,
    /// 後手省略名.
    WhiteShort,
    /// 記録係.
    Recorder,
    /// 最大手数 / `$MAX_MOVES`.
    MaxMoves,
    /// 持将棋 (rule) / `$JISHOGI`.
    JishogiRule,
    /// CSA V3 `$TIME` (main+byoyomi+increment seconds).
    CsaTime,
    /// Any other key, as written (KIF keys in Japanese, CSA keys with their `$`).
    Other(String),
}

const KEYS: &[(HeaderKey, &str, &str)] = &[
    (HeaderKey::Black, "先手", "N+"),
    (HeaderKey::White, "後手", "N-"),
    (HeaderKey::StartTime, "開始日時", "$START_TIME"),
    (HeaderKey::EndTime, "終了日時", "$END_TIME"),
    (HeaderKey::Date, "対局日", ""),
    (HeaderKey::Event, "棋戦", "$EVENT"),
    (HeaderKey::Site, "場所", "$SITE"),
    (HeaderKey::Opening, "戦型", "$OPENING"),
    (HeaderKey::Title, "表題", ""),
    (HeaderKey::TimeLimit, "持ち時間", "$TIME_LIMIT"),
    (HeaderKey::Byoyomi, "秒読み", ""),
    (HeaderKey::TimeUsed, "消費時間", ""),
    (HeaderKey::Note, "備考", "$NOTE"),
    (HeaderKey::Published, "掲載", ""),
    (HeaderKey::BlackShort, "先手省略名", ""),
    (HeaderKey::WhiteShort, "後手省略名", ""),
    (HeaderKey::Recorder, "記録係", ""),
    (HeaderKey::MaxMoves, "最大手数", "$MAX_MOVES"),
    (HeaderKey::JishogiRule, "持将棋", "$JISHOGI"),
    (HeaderKey::CsaTime, "$TIME", "$TIME"),
];

impl HeaderKey {
    /// The key for a KIF/KI2/JKF header name (下手/上手 are read as 先手/後手).
    pub fn from_kif(name: &str) -> HeaderKey {
        match name {
            "下手" => return HeaderKey::Black,
            "上手" => return HeaderKey::White,
            _ => {}
        }
        KEYS.iter()
            .find(|(_, k, _)| *k == name)
            .map_or_else(|| HeaderKey::Other(name.to_string()), |(h, _, _)| h.clone())
    }

    /// The key for a CSA name (`N+`, `N-`, `$EVENT`, …).
    pub fn from_csa(name: &str) -> HeaderKey {
        KEYS.iter()
            .find(|(_, _, c)| !c.is_empty() && *c == name)
            .map_or_else(|| HeaderKey::Other(name.to_string()), |(h, _, _)| h.clone())
    }

    /// The KIF name of the key (unknown keys as written).
    pub fn kif(&self) -> &str {
        match self {
            HeaderKey::Other(s) => s,
            k => KEYS
                .iter()
                .find(|(h, _, _)| h == k)
                .map_or("", |(_, n, _)| n),
        }
    }

    /// The CSA name, when CSA has one.
    pub fn csa(&self) -> Option<&'static str> {
        KEYS.iter()
            .find(|(h, _, _)| h == self)
            .map(|(_, _, c)| *c)
            .filter(|c| !c.is_empty())
    }
}

impl Serialize for HeaderKey {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.kif())
    }
}

/// The inverse of the serialised form: a KIF name (an unknown name is kept as
/// [`HeaderKey::Other`]).
impl<'de> Deserialize<'de> for HeaderKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<HeaderKey, D::Error> {
        let name = String::deserialize(d)?;
        Ok(HeaderKey::from_kif(&name))
    }
}

/// One header line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeaderEntry {
    /// The key.
    pub key: HeaderKey,
    /// The value, trimmed, otherwise as written.
    pub value: String,
}

/// The header: ordered entries, duplicates allowed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Header {
    /// Entries in file order.
    pub entries: Vec<HeaderEntry>,
}

impl Header {
    /// The first value for `key`.
    pub fn get(&self, key: &HeaderKey) -> Option<&str> {
        self.entries
            .iter()
            .find(|e| &e.key == key)
            .map(|e| e.value.as_str())
    }

    /// Append an entry.
    pub fn push(&mut self, key: HeaderKey, value: impl Into<String>) {
        self.entries.push(HeaderEntry {
            key,
            value: value.into(),
        });
    }

    /// Black's (sente's / 下手's) name.
    pub fn black(&self) -> Option<&str> {
        self.get(&HeaderKey::Black)
    }

    /// White's (gote's / 上手's) name.
    pub fn white(&self) -> Option<&str> {
        self.get(&HeaderKey::White)
    }
}

fn ser_variant<S: Serializer>(v: &Variant, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(v.name())
}

fn ser_handicap<S: Serializer>(h: &Option<Handicap>, s: S) -> Result<S::Ok, S::Error> {
    match h {
        Some(h) => s.serialize_some(h.japanese()),
        None => s.serialize_none(),
    }
}

fn de_variant<'de, D: Deserializer<'de>>(d: D) -> Result<Variant, D::Error> {
    let name = String::deserialize(d)?;
    [Variant::Standard, Variant::Mini]
        .into_iter()
        .find(|v| v.name() == name)
        .ok_or_else(|| serde::de::Error::custom(format!("unknown variant {name:?}")))
}

fn de_handicap<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Handicap>, D::Error> {
    let Some(name) = Option::<String>::deserialize(d)? else {
        return Ok(None);
    };
    Handicap::ALL
        .into_iter()
        .find(|h| h.japanese() == name)
        .map(Some)
        .ok_or_else(|| serde::de::Error::custom(format!("unknown handicap {name:?}")))
}

fn de_move<'de, D: Deserializer<'de>>(d: D) -> Result<Move, D::Error> {
    let usi = String::deserialize(d)?;
    Move::from_usi(&usi).map_err(|e| serde::de::Error::custom(format!("move {usi:?}: {e}")))
}

fn de_opt_color<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Color>, D::Error> {
    match Option::<String>::deserialize(d)?.as_deref() {
        None => Ok(None),
        Some("black") => Ok(Some(Color::Black)),
        Some("white") => Ok(Some(Color::White)),
        Some(other) => Err(serde::de::Error::custom(format!(
            "unknown colour {other:?}"
        ))),
    }
}

/// A foul as the message of the rule it breaks.
mod foul_message {
    use serde::{Deserialize, Deserializer, Serializer};
    use shogi_core::PlayError;

    /// Every rule a move can break, for reading a foul back from its message.
    pub(super) const PLAY_ERRORS: [PlayError; 16] = [
        PlayError::OffBoard,
        PlayError::NoPiece,
        PlayError::NotYourPiece,
        PlayError::OwnPieceOnTarget,
        PlayError::CannotMoveThere,
        PlayError::PathBlocked,
        PlayError::LeavesKingInCheck,
        PlayError::Nifu,
        PlayError::PawnDropMate,
        PlayError::DeadPiece,
        PlayError::NotInHand,
        PlayError::DropOnOccupied,
        PlayError::NotDroppable,
        PlayError::PromotionNotAllowed,
        PlayError::PromotionRequired,
        PlayError::GameOver,
    ];

    pub(super) fn serialize<S: Serializer>(f: &Option<PlayError>, s: S) -> Result<S::Ok, S::Error> {
        match f {
            Some(e) => s.serialize_some(e.message()),
            None => s.serialize_none(),
        }
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<PlayError>, D::Error> {
        let Some(message) = Option::<String>::deserialize(d)? else {
            return Ok(None);
        };
        PLAY_ERRORS
            .into_iter()
            .find(|e| e.message() == message)
            .map(Some)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown foul {message:?}")))
    }
}

fn ser_move<S: Serializer>(m: &Move, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&m.to_usi())
}

/// The start of a record: a playable position (parsed once, when the record is read or
/// deserialised), its SFEN text, and the handicap preset or 手合割 name it was given by.
///
/// It serialises as `variant`, `handicap`, `name` and `sfen` (hands in R B G S N L P order);
/// deserialising parses the SFEN and refuses one that is not a playable position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "StartForm", try_from = "StartForm")]
pub struct Start {
    /// The handicap preset whose position this is (平手 for the usual start), if any.
    pub handicap: Option<Handicap>,
    /// A 手合割 name that is not one of the presets (詰将棋, その他, …), as written.
    pub name: Option<String>,
    /// The position and its SFEN, shared: a record moves from stage to stage of a batch
    /// several times, and the even start is one value for every record that has it (a
    /// position inline was two thirds of a record's size, and each record wrote or copied
    /// its SFEN).
    fixed: Arc<StartPosition>,
}

/// What a [`Start`] shares between its copies.
#[derive(Debug, PartialEq, Eq)]
struct StartPosition {
    position: Position,
    sfen: String,
}

impl StartPosition {
    fn new(position: Position) -> Arc<StartPosition> {
        Arc::new(StartPosition {
            sfen: position.to_sfen(),
            position,
        })
    }
}

impl Start {
    /// A start in `position`, given by the preset `handicap` or the 手合割 `name`, if any.
    pub fn new(position: Position, handicap: Option<Handicap>, name: Option<String>) -> Start {
        Start {
            handicap,
            name,
            fixed: StartPosition::new(position),
        }
    }

    /// A start in `position`, with the handicap preset it is (standard shogi only), if any.
    pub fn of(position: Position, name: Option<String>) -> Start {
        let fixed = StartPosition::new(position);
        let handicap = if fixed.position.variant() == Variant::Standard {
            Handicap::from_sfen(&fixed.sfen)
        } else {
            None
        };
        Start {
            handicap,
            name,
            fixed,
        }
    }

    /// The usual even-game start.
    pub fn even() -> Start {
        // Made once: most records start here, and their starts share it.
        static EVEN: std::sync::OnceLock<Start> = std::sync::OnceLock::new();
        EVEN.get_or_init(|| {
            Start::new(
                Position::startpos(Variant::Standard),
                Some(Handicap::Even),
                None,
            )
        })
        .clone()
    }

    /// Standard shogi or Mini Shogi.
    pub fn variant(&self) -> Variant {
        self.fixed.position.variant()
    }

    /// The start position (tsume and puzzle relaxations applied when needed).
    pub fn position(&self) -> &Position {
        &self.fixed.position
    }

    /// The start position as SFEN, with its move number (canonical: hands in R B G S N L P
    /// order).
    pub fn sfen(&self) -> &str {
        &self.fixed.sfen
    }
}

/// [`Start`]'s serialised form.
#[derive(Clone, Serialize, Deserialize)]
struct StartForm {
    #[serde(serialize_with = "ser_variant", deserialize_with = "de_variant")]
    variant: Variant,
    #[serde(serialize_with = "ser_handicap", deserialize_with = "de_handicap")]
    handicap: Option<Handicap>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    sfen: String,
}

impl From<Start> for StartForm {
    fn from(s: Start) -> StartForm {
        StartForm {
            variant: s.variant(),
            handicap: s.handicap,
            name: s.name,
            sfen: s.fixed.sfen.clone(),
        }
    }
}

impl TryFrom<StartForm> for Start {
    type Error = String;

    fn try_from(f: StartForm) -> Result<Start, String> {
        let setup = Setup::from_sfen(&f.sfen).map_err(|e| format!("start {:?}: {e}", f.sfen))?;
        let (position, _) =
            Position::from_setup_relaxed(setup).map_err(|e| format!("start {:?}: {e}", f.sfen))?;
        if position.variant() != f.variant {
            return Err(format!(
                "start {:?} is a {} position, not {}",
                f.sfen,
                position.variant().name(),
                f.variant.name()
            ));
        }
        Ok(Start {
            handicap: f.handicap,
            name: f.name,
            fixed: StartPosition::new(position),
        })
    }
}

/// Time spent on a move, and the mover's running total, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveTime {
    /// Time spent on this move.
    pub spent_ms: Option<u64>,
    /// Total time used by the mover so far (KIF writes it; CSA does not).
    pub total_ms: Option<u64>,
}

/// A move of the tree, with what is attached to it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveNode {
    /// The move (serialised as USI).
    #[serde(
        serialize_with = "ser_move",
        deserialize_with = "de_move",
        rename = "move"
    )]
    pub mv: Move,
    /// Time, when recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<MoveTime>,
    /// Comment lines after the move.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub comments: Vec<String>,
    /// Bookmarks (しおり) on the move.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bookmarks: Vec<String>,
    /// Alternatives to this move: each line's first move replaces this one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variations: Vec<Line>,
    /// For a recorded illegal move that the record declares as a foul: the rule it breaks
    /// (二歩 is [`PlayError::Nifu`], 打ち歩詰め [`PlayError::PawnDropMate`], …), serialised
    /// as its message. The position is not advanced past it.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "foul_message"
    )]
    pub foul: Option<PlayError>,
    /// Source line (1-based; 0 when the record was built in code). Not serialised (0 when
    /// deserialised; see [`Record::source_lines`]).
    #[serde(skip)]
    pub source_line: u32,
}

impl MoveNode {
    /// A bare node for `mv`.
    pub fn new(mv: Move) -> MoveNode {
        MoveNode {
            mv,
            time: None,
            comments: Vec::new(),
            bookmarks: Vec::new(),
            variations: Vec::new(),
            foul: None,
            source_line: 0,
        }
    }
}

/// The terminal statement of a line, with what is attached to it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ending {
    /// What happened.
    pub kind: EndingKind,
    /// For CSA `%±ILLEGAL_ACTION`: the side that acted illegally, when written.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "ser_opt_color",
        deserialize_with = "de_opt_color"
    )]
    pub offender: Option<Color>,
    /// Time, when recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<MoveTime>,
    /// Comment lines after it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub comments: Vec<String>,
    /// Bookmarks on it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bookmarks: Vec<String>,
    /// Alternatives to the ending (lines that continue instead).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variations: Vec<Line>,
    /// Source line (0 when unknown). Not serialised, like [`MoveNode::source_line`].
    #[serde(skip)]
    pub source_line: u32,
}

fn ser_opt_color<S: Serializer>(c: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
    match c {
        Some(Color::Black) => s.serialize_some("black"),
        Some(Color::White) => s.serialize_some("white"),
        None => s.serialize_none(),
    }
}

impl Ending {
    /// A bare ending.
    pub fn new(kind: EndingKind) -> Ending {
        Ending {
            kind,
            offender: None,
            time: None,
            comments: Vec::new(),
            bookmarks: Vec::new(),
            variations: Vec::new(),
            source_line: 0,
        }
    }
}

/// A line of play: moves and how it ends.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    /// The moves.
    pub moves: Vec<MoveNode>,
    /// The ending, if the line states one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ending: Option<Ending>,
}

/// A game record.
///
/// It serialises (serde) to a tree of its header, start, moves, endings, times, comments and
/// diagnostics, and deserialises from that form back to an equal record, except for what the
/// form leaves out: source lines (see [`Record::source_lines`]) and a header key kept as
/// [`HeaderKey::Other`] under a known key's name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// Header entries in order.
    pub header: Header,
    /// Start position.
    pub start: Start,
    /// Comments on the start position.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub start_comments: Vec<String>,
    /// Bookmarks on the start position.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub start_bookmarks: Vec<String>,
    /// The main line, with variations inside.
    pub moves: Line,
    /// Warnings found while reading (unknown lines kept out, contradictions, …).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub diagnostics: Vec<Diagnostic>,
}

impl Default for Record {
    fn default() -> Record {
        Record {
            header: Header::default(),
            start: Start::even(),
            start_comments: Vec::new(),
            start_bookmarks: Vec::new(),
            moves: Line::default(),
            diagnostics: Vec::new(),
        }
    }
}

impl Record {
    /// The moves of the main line.
    pub fn main_line(&self) -> impl Iterator<Item = &MoveNode> {
        self.moves.moves.iter()
    }

    /// The ending of the main line.
    pub fn ending(&self) -> Option<&Ending> {
        self.moves.ending.as_ref()
    }

    /// The start position.
    pub fn start_position(&self) -> &Position {
        self.start.position()
    }

    /// The position after `ply` main-line moves (0 = start). `None` past the end, or at a
    /// foul move (which cannot be played).
    pub fn position_at(&self, ply: usize) -> Option<Position> {
        let mut pos = self.start_position().clone();
        for node in self.moves.moves.iter().take(ply) {
            if node.foul.is_some() {
                return None;
            }
            pos.play(node.mv).ok()?;
        }
        (ply <= self.moves.moves.len()).then_some(pos)
    }

    /// The position after the last legal main-line move (a declared foul move is not applied).
    pub fn final_position(&self) -> Option<Position> {
        let legal = self
            .moves
            .moves
            .iter()
            .take_while(|n| n.foul.is_none())
            .count();
        self.position_at(legal)
    }

    /// The arrangement after every main-line move, a declared foul move included (applied
    /// mechanically: the piece moves, a captured piece goes to the mover's hand).
    pub fn final_setup(&self) -> Option<Setup> {
        let pos = self.final_position()?;
        let mut setup = pos.to_setup();
        for node in self.moves.moves.iter().skip_while(|n| n.foul.is_none()) {
            apply_mechanically(&mut setup, node.mv);
        }
        Some(setup)
    }

    /// The source line of every move and ending of the tree, in order (each move, then its
    /// variations, and a line's ending after its moves): what the serialised form leaves
    /// out, for [`Record::set_source_lines`] to put back.
    pub fn source_lines(&self) -> Vec<u32> {
        fn walk(line: &Line, out: &mut Vec<u32>) {
            for node in &line.moves {
                out.push(node.source_line);
                node.variations.iter().for_each(|v| walk(v, out));
            }
            if let Some(e) = &line.ending {
                out.push(e.source_line);
                e.variations.iter().for_each(|v| walk(v, out));
            }
        }
        let mut out = Vec::new();
        walk(&self.moves, &mut out);
        out
    }

    /// Puts back the source lines of [`Record::source_lines`]; `false` (and the lines left
    /// as they were from the first one missing) when there are fewer or more than the tree
    /// has places for.
    pub fn set_source_lines(&mut self, lines: &[u32]) -> bool {
        fn walk(line: &mut Line, it: &mut std::slice::Iter<'_, u32>) -> bool {
            for node in &mut line.moves {
                let Some(&n) = it.next() else { return false };
                node.source_line = n;
                if !node.variations.iter_mut().all(|v| walk(v, it)) {
                    return false;
                }
            }
            if let Some(e) = &mut line.ending {
                let Some(&n) = it.next() else { return false };
                e.source_line = n;
                if !e.variations.iter_mut().all(|v| walk(v, it)) {
                    return false;
                }
            }
            true
        }
        let mut it = lines.iter();
        walk(&mut self.moves, &mut it) && it.next().is_none()
    }

    /// The main line as USI move strings.
    pub fn usi_moves(&self) -> Vec<String> {
        self.moves.moves.iter().map(|n| n.mv.to_usi()).collect()
    }
}

/// Apply a move to a setup without any rule check.
pub(crate) fn apply_mechanically(setup: &mut Setup, mv: Move) {
    let us = setup.side_to_move;
    match mv {
        Move::Normal { from, to, promote } => {
            let Some(p) = setup.piece_at(from) else {
                return;
            };
            if let Some(cap) = setup.piece_at(to) {
                let base = cap.role.unpromote();
                if base.is_hand_role() {
                    setup.hands[us.index()].add(base);
                }
            }
            setup.set_piece(from, None);
            let role = if promote {
                p.role.promote().unwrap_or(p.role)
            } else {
                p.role
            };
            setup.set_piece(to, Some(Piece::new(p.color, role)));
        }
        Move::Drop { role, to } => {
            setup.hands[us.index()].take(role);
            setup.set_piece(to, Some(Piece::new(us, role)));
        }
    }
    setup.side_to_move = !us;
    setup.move_number = setup.move_number.saturating_add(1);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A foul reads back from its message, every rule's message differing; a message no
    /// rule has is refused.
    #[test]
    fn fouls_round_trip_by_their_messages() {
        for e in foul_message::PLAY_ERRORS {
            let node = MoveNode {
                foul: Some(e),
                ..MoveNode::new(Move::from_usi("P*5e").unwrap())
            };
            let json = serde_json::to_string(&node).unwrap();
            assert!(
                json.contains(&format!("\"foul\":\"{}\"", e.message())),
                "{json}"
            );
            let back: MoveNode = serde_json::from_str(&json).unwrap();
            assert_eq!(back.foul, Some(e));
        }
        let mut messages: Vec<_> = foul_message::PLAY_ERRORS
            .iter()
            .map(|e| e.message())
            .collect();
        messages.sort();
        messages.dedup();
        assert_eq!(messages.len(), foul_message::PLAY_ERRORS.len());
        let bad = r#"{"move":"P*5e","foul":"no such rule"}"#;
        assert!(serde_json::from_str::<MoveNode>(bad).is_err());
    }

    /// A start is parsed once and serialises as before; an SFEN that is no position, or of
    /// another variant than the one named, does not deserialise.
    #[test]
    fn a_start_holds_its_position() {
        let even = Start::even();
        let json = serde_json::to_string(&even).unwrap();
        assert_eq!(
            json,
            format!(
                r#"{{"variant":"standard","handicap":"平手","sfen":"{}"}}"#,
                Variant::Standard.start_sfen()
            )
        );
        let back: Start = serde_json::from_str(&json).unwrap();
        assert_eq!(back, even);
        assert_eq!(back.position(), &Position::startpos(Variant::Standard));
        let bad = json.replace("lnsgkgsnl/", "lnsgkgsnl/9/");
        assert!(serde_json::from_str::<Start>(&bad).is_err());
        let mini = json.replace("\"standard\"", "\"mini\"");
        assert!(serde_json::from_str::<Start>(&mini).is_err());
    }
}
