//! Replay: resolve every written move against the position and check it with shogi-core.

use crate::ending::EndingKind;
use crate::error::{Diagnostic, ErrorKind, Location, ReadError, Severity};
use crate::model::*;
use crate::raw::{
    self, Item, JaMove, Kind, Motion, RawBoard, RawMove, RawRecord, RawStart, Relative, Side,
};
use shogi_core::{
    Color, Handicap, Move, Piece, Position, Role, Setup, SetupError, SetupOptions, Square, Variant,
};

pub(crate) fn role(k: Kind) -> Role {
    match k {
        Kind::Pawn => Role::Pawn,
        Kind::Lance => Role::Lance,
        Kind::Knight => Role::Knight,
        Kind::Silver => Role::Silver,
        Kind::Gold => Role::Gold,
        Kind::Bishop => Role::Bishop,
        Kind::Rook => Role::Rook,
        Kind::King => Role::King,
        Kind::Tokin => Role::Tokin,
        Kind::PromotedLance => Role::PromotedLance,
        Kind::PromotedKnight => Role::PromotedKnight,
        Kind::PromotedSilver => Role::PromotedSilver,
        Kind::Horse => Role::Horse,
        Kind::Dragon => Role::Dragon,
    }
}

pub(crate) fn color(s: Side) -> Color {
    match s {
        Side::Black => Color::Black,
        Side::White => Color::White,
    }
}

/// Names of Mini Shogi in 手合割.
pub(crate) fn is_mini_name(name: &str) -> bool {
    matches!(
        name,
        "5五将棋" | "５五将棋" | "五々将棋" | "5五將棋" | "ミニ将棋"
    )
}

struct Replayer<'a> {
    src: &'a str,
    raw: &'a RawRecord,
    diagnostics: Vec<Diagnostic>,
}

/// What validation needs from the main line, gathered while it is replayed (so that
/// [`crate::validate`]'s checks need not replay and check every move again).
#[derive(Clone, Debug)]
pub(crate) struct MainLine {
    /// The start position.
    pub start: Position,
    /// The Zobrist key after each main-line move up to (not including) a declared foul.
    pub keys: Vec<u64>,
    /// The position after the last of those moves.
    pub last: Position,
}

/// The number of nodes along the first-child chain from the root (the main line's length,
/// its ending included): the capacity to reserve for it.
fn main_line_len(raw: &RawRecord) -> usize {
    let mut n = 0;
    let mut p = 0u32;
    while let Some(&c) = raw
        .nodes
        .get(p as usize)
        .and_then(|node| node.children.first())
    {
        n += 1;
        p = c;
    }
    n
}

/// Turn a raw record into a checked record; with `facts`, also what validation needs
/// from its main line.
pub(crate) fn replay_main(
    raw: RawRecord,
    src: &str,
    facts: bool,
) -> Result<(Record, Option<MainLine>), ReadError> {
    let mut start_notes = Vec::new();
    let (start, pos) = resolve_start(&raw, src, &mut start_notes)?;
    let mut header = Header::default();
    for (k, v) in &raw.header {
        let key = if k.starts_with('$') || k == "N+" || k == "N-" {
            HeaderKey::from_csa(k)
        } else if k == "V" {
            continue;
        } else {
            HeaderKey::from_kif(k)
        };
        header.push(key, v.clone());
    }
    let mut r = Replayer {
        src,
        raw: &raw,
        diagnostics: Vec::new(),
    };
    let reserve = main_line_len(&raw);
    let mut main = facts.then(|| MainLine {
        start: pos.clone(),
        keys: Vec::with_capacity(reserve),
        last: pos.clone(),
    });
    let (mut line, err) = r.walk(0, 0, pos.clone(), None, 1, main.as_mut(), reserve);
    if let Some(e) = err {
        return Err(e);
    }
    r.apply_closing(&mut line, &pos);
    let mut diagnostics = raw.diagnostics.clone();
    diagnostics.append(&mut start_notes);
    diagnostics.append(&mut r.diagnostics);
    let root = &raw.nodes[0];
    let record = Record {
        header,
        start,
        start_comments: root.comments.clone(),
        start_bookmarks: root.bookmarks.clone(),
        moves: line,
        diagnostics,
    };
    Ok((record, main))
}

