//! The Japanese move of KIF and KI2 (like shakmaty's `San` for chess): the move as written
//! (destination or 同, piece, the KI2 qualifiers 右 左 直 上 引 寄, promotion, drop, KIF
//! source square), parsed from text, resolved against a position, and, for writing, the
//! qualifiers a move needs in a position. Every qualifier rule is here, for reading and
//! writing alike.

use crate::error::ErrorKind;
use crate::text::{kanji_digit, wide_digit};
use shogi_core::{Color, Move, Position, Role, Square, Variant};

/// The side marks of KI2 (and of some KIF) moves.
pub(crate) const MARKS: [char; 6] = ['▲', '△', '▼', '▽', '☗', '☖'];

/// The side a mark names.
pub(crate) fn mark_side(c: char) -> Option<Color> {
    match c {
        '▲' | '▼' | '☗' => Some(Color::Black),
        '△' | '▽' | '☖' => Some(Color::White),
        _ => None,
    }
}

/// KI2 relative-position word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Relative {
    Right,
    Left,
    Straight,
}

/// KI2 motion word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Motion {
    Up,
    Sideways,
    Down,
}

impl Relative {
    /// The word as written: 右, 左 or 直.
    pub const fn kanji(self) -> char {
        match self {
            Relative::Right => '右',
            Relative::Left => '左',
            Relative::Straight => '直',
        }
    }
}

impl Motion {
    /// The word as written: 上, 寄 or 引 (行 and 入 are read as 上 too).
    pub const fn kanji(self) -> char {
        match self {
            Motion::Up => '上',
            Motion::Sideways => '寄',
            Motion::Down => '引',
        }
    }
}

/// A move in Japanese notation (KIF or KI2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct JaMove {
    pub side: Option<Color>,
    /// `None` = 同.
    pub to: Option<Square>,
    pub kind: Role,
    /// `Some(true)` = 成, `Some(false)` = 不成/生, `None` = not written.
    pub promote: Option<bool>,
    pub drop: bool,
    /// KIF source square `(77)`.
    pub from: Option<Square>,
    pub relative: Option<Relative>,
    pub motion: Option<Motion>,
}

/// A piece name at the start of `s` (歩 … 龍, 成香 成桂 成銀, and 王 竜 杏 圭 全): the role
/// and the bytes it takes.
pub(crate) fn piece_prefix(s: &str) -> Option<(Role, usize)> {
    let mut it = s.chars();
    let c = it.next()?;
    if c == '成' {
        let base = it.next()?;
        let role = match base {
            '香' | '桂' | '銀' => Role::from_kanji(base)?.promote()?,
            _ => return None,
        };
        return Some((role, c.len_utf8() + base.len_utf8()));
    }
    Role::from_kanji(c).map(|r| (r, c.len_utf8()))
}

/// Whether `sq` is on the board of `pos`: every square is on the standard board.
#[inline(always)]
pub(crate) fn on_board(pos: &Position, sq: Square) -> bool {
    pos.variant() == Variant::Standard || pos.variant().contains(sq)
}

/// The destination at the start of `s` (a square, or 同 and the spaces after it), with the
/// bytes it takes; `None` for 同.
fn destination(s: &str) -> Result<(Option<Square>, usize), &'static str> {
    let mut i = 0;
    let b = |i: usize| s[i..].chars().next();
    let to = match b(i) {
        Some('同') => {
            i += '同'.len_utf8();
            while let Some(c @ (' ' | '\u{3000}')) = b(i) {
                i += c.len_utf8();
            }
            None
        }
        Some(c) => {
            let file = wide_digit(c).ok_or("expected a destination square (like ７六) or 同")?;
            i += c.len_utf8();
            let rc = b(i).ok_or("the destination square has no rank")?;
            let rank = kanji_digit(rc)
                .map(|d| d as u8)
                .or_else(|| wide_digit(rc))
                .ok_or("the destination square has no rank")?;
            i += rc.len_utf8();
            // Some writers put 同 after the square ("７六同歩"): accept it.
            if let Some('同') = b(i) {
                i += '同'.len_utf8();
            }
            Some(Square::new(file, rank).ok_or("the destination square is off the board")?)
        }
        None => return Err("empty move"),
    };
    Ok((to, i))
}

