//! The recogniser: replays a main line, checks each rule of the mover while its conditions can
//! still hold, and derives the classes and the main 戦型 at the end.

use crate::index::{RuleBits, RuleIndex};
use crate::parse::Kind;
use crate::ruleset::{HandRule, Rule, RuleSet, TagId, TagSet};
use shogi_core::{Bitboard, Color, Handicap, Move, PlayError, Position, Role, Variant};
use std::cell::Cell;
use std::sync::OnceLock;

/// A tag a side formed, and the ply (1-based, from the start of the record) of the move that
/// first completed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TagHit {
    /// The tag.
    pub tag: TagId,
    /// The ply of the completing move.
    pub ply: u32,
}

/// A side's class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SideClass {
    /// 居飛車: no opening of the 振り飛車 class.
    StaticRook,
    /// 振り飛車: an opening of the 振り飛車 class.
    RangingRook,
}

impl SideClass {
    /// 居飛車 or 振り飛車.
    pub const fn japanese(self) -> &'static str {
        match self {
            SideClass::StaticRook => "居飛車",
            SideClass::RangingRook => "振り飛車",
        }
    }
}

/// The game's class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameClass {
    /// 相居飛車: both sides Static Rook (and at least one opening recognised).
    DoubleStaticRook,
    /// 対抗形: one side Ranging Rook.
    StaticVsRanging,
    /// 相振り飛車: both sides Ranging Rook.
    DoubleRangingRook,
    /// 力戦: no opening recognised for either side.
    Unclassified,
}

impl GameClass {
    /// All classes.
    pub const ALL: [GameClass; 4] = [
        GameClass::DoubleStaticRook,
        GameClass::StaticVsRanging,
        GameClass::DoubleRangingRook,
        GameClass::Unclassified,
    ];

    /// 相居飛車, 対抗形, 相振り飛車 or 力戦.
    pub const fn japanese(self) -> &'static str {
        match self {
            GameClass::DoubleStaticRook => "相居飛車",
            GameClass::StaticVsRanging => "対抗形",
            GameClass::DoubleRangingRook => "相振り飛車",
            GameClass::Unclassified => "力戦",
        }
    }
}

/// What one side formed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideTags {
    /// Openings (戦法) in the order they formed.
    pub openings: Vec<TagHit>,
    /// Castles (囲い) in the order they formed.
    pub castles: Vec<TagHit>,
    /// 居飛車 or 振り飛車.
    pub class: SideClass,
}

/// The tags of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameTags {
    /// Sente's (the 下手's in a handicap game) tags.
    pub sente: SideTags,
    /// Gote's (the 上手's) tags.
    pub gote: SideTags,
    /// The game's class.
    pub class: GameClass,
    /// The one main 戦型 (what a `戦型：` header would say); `None` is 力戦.
    pub main: Option<TagId>,
    /// How many plies were replayed before no rule could fire any more (or the line ended).
    pub plies_seen: u32,
}

impl GameTags {
    /// One side's tags.
    pub fn side(&self, color: Color) -> &SideTags {
        match color {
            Color::Black => &self.sente,
            Color::White => &self.gote,
        }
    }

    /// Whether `color`'s openings or castles (`kind`; both for `None`) include `family` or a
    /// descendant of it.
    pub fn has(&self, rules: &RuleSet, color: Color, family: TagId, kind: Option<Kind>) -> bool {
        let s = self.side(color);
        let both = s.openings.iter().chain(&s.castles);
        both.filter(|h| kind.is_none_or(|k| rules.tag(h.tag).kind == k))
            .any(|h| rules.is_within(h.tag, family))
    }
}

