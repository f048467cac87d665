//! The df-pn search (Nagai's depth-first proof-number search with the "+1" thresholds),
//! over shogi-core's legal moves: checks for the attacker (OR nodes), every legal reply for
//! the defender (AND nodes; the attacker checks each time, so these are the evasions).

use crate::key::{PackedHand, board_key_after};
use crate::tt::{BIG, INF, NO_DEPTH_LIMIT, Table, Values};
use shogi_core::{Color, Move, Position, Role};
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::{Duration, Instant};

/// Why a search stopped before an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// The node budget was spent.
    Nodes,
    /// The time budget was spent.
    Time,
    /// Every line left unproven reached the depth cap (plies from the root).
    Depth,
    /// The table was too small to keep the proof (its proof was written over and could not be
    /// found again for the principal variation).
    Memory,
}

impl Limit {
    /// A lower-case name: `nodes`, `time`, `depth`, `memory`.
    pub fn name(self) -> &'static str {
        match self {
            Limit::Nodes => "nodes",
            Limit::Time => "time",
            Limit::Depth => "depth",
            Limit::Memory => "memory",
        }
    }
}

/// Keys already on a set are random: an identity hasher is enough.
#[derive(Default)]
pub(crate) struct IdHasher(u64);
impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 << 8) | u64::from(*b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}
pub(crate) type KeySet = HashSet<u64, BuildHasherDefault<IdHasher>>;

struct Child {
    mv: Move,
    key: u64,
    hand: PackedHand,
    pn: u32,
    dn: u32,
    len: u16,
    rep: bool,
    /// Plies left for the child.
    rem: u16,
    /// A futile interposition (counted as no plies under the tsume conventions).
    futile: bool,
    /// The tie-break among children with the same number (lower first): see [`check_order`]
    /// and [`evasion_order`].
    order: u8,
}

/// The order of a check among checks of the same proof number: captures, then the other
/// moves of pieces, then drops. (Measured on the hard set against the generator's order:
/// 2.8% fewer nodes, 913 solved instead of 910.)
#[inline(always)]
fn check_order(m: Move, captured: Option<Role>) -> u8 {
    match (m, captured) {
        (_, Some(_)) => 0,
        (Move::Normal { .. }, None) => 1,
        (Move::Drop { .. }, None) => 2,
    }
}

/// The order of a reply among replies of the same disproof number: captures first, the most
/// valuable piece first (rook, bishop, gold, silver, knight, lance, pawn, promoted or not),
/// then the others in the generator's order. A capture is the likeliest refutation. (With
/// [`check_order`], on the hard set: 6.5% fewer nodes than the generator's order, 912 solved;
/// on 300 real-game positions after ply 60, mostly without mate: 3% fewer nodes.)
#[inline(always)]
fn evasion_order(captured: Option<Role>) -> u8 {
    match captured.map(Role::unpromote) {
        Some(Role::Rook) => 0,
        Some(Role::Bishop) => 1,
        Some(Role::Gold) => 2,
        Some(Role::Silver) => 3,
        Some(Role::Knight) => 4,
        Some(Role::Lance) => 5,
        Some(_) => 6,
        None => 7,
    }
}

/// The search state of one problem.
pub(crate) struct Search<'a> {
    pub(crate) tt: &'a mut Table,
    pub(crate) attacker: Color,
    pub(crate) nodes: u64,
    pub(crate) node_limit: u64,
    pub(crate) deadline: Option<Instant>,
    pub(crate) stopped: Option<Limit>,
    /// Full keys (board and attacker's hand) of the positions on the current path.
    pub(crate) path: KeySet,
    /// Whether futile interpositions are left out of lengths (the tsume conventions).
    pub(crate) futile: bool,
    /// The children of every node on the current path, one above the other (one buffer for
    /// the whole search: no allocation per node).
    stack: Vec<Child>,
}

#[inline(always)]
pub(crate) fn full_key(key: u64, hand: PackedHand) -> u64 {
    key ^ hand.hash()
}

