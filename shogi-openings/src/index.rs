//! Which rules a ply can affect: the recogniser checks only those.
//!
//! A rule with a `moved` condition can hold only on a move of its piece to one of its squares,
//! so it is indexed by both. A rule without one is a function of the squares its diagram names, the hands
//! (with a hand condition), the tags given (with a tag condition) and the ply; the ply and the
//! captures can only end it. Such a rule that did not hold at its owner's last move cannot
//! hold now unless one of its squares, a hand it reads or a tag changed since: it is indexed
//! by each square it reads, and by hands and tags. Rules with an exact ply are checked at
//! every move of their owner.

use crate::parse::{HandCond, Order};
use crate::ruleset::{Rule, TagId, TagSet};
use shogi_core::{Bitboard, Color, Position, Role, Square};
use std::collections::HashMap;

/// A set of rules as bits, indexed like `RuleSet::rules`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub(crate) struct RuleBits(Vec<u64>);

impl RuleBits {
    /// The empty set for `n` rules.
    pub fn new(n: usize) -> RuleBits {
        RuleBits(vec![0; n.div_ceil(64)])
    }

    pub fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    /// Makes this the empty set of `n` rules, keeping its memory.
    pub fn reset(&mut self, n: usize) {
        self.0.clear();
        self.0.resize(n.div_ceil(64), 0);
    }

    /// The words, for a caller that combines several sets in one pass.
    pub fn words(&self) -> &[u64] {
        &self.0
    }

    /// The words, to be written in one pass.
    pub fn words_mut(&mut self) -> &mut [u64] {
        &mut self.0
    }

    pub fn remove(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Removes every rule of `other`.
    pub fn remove_all(&mut self, other: &RuleBits) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a &= !b;
        }
    }

    #[cfg(test)]
    pub fn clear(&mut self) {
        self.0.iter_mut().for_each(|w| *w = 0);
    }

    /// Adds every rule of `other` (a set of the same rules).
    pub fn union(&mut self, other: &RuleBits) {
        self.union_words(&other.0);
    }

    /// Adds every rule of a row of a [`RuleTable`].
    pub fn union_words(&mut self, other: &[u64]) {
        for (a, b) in self.0.iter_mut().zip(other) {
            *a |= b;
        }
    }

    /// Keeps only the rules of `other`.
    pub fn intersect(&mut self, other: &RuleBits) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a &= b;
        }
    }

    /// The first rule from `i` on.
    pub fn next_from(&self, i: usize) -> Option<usize> {
        let mut k = i / 64;
        let mut w = *self.0.get(k)? & (u64::MAX << (i % 64));
        loop {
            if w != 0 {
                return Some(k * 64 + w.trailing_zeros() as usize);
            }
            k += 1;
            w = *self.0.get(k)?;
        }
    }
}

/// Rows of rule sets, each distinct row stored once (most rows repeat: empty, or the same few
/// rules), so that the table stays small enough to stay in the cache.
#[derive(Clone, Debug)]
pub(crate) struct RuleTable {
    words: usize,
    /// For each row, the place of its words in `pool` (in rows; a table has fewer than
    /// 65,536 rows, so fewer distinct ones).
    at: Vec<u16>,
    /// The distinct rows, `words` each.
    pool: Vec<u64>,
}

impl RuleTable {
    /// The table of `rows` rows of a dense build (`words` words a row).
    fn pack(rows: usize, words: usize, dense: &[u64]) -> RuleTable {
        if words == 0 {
            // No rules: every row is the one empty row.
            return RuleTable {
                words,
                at: vec![0; rows],
                pool: Vec::new(),
            };
        }
        let mut seen: HashMap<&[u64], u16> = HashMap::new();
        let mut pool = Vec::new();
        let at = dense
            .chunks(words)
            .map(|row| {
                *seen.entry(row).or_insert_with(|| {
                    pool.extend_from_slice(row);
                    u16::try_from(pool.len() / words - 1).expect("fewer than 65,536 rows")
                })
            })
            .collect();
        RuleTable { words, at, pool }
    }

    /// A row's words.
    #[inline]
    pub fn row(&self, row: usize) -> &[u64] {
        let k = self.at[row] as usize * self.words;
        &self.pool[k..k + self.words]
    }
}

/// A [`RuleTable`] being built: every row dense.
struct DenseTable {
    rows: usize,
    words: usize,
    bits: Vec<u64>,
}

