//! Replay: resolve every written move against the position and check it with shogi-core.

use crate::ending::{EndingKind, closing_kind, closing_winner, ki2_closing_ending};
use crate::error::{Diagnostic, ErrorKind, ReadError, Severity};
mod start;

use crate::japanese::{self, JaMove, on_board};
use crate::main_line::{MainLine, Played, PlayedMove};
use crate::model::*;
use crate::raw::{self, RawEnd, RawMove, RawRecord, Slot};
use shogi_core::{Color, Move, PlayError, Position, Role, Square};

/// Where a walk along the move tree is: about to read child `child` of node `parent`, in
/// `pos`, at ply `ply`, after a move to `prev_to` (for 同).
#[derive(Clone)]
struct Branch {
    parent: u32,
    child: usize,
    pos: Position,
    prev_to: Option<Square>,
    ply: u32,
}

struct Replayer<'a> {
    src: &'a str,
    raw: &'a RawRecord,
    diagnostics: Vec<Diagnostic>,
    /// The warning on the first KIF move that names a promoted piece by its unpromoted name
    /// (its index in `diagnostics`), and how many moves do.
    misnamed: Option<(usize, u32)>,
    /// The declared foul the main line stops at: its node and ply.
    main_foul: Option<(u32, u32)>,
    /// Without the record's moves: the main line's moves, kept here instead of in the
    /// line (see [`crate::ReadOptions::moves`]).
    played: Option<Vec<Played>>,
}

/// The number of nodes along the first-child chain from the root (the main line's length,
/// its ending included): the capacity to reserve for it.
fn main_line_len(raw: &RawRecord) -> usize {
    // Without a fork every node but the root is on that chain: the count is known without
    // the walk, a load waiting on the one before at every node.
    if raw.forks.is_empty() {
        // (The root is always node 0.)
        debug_assert_eq!(raw.nodes.len() - 1, chain_len(raw));
        return raw.nodes.len() - 1;
    }
    chain_len(raw)
}

/// [`main_line_len`] by walking the chain.
fn chain_len(raw: &RawRecord) -> usize {
    let mut n = 0;
    let mut p = 0u32;
    while let Some(c) = raw
        .nodes
        .get(p as usize)
        .and_then(|node| node.children.first())
    {
        n += 1;
        p = c;
    }
    n
}

/// A raw record replayed: the record as far as it could be read, the facts validation needs
/// (when asked for and the record was read to its end), and the first error.
pub(crate) struct Replayed {
    pub record: Record,
    pub main: Option<MainLine>,
    pub error: Option<ReadError>,
    /// The main line's moves when the record was made without them (`keep` false and
    /// `facts` true); empty otherwise.
    pub played: Vec<Played>,
}

/// The header of a raw record, keys typed (its values moved, not copied).
fn header(entries: Vec<(String, String)>) -> Header {
    let mut header = Header::default();
    header.entries.reserve(entries.len());
    for (k, v) in entries {
        let key = if k.starts_with('$') || k == "N+" || k == "N-" {
            HeaderKey::from_csa(&k)
        } else if k == "V" {
            continue;
        } else {
            HeaderKey::from_kif(&k)
        };
        header.push(key, v);
    }
    header
}