#[inline(always)]
pub(crate) fn path_step(path: u64, full: u64) -> u64 {
    (path ^ full)
        .rotate_left(17)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

#[inline(always)]
fn sat_add(a: u32, b: u32) -> u32 {
    a.saturating_add(b).min(BIG)
}

#[inline(always)]
fn depth_plus_one(d: u16) -> u16 {
    if d == NO_DEPTH_LIMIT {
        d
    } else {
        d.saturating_add(1).min(NO_DEPTH_LIMIT - 1)
    }
}

impl Search<'_> {
    /// A new search over `tt` for `attacker`.
    pub(crate) fn new(
        tt: &mut Table,
        attacker: Color,
        node_limit: u64,
        time: Option<Duration>,
    ) -> Search<'_> {
        Search {
            tt,
            attacker,
            nodes: 0,
            node_limit,
            deadline: time.map(|t| Instant::now() + t),
            stopped: None,
            path: KeySet::default(),
            futile: false,
            stack: Vec::new(),
        }
    }

    /// The attacker's hand, packed (counts were checked when the problem was set up).
    #[inline(always)]
    pub(crate) fn hand_of(&self, pos: &Position) -> PackedHand {
        PackedHand::new(pos.hand(self.attacker)).unwrap_or(PackedHand(u64::MAX >> 8))
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            self.stopped = Some(Limit::Nodes);
            return false;
        }
        if self.nodes & 1023 == 0 {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.stopped = Some(Limit::Time);
                    return false;
                }
            }
        }
        true
    }

    /// Searches `pos` (key `key`, attacker's hand `hand`) until its proof number reaches
    /// `th_pn` or its disproof number `th_dn`, with `rem` plies left, on the path `path`.
    // Over 100 lines on purpose: df-pn's MID procedure, the search's hot loop (expand, then
    // pick the best child and recurse under its thresholds until they are crossed); its state is
    // the children's numbers on the shared stack, which a split would have to pass around.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn mid(
        &mut self,
        pos: &Position,
        key: u64,
        hand: PackedHand,
        or: bool,
        th_pn: u32,
        th_dn: u32,
        rem: u16,
        path: u64,
    ) -> Values {
        let start_nodes = self.nodes;
        if !self.tick() {
            return Values::open(1, 1);
        }
        let full = full_key(key, hand);
        let base = self.stack.len();
        let children = &mut self.stack;
        if or {
            if rem == 0 {
                let v = Values::disproof(0, false);
                self.tt
                    .store(key, hand, v.pn, v.dn, v.len, false, path, rem, 1);
                return v;
            }
            // First the checks and their keys, each child's table cluster asked for at
            // once (the reads then overlap), then the children's numbers.
            let tt = &*self.tt;
            pos.for_each_check(|m| {
                let ckey = board_key_after(pos, key, m);
                let captured = captured_role(pos, m);
                let chand = hand_after(hand, m, captured);
                tt.prefetch(ckey);
                tt.prefetch_evasions(full_key(ckey, chand));
                children.push(Child {
                    mv: m,
                    key: ckey,
                    hand: chand,
                    pn: 1,
                    dn: 1,
                    len: 0,
                    rep: false,
                    rem: rem - 1,
                    futile: false,
                    order: check_order(m, captured),
                });
            });
            let cpath = path_step(path, full);
            let mut mate_in_one = None;
            for i in base..self.stack.len() {
                let c = &mut self.stack[i];
                let (m, ckey, chand) = (c.mv, c.key, c.hand);
                let cfull = full_key(ckey, chand);
                if self.path.contains(&cfull) {
                    (c.pn, c.dn, c.len, c.rep) = (INF, 0, NO_DEPTH_LIMIT, true);
                } else if let Some(f) = self.tt.lookup(ckey, chand, rem - 1, cpath) {
                    (c.pn, c.dn, c.len, c.rep) = (f.pn, f.dn, f.len, f.rep);
                } else {
                    // A new child: its evasions are counted (df-pn+'s initial proof number,
                    // and a mate in one when there are none). Counts are kept in the table's
                    // small count cache, not as entries: the entries cost more than they
                    // saved (measured on the hard set: 4-13% more time, 0.5% more nodes).
                    let n = match self.tt.evasions(cfull) {
                        Some(n) => u64::from(n),
                        None => {
                            let mut p = pos.clone();
                            p.play_unchecked(m);
                            let n = p.count_evasions();
                            if n > 0 {
                                self.tt.set_evasions(cfull, n);
                            }
                            n
                        }
                    };
                    if n == 0 {
                        mate_in_one = Some(m);
                        (c.pn, c.dn) = (0, INF);
                    } else if rem - 1 == 0 {
                        // No plies left after this check: only a mate in one counts.
                        (c.pn, c.dn) = (INF, 0);
                    } else {
                        c.pn = (n as u32).min(BIG);
                    }
                }
                if c.pn == 0 && c.len == 0 {
                    mate_in_one = Some(m);
                }
                if mate_in_one.is_some() {
                    break;
                }
            }
            let children = &mut self.stack;
            if mate_in_one.is_some() {
                children.truncate(base);
                let v = Values::proof(1);
                self.tt.store(
                    key,
                    hand,
                    0,
                    INF,
                    1,
                    false,
                    path,
                    rem,
                    self.nodes - start_nodes + 1,
                );
                return v;
            }
        } else {
            let cpath = path_step(path, full);
            let futile_rule = self.futile;
            let tt = &*self.tt;
            pos.for_each_legal_move(|m| {
                let ckey = board_key_after(pos, key, m);
                // Under the tsume conventions a futile interposition and its capture count no
                // plies: the position after the drop gets two plies more than the others.
                let futile = futile_rule && crate::futile::is_futile(pos, m);
                let crem = if futile {
                    rem.saturating_add(1)
                } else {
                    rem.saturating_sub(1)
                };
                // The defender's moves never change the attacker's hand.
                let c = Child {
                    mv: m,
                    key: ckey,
                    hand,
                    pn: 1,
                    dn: 1,
                    len: 0,
                    rep: false,
                    rem: crem,
                    futile,
                    order: evasion_order(captured_role(pos, m)),
                };
                if crem > 0 {
                    tt.prefetch(ckey);
                }
                children.push(c);
            });
            for c in &mut self.stack[base..] {
                if self.path.contains(&full_key(c.key, hand)) {
                    (c.pn, c.dn, c.len, c.rep) = (INF, 0, NO_DEPTH_LIMIT, true);
                } else if c.rem == 0 {
                    (c.pn, c.dn) = (INF, 0);
                } else if let Some(f) = self.tt.lookup(c.key, hand, c.rem, cpath) {
                    (c.pn, c.dn, c.len, c.rep) = (f.pn, f.dn, f.len, f.rep);
                }
            }
        }
        self.path.insert(full);
        let cpath = path_step(path, full);
        let mut values;
        loop {
            let children = &self.stack[base..];
            values = summarize(children, or);
            if values.pn == 0 || values.dn == 0 || values.pn >= th_pn || values.dn >= th_dn {
                break;
            }
            // The best child and the second-best number.
            let (best, second) = select(children, or);
            let c = &children[best];
            let (cth_pn, cth_dn) = if or {
                (
                    th_pn.min(epsilon_bound(second)),
                    child_threshold(th_dn, values.dn, c.dn),
                )
            } else {
                (
                    child_threshold(th_pn, values.pn, c.pn),
                    th_dn.min(epsilon_bound(second)),
                )
            };
            let mut p = pos.clone();
            p.play_unchecked(c.mv);
            let (ckey, chand, crem) = (c.key, c.hand, c.rem);
            let v = self.mid(&p, ckey, chand, !or, cth_pn, cth_dn, crem, cpath);
            if self.stopped.is_some() {
                self.path.remove(&full);
                self.stack.truncate(base);
                return values;
            }
            let c = &mut self.stack[base + best];
            (c.pn, c.dn, c.len, c.rep) = (v.pn, v.dn, v.len, v.rep);
        }
        self.path.remove(&full);
        self.stack.truncate(base);
        self.tt.store(
            key,
            hand,
            values.pn,
            values.dn,
            values.len,
            values.rep,
            path,
            rem,
            self.nodes - start_nodes,
        );
        values
    }
}