impl DenseTable {
    fn new(rows: usize, n: usize) -> DenseTable {
        let words = n.div_ceil(64);
        DenseTable {
            rows,
            words,
            bits: vec![0; rows * words],
        }
    }

    fn insert(&mut self, row: usize, i: usize) {
        self.bits[row * self.words + i / 64] |= 1 << (i % 64);
    }

    fn pack(&self) -> RuleTable {
        RuleTable::pack(self.rows, self.words, &self.bits)
    }
}

/// The rules each kind of change can affect.
#[derive(Clone, Debug)]
pub(crate) struct RuleIndex {
    /// For an owner colour, a role (by `Role::index`) and a target square (by
    /// `Square::index`): the rules whose completing move can be that role's move to that
    /// square (a rule of any role, or of any square, is under each).
    pub on_move: [RuleTable; 2],
    /// For an owner colour (0 sente, 1 gote), a square and what stands on it now (by
    /// [`RuleIndex::content_key`]): at `2 * key`, the rules without a moved condition whose
    /// diagram asks for that content there (one piece of an any-of group included); at
    /// `2 * key + 1`, every rule whose diagram refuses it there. A rule that did not hold at
    /// its owner's last move can hold now only if a changed square gives it what it asks
    /// for, and none refuses it.
    pub on_content: [RuleTable; 2],
    /// For an owner colour, every square some rule reads (a change elsewhere is not looked
    /// up).
    pub read: [Bitboard; 2],
    /// For an owner colour, every square some rule's completing move may go to.
    pub move_to: [Bitboard; 2],
    /// For a hand (0 the owner's, 1 the opponent's) and a role in it (by `Role::index`): the
    /// rules without a moved condition whose condition on that hand names the role (a change
    /// of another role cannot make them hold).
    pub woken_by_hand: [Vec<RuleBits>; 2],
    /// For a side (0 the owner, 1 the opponent) and a tag given to it (by `TagId::index`): the
    /// rules without a moved condition that require that side to have a family of the tag
    /// (`requires`, `opponent-has`; a tag given cannot make any other rule hold).
    pub woken_by_tag: [Vec<RuleBits>; 2],
    /// For a move (by [`RuleIndex::move_kind`]: a drop or not, the role it captures), the
    /// rules with a moved condition that refuse it.
    pub refused_by_move: Vec<RuleBits>,
    /// Rules without a moved condition checked at every move of their owner (an exact ply,
    /// or nothing else to wait for).
    pub every_move: RuleBits,
    /// The rules of a side that moves first (index 0) or second (1) in the game.
    pub by_order: [RuleBits; 2],
    /// Every rule without a moved condition (an owner's first move checks them all).
    pub board: RuleBits,
    /// Rules with a last ply (their ply limit or exact ply), by that ply: they leave the
    /// active sets after it.
    pub by_last_ply: Vec<(u32, usize)>,
    /// For a role (by `Role::index`, unpromoted), the rules its first capture ends.
    pub ended_by_capture: Vec<RuleBits>,
    /// For a tag (by `TagId::index`), its rules (they leave a side's set once it is given).
    pub of_tag: Vec<Vec<usize>>,
    /// For an owner colour, each rule's first tests, packed together (the rules themselves
    /// are large; most candidates fail these).
    pub quick: [Vec<Quick>; 2],
}

/// The squares a rule tests first, for one owner colour.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Quick {
    /// Squares an own piece must stand on.
    pub own: Bitboard,
    /// Squares that must be empty.
    pub empty: Bitboard,
    /// Where the completing move may go (every square without a moved condition).
    pub to: Bitboard,
}

impl Quick {
    /// Whether the rule can hold after a move to `to` by `mover` in `pos`.
    pub fn passes(&self, pos: &Position, mover: Color, to: Square) -> bool {
        self.to.contains(to)
            && pos.by_color(mover) & self.own == self.own
            && (pos.occupied() & self.empty).is_empty()
    }
}