/// Turn a raw record into a checked record; with `facts`, also what validation needs
/// from its main line. On an error the record holds what came before it: the header, and
/// the start and the moves before the failing one when the error is in a move.
///
/// With `facts` and not `keep`, the main line's moves are kept in [`Replayed::played`]
/// instead of the record (whose main line then has its ending only); every check is the
/// same.
pub(crate) fn replay(mut raw: RawRecord, src: &str, facts: bool, keep: bool) -> Replayed {
    let mut start_notes = Vec::new();
    let header = header(std::mem::take(&mut raw.header));
    let (start, pos) = match start::resolve_start(&raw, src, &mut start_notes) {
        Ok(ok) => ok,
        Err(e) => {
            let record = Record {
                header,
                diagnostics: raw.diagnostics,
                ..Record::default()
            };
            return Replayed {
                record,
                main: None,
                error: Some(e),
                played: Vec::new(),
            };
        }
    };
    let mut r = Replayer {
        src,
        raw: &raw,
        diagnostics: Vec::new(),
        misnamed: None,
        main_foul: None,
        played: None,
    };
    let reserve = main_line_len(&raw);
    if facts && !keep {
        r.played = Some(Vec::with_capacity(reserve));
    }
    let mut main = facts.then(|| MainLine {
        keys: Vec::with_capacity(reserve),
        last: Box::new(pos.clone()),
        repetition: None,
    });
    let at = Branch {
        parent: 0,
        child: 0,
        pos: pos.clone(),
        prev_to: None,
        ply: 1,
    };
    let (mut line, error) = r.walk(at, main.as_mut(), reserve);
    if error.is_none() {
        r.apply_closing(&mut line, &pos);
    }
    r.count_misnamed();
    let played = r.played.take().unwrap_or_default();
    let mut replay_notes = std::mem::take(&mut r.diagnostics);
    let mut diagnostics = std::mem::take(&mut raw.diagnostics);
    diagnostics.append(&mut start_notes);
    diagnostics.append(&mut replay_notes);
    let root = raw.take_notes(0);
    raw.recycle();
    let record = Record {
        header,
        start,
        start_comments: root.comments,
        start_bookmarks: root.bookmarks,
        moves: line,
        diagnostics,
    };
    Replayed {
        record,
        main: main.filter(|_| error.is_none()),
        error,
        played,
    }
}

/// A copy of a node's comments or bookmarks: most nodes have none, and an empty list is
/// made here without a call.
#[inline]
fn copied(texts: &[String]) -> Vec<String> {
    if texts.is_empty() {
        Vec::new()
    } else {
        texts.to_vec()
    }
}

fn time(t: Option<raw::RawTime>) -> Option<MoveTime> {
    t.map(|t| MoveTime {
        spent_ms: t.spent_ms,
        total_ms: t.total_ms,
    })
}