/// The role of the piece the move `m` takes in `pos`, if any.
#[inline(always)]
fn captured_role(pos: &Position, m: Move) -> Option<Role> {
    match m {
        Move::Drop { .. } => None,
        Move::Normal { to, .. } => pos.piece_at(to).map(|p| p.role),
    }
}

/// The attacker's hand after its move `m`, which takes a piece of role `captured` if any.
#[inline(always)]
fn hand_after(hand: PackedHand, m: Move, captured: Option<Role>) -> PackedHand {
    match (m, captured) {
        (Move::Drop { role, .. }, _) => PackedHand(hand.0 - (1u64 << (8 * role.index()))),
        (Move::Normal { .. }, Some(r)) => {
            PackedHand(hand.0 + (1u64 << (8 * r.unpromote().index())))
        }
        (Move::Normal { .. }, None) => hand,
    }
}

/// The best child's threshold from the second-best number: the 1+ε trick (Pawlewicz and Lew)
/// with ε = 1/4, so the search stays longer in one subtree than with df-pn's plain "+1" and
/// switches back and forth (re-expanding) less.
#[inline(always)]
fn epsilon_bound(second: u32) -> u32 {
    second.saturating_add(second / 4).saturating_add(1)
}

#[inline]
fn child_threshold(th: u32, total: u32, child: u32) -> u32 {
    let t = u64::from(th) + u64::from(child);
    t.saturating_sub(u64::from(total)).min(u64::from(BIG)) as u32
}