/// Parse one move in Japanese notation at the start of `s`. Returns the move and bytes used.
pub(crate) fn parse(s: &str) -> Result<(JaMove, usize), &'static str> {
    let mut i = 0;
    let b = |i: usize| s[i..].chars().next();
    let mut side = None;
    if let Some(c) = b(i) {
        if let Some(sd) = mark_side(c) {
            side = Some(sd);
            i += c.len_utf8();
        }
    }
    let (to, used) = destination(&s[i..])?;
    i += used;
    let (kind, used) = piece_prefix(&s[i..])
        .ok_or("expected a piece name (歩 香 桂 銀 金 角 飛 玉 と 成香 成桂 成銀 馬 龍)")?;
    i += used;
    while let Some('\u{3000}') = b(i) {
        i += '\u{3000}'.len_utf8();
    }
    let mut relative = None;
    match b(i) {
        Some('右') => relative = Some(Relative::Right),
        Some('左') => relative = Some(Relative::Left),
        Some('直') => relative = Some(Relative::Straight),
        _ => {}
    }
    if relative.is_some() {
        i += '右'.len_utf8();
    }
    let mut motion = None;
    match b(i) {
        Some('上' | '行' | '入') => motion = Some(Motion::Up),
        Some('寄') => motion = Some(Motion::Sideways),
        Some('引') => motion = Some(Motion::Down),
        _ => {}
    }
    if motion.is_some() {
        i += '上'.len_utf8();
    }
    let mut promote = None;
    if s[i..].starts_with("不成") {
        promote = Some(false);
        i += "不成".len();
    } else if s[i..].starts_with('生') {
        promote = Some(false);
        i += '生'.len_utf8();
    } else if s[i..].starts_with('成') {
        promote = Some(true);
        i += '成'.len_utf8();
    }
    let mut drop = false;
    if s[i..].starts_with('打') {
        drop = true;
        i += '打'.len_utf8();
    }
    let mut from = None;
    let bytes = s.as_bytes();
    if bytes.get(i) == Some(&b'(') && bytes.get(i + 3) == Some(&b')') {
        let f = bytes[i + 1];
        let r = bytes[i + 2];
        if f.is_ascii_digit() && r.is_ascii_digit() {
            if f == b'0' && r == b'0' {
                drop = true;
            } else if f == b'0' || r == b'0' {
                return Err("source square (xy) must use digits 1-9");
            } else {
                from = Square::new(f - b'0', r - b'0');
            }
            i += 4;
        }
    }
    Ok((
        JaMove {
            side,
            to,
            kind,
            promote,
            drop,
            from,
            relative,
            motion,
        },
        i,
    ))
}

/// The move `m` means in `pos` (`prev_to` is where the previous move went, for 同): by its
/// source square when written (KIF), else by finding the piece among the legal moves and
/// applying the KI2 qualifiers.
#[inline]
pub(crate) fn resolve(
    m: &JaMove,
    pos: &Position,
    prev_to: Option<Square>,
) -> Result<Move, (ErrorKind, String)> {
    match resolve_plain(m, pos, prev_to) {
        Some(mv) => Ok(mv),
        None => resolve_any(m, pos, prev_to),
    }
}

/// [`resolve`] for the usual KIF move, small enough to inline where moves are replayed: the
/// right side or none, squares on the board, and on the source square the piece named (or
/// the promoted piece it names). `None` when any of that fails: [`resolve_any`] then gives
/// the move or says why there is none.
#[inline(always)]
pub(crate) fn resolve_plain(m: &JaMove, pos: &Position, prev_to: Option<Square>) -> Option<Move> {
    if m.side.is_some_and(|s| s != pos.side_to_move()) {
        return None;
    }
    let to = m.to.or(prev_to)?;
    let from = m.from?;
    if !on_board(pos, to) || !on_board(pos, from) {
        return None;
    }
    let p = pos.piece_at(from)?;
    if p.role != m.kind && !names_promoted(m.kind, p.role) {
        return None;
    }
    Some(Move::Normal {
        from,
        to,
        promote: m.promote == Some(true),
    })
}