/// Whether the taxonomy applies to games from `start`: standard shogi from the even start or
/// the lance handicaps (香落ち, 右香落ち), whoever moves first; not Mini Shogi or other handicaps.
pub fn applies_to(start: &Position) -> bool {
    // The starts, made once (each game asks, and making one parses its SFEN).
    static STARTS: OnceLock<Vec<Position>> = OnceLock::new();
    if start.variant() != Variant::Standard {
        return false;
    }
    let starts = STARTS.get_or_init(|| {
        [Handicap::Even, Handicap::Lance, Handicap::RightLance]
            .iter()
            .filter_map(|h| h.position())
            .collect()
    });
    // The same squares of each colour and of each role is the same pieces: each role's
    // squares of a colour are the two intersected.
    Color::ALL.iter().all(|&c| start.hand(c).is_empty())
        && starts.iter().any(|p| {
            Color::ALL
                .iter()
                .all(|&c| p.by_color(c) == start.by_color(c))
                && Role::ALL.iter().all(|&r| p.by_role(r) == start.by_role(r))
        })
}

/// Replays a main line and recognises its openings and castles, incrementally: [`Recognizer::push`]
/// each move, [`Recognizer::is_done`] says when no rule can fire any more, [`Recognizer::finish`]
/// gives the tags.
#[derive(Clone, Debug)]
pub struct Recognizer<'r> {
    rules: &'r RuleSet,
    pos: Position,
    ply: u32,
    captured: u16,
    given: [TagSet; 2],
    hits: [Vec<TagHit>; 2],
    /// The rules of each side that can still fire.
    active: [RuleBits; 2],
    /// The squares changed since each side's last move (whose rules read them are checked).
    dirty: [Bitboard; 2],
    /// The rules a hand change or a tag given since each side's last move may make hold.
    woken: [RuleBits; 2],
    /// Whether the side has not moved yet (its first move checks every rule).
    fresh: [bool; 2],
    /// The rules checked at this ply (kept to reuse its memory).
    candidates: RuleBits,
    /// The rules a changed square refuses at this ply (kept to reuse its memory).
    refused: RuleBits,
    /// How many rules of `RuleIndex::by_last_ply` have left the active sets.
    expired: usize,
    /// Tests only: check every active rule at every move (what the index must agree with).
    #[cfg(test)]
    exhaustive: bool,
}