impl RuleIndex {
    /// The index of `rules`, whose tags' families are `below` (for each tag, itself and its
    /// descendants).
    pub fn new(rules: &[Rule], below: &[TagSet]) -> RuleIndex {
        let tags = below.len();
        let n = rules.len();
        let mut on_move = [0, 1].map(|_| DenseTable::new(Role::ALL.len() * Square::COUNT, n));
        let mut on_content = [0, 1].map(|_| DenseTable::new(2 * Square::COUNT * CONTENTS, n));
        let mut ix = RuleIndex {
            on_move: [0, 1].map(|_| RuleTable::pack(0, 0, &[])),
            on_content: [0, 1].map(|_| RuleTable::pack(0, 0, &[])),
            read: [Bitboard::EMPTY; 2],
            move_to: [Bitboard::EMPTY; 2],
            woken_by_hand: [0, 1].map(|_| vec![RuleBits::new(n); Role::HAND.len()]),
            woken_by_tag: [0, 1].map(|_| vec![RuleBits::new(n); below.len()]),
            refused_by_move: vec![RuleBits::new(n); 2 * (Role::ALL.len() + 1)],
            every_move: RuleBits::new(n),
            board: RuleBits::new(n),
            by_order: [RuleBits::new(n), RuleBits::new(n)],
            by_last_ply: Vec::new(),
            ended_by_capture: vec![RuleBits::new(n); Role::ALL.len()],
            of_tag: vec![Vec::new(); tags],
            quick: [0, 1].map(|side| {
                rules
                    .iter()
                    .map(|r| {
                        let m = &r.masks[side];
                        Quick {
                            own: m.own_any,
                            empty: m.empty,
                            to: if r.moved.is_some() {
                                m.to
                            } else {
                                Bitboard::FULL
                            },
                        }
                    })
                    .collect()
            }),
        };
        for (i, r) in rules.iter().enumerate() {
            let last = r.max_ply.min(r.eq_ply.unwrap_or(u32::MAX));
            if last != u32::MAX {
                ix.by_last_ply.push((last, i));
            }
            for role in Role::ALL {
                if r.before_capture >> role.index() & 1 == 1 {
                    ix.ended_by_capture[role.index()].insert(i);
                }
            }
            ix.of_tag[r.tag.index()].push(i);
            for (k, order) in [Order::First, Order::Second].into_iter().enumerate() {
                if r.order.is_none_or(|o| o == order) {
                    ix.by_order[k].insert(i);
                }
            }
            for (side, masks) in r.masks.iter().enumerate() {
                ix.read[side] |= masks.read();
                if r.moved.is_some() {
                    ix.move_to[side] |= masks.to;
                }
                for sq in masks.read() {
                    for content in 0..CONTENTS {
                        let key = 2 * RuleIndex::content_key(sq, content);
                        match masks.asks(sq, content) {
                            Some(true) if r.moved.is_none() => on_content[side].insert(key, i),
                            Some(false) => on_content[side].insert(key + 1, i),
                            _ => {}
                        }
                    }
                }
            }
            if let Some(m) = &r.moved {
                for (side, masks) in r.masks.iter().enumerate() {
                    for role in Role::ALL {
                        if m.role.is_some_and(|want| want != role) {
                            continue;
                        }
                        for to in masks.to {
                            on_move[side].insert(RuleIndex::move_key(role, to), i);
                        }
                    }
                }
                for drop in [false, true] {
                    for captured in Role::ALL.map(Some).into_iter().chain([None]) {
                        if m.drop != drop || m.captures.is_some_and(|c| captured != Some(c)) {
                            ix.refused_by_move[RuleIndex::move_kind(drop, captured)].insert(i);
                        }
                    }
                }
                continue;
            }
            ix.board.insert(i);
            for (whose, hand) in [&r.hand, &r.opponent_hand].into_iter().enumerate() {
                for role in Role::HAND {
                    if hand.as_ref().is_some_and(|h| h.names(role)) {
                        ix.woken_by_hand[whose][role.index()].insert(i);
                    }
                }
            }
            for (whose, wants) in [&r.requires, &r.opponent_has].into_iter().enumerate() {
                for t in 0..tags {
                    if wants
                        .iter()
                        .any(|w| below[w.index()].contains(TagId(t as u16)))
                    {
                        ix.woken_by_tag[whose][t].insert(i);
                    }
                }
            }
            let hand = r.hand.is_some() || r.opponent_hand.is_some();
            let tags = !(r.requires.is_empty()
                && r.excludes.is_empty()
                && r.opponent_has.is_empty()
                && r.opponent_lacks.is_empty());
            let read_any = r.masks.iter().any(|m| m.read().any());
            if r.eq_ply.is_some() || !(read_any || hand || tags) {
                ix.every_move.insert(i);
            }
        }
        ix.by_last_ply.sort_unstable();
        ix.on_move = on_move.map(|t| t.pack());
        ix.on_content = on_content.map(|t| t.pack());
        ix
    }
}