/// [`resolve`] for every move, written with or without its source square, and the reason
/// when it means none.
#[inline(never)]
pub(crate) fn resolve_any(
    m: &JaMove,
    pos: &Position,
    prev_to: Option<Square>,
) -> Result<Move, (ErrorKind, String)> {
    let stm = pos.side_to_move();
    if let Some(s) = m.side {
        if s != stm {
            return Err((
                ErrorKind::IllegalMove,
                format!(
                    "the move is marked for {} but it is {}'s turn",
                    s.japanese_en(),
                    stm.japanese_en()
                ),
            ));
        }
    }
    let to = match m.to {
        Some(t) => Some(t).filter(|q| on_board(pos, *q)).ok_or_else(|| {
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
    let r = m.kind;
    if let Some(f) = m.from {
        let from = Some(f).filter(|q| on_board(pos, *q)).ok_or_else(|| {
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
        // The unpromoted name for the promoted piece on the square (`７五角(53)` for a 馬 on
        // 53, as one web app writes it) is read as that piece's move, as Kifu for Windows,
        // cshogi and tsshogi read it (the replay warns); any other kind is an error.
        if p.role != r && !names_promoted(r, p.role) {
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
    find_piece(m, pos, to)
}

/// Whether the piece name `written` is the unpromoted name of the promoted piece `on_board`
/// (角 for 馬, 飛 for 龍, 銀 for 成銀, 桂 for 成桂, 香 for 成香, 歩 for と).
pub(crate) fn names_promoted(written: Role, on_board: Role) -> bool {
    on_board != written && on_board.unpromote() == written
}

/// KI2: the move of a piece of `m`'s role to `to` among the legal moves, told apart by the
/// promotion and the qualifiers written; a drop when no piece on the board fits.
fn find_piece(m: &JaMove, pos: &Position, to: Square) -> Result<Move, (ErrorKind, String)> {
    let (stm, r) = (pos.side_to_move(), m.kind);
    let mut cands: Vec<Move> = Vec::new();
    let mut drop_ok = false;
    pos.for_each_legal_move_of_to(r, to, |mv| match mv {
        Move::Normal { .. } => cands.push(mv),
        Move::Drop { .. } => drop_ok = true,
    });
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
                // KI2 has no source square: a promoted piece written by its unpromoted name
                // cannot be told from a wrong move, so it stays an error; say which could.
                let promoted = pos.legal_moves_to(to).iter().find_map(|mv| match *mv {
                    Move::Normal { from, .. } => pos
                        .piece_at(from)
                        .filter(|p| names_promoted(r, p.role))
                        .map(|p| (p.role, from)),
                    Move::Drop { .. } => None,
                });
                let hint = promoted.map_or(String::new(), |(role, from)| {
                    format!(
                        " (the {} on {} can: KI2 names a promoted piece as promoted)",
                        role.kanji(),
                        from.csa()
                    )
                });
                Err((
                    ErrorKind::NoSuchMove,
                    format!(
                        "no {} of {} can move to {}{hint}",
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
        let dragon_like = matches!(m.kind, Role::Dragon | Role::Horse);
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

/// The KI2 qualifiers that tell a move's piece from the others of its role that can reach
/// the same square (relative word first, then motion word).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Qualifiers {
    pub relative: Option<Relative>,
    pub motion: Option<Motion>,
}

impl Qualifiers {
    /// The qualifiers `mv`, made by a piece of `role`, needs in `pos`: none for a drop or
    /// when no other piece of that role reaches the square; else the motion when it settles
    /// it; for a dragon or horse then the relative word; for other pieces 直 for a gold-like
    /// piece moving straight up, then the relative word, with the motion when both are
    /// needed.
    ///
    /// The other pieces are those that attack the square, pinned ones included: JSA's
    /// notation (and tsshogi, and the records of the corpus) tells the mover from them
    /// although they could not legally move there.
    pub fn of(pos: &Position, mv: Move, role: Role) -> Qualifiers {
        let none = Qualifiers::default();
        let Move::Normal { from, to, .. } = mv else {
            return none;
        };
        let us = pos.side_to_move();
        let others: Vec<Square> = reaching(pos, to, role).filter(|&f| f != from).collect();
        if others.is_empty() {
            return none;
        }
        // dy > 0: toward the opponent; "rightness": higher = more to the mover's right.
        let dy = |f: Square| {
            let d = i32::from(f.rank()) - i32::from(to.rank());
            if us == Color::Black { d } else { -d }
        };
        let dx = |f: Square| i32::from(to.file()) - i32::from(f.file());
        let right = |f: Square| {
            let file = i32::from(f.file());
            if us == Color::Black { -file } else { file }
        };
        let motion = |f: Square| match dy(f).signum() {
            1 => Motion::Up,
            0 => Motion::Sideways,
            _ => Motion::Down,
        };
        let m = motion(from);
        let rel_among = |set: &[Square]| -> Option<Relative> {
            if set.iter().all(|o| right(*o) < right(from)) {
                Some(Relative::Right)
            } else if set.iter().all(|o| right(*o) > right(from)) {
                Some(Relative::Left)
            } else {
                None
            }
        };
        let only =
            |relative: Option<Relative>, motion: Option<Motion>| Qualifiers { relative, motion };
        let sharing: Vec<Square> = others.iter().copied().filter(|o| motion(*o) == m).collect();
        if sharing.is_empty() {
            return only(None, Some(m));
        }
        if matches!(role, Role::Dragon | Role::Horse) {
            // Two at most, and both move the same way: right or left tells them apart.
            return match rel_among(&others) {
                Some(r) => only(Some(r), None),
                None => only(None, Some(m)),
            };
        }
        let gold_like = matches!(
            role,
            Role::Gold
                | Role::Silver
                | Role::Tokin
                | Role::PromotedLance
                | Role::PromotedKnight
                | Role::PromotedSilver
        );
        if gold_like && dx(from) == 0 && dy(from) > 0 {
            return only(Some(Relative::Straight), None);
        }
        if let Some(r) = rel_among(&others) {
            return only(Some(r), None);
        }
        only(rel_among(&sharing), Some(m))
    }
}

/// The squares of the side to move's pieces of `role` that attack `to` (whether or not a
/// pin lets them move there): the pieces a KI2 move of that role to `to` is told apart from.
pub(crate) fn reaching(pos: &Position, to: Square, role: Role) -> impl Iterator<Item = Square> {
    let us = pos.side_to_move();
    pos.attackers_to(to, us, pos.occupied()) & pos.pieces(us, role)
}

impl Qualifiers {
    /// The words as written: the relative word, then the motion word.
    pub fn kanji(self) -> impl Iterator<Item = char> {
        let relative = self.relative.map(Relative::kanji);
        relative.into_iter().chain(self.motion.map(Motion::kanji))
    }
}

/// The two ways a Japanese move is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Style {
    /// KIF: the source square after the piece (`７六歩(77)`), `同　` with a full-width space.
    Kif,
    /// KI2: the side's mark first and the qualifiers 右左直上引寄 instead of a source square
    /// (`▲７六歩`, `△同歩`).
    Ki2,
}

/// Append the Japanese text of `mv`, a move of the side to move in `pos`, to `s`; `prev_to`
/// is the previous move's destination (a move there is written 同).
pub(crate) fn write_move(
    s: &mut String,
    pos: &Position,
    mv: Move,
    prev_to: Option<Square>,
    style: Style,
) {
    let ki2 = style == Style::Ki2;
    let to = mv.to();
    if ki2 {
        s.push(side_mark(pos.side_to_move()));
    }
    if Some(to) == prev_to {
        s.push_str(if ki2 { "同" } else { "同　" });
    } else {
        s.push_str(&to.japanese());
    }
    match mv {
        Move::Normal { from, promote, .. } => {
            let role = pos.piece_at(from).map_or(Role::Pawn, |p| p.role);
            s.push_str(role.kanji());
            if ki2 {
                s.extend(Qualifiers::of(pos, mv, role).kanji());
                let other = Move::Normal {
                    from,
                    to,
                    promote: !promote,
                };
                if promote {
                    s.push('成');
                } else if role.can_promote() && pos.is_legal(other) {
                    s.push_str("不成");
                }
            } else {
                if promote {
                    s.push('成');
                }
                // The source in KIF is the square's number pair, as CSA names squares.
                s.push('(');
                s.push_str(&from.csa());
                s.push(')');
            }
        }
        Move::Drop { role, .. } => {
            s.push_str(role.kanji());
            // KIF always writes 打; KI2 only when a piece of that role on the board reaches
            // the square (even a pinned one).
            if !ki2 || reaching(pos, to, role).next().is_some() {
                s.push('打');
            }
        }
    }
}

/// The KI2 mark of a side: ▲ for Black (sente), △ for White (gote).
pub(crate) fn side_mark(color: Color) -> char {
    if color == Color::Black { '▲' } else { '△' }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small fixed-seed generator (xorshift64), so that failures reproduce.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    /// The inlined path gives what the full one gives whenever it answers, on moves made up
    /// at random (sides, squares off the Mini Shogi board, wrong pieces, 同 with and without
    /// a previous move) in the positions of random games of both variants; and it answers
    /// the moves a KIF record writes.
    #[test]
    fn the_plain_path_agrees_with_the_full_one() {
        let mut rng = Rng(0x0DDC_0FFE_E123_4567);
        let squares: Vec<Square> = Square::all().collect();
        let (mut answered, mut declined) = (0u32, 0u32);
        for game in 0..16 {
            let variant = if game % 4 == 3 {
                Variant::Mini
            } else {
                Variant::Standard
            };
            let mut pos = Position::startpos(variant);
            let mut prev_to = None;
            for _ in 0..80 {
                let legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
                if legal.is_empty() {
                    break;
                }
                for _ in 0..300 {
                    let m = JaMove {
                        side: [None, Some(Color::Black), Some(Color::White)][rng.below(3)],
                        to: (rng.below(8) != 0).then(|| squares[rng.below(81)]),
                        kind: Role::ALL[rng.below(14)],
                        promote: [None, Some(true), Some(false)][rng.below(3)],
                        drop: rng.below(8) == 0,
                        from: (rng.below(8) != 0).then(|| squares[rng.below(81)]),
                        relative: None,
                        motion: None,
                    };
                    let prev = [None, prev_to][rng.below(2)];
                    let full = resolve_any(&m, &pos, prev);
                    match resolve_plain(&m, &pos, prev) {
                        Some(mv) => {
                            answered += 1;
                            assert_eq!(full, Ok(mv), "{m:?} in {}", pos.to_sfen());
                        }
                        None => declined += 1,
                    }
                    assert_eq!(resolve(&m, &pos, prev), full);
                }
                // The legal move as a KIF record writes it is answered by the plain path.
                let mv = legal[rng.below(legal.len())];
                if let Move::Normal { from, to, promote } = mv {
                    let written = JaMove {
                        side: None,
                        to: (Some(to) != prev_to).then_some(to),
                        kind: pos.piece_at(from).map_or(Role::Pawn, |p| p.role),
                        promote: promote.then_some(true),
                        drop: false,
                        from: Some(from),
                        relative: None,
                        motion: None,
                    };
                    assert_eq!(resolve_plain(&written, &pos, prev_to), Some(mv));
                }
                pos.play(mv).unwrap();
                prev_to = Some(mv.to());
            }
        }
        assert!(
            answered > 1_000 && declined > 100_000,
            "{answered} {declined}"
        );
    }
}