/// The node's numbers from its children's, with the proof length or disproof depth.
fn summarize(children: &[Child], or: bool) -> Values {
    if or {
        let mut pn = INF;
        let mut dn = 0u32;
        let mut len = u16::MAX;
        let mut dis = NO_DEPTH_LIMIT;
        let mut rep = false;
        for c in children {
            if c.pn == 0 {
                len = len.min(c.len);
            }
            pn = pn.min(c.pn);
            dn = sat_add(dn, c.dn);
            if c.dn == 0 {
                dis = dis.min(c.len);
                rep |= c.rep;
            }
        }
        if pn == 0 {
            Values::proof(len.saturating_add(1))
        } else if dn == 0 {
            // Every check is refuted (or there is none): no mate within one more ply than the
            // shallowest refutation holds for.
            Values::disproof(depth_plus_one(dis), rep)
        } else {
            Values::open(pn, dn)
        }
    } else {
        let mut pn = 0u32;
        let mut dn = INF;
        let mut len = 0u16;
        let mut refutation: Option<(bool, u16)> = None;
        for c in children {
            pn = sat_add(pn, c.pn);
            dn = dn.min(c.dn);
            if c.pn == 0 {
                // A futile interposition and its capture count no plies.
                let l = if c.futile {
                    c.len.saturating_sub(1)
                } else {
                    c.len.saturating_add(1)
                };
                len = len.max(l);
            }
            if c.dn == 0 {
                let d = if c.futile {
                    if c.len == NO_DEPTH_LIMIT {
                        c.len
                    } else {
                        c.len.saturating_sub(1)
                    }
                } else {
                    depth_plus_one(c.len)
                };
                // Prefer a refutation that holds on every path, then the deepest.
                let cand = (!c.rep, d);
                if refutation.is_none_or(|r| cand > r) {
                    refutation = Some(cand);
                }
            }
        }
        if let Some((clean, d)) = refutation {
            Values::disproof(d, !clean)
        } else if pn == 0 {
            Values::proof(len)
        } else {
            Values::open(pn, dn)
        }
    }
}

/// The child to search and the second-best number (pn at OR nodes, dn at AND nodes); among
/// equal numbers, the lowest [`Child::order`], then the first.
fn select(children: &[Child], or: bool) -> (usize, u32) {
    let mut best = 0;
    let mut best_v = INF;
    let mut best_order = u8::MAX;
    let mut second = INF;
    for (i, c) in children.iter().enumerate() {
        let v = if or { c.pn } else { c.dn };
        if v < best_v || (v == best_v && c.order < best_order) {
            second = best_v;
            best_v = v;
            best_order = c.order;
            best = i;
        } else if v < second {
            second = v;
        }
    }
    (best, second)
}
