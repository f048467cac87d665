//! The opening and castle columns of a row (shogi-openings' recogniser over the main line),
//! and the selection's filters on them.

use super::GameRow;
use crate::read::InputRecord;
use shogi_core::Color;
use shogi_kif::{HeaderKey, Record};
use shogi_openings::{
    GameClass, GameTags, Kind, RuleSet, SideClass, TagHit, TagId, recognise, recognise_legal,
};

/// The columns `--tags` adds, after the `moves` and `missed_mate_*` ones.
pub const TAG_COLUMNS: &[&str] = &[
    "opening",
    "game_class",
    "sente_class",
    "gote_class",
    "sente_openings",
    "gote_openings",
    "sente_castles",
    "gote_castles",
    "opening_header",
];

/// The tags of a record's main line (up to its first illegal move or foul), or `None` where
/// the taxonomy does not apply (Mini Shogi, handicaps other than the lance ones, other
/// starts) or the start cannot be played from.
pub fn game_tags(record: &Record, rules: &RuleSet) -> Option<GameTags> {
    let moves = record
        .main_line()
        .take_while(|n| n.foul.is_none())
        .map(|n| n.mv);
    recognise(rules, record.start_position(), moves)
}

/// [`game_tags`] of a game read: its main line as the reader replayed it, not checked again.
fn read_game_tags(game: &InputRecord, rules: &RuleSet) -> Option<GameTags> {
    let record = game.record.as_ref().filter(|_| game.panic.is_none())?;
    let main = game.main_line()?;
    let moves = record.main_line().take(main.played()).map(|n| n.mv);
    recognise_legal(rules, record.start_position(), moves)
}

/// The game's main 戦型 as the `opening` column and a `戦型` header give it: the tag's name,
/// `力戦` where no opening formed, none where openings formed but none names a 戦型.
pub fn main_name<'r>(tags: &GameTags, rules: &'r RuleSet) -> Option<&'r str> {
    match tags.main {
        Some(m) => Some(rules.name(m)),
        None => (tags.class == GameClass::Unclassified).then(|| GameClass::Unclassified.japanese()),
    }
}

/// A tag line the record already had, kept instead of ours ([`add_tag_headers`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeptHeader {
    /// The key, as a KIF header writes it (`戦型`, `先手の囲い`, ...).
    pub key: String,
    /// The record's own value, kept.
    pub theirs: String,
    /// What we would have written.
    pub ours: String,
}

/// Writes a game's tags into its header, as the fact sheet's §3 describes the KIF/KI2 keys:
/// `戦型` (the main 戦型, or 力戦; CSA `$OPENING`), then `先手の戦型`, `先手の囲い`,
/// `後手の戦型`, `後手の囲い` (下手/上手 in a lance handicap; names in the order they formed,
/// joined by `, `; a side with none gets no line). A key the record already has is never
/// overwritten: the record's own line stays, and the ones that differ from ours are returned.
pub fn add_tag_headers(record: &mut Record, tags: &GameTags, rules: &RuleSet) -> Vec<KeptHeader> {
    let handicap = shogi_core::Handicap::from_sfen(&record.start_position().to_sfen())
        .is_some_and(|h| h != shogi_core::Handicap::Even);
    let (sente, gote) = if handicap {
        ("下手", "上手")
    } else {
        ("先手", "後手")
    };
    let join = |hits: &[TagHit]| {
        hits.iter()
            .map(|h| rules.name(h.tag))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut lines: Vec<(HeaderKey, String)> = main_name(tags, rules)
        .map(|m| (HeaderKey::Opening, m.to_string()))
        .into_iter()
        .collect();
    for (who, side) in [(sente, &tags.sente), (gote, &tags.gote)] {
        for (kind, hits) in [("戦型", &side.openings), ("囲い", &side.castles)] {
            if !hits.is_empty() {
                lines.push((HeaderKey::Other(format!("{who}の{kind}")), join(hits)));
            }
        }
    }
    let mut kept = Vec::new();
    for (key, ours) in lines {
        match record.header.get(&key) {
            Some(theirs) => {
                if theirs.trim() != ours {
                    kept.push(KeptHeader {
                        key: key.kif().to_string(),
                        theirs: theirs.trim().to_string(),
                        ours,
                    });
                }
            }
            None => record.header.push(key, ours),
        }
    }
    kept
}

/// The side a tag filter looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TagSide {
    /// Sente's tags.
    Sente,
    /// Gote's tags.
    Gote,
    /// Either side's (the default).
    #[default]
    Either,
}

impl TagSide {
    fn colors(self) -> &'static [Color] {
        match self {
            TagSide::Sente => &[Color::Black],
            TagSide::Gote => &[Color::White],
            TagSide::Either => &[Color::Black, Color::White],
        }
    }
}

/// What a tag filter asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TagWant {
    /// An opening (`--opening`) or castle (`--castle`) of this tag or a descendant of it (a
    /// class given to `--opening` keeps games with an opening of that class).
    Tag(TagId, Kind),
    /// A side of this class (`--class 居飛車`).
    Side(SideClass),
    /// A game of this class (`--class 対抗形`; the side does not matter).
    Game(GameClass),
}

/// One filter on the tags: what, on which side, in which rule set.
#[derive(Clone, Copy, Debug)]
pub struct TagFilter {
    /// The rules the tag ids belong to.
    pub rules: &'static RuleSet,
    /// What is wanted.
    pub want: TagWant,
    /// Whose tags.
    pub side: TagSide,
}