/// The even-game start position (parsed once).
fn even_position() -> Position {
    static EVEN: std::sync::OnceLock<Position> = std::sync::OnceLock::new();
    EVEN.get_or_init(|| Position::startpos(Variant::Standard))
        .clone()
}

fn setup_from_board(b: &RawBoard, variant: Variant) -> Setup {
    let mut setup = Setup::empty(variant);
    for (r, row) in b.cells.iter().enumerate() {
        for (f, cell) in row.iter().enumerate() {
            if let (Some((side, kind)), Some(sq)) = (cell, Square::new(f as u8 + 1, r as u8 + 1)) {
                setup.set_piece(sq, Some(Piece::new(color(*side), role(*kind))));
            }
        }
    }
    for (i, hand) in b.hands.iter().enumerate() {
        for (j, &n) in hand.iter().enumerate() {
            setup.hands[i].set(role(Kind::HAND[j]), n);
        }
    }
    setup.side_to_move = b.side_to_move.map_or(Color::Black, color);
    if let Some(n) = b.move_number {
        setup.move_number = n.max(1);
    }
    setup
}

fn named_start(name: &str) -> Option<(Variant, Option<Handicap>, String)> {
    if is_mini_name(name) {
        return Some((Variant::Mini, None, Variant::Mini.start_sfen().to_string()));
    }
    if let Some(code) = name.strip_prefix("JKF:") {
        let h = Handicap::from_jkf(code)?;
        return h
            .sfen()
            .map(|s| (Variant::Standard, Some(h), s.to_string()));
    }
    let h = Handicap::from_japanese(name)?;
    h.sfen()
        .map(|s| (Variant::Standard, Some(h), s.to_string()))
}

fn position_error(src: &str, loc: Location, msg: String) -> ReadError {
    ReadError::at(ErrorKind::Position, msg, src, loc)
}

/// A playable position from `setup`: by the rules first, then with the tsume relaxations
/// (missing king, extra pieces), then as a puzzle diagram (nifu and dead pieces too). The
/// second value names the rules a puzzle diagram breaks, for a warning.
pub(crate) fn relaxed_position(setup: Setup) -> Result<(Position, Option<SetupError>), SetupError> {
    if let Ok(p) = Position::from_setup(setup.clone(), SetupOptions::default()) {
        return Ok((p, None));
    }
    match Position::from_setup(setup.clone(), SetupOptions::TSUME) {
        Ok(p) => Ok((p, None)),
        Err(broken) => {
            Position::from_setup(setup, SetupOptions::PERMISSIVE).map(|p| (p, Some(broken)))
        }
    }
}

fn build_position(
    setup: Setup,
    src: &str,
    loc: Location,
    notes: &mut Vec<Diagnostic>,
) -> Result<Position, ReadError> {
    let (pos, broken) = relaxed_position(setup).map_err(|e| {
        position_error(src, loc, format!("the start position is not playable: {e}"))
    })?;
    if let Some(e) = broken {
        notes.push(Diagnostic::at(
            Severity::Warning,
            format!("the start position breaks the rules ({e}); read as a puzzle diagram"),
            src,
            loc,
        ));
    }
    Ok(pos)
}