impl<'a> Replayer<'a> {
    fn written(&self, n: &raw::Node) -> String {
        let text = if n.written {
            self.src.get(n.loc.start..n.loc.end)
        } else {
            None
        };
        text.unwrap_or("").to_string()
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

    /// The alternatives to the node a walk at `at` is about to read (when it reads a first
    /// child), each walked as a line of its own; a variation's error becomes a warning.
    #[cold]
    fn variations(&mut self, at: &Branch) -> Vec<Line> {
        let count = if at.child == 0 {
            self.raw.alternatives(at.parent).len()
        } else {
            0
        };
        let mut variations = Vec::new();
        for i in 0..count {
            let branch = Branch {
                child: i + 1,
                pos: at.pos.clone(),
                ..*at
            };
            let (vline, verr) = self.walk(branch, None, 0);
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
        variations
    }

    /// The ending of node `idx` (a special statement) for `stm` to move.
    fn ending(&self, idx: u32, end: &RawEnd, stm: Color, variations: Vec<Line>) -> Ending {
        let node = &self.raw.nodes[idx as usize];
        // Pushed as the nodes were made, so in node order: a search, as a record may hold
        // very many of them.
        let closing = self
            .raw
            .closing_endings
            .binary_search_by_key(&idx, |(n, _)| *n);
        let (kind, offender) = match closing {
            Ok(i) => (
                ki2_closing_ending(&self.raw.closing_endings[i].1, stm),
                None,
            ),
            Err(_) => normalise_foul(&end.kind, end.offender, stm),
        };
        Ending {
            kind,
            offender,
            time: time(self.raw.time_of(node)),
            comments: copied(self.raw.comments(idx)),
            bookmarks: copied(self.raw.bookmarks(idx)),
            variations,
            source_line: node.loc.line,
        }
    }

    /// Whether the record declares the move of node `idx` a foul (a foul ending after it,
    /// or words saying so), so that an illegal move there is kept rather than an error.
    fn declared_foul(&self, idx: u32, ply: u32, mover: Color) -> bool {
        let node = &self.raw.nodes[idx as usize];
        let next = node
            .children
            .first()
            .map(|n| &self.raw.nodes[n as usize].item);
        match next {
            Some(&Slot::End(end)) => {
                self.raw.end(end).kind.is_foul() || self.closing_leaves_out(node, ply, mover)
            }
            Some(Slot::Move(_)) => false,
            _ => {
                self.raw.comments(idx).iter().any(|c| c.contains("反則"))
                    || self.closing_says_foul()
                    || self.closing_leaves_out(node, ply, mover)
            }
        }
    }

    /// Whether the closing line leaves the last move of the main line, `node` at `ply` by
    /// `mover`, out of its count and names the other side the winner (`▲２九歩`, a nifu,
    /// then `まで108手で後手の勝ち`): the record then says that move lost the game.
    fn closing_leaves_out(&self, node: &raw::Node, ply: u32, mover: Color) -> bool {
        // Nothing follows but the closing line (which KI2 makes the line's ending).
        let last = match node.children.first() {
            None => true,
            Some(n) => !node.children.forks() && self.is_closing_end(n),
        };
        node.depth == 0
            && last
            && self.raw.closing.as_ref().is_some_and(|cl| {
                cl.count == Some(ply - 1)
                    && cl.text.contains("勝ち")
                    && closing_winner(&cl.text) == Some(!mover)
            })
    }

    /// Walk from child `at.child` of `at.parent`. Returns the line read and, if it stopped
    /// on an error, the error (the line then holds the moves before it).
    ///
    /// With `main`, the walk is the main line's: the key after each move and the last
    /// position are kept there. `reserve` is the room to make for the moves.
    fn walk(
        &mut self,
        mut at: Branch,
        mut main: Option<&mut MainLine>,
        reserve: usize,
    ) -> (Line, Option<ReadError>) {
        let mut line = Line::default();
        // The main line's moves go to `played` when the record is made without them.
        let keep = main.is_none() || self.played.is_none();
        if keep {
            line.moves.reserve(reserve);
        }
        // The raw record outlives `self`'s borrows: its nodes can be read while walking.
        let raw = self.raw;
        loop {
            let parent = &raw.nodes[at.parent as usize];
            let next = if at.child == 0 {
                parent.children.first()
            } else {
                raw.child(at.parent, at.child)
            };
            let Some(c) = next else { break };
            let forks = at.child == 0 && parent.children.forks();
            // `None` without alternatives: most moves have none, and dropping an empty
            // `Vec<Line>` is an out-of-line call (its drop is recursive), once a move.
            let variations = forks.then(|| self.variations(&at));
            let node = &raw.nodes[c as usize];
            let rm = match &node.item {
                Slot::Root => break,
                Slot::End(end) => {
                    let stm = at.pos.side_to_move();
                    line.ending =
                        Some(self.ending(c, raw.end(*end), stm, variations.unwrap_or_default()));
                    break;
                }
                Slot::Move(rm) => rm,
            };
            // The usual KIF move first, its move kept in registers: the general resolution
            // returns a `Result` through memory, written a byte at a time, and reading the
            // move back as a word then waited on those stores at every move.
            let plain = match rm {
                RawMove::Ja(m) => japanese::resolve_plain(m, &at.pos, at.prev_to),
                _ => None,
            };
            let mv = match plain {
                Some(m) => m,
                None => match self.resolve(rm, &at.pos, at.prev_to) {
                    Ok(m) => m,
                    Err((kind, msg)) => {
                        return (line, Some(self.move_error(c, at.ply, kind, msg)));
                    }
                },
            };
            if let RawMove::Ja(JaMove {
                from: Some(from),
                kind: written,
                ..
            }) = rm
            {
                self.check_name(c, at.ply, &at.pos, *from, *written);
            }
            let mut foul = None;
            let mover = at.pos.side_to_move();
            if let Err(e) = at.pos.play(mv) {
                if !self.declared_foul(c, at.ply, mover) {
                    let kind = ErrorKind::IllegalMove;
                    return (line, Some(self.move_error(c, at.ply, kind, e.to_string())));
                }
                if node.depth == 0 {
                    self.main_foul = Some((c, at.ply));
                }
                foul = Some(e);
            }
            let is_foul = foul.is_some();
            if let (false, Some(played)) = (keep, self.played.as_mut()) {
                played.push(Played {
                    mv,
                    source_line: node.loc.line,
                    foul,
                });
            } else {
                let (comments, bookmarks) = match raw.notes_of(node) {
                    None => (Vec::new(), Vec::new()),
                    Some(n) => (copied(&n.comments), copied(&n.bookmarks)),
                };
                line.moves.push(MoveNode {
                    mv,
                    time: time(self.raw.time_of(node)),
                    comments,
                    bookmarks,
                    variations: variations.unwrap_or_default(),
                    foul,
                    source_line: node.loc.line,
                });
            }
            if is_foul {
                // A recorded foul that the record declares: keep it and stop.
                self.end_after_foul(c, &mut line, &at.pos);
                break;
            }
            if let Some(m) = main.as_deref_mut() {
                m.keys.push(at.pos.key());
            }
            at.prev_to = Some(mv.to());
            at.ply += 1;
            at.parent = c;
            at.child = 0;
        }
        if let Some(m) = main {
            *m.last = at.pos;
        }
        (line, None)
    }

    /// A KIF move from `from` naming the piece `written`, read (see [`japanese::resolve`])
    /// as the move of the promoted piece there: warn at the first, count the others.
    fn check_name(&mut self, idx: u32, ply: u32, pos: &Position, from: Square, written: Role) {
        let Some(p) = pos.piece_at(from) else { return };
        if !japanese::names_promoted(written, p.role) {
            return;
        }
        if let Some((_, n)) = &mut self.misnamed {
            *n += 1;
            return;
        }
        let node = &self.raw.nodes[idx as usize];
        let message = format!(
            "move {ply} {}: the piece on {} is {}, written {}: read as the {}'s move",
            self.written(node),
            from.csa(),
            p.role.kanji(),
            written.kanji(),
            p.role.kanji()
        );
        self.misnamed = Some((self.diagnostics.len(), 1));
        self.diagnostics.push(Diagnostic::at(
            Severity::Warning,
            message,
            self.src,
            node.loc,
        ));
    }

    /// Adds to the first misnamed-piece warning how many moves of the record are written so.
    fn count_misnamed(&mut self) {
        if let Some((i, n)) = self.misnamed.filter(|&(_, n)| n > 1) {
            if let Some(d) = self.diagnostics.get_mut(i) {
                d.message.push_str(&format!(
                    " ({n} moves of the record name a promoted piece so)"
                ));
            }
        }
    }

    /// The ending of a line stopped by the declared foul of node `idx` (played in `pos`
    /// by the side not to move there).
    fn end_after_foul(&self, idx: u32, line: &mut Line, pos: &Position) {
        if let Some(n) = self.raw.nodes[idx as usize].children.first() {
            if let Slot::End(end) = self.raw.nodes[n as usize].item {
                line.ending =
                    Some(self.ending(n, self.raw.end(end), !pos.side_to_move(), Vec::new()));
            }
        }
        if line.ending.is_none() && self.raw.closing.is_none() {
            line.ending = Some(Ending::new(EndingKind::FoulWin));
        }
    }

    /// Whether node `n` is the ending the KI2 closing line made.
    fn is_closing_end(&self, n: u32) -> bool {
        let node = &self.raw.nodes[n as usize];
        matches!(node.item, Slot::End(_))
            && self
                .raw
                .closing
                .as_ref()
                .is_some_and(|cl| cl.loc == node.loc)
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
        // The main line's last move and count, from the line or from `played`.
        let (n, last_foul) = match &self.played {
            Some(p) => (p.len() as u32, p.last().and_then(PlayedMove::foul)),
            None => (
                line.moves.len() as u32,
                line.moves.last().and_then(PlayedMove::foul),
            ),
        };
        let stm = if n % 2 == 0 {
            start.side_to_move()
        } else {
            !start.side_to_move()
        };
        let mut kind = closing_kind(&cl.text, stm);
        // The main line ends at a declared foul that the closing line leaves out of its
        // count (`まで108手で後手の反則勝ち`, or `…後手の勝ち` with a `*二歩` comment, after a
        // 109th move that is a nifu): the count is right, and a plain win of the side not
        // fouling is the foul's.
        let left_out = last_foul.is_some() && cl.count == Some(n.saturating_sub(1));
        if left_out {
            if let Some((idx, ply)) = self.main_foul {
                let node = &self.raw.nodes[idx as usize];
                let foul = last_foul.map_or("", PlayError::message);
                let message = format!(
                    "move {ply} {} is the foul the game ended on ({foul}); the closing line \
                     counts the {} moves before it",
                    self.written(node),
                    ply - 1
                );
                self.diagnostics
                    .push(Diagnostic::at(Severity::Note, message, self.src, node.loc));
            }
            if matches!(kind, Some(EndingKind::Other(_))) && closing_winner(&cl.text) == Some(stm) {
                kind = Some(EndingKind::FoulWin);
                // KI2 made the closing line the ending, as a word it did not know.
                if let Some(e) = line.ending.as_mut() {
                    if e.source_line == cl.loc.line && matches!(e.kind, EndingKind::Other(_)) {
                        e.kind = EndingKind::FoulWin;
                    }
                }
            }
        }
        if let Some(count) = cl.count.filter(|_| !left_out) {
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

    /// The move `rm` means in `pos`, or why there is none. A KIF/KI2 move goes to
    /// [`japanese::resolve_any`]: the walk has tried [`japanese::resolve_plain`] already.
    fn resolve(
        &self,
        rm: &RawMove,
        pos: &Position,
        prev_to: Option<Square>,
    ) -> Result<Move, (ErrorKind, String)> {
        match rm {
            RawMove::Usi(Move::Drop { role, to }) => Ok(Move::Drop {
                role: *role,
                to: on_board_square(pos, *to)?,
            }),
            RawMove::Usi(Move::Normal { from, to, promote }) => {
                let to = on_board_square(pos, *to)?;
                Ok(Move::Normal {
                    from: on_board_square(pos, *from)?,
                    to,
                    promote: *promote,
                })
            }
            RawMove::Csa {
                side,
                from,
                to,
                kind,
            } => resolve_csa(pos, *side, *from, *to, *kind),
            RawMove::Jkf {
                side,
                from,
                to,
                kind,
                promote,
            } => {
                let m = JkfMove {
                    side: *side,
                    from: *from,
                    to: *to,
                    kind: *kind,
                    promote: *promote,
                };
                resolve_jkf(pos, prev_to, m)
            }
            RawMove::Ja(m) => japanese::resolve_any(m, pos, prev_to),
        }
    }
}

/// `s` when it is on the board of `pos`.
fn on_board_square(pos: &Position, s: Square) -> Result<Square, (ErrorKind, String)> {
    Some(s).filter(|q| on_board(pos, *q)).ok_or_else(|| {
        (
            ErrorKind::NoSuchMove,
            format!("square {}{} is off the board", s.file(), s.rank()),
        )
    })
}

/// A CSA move: the side must be the one to move; the piece code after the move tells a
/// promotion.
fn resolve_csa(
    pos: &Position,
    side: Color,
    from: Option<Square>,
    to: Square,
    kind: Role,
) -> Result<Move, (ErrorKind, String)> {
    let stm = pos.side_to_move();
    let sq = |s: Square| on_board_square(pos, s);
    if side != stm {
        return Err((
            ErrorKind::IllegalMove,
            format!(
                "it is {}'s turn, not {}'s",
                stm.japanese_en(),
                side.japanese_en()
            ),
        ));
    }
    let to = sq(to)?;
    let Some(from) = from else {
        return Ok(Move::Drop { role: kind, to });
    };
    let from = sq(from)?;
    let Some(p) = pos.piece_at(from) else {
        return Err((
            ErrorKind::NoSuchMove,
            format!("there is no piece on {}", from.csa()),
        ));
    };
    let r = kind;
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

/// A JKF move object's fields.
struct JkfMove {
    side: Option<Color>,
    from: Option<Square>,
    to: Option<Square>,
    kind: Role,
    promote: Option<bool>,
}

/// A JKF move: the colour, when given, must be the one to move; no destination means the
/// previous move's (同).
fn resolve_jkf(
    pos: &Position,
    prev_to: Option<Square>,
    m: JkfMove,
) -> Result<Move, (ErrorKind, String)> {
    let stm = pos.side_to_move();
    let sq = |s: Square| on_board_square(pos, s);
    let JkfMove {
        side,
        from,
        to,
        kind,
        promote,
    } = m;
    if let Some(s) = side {
        if s != stm {
            return Err((
                ErrorKind::IllegalMove,
                format!("it is {}'s turn", stm.japanese_en()),
            ));
        }
    }
    let to = match to {
        Some(t) => sq(t)?,
        None => prev_to.ok_or_else(|| {
            (
                ErrorKind::NoSuchMove,
                "same-square move with no previous move".to_string(),
            )
        })?,
    };
    match from {
        None => Ok(Move::Drop { role: kind, to }),
        Some(f) => Ok(Move::Normal {
            from: sq(f)?,
            to,
            promote: promote == Some(true),
        }),
    }
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