/// What a square can hold, seen from a rule's owner: empty, an own piece of a role, an
/// opponent's piece of a role.
const CONTENTS: usize = 1 + 2 * Role::ALL.len();

impl RuleIndex {
    /// The place of a square's content, seen from `owner`, in [`RuleIndex::on_content`]
    /// (before the doubling for asks / refuses).
    pub fn content_key(sq: Square, content: usize) -> usize {
        sq.index() * CONTENTS + content
    }

    /// What stands on `sq` in `pos`, seen from `owner`, as [`RuleIndex::content_key`] takes it.
    pub fn content(pos: &Position, owner: Color, sq: Square) -> usize {
        match pos.piece_at(sq) {
            None => 0,
            Some(p) if p.color == owner => 1 + p.role.index(),
            Some(p) => 1 + Role::ALL.len() + p.role.index(),
        }
    }

    /// The place of a move that is a drop or not and captures a piece of `captured` (its
    /// unpromoted role) or none in [`RuleIndex::refused_by_move`].
    pub fn move_kind(drop: bool, captured: Option<Role>) -> usize {
        usize::from(drop) * (Role::ALL.len() + 1) + captured.map_or(Role::ALL.len(), Role::index)
    }

    /// The place of a move of `role` to `to` in [`RuleIndex::on_move`].
    pub fn move_key(role: Role, to: Square) -> usize {
        role.index() * Square::COUNT + to.index()
    }
}

impl HandCond {
    /// Whether the condition reads how many pieces of `role` (a hand role) the hand holds.
    fn names(&self, role: Role) -> bool {
        let i = role.index();
        self.exact.is_some() || self.at_least[i] > 0 || self.lacks >> i & 1 == 1
    }
}

impl crate::ruleset::Masks {
    /// Whether the diagram's mark on `sq` holds with `content` there (as
    /// [`RuleIndex::content`] gives it): `Some(true)` it is what the mark asks (or one piece
    /// an any-of group asks for), `Some(false)` the mark refuses it, `None` neither (a square
    /// of an any-of group without its piece, or a square the diagram does not read).
    fn asks(&self, sq: Square, content: usize) -> Option<bool> {
        let own = (1..=Role::ALL.len())
            .contains(&content)
            .then(|| Role::ALL[content - 1]);
        let opp = content
            .checked_sub(1 + Role::ALL.len())
            .map(|i| Role::ALL[i]);
        let at = |v: &[(Role, Bitboard)]| v.iter().find(|e| e.1.contains(sq)).map(|e| e.0);
        if self.empty.contains(sq) {
            Some(content == 0)
        } else if let Some(r) = at(&self.own) {
            Some(own == Some(r))
        } else if let Some(r) = at(&self.opponent) {
            Some(opp == Some(r))
        } else if let Some(r) = at(&self.not_own) {
            Some(own != Some(r))
        } else if let Some(r) = at(&self.any_own) {
            (own == Some(r)).then_some(true)
        } else {
            None
        }
    }

    /// Every square the diagram reads.
    pub fn read(&self) -> Bitboard {
        let roles = |v: &[(Role, Bitboard)]| v.iter().fold(Bitboard::EMPTY, |b, &(_, m)| b | m);
        self.own_any
            | self.empty
            | roles(&self.own)
            | roles(&self.opponent)
            | roles(&self.not_own)
            | roles(&self.any_own)
    }
}

#[cfg(test)]
mod tests {
    use super::RuleBits;

    #[test]
    fn rule_bits_across_words() {
        let mut b = RuleBits::new(130);
        for i in [0, 63, 64, 129] {
            b.insert(i);
        }
        let mut seen = Vec::new();
        let mut at = 0;
        while let Some(i) = b.next_from(at) {
            seen.push(i);
            at = i + 1;
        }
        assert_eq!(seen, [0, 63, 64, 129]);
        assert_eq!(b.next_from(65), Some(129));
        assert_eq!(b.next_from(130), None);
        let mut other = RuleBits::new(130);
        other.insert(63);
        other.insert(64);
        b.remove_all(&other);
        assert_eq!((b.next_from(1), b.next_from(0)), (Some(129), Some(0)));
        b.intersect(&other);
        assert!(b.is_empty());
        b.union(&other);
        b.remove(63);
        assert_eq!(b.next_from(0), Some(64));
    }
}