fn resolve_start(
    raw: &RawRecord,
    src: &str,
    notes: &mut Vec<Diagnostic>,
) -> Result<(Start, Position), ReadError> {
    let (start, pos) = match &raw.start {
        RawStart::Default => (Start::even(), even_position()),
        RawStart::Named { name, loc } => {
            let mut clean = name.as_str();
            if let Some(i) = clean.find('#') {
                clean = crate::text::trim(&clean[..i]);
                notes.push(Diagnostic::at(
                    Severity::Warning,
                    format!(
                        "text after '#' in the 手合割 value ignored: {:?}",
                        &name[i..]
                    ),
                    src,
                    *loc,
                ));
            }
            if Handicap::from_japanese(clean) == Some(Handicap::Even) {
                // The usual case, without parsing and writing the SFEN again.
                return Ok((Start::even(), even_position()));
            }
            let (variant, handicap, sfen) = named_start(clean).ok_or_else(|| {
                position_error(
                    src,
                    *loc,
                    format!("unknown 手合割 {name:?} and no board diagram to say what it is"),
                )
            })?;
            let pos =
                Position::from_sfen(&sfen).map_err(|e| position_error(src, *loc, e.to_string()))?;
            let name = if handicap.is_none() && variant == Variant::Standard {
                Some(name.clone())
            } else {
                None
            };
            (
                Start {
                    variant,
                    handicap,
                    name,
                    sfen: pos.to_sfen(),
                },
                pos,
            )
        }
        RawStart::Board { board, name, loc } => {
            let named = name.as_deref().and_then(named_start);
            let variant = if board.size == 5 || named.as_ref().is_some_and(|n| n.0 == Variant::Mini)
            {
                Variant::Mini
            } else {
                Variant::Standard
            };
            let setup = if board.size == 0 {
                // Hands or turn given without a diagram: apply them to the named start.
                let base = named
                    .as_ref()
                    .map_or(variant.start_sfen().to_string(), |n| n.2.clone());
                let mut s = Setup::from_sfen(&base)
                    .map_err(|e| position_error(src, *loc, e.to_string()))?;
                if board.hands.iter().flatten().any(|&n| n > 0) {
                    for (i, hand) in board.hands.iter().enumerate() {
                        for (j, &n) in hand.iter().enumerate() {
                            s.hands[i].set(role(Kind::HAND[j]), n);
                        }
                    }
                }
                if let Some(side) = board.side_to_move {
                    s.side_to_move = color(side);
                }
                s
            } else {
                let mut s = setup_from_board(board, variant);
                if board.side_to_move.is_none() {
                    // A handicap diagram without a turn line: 上手 (white) moves first.
                    s.side_to_move = Color::White;
                    let w = Handicap::from_sfen(&s.to_sfen()).filter(|h| *h != Handicap::Even);
                    if w.is_none() {
                        s.side_to_move = Color::Black;
                    }
                }
                s
            };
            let pos = build_position(setup, src, *loc, notes)?;
            let sfen = pos.to_sfen();
            let handicap = if variant == Variant::Standard {
                Handicap::from_sfen(&sfen)
            } else {
                None
            };
            let keep_name = name
                .as_ref()
                .filter(|n| !n.starts_with("PI") && named_start(n).is_none() && !is_mini_name(n));
            (
                Start {
                    variant,
                    handicap,
                    name: keep_name.cloned(),
                    sfen,
                },
                pos,
            )
        }
        RawStart::Sfen { sfen, loc } => {
            let setup = Setup::from_sfen(sfen)
                .map_err(|e| position_error(src, *loc, format!("bad SFEN: {e}")))?;
            let pos = build_position(setup, src, *loc, notes)?;
            let variant = pos.variant();
            let s = pos.to_sfen();
            let handicap = if variant == Variant::Standard {
                Handicap::from_sfen(&s)
            } else {
                None
            };
            (
                Start {
                    variant,
                    handicap,
                    name: None,
                    sfen: s,
                },
                pos,
            )
        }
    };
    Ok((start, pos))
}

/// Whether `sq` is on the board of `pos`: every square is on the standard board.
#[inline(always)]
fn on_board(pos: &Position, sq: Square) -> bool {
    pos.variant() == Variant::Standard || pos.variant().contains(sq)
}

fn time(t: Option<raw::RawTime>) -> Option<MoveTime> {
    t.map(|t| MoveTime {
        spent_ms: t.spent_ms,
        total_ms: t.total_ms,
    })
}