impl<'r> Recognizer<'r> {
    /// A recogniser from `start`, or `None` where the taxonomy does not apply ([`applies_to`]).
    pub fn new(rules: &'r RuleSet, start: &Position) -> Option<Recognizer<'r>> {
        applies_to(start).then(|| Recognizer::with_buffers(rules, start, Buffers::default()))
    }

    /// [`Recognizer::new`] (where the taxonomy applies) in the memory of an earlier game's
    /// recogniser.
    fn with_buffers(rules: &'r RuleSet, start: &Position, mut b: Buffers) -> Recognizer<'r> {
        let first = start.side_to_move();
        let n = rules.rules.len();
        let order = &rules.index.by_order;
        for (c, a) in Color::ALL.into_iter().zip(&mut b.active) {
            a.clone_from(&order[usize::from(c != first)]);
        }
        for side in 0..2 {
            b.given[side].reset(rules.len());
            b.hits[side].clear();
            b.woken[side].reset(n);
        }
        b.candidates.reset(n);
        b.refused.reset(n);
        Recognizer {
            rules,
            pos: start.clone(),
            ply: 0,
            captured: 0,
            given: b.given,
            hits: b.hits,
            active: b.active,
            dirty: [Bitboard::EMPTY; 2],
            woken: b.woken,
            fresh: [true; 2],
            candidates: b.candidates,
            refused: b.refused,
            expired: 0,
            #[cfg(test)]
            exhaustive: false,
        }
    }

    /// Whether no rule can fire any more (the rest of the game need not be replayed).
    pub fn is_done(&self) -> bool {
        self.active[0].is_empty() && self.active[1].is_empty()
    }

    /// Plays the next move (checked: an illegal move is refused and changes nothing) and
    /// records the tags it completes.
    pub fn push(&mut self, mv: Move) -> Result<(), PlayError> {
        self.pos.check_move(mv)?;
        self.push_legal(mv);
        Ok(())
    }

    /// [`Recognizer::push`] for a move known to be legal where it stands (a main line already
    /// replayed and checked, as a record reader gives it): not checked again. An illegal move
    /// gives meaningless tags (never a panic or unsafety).
    pub fn push_legal(&mut self, mv: Move) {
        let mover = self.pos.side_to_move();
        let (role, captured) = match mv {
            Move::Drop { role, .. } => (role, None),
            Move::Normal { from, to, .. } => (
                self.pos.piece_at(from).map_or(Role::King, |p| p.role),
                self.pos.piece_at(to).map(|p| p.role.unpromote()),
            ),
        };
        self.pos.play_unchecked(mv);
        self.ply += 1;
        if let Some(c) = captured.filter(|c| self.captured >> c.index() & 1 == 0) {
            // The first capture of this piece ends the rules that must come before it.
            self.captured |= 1 << c.index();
            for a in &mut self.active {
                a.remove_all(&self.rules.index.ended_by_capture[c.index()]);
            }
        }
        let changed = mv.from().map_or(Bitboard::EMPTY, Bitboard::from_square)
            | Bitboard::from_square(mv.to());
        for d in &mut self.dirty {
            *d |= changed;
        }
        let me = mover.index();
        let ix = &self.rules.index;
        let hand_role = match mv {
            Move::Drop { role, .. } => Some(role),
            Move::Normal { .. } => captured.filter(|c| c.is_hand_role()),
        };
        if let Some(r) = hand_role {
            for (owner, woken) in self.woken.iter_mut().enumerate() {
                woken.union(&ix.woken_by_hand[usize::from(owner != me)][r.index()]);
            }
        }
        self.select_candidates(me, role, mv, captured);
        let mut at = 0;
        while let Some(i) = self.candidates.next_from(at) {
            at = i + 1;
            if !self.exhaustive()
                && !self.rules.index.quick[me][i].passes(&self.pos, mover, mv.to())
            {
                continue;
            }
            let rule = &self.rules.rules[i];
            if !self.given[me].contains(rule.tag) && self.check(rule, mover, mv, role, captured) {
                self.given[me].insert(rule.tag);
                self.hits[me].push(TagHit {
                    tag: rule.tag,
                    ply: self.ply,
                });
                // The tag's other rules are done; the rules after this one that read tags
                // may hold now, at this same move.
                let ix = &self.rules.index;
                for &r in &ix.of_tag[rule.tag.index()] {
                    self.active[me].remove(r);
                }
                for (owner, woken) in self.woken.iter_mut().enumerate() {
                    woken.union(&ix.woken_by_tag[usize::from(owner != me)][rule.tag.index()]);
                }
                self.candidates.union(&ix.woken_by_tag[0][rule.tag.index()]);
                self.candidates.intersect(&self.active[me]);
            }
        }
        // Rules whose last ply this was leave the sets.
        let by_last = &self.rules.index.by_last_ply;
        while let Some(&(_, r)) = by_last.get(self.expired).filter(|e| e.0 <= self.ply) {
            for a in &mut self.active {
                a.remove(r);
            }
            self.expired += 1;
        }
    }

    /// The rules of side `me` this move `mv` of `role` (capturing `captured`) can affect,
    /// into `candidates` (and the side's changes marked seen). The sets are combined a word
    /// at a time in few passes: this runs at every ply.
    fn select_candidates(&mut self, me: usize, role: Role, mv: Move, captured: Option<Role>) {
        let ix = &self.rules.index;
        let fresh = self.fresh[me];
        // Every set has the same words: sliced to one length, the loops check no bounds.
        let c = self.candidates.words_mut();
        let n = c.len();
        let refused = &mut self.refused.words_mut()[..n];
        let woken = &mut self.woken[me].words_mut()[..n];
        let (board, every) = (&ix.board.words()[..n], &ix.every_move.words()[..n]);
        let kind = RuleIndex::move_kind(mv.is_drop(), captured);
        let by_move = &ix.refused_by_move[kind].words()[..n];
        for w in 0..n {
            // A side's first move checks every board rule.
            c[w] = if fresh { board[w] } else { woken[w] | every[w] };
            woken[w] = 0;
            refused[w] = by_move[w];
        }
        if ix.move_to[me].contains(mv.to()) {
            let row = &ix.on_move[me].row(RuleIndex::move_key(role, mv.to()))[..n];
            for w in 0..n {
                c[w] |= row[w];
            }
        }
        let owner = if me == 0 { Color::Black } else { Color::White };
        // On a first move what a square asks adds nothing (every board rule is in).
        let asked = if fresh { 0 } else { u64::MAX };
        for sq in self.dirty[me] & ix.read[me] {
            let key = 2 * RuleIndex::content_key(sq, RuleIndex::content(&self.pos, owner, sq));
            let asks = &ix.on_content[me].row(key)[..n];
            let refuses = &ix.on_content[me].row(key + 1)[..n];
            for w in 0..n {
                c[w] |= asks[w] & asked;
                refused[w] |= refuses[w];
            }
        }
        let active = &self.active[me].words()[..n];
        for w in 0..n {
            c[w] &= active[w] & !refused[w];
        }
        #[cfg(test)]
        if self.exhaustive {
            self.candidates.clear();
            self.candidates.union(&self.active[me]);
        }
        self.fresh[me] = false;
        self.dirty[me] = Bitboard::EMPTY;
    }

    /// Whether every active rule is checked at every move (tests only).
    fn exhaustive(&self) -> bool {
        #[cfg(test)]
        return self.exhaustive;
        #[cfg(not(test))]
        false
    }

    fn check(
        &self,
        rule: &Rule,
        mover: Color,
        mv: Move,
        role: Role,
        captured: Option<Role>,
    ) -> bool {
        if rule.eq_ply.is_some_and(|e| e != self.ply)
            || rule.max_ply < self.ply
            || rule.before_capture & self.captured != 0
        {
            return false;
        }
        let m = &rule.masks[mover.index()];
        if let Some(cond) = &rule.moved {
            if cond.role.is_some_and(|r| r != role)
                || cond.drop != mv.is_drop()
                || !m.to.contains(mv.to())
                || cond.captures.is_some_and(|c| captured != Some(c))
            {
                return false;
            }
            if m.from.is_some() && mv.from() != m.from {
                return false;
            }
        }
        let pos = &self.pos;
        let opp = mover.opposite();
        if pos.by_color(mover) & m.own_any != m.own_any
            || (pos.occupied() & m.empty).any()
            || m.own.iter().any(|&(r, b)| pos.pieces(mover, r) & b != b)
            || m.opponent.iter().any(|&(r, b)| pos.pieces(opp, r) & b != b)
            || m.not_own
                .iter()
                .any(|&(r, b)| (pos.pieces(mover, r) & b).any())
            || (!m.any_own.is_empty()
                && !m
                    .any_own
                    .iter()
                    .any(|&(r, b)| (pos.pieces(mover, r) & b).any()))
        {
            return false;
        }
        if rule.hand.as_ref().is_some_and(|h| !hand_ok(h, pos, mover))
            || rule
                .opponent_hand
                .as_ref()
                .is_some_and(|h| !hand_ok(h, pos, opp))
        {
            return false;
        }
        let has =
            |side: Color, t: TagId| self.given[side.index()].meets(&self.rules.below[t.index()]);
        rule.requires.iter().all(|&t| has(mover, t))
            && !rule.excludes.iter().any(|&t| has(mover, t))
            && rule.opponent_has.iter().all(|&t| has(opp, t))
            && !rule.opponent_lacks.iter().any(|&t| has(opp, t))
    }

    /// The tags found, with the classes and the main 戦型.
    pub fn finish(self) -> GameTags {
        self.finish_keeping().0
    }

    /// [`Recognizer::finish`], and the memory for the next game's recogniser.
    fn finish_keeping(self) -> (GameTags, Buffers) {
        let rules = self.rules;
        let side = |c: Color| {
            let hits = &self.hits[c.index()];
            let pick = |k: Kind| {
                hits.iter()
                    .copied()
                    .filter(|h| rules.tag(h.tag).kind == k)
                    .collect::<Vec<_>>()
            };
            let openings = pick(Kind::Opening);
            let ranging = rules
                .furibisha()
                .is_some_and(|f| openings.iter().any(|h| rules.tag(h.tag).class == f));
            SideTags {
                castles: pick(Kind::Castle),
                openings,
                class: if ranging {
                    SideClass::RangingRook
                } else {
                    SideClass::StaticRook
                },
            }
        };
        let (sente, gote) = (side(Color::Black), side(Color::White));
        let class = match (sente.class, gote.class) {
            (SideClass::RangingRook, SideClass::RangingRook) => GameClass::DoubleRangingRook,
            (SideClass::StaticRook, SideClass::StaticRook)
                if sente.openings.is_empty() && gote.openings.is_empty() =>
            {
                GameClass::Unclassified
            }
            (SideClass::StaticRook, SideClass::StaticRook) => GameClass::DoubleStaticRook,
            _ => GameClass::StaticVsRanging,
        };
        let main = match class {
            GameClass::Unclassified => None,
            GameClass::DoubleRangingRook => rules.ai_furibisha(),
            _ => {
                // The ranging side names a 対抗形; in 相居飛車 both sides count.
                let sides = [&sente, &gote].into_iter().filter(|s| {
                    class == GameClass::DoubleStaticRook || s.class == SideClass::RangingRook
                });
                let mut best: Option<(u8, u32, TagId)> = None;
                for s in sides {
                    for h in s.openings.iter().chain(&s.castles) {
                        if let Some((p, header)) = rules.header_of(h.tag) {
                            if best.is_none_or(|(bp, bply, _)| p > bp || (p == bp && h.ply < bply))
                            {
                                best = Some((p, h.ply, header));
                            }
                        }
                    }
                }
                best.map(|b| b.2)
            }
        };
        let tags = GameTags {
            sente,
            gote,
            class,
            main,
            plies_seen: self.ply,
        };
        let buffers = Buffers {
            given: self.given,
            hits: self.hits,
            active: self.active,
            woken: self.woken,
            candidates: self.candidates,
            refused: self.refused,
        };
        (tags, buffers)
    }
}

fn hand_ok(h: &HandRule, pos: &Position, side: Color) -> bool {
    let hand = pos.hand(side);
    Role::HAND.iter().enumerate().all(|(i, &r)| {
        let n = hand.count(r);
        h.exact.is_none_or(|e| e[i] == n) && n >= h.at_least[i] && (h.lacks >> i & 1 == 0 || n == 0)
    })
}

/// [`recognise`] for moves known to be legal (a main line already checked, as
/// `shogi_kif::MainLine` replays it): no move is checked again.
pub fn recognise_legal(
    rules: &RuleSet,
    start: &Position,
    moves: impl IntoIterator<Item = Move>,
) -> Option<GameTags> {
    replay(rules, start, moves, |r, mv| {
        r.push_legal(mv);
        true
    })
}

/// Recognises the openings and castles of the main line `moves` from `start` with `rules`:
/// `None` where the taxonomy does not apply ([`applies_to`]). Replaying stops at the first
/// illegal move (the tags are those of the line up to it) and once no rule can fire any more.
pub fn recognise(
    rules: &RuleSet,
    start: &Position,
    moves: impl IntoIterator<Item = Move>,
) -> Option<GameTags> {
    replay(rules, start, moves, |r, mv| r.push(mv).is_ok())
}

/// Plays `moves` with `step` (false: stop) while a rule can still fire.
fn replay(
    rules: &RuleSet,
    start: &Position,
    moves: impl IntoIterator<Item = Move>,
    mut step: impl FnMut(&mut Recognizer<'_>, Move) -> bool,
) -> Option<GameTags> {
    thread_local! {
        /// The memory of the thread's last recogniser (a batch tags many games per thread).
        static SPARE: Cell<Buffers> = Cell::new(Buffers::default());
    }
    if !applies_to(start) {
        return None;
    }
    let mut r = Recognizer::with_buffers(rules, start, SPARE.take());
    for mv in moves {
        if r.is_done() || !step(&mut r, mv) {
            break;
        }
    }
    let (tags, buffers) = r.finish_keeping();
    SPARE.set(buffers);
    Some(tags)
}

/// The memory of a recogniser, kept from one game to the next.
#[derive(Debug, Default)]
struct Buffers {
    given: [TagSet; 2],
    hits: [Vec<TagHit>; 2],
    active: [RuleBits; 2],
    woken: [RuleBits; 2],
    candidates: RuleBits,
    refused: RuleBits,
}

#[cfg(test)]
#[path = "recognise_tests.rs"]
mod tests;