impl TagFilter {
    /// Whether a game with these tags is kept (a game without tags never is).
    pub fn keeps(&self, tags: Option<&GameTags>) -> bool {
        let Some(t) = tags else {
            return false;
        };
        match self.want {
            TagWant::Game(c) => t.class == c,
            TagWant::Side(c) => self.side.colors().iter().any(|&s| t.side(s).class == c),
            TagWant::Tag(id, kind) => self
                .side
                .colors()
                .iter()
                .any(|&s| t.has(self.rules, s, id, Some(kind))),
        }
    }
}

impl<'a, S: From<&'a str> + From<String>> GameRow<S> {
    /// Recognises the game's openings and castles with `rules` (kept typed in
    /// [`GameRow::tags`] for the selection) and, with `columns`, fills the [`TAG_COLUMNS`]:
    /// empty where the taxonomy does not apply or the game could not be read. The names are
    /// the rules' own (a row of borrowed text copies none of them).
    pub fn set_tags(&mut self, game: &'a InputRecord, rules: &'static RuleSet, columns: bool) {
        let record = game.record.as_ref().filter(|_| game.panic.is_none());
        self.tags = read_game_tags(game, rules);
        if !columns {
            return;
        }
        let name = |s: &'static str| S::from(s as &'a str);
        let names = |hits: &[TagHit]| hits.iter().map(|h| name(rules.name(h.tag))).collect();
        let t = self.tags.as_ref();
        self.opening = Some(t.and_then(|t| main_name(t, rules).map(name)));
        self.game_class = Some(t.map(|t| name(t.class.japanese())));
        self.sente_class = Some(t.map(|t| name(t.sente.class.japanese())));
        self.gote_class = Some(t.map(|t| name(t.gote.class.japanese())));
        self.sente_openings = Some(t.map_or_else(Vec::new, |t| names(&t.sente.openings)));
        self.gote_openings = Some(t.map_or_else(Vec::new, |t| names(&t.gote.openings)));
        self.sente_castles = Some(t.map_or_else(Vec::new, |t| names(&t.sente.castles)));
        self.gote_castles = Some(t.map_or_else(Vec::new, |t| names(&t.gote.castles)));
        let header = record
            .and_then(|r| r.header.get(&HeaderKey::Opening))
            .map(str::trim)
            .filter(|v| !v.is_empty());
        self.opening_header = Some(header.map(S::from));
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::read_one;
    use super::*;

    #[test]
    fn columns_and_filters() {
        let rules = RuleSet::builtin();
        let game = read_one(
            "戦型：四間飛車\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ６八飛(28)\n   4 投了\n",
        );
        let mut row: GameRow = GameRow::new("t", &game);
        row.set_tags(&game, rules, true);
        assert_eq!(row.opening.clone().flatten().as_deref(), Some("四間飛車"));
        assert_eq!(
            row.sente_openings.as_deref(),
            Some(&["四間飛車".to_string()][..])
        );
        assert_eq!(row.gote_openings.as_deref(), Some(&[][..]));
        assert_eq!(row.game_class.clone().flatten().as_deref(), Some("対抗形"));
        assert_eq!(
            row.opening_header.clone().flatten().as_deref(),
            Some("四間飛車")
        );
        let mut csv = Vec::new();
        row.write_csv(&mut csv);
        let csv = String::from_utf8(csv).unwrap();
        assert!(
            csv.ends_with(",四間飛車,対抗形,振り飛車,居飛車,四間飛車,,,,四間飛車\n"),
            "{csv}"
        );
        let json = serde_json::to_string(&row).unwrap();
        assert!(
            json.contains(r#""sente_openings":["四間飛車"],"gote_openings":[]"#),
            "{json}"
        );
        assert!(!json.contains("\"tags\""));
        let f = |want, side| TagFilter { rules, want, side }.keeps(row.tags.as_ref());
        let furi = rules.find("振り飛車", None)[0];
        let shiken = rules.find("四間飛車", None)[0];
        assert!(f(TagWant::Tag(furi, Kind::Opening), TagSide::Either));
        assert!(f(TagWant::Tag(shiken, Kind::Opening), TagSide::Sente));
        assert!(!f(TagWant::Tag(shiken, Kind::Opening), TagSide::Gote));
        assert!(f(TagWant::Side(SideClass::StaticRook), TagSide::Gote));
        assert!(f(TagWant::Game(GameClass::StaticVsRanging), TagSide::Gote));
        assert!(!f(
            TagWant::Game(GameClass::DoubleRangingRook),
            TagSide::Either
        ));
        // Handicaps the taxonomy does not cover: empty columns, no game kept.
        let game = read_one("手合割：二枚落ち\n   1 ６二銀(71)\n   2 投了\n");
        let mut row: GameRow = GameRow::new("t", &game);
        row.set_tags(&game, rules, true);
        assert_eq!((row.tags.as_ref(), row.opening.clone()), (None, Some(None)));
        assert_eq!(row.sente_openings, Some(Vec::new()));
        assert!(
            !TagFilter {
                rules,
                want: TagWant::Side(SideClass::StaticRook),
                side: TagSide::Either
            }
            .keeps(row.tags.as_ref())
        );
    }
}