impl<'a> Replayer<'a> {
    fn written(&self, n: &raw::Node) -> String {
        self.src
            .get(n.written.0..n.written.1)
            .unwrap_or("")
            .to_string()
    }

    fn move_error(&self, idx: u32, ply: u32, kind: ErrorKind, msg: String) -> ReadError {
        let n = &self.raw.nodes[idx as usize];
        let written = self.written(n);
        let full = if written.is_empty() {
            format!("move {ply}: {msg}")
        } else {
            format!("move {ply} {written}: {msg}")
        };
        ReadError::at(kind, full, self.src, n.loc)
            .with_ply(ply, (!written.is_empty()).then_some(written))
    }

    /// Walk from child `k` of `parent`. Returns the line read and, if it stopped on an
    /// error, the error (the line then holds the moves before it).
    ///
    /// With `main`, the walk is the main line's: the key after each move and the last
    /// position are kept there. `reserve` is the room to make for the moves.
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &mut self,
        parent: u32,
        k: usize,
        mut pos: Position,
        mut prev_to: Option<Square>,
        mut ply: u32,
        mut main: Option<&mut MainLine>,
        reserve: usize,
    ) -> (Line, Option<ReadError>) {
        let mut line = Line::default();
        line.moves.reserve(reserve);
        let mut p = parent;
        let mut k = k;
        // The raw record outlives `self`'s borrows: its nodes can be read while walking.
        let raw = self.raw;
        loop {
            let children = &raw.nodes[p as usize].children;
            let Some(&c) = children.get(k) else { break };
            let alts: &[u32] = if k == 0 { children.alternatives() } else { &[] };
            let mut variations = Vec::new();
            for (i, _) in alts.iter().enumerate() {
                let (vline, verr) = self.walk(p, i + 1, pos.clone(), prev_to, ply, None, 0);
                if let Some(e) = verr {
                    let mut d: Diagnostic = e.into();
                    d.severity = Severity::Warning;
                    d.message = format!("variation cut short: {}", d.message);
                    self.diagnostics.push(d);
                }
                if !vline.moves.is_empty() || vline.ending.is_some() {
                    variations.push(vline);
                }
            }
            let node = &self.raw.nodes[c as usize];
            match &node.item {
                Item::Root => break,
                Item::End(end) => {
                    let (kind, offender) =
                        normalise_foul(&end.kind, end.offender.map(color), pos.side_to_move());
                    line.ending = Some(Ending {
                        kind,
                        offender,
                        time: time(node.time),
                        comments: node.comments.clone(),
                        bookmarks: node.bookmarks.clone(),
                        variations,
                        source_line: node.loc.line,
                    });
                    break;
                }
                Item::Move(rm) => {
                    let resolved = self.resolve(rm, &pos, prev_to);
                    let mv = match resolved {
                        Ok(m) => m,
                        Err((kind, msg)) => {
                            return (line, Some(self.move_error(c, ply, kind, msg)));
                        }
                    };
                    let mut foul = None;
                    if let Err(e) = pos.play(mv) {
                        // A recorded foul that the record declares: keep it and stop.
                        let next = self.raw.nodes[c as usize]
                            .children
                            .first()
                            .map(|&n| &self.raw.nodes[n as usize].item);
                        let declared = match next {
                            Some(Item::End(end)) => end.kind.is_foul(),
                            Some(Item::Move(_)) => false,
                            _ => {
                                node.comments.iter().any(|c| c.contains("反則"))
                                    || self.closing_says_foul()
                            }
                        };
                        if !declared {
                            return (
                                line,
                                Some(self.move_error(
                                    c,
                                    ply,
                                    ErrorKind::IllegalMove,
                                    e.to_string(),
                                )),
                            );
                        }
                        foul = Some(e.to_string());
                    }
                    let is_foul = foul.is_some();
                    line.moves.push(MoveNode {
                        mv,
                        time: time(node.time),
                        comments: node.comments.clone(),
                        bookmarks: node.bookmarks.clone(),
                        variations,
                        foul,
                        source_line: node.loc.line,
                    });
                    if is_foul {
                        if let Some(&n) = self.raw.nodes[c as usize].children.first() {
                            let en = &self.raw.nodes[n as usize];
                            if let Item::End(end) = &en.item {
                                let (kind, offender) = normalise_foul(
                                    &end.kind,
                                    end.offender.map(color),
                                    !pos.side_to_move(),
                                );
                                line.ending = Some(Ending {
                                    kind,
                                    offender,
                                    time: time(en.time),
                                    comments: en.comments.clone(),
                                    bookmarks: en.bookmarks.clone(),
                                    variations: Vec::new(),
                                    source_line: en.loc.line,
                                });
                            }
                        }
                        if line.ending.is_none() && self.raw.closing.is_none() {
                            line.ending = Some(Ending::new(EndingKind::FoulWin));
                        }
                        if let Some(m) = main {
                            m.last = pos;
                        }
                        return (line, None);
                    }
                    if let Some(m) = main.as_deref_mut() {
                        m.keys.push(pos.key());
                    }
                    prev_to = Some(mv.to());
                    ply += 1;
                }
            }
            p = c;
            k = 0;
        }
        if let Some(m) = main {
            m.last = pos;
        }
        (line, None)
    }

    fn closing_says_foul(&self) -> bool {
        self.raw
            .closing
            .as_ref()
            .is_some_and(|c| c.text.contains("反則"))
    }

    /// Use the `まで…` line for the ending when no special move gave one; warn on conflicts.
    fn apply_closing(&mut self, line: &mut Line, start: &Position) {
        let Some(cl) = &self.raw.closing else { return };
        let n = line.moves.len() as u32;
        let stm = if n % 2 == 0 {
            start.side_to_move()
        } else {
            !start.side_to_move()
        };
        let kind = closing_kind(&cl.text, stm);
        if let Some(count) = cl.count {
            if count != n {
                self.diagnostics.push(Diagnostic::at(
                    Severity::Warning,
                    format!("the closing line counts {count} moves but the main line has {n}"),
                    self.src,
                    cl.loc,
                ));
            }
        }
        match (&line.ending, kind) {
            (None, Some(kind)) => {
                let mut e = Ending::new(kind);
                e.source_line = cl.loc.line;
                line.ending = Some(e);
            }
            (Some(e), Some(kind)) if e.kind != kind && !matches!(e.kind, EndingKind::Other(_)) => {
                self.diagnostics.push(Diagnostic::at(
                    Severity::Warning,
                    format!(
                        "the closing line says {} but the record's ending means {}",
                        cl.text,
                        ending_from_side(&e.kind, stm)
                    ),
                    self.src,
                    cl.loc,
                ));
            }
            (_, None) if !cl.text.is_empty() => {
                self.diagnostics.push(Diagnostic::at(
                    Severity::Warning,
                    "closing line result not understood",
                    self.src,
                    cl.loc,
                ));
            }
            _ => {}
        }
    }

    fn resolve(
        &self,
        rm: &RawMove,
        pos: &Position,
        prev_to: Option<Square>,
    ) -> Result<Move, (ErrorKind, String)> {
        let stm = pos.side_to_move();
        let sq = |s: (u8, u8)| -> Result<Square, (ErrorKind, String)> {
            square(s).filter(|q| on_board(pos, *q)).ok_or_else(|| {
                (
                    ErrorKind::NoSuchMove,
                    format!("square {}{} is off the board", s.0, s.1),
                )
            })
        };
        match rm {
            RawMove::Usi {
                from,
                to,
                promote,
                drop,
            } => {
                let to = sq(*to)?;
                match (from, drop) {
                    (_, Some(k)) => Ok(Move::Drop { role: role(*k), to }),
                    (Some(f), None) => Ok(Move::Normal {
                        from: sq(*f)?,
                        to,
                        promote: *promote,
                    }),
                    (None, None) => Err((ErrorKind::Syntax, "move without source".into())),
                }
            }
            RawMove::Csa {
                side,
                from,
                to,
                kind,
            } => {
                if color(*side) != stm {
                    return Err((
                        ErrorKind::IllegalMove,
                        format!(
                            "it is {}'s turn, not {}'s",
                            stm.japanese_en(),
                            color(*side).japanese_en()
                        ),
                    ));
                }
                let to = sq(*to)?;
                let Some(from) = from else {
                    return Ok(Move::Drop {
                        role: role(*kind),
                        to,
                    });
                };
                let from = sq(*from)?;
                let Some(p) = pos.piece_at(from) else {
                    return Err((
                        ErrorKind::NoSuchMove,
                        format!("there is no piece on {}", from.csa()),
                    ));
                };
                let r = role(*kind);
                if p.role == r {
                    Ok(Move::Normal {
                        from,
                        to,
                        promote: false,
                    })
                } else if p.role.promote() == Some(r) {
                    Ok(Move::Normal {
                        from,
                        to,
                        promote: true,
                    })
                } else {
                    Err((
                        ErrorKind::NoSuchMove,
                        format!(
                            "the piece on {} is {}, which cannot become {}",
                            from.csa(),
                            p.role.csa(),
                            r.csa()
                        ),
                    ))
                }
            }
            RawMove::Jkf {
                side,
                from,
                to,
                kind,
                promote,
            } => {
                if let Some(s) = side {
                    if color(*s) != stm {
                        return Err((
                            ErrorKind::IllegalMove,
                            format!("it is {}'s turn", stm.japanese_en()),
                        ));
                    }
                }
                let to = match to {
                    Some(t) => sq(*t)?,
                    None => prev_to.ok_or_else(|| {
                        (
                            ErrorKind::NoSuchMove,
                            "same-square move with no previous move".to_string(),
                        )
                    })?,
                };
                match from {
                    None => Ok(Move::Drop {
                        role: role(*kind),
                        to,
                    }),
                    Some(f) => Ok(Move::Normal {
                        from: sq(*f)?,
                        to,
                        promote: *promote == Some(true),
                    }),
                }
            }
            RawMove::Ja(m) => self.resolve_ja(m, pos, prev_to),
        }
    }

    fn resolve_ja(
        &self,
        m: &JaMove,
        pos: &Position,
        prev_to: Option<Square>,
    ) -> Result<Move, (ErrorKind, String)> {
        let stm = pos.side_to_move();
        if let Some(s) = m.side {
            if color(s) != stm {
                return Err((
                    ErrorKind::IllegalMove,
                    format!(
                        "the move is marked for {} but it is {}'s turn",
                        color(s).japanese_en(),
                        stm.japanese_en()
                    ),
                ));
            }
        }
        let to = match m.to {
            Some(t) => square(t).filter(|q| on_board(pos, *q)).ok_or_else(|| {
                (
                    ErrorKind::NoSuchMove,
                    "destination is off the board".to_string(),
                )
            })?,
            None => prev_to.ok_or_else(|| {
                (
                    ErrorKind::NoSuchMove,
                    "同 (same square) with no previous move".to_string(),
                )
            })?,
        };
        let r = role(m.kind);
        if let Some(f) = m.from {
            let from = square(f).filter(|q| on_board(pos, *q)).ok_or_else(|| {
                (
                    ErrorKind::NoSuchMove,
                    "source square is off the board".to_string(),
                )
            })?;
            let Some(p) = pos.piece_at(from) else {
                return Err((
                    ErrorKind::NoSuchMove,
                    format!("there is no piece on {}", from.csa()),
                ));
            };
            if p.role != r {
                return Err((
                    ErrorKind::NoSuchMove,
                    format!(
                        "the piece on {} is {}, not {}",
                        from.csa(),
                        p.role.kanji(),
                        r.kanji()
                    ),
                ));
            }
            return Ok(Move::Normal {
                from,
                to,
                promote: m.promote == Some(true),
            });
        }
        if m.drop {
            return Ok(Move::Drop { role: r, to });
        }
        // KI2: find the piece among the legal moves.
        let mut cands: Vec<Move> = Vec::new();
        let mut drop_ok = false;
        for &mv in pos.legal_moves_to(to).iter() {
            match mv {
                Move::Normal { from, .. } if pos.piece_at(from).is_some_and(|p| p.role == r) => {
                    cands.push(mv);
                }
                Move::Drop { role: dr, .. } if dr == r => drop_ok = true,
                _ => {}
            }
        }
        let want_promote = m.promote == Some(true);
        let mut filtered: Vec<Move> = cands
            .iter()
            .copied()
            .filter(|mv| mv.is_promotion() == want_promote)
            .collect();
        if filtered.is_empty() && m.promote.is_none() {
            // Promotion forced (or written without 成): accept promoting moves.
            filtered = cands
                .iter()
                .copied()
                .filter(|mv| mv.is_promotion())
                .collect();
        }
        let cands = filter_qualifiers(filtered, m, pos, to);
        match cands.len() {
            1 => Ok(cands[0]),
            0 if drop_ok && m.relative.is_none() && m.motion.is_none() && m.promote.is_none() => {
                Ok(Move::Drop { role: r, to })
            }
            0 => {
                if pos.hand(stm).count(r) > 0 && r.is_hand_role() {
                    // Let the rules name the reason (nifu, pawn-drop mate, …).
                    Ok(Move::Drop { role: r, to })
                } else {
                    Err((
                        ErrorKind::NoSuchMove,
                        format!(
                            "no {} of {} can move to {}",
                            r.kanji(),
                            stm.japanese_en(),
                            to.japanese()
                        ),
                    ))
                }
            }
            _ => Err((
                ErrorKind::AmbiguousMove,
                format!(
                    "{} pieces fit: {}",
                    cands.len(),
                    cands
                        .iter()
                        .map(|m| m.to_usi())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
        }
    }
}

/// Apply KI2 qualifiers (§3.2): motion by the mover's direction, then 右/左/直.
fn filter_qualifiers(mut cands: Vec<Move>, m: &JaMove, pos: &Position, to: Square) -> Vec<Move> {
    let stm = pos.side_to_move();
    // Forward = toward rank 1 for black. dy > 0 = forward.
    let dir = |from: Square| -> (i32, i32) {
        let dx = i32::from(to.file()) - i32::from(from.file());
        let dy = i32::from(from.rank()) - i32::from(to.rank());
        if stm == Color::Black {
            (dx, dy)
        } else {
            (-dx, -dy)
        }
    };
    let from_of = |mv: &Move| mv.from();
    if let Some(motion) = m.motion {
        cands.retain(|mv| {
            let Some(f) = from_of(mv) else { return false };
            let (_, dy) = dir(f);
            match motion {
                Motion::Up => dy > 0,
                Motion::Down => dy < 0,
                Motion::Sideways => dy == 0,
            }
        });
    }
    if let Some(rel) = m.relative {
        let dragon_like = matches!(role(m.kind), Role::Dragon | Role::Horse);
        // The mover's right = lower file for black, higher for white.
        let rightness = |f: Square| -> i32 {
            let file = i32::from(f.file());
            if stm == Color::Black { -file } else { file }
        };
        match rel {
            Relative::Straight => cands.retain(|mv| {
                from_of(mv).is_some_and(|f| {
                    let (dx, dy) = dir(f);
                    dx == 0 && dy > 0
                })
            }),
            Relative::Right | Relative::Left => {
                let vals: Vec<i32> = cands
                    .iter()
                    .filter_map(|mv| from_of(mv).map(rightness))
                    .collect();
                let best = if rel == Relative::Right {
                    vals.iter().max()
                } else {
                    vals.iter().min()
                }
                .copied();
                if let Some(best) = best {
                    let keep: Vec<Move> = cands
                        .iter()
                        .copied()
                        .filter(|mv| from_of(mv).map(rightness) == Some(best))
                        .collect();
                    if keep.len() > 1 && dragon_like {
                        // Two on the same file: prefer the one not moving straight.
                        let not_straight: Vec<Move> = keep
                            .iter()
                            .copied()
                            .filter(|mv| from_of(mv).is_some_and(|f| dir(f).0 != 0))
                            .collect();
                        cands = if not_straight.len() == 1 {
                            not_straight
                        } else {
                            keep
                        };
                    } else {
                        cands = keep;
                    }
                }
            }
        }
    }
    cands
}

/// Read the result part of a `まで…` line, relative to the side to move at the end.
pub(crate) fn closing_kind(text: &str, stm: Color) -> Option<EndingKind> {
    let winner = if text.starts_with("先手") || text.starts_with("下手") {
        Some(Color::Black)
    } else if text.starts_with("後手") || text.starts_with("上手") {
        Some(Color::White)
    } else if text.contains("により先手") || text.contains("により下手") {
        Some(Color::Black)
    } else if text.contains("により後手") || text.contains("により上手") {
        Some(Color::White)
    } else {
        None
    };
    let t = text;
    Some(if t.contains("反則勝ち") {
        if winner == Some(stm) {
            EndingKind::FoulWin
        } else {
            EndingKind::FoulLoss
        }
    } else if t.contains("反則負け") {
        if winner == Some(stm) {
            EndingKind::FoulLoss
        } else {
            EndingKind::FoulWin
        }
    } else if t.contains("時間切れ") || t.contains("切れ負け") {
        EndingKind::TimeUp
    } else if t.contains("入玉勝ち") || t.contains("宣言勝ち") {
        EndingKind::Declaration
    } else if t.contains("不詰") {
        EndingKind::NoMate
    } else if t.contains("詰") {
        EndingKind::Mate
    } else if t.contains("勝ち") {
        if winner.is_some() && winner != Some(stm) {
            EndingKind::Resign
        } else {
            EndingKind::Other(t.to_string())
        }
    } else if t.contains("中断") {
        EndingKind::Interrupt
    } else if t.contains("千日手") {
        EndingKind::Repetition
    } else if t.contains("持将棋") {
        EndingKind::Impasse
    } else if t.contains("封じ手") {
        EndingKind::SealedMove
    } else if t.contains("投了") {
        EndingKind::Resign
    } else {
        return None;
    })
}

/// CSA `%±ILLEGAL_ACTION` names the offender: by the side not to move it is an ordinary foul
/// win (offender implied); by the side to move it is a foul loss.
fn normalise_foul(
    kind: &EndingKind,
    offender: Option<Color>,
    stm: Color,
) -> (EndingKind, Option<Color>) {
    match (kind, offender) {
        (EndingKind::FoulWin, Some(c)) if c == stm => (EndingKind::FoulLoss, Some(c)),
        (EndingKind::FoulWin, Some(_)) => (EndingKind::FoulWin, None),
        (k, o) => (k.clone(), o),
    }
}

/// An ending in the words of a closing line, for `stm` (the side to move when it came).
fn ending_from_side(kind: &EndingKind, stm: Color) -> String {
    let name = |c: Color| c.japanese();
    match kind {
        EndingKind::Resign => format!("{}の勝ち", name(!stm)),
        EndingKind::TimeUp => format!("時間切れにより{}の勝ち", name(!stm)),
        EndingKind::FoulWin => format!("{}の反則勝ち", name(stm)),
        EndingKind::FoulLoss => format!("{}の反則負け", name(stm)),
        EndingKind::Declaration => format!("{}の入玉勝ち", name(stm)),
        k => k.japanese().to_string(),
    }
}
