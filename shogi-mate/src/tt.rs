//! The transposition table: a fixed number of clusters of entries, sized from a byte budget
//! given once (it never grows). Entries are found by the board key and the attacker's exact
//! hand; proofs are also found for any superior hand and disproofs for any inferior hand.

use crate::key::PackedHand;

/// Proof and disproof numbers are saturated at this value; `INF` itself means "proven".
pub(crate) const INF: u32 = u32::MAX;
/// The largest finite proof or disproof number.
pub(crate) const BIG: u32 = u32::MAX - 1;
/// A disproof depth meaning "no mate at any depth".
pub(crate) const NO_DEPTH_LIMIT: u16 = u16::MAX;

/// What a node's search returns (and the table keeps of it).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Values {
    pub(crate) pn: u32,
    pub(crate) dn: u32,
    /// Proof length, or disproof depth (see [`Entry::len`]).
    pub(crate) len: u16,
    pub(crate) rep: bool,
}

impl Values {
    /// Not decided yet: the numbers only.
    #[inline(always)]
    pub(crate) fn open(pn: u32, dn: u32) -> Values {
        Values {
            pn,
            dn,
            len: 0,
            rep: false,
        }
    }

    /// A mate, with its proof's length.
    #[inline(always)]
    pub(crate) fn proof(len: u16) -> Values {
        Values {
            pn: 0,
            dn: INF,
            len,
            rep: false,
        }
    }

    /// No mate within `len` plies (`rep`: found through a repetition on this path).
    #[inline(always)]
    pub(crate) fn disproof(len: u16, rep: bool) -> Values {
        Values {
            pn: INF,
            dn: 0,
            len,
            rep,
        }
    }
}

const CLUSTER: usize = 8;

/// The clusters in use after a clear (2048 clusters of 8 entries of 32 bytes: 512 KiB),
/// doubled each time the entries in use reach half of them, up to the whole table. A small
/// search so stays within the caches; a large one uses all the memory.
const FIRST_CLUSTERS: usize = 1 << 11;

/// The slots of the evasion-count cache, at most (8 bytes each: 512 KiB, which stays in the
/// caches next to the table).
const COUNTS: usize = 1 << 16;

/// The key bits an evasion-count slot keeps (its top 40; the slot's index takes the low ones).
const COUNT_TAG: u64 = !0 << 24;

/// The low seven bytes of [`Entry::hand_gen`]: the hand.
const HAND_BITS: u64 = u64::MAX >> 8;

/// The three kinds of entry (in [`Entry::flags`]), and the repetition flag.
const PROOF: u8 = 0;
const DISPROOF: u8 = 1;
const OPEN: u8 = 2;
const KIND: u8 = 3;
const REP: u8 = 4;

/// What the table holds about one position (board key + attacker's hand), in 32 bytes: a
/// cluster of eight is four cache lines.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    key: u64,
    /// The attacker's hand (a [`PackedHand`], whose top byte is always zero) in the low seven
    /// bytes, the generation in the top byte.
    hand_gen: u64,
    /// Unfinished numbers: pn in the low half, dn in the high half. A disproof that relies on
    /// a repetition (see [`REP`]): the path it was found on, on which alone it holds. A proof
    /// or another disproof: unused (their numbers are 0 and INF, or INF and 0).
    data: u64,
    /// For a proof: the length of the proof found (plies). For a disproof: the depth it holds
    /// for (no mate within `len` plies; `NO_DEPTH_LIMIT` = none at all).
    pub(crate) len: u16,
    /// For unfinished numbers: the plies left when they were found (numbers found with
    /// another depth are kept apart, as a depth-limited search needs).
    rem: u16,
    /// Nodes spent below this entry, saturated (the replacement policy keeps the costly ones).
    work: u16,
    /// The kind ([`PROOF`], [`DISPROOF`], [`OPEN`]) and [`REP`].
    flags: u8,
}

impl Entry {
    const EMPTY: Entry = Entry {
        key: 0,
        hand_gen: 0,
        data: 1 | (1 << 32),
        len: 0,
        rem: 0,
        work: 0,
        flags: OPEN,
    };

    #[inline(always)]
    fn generation(&self) -> u8 {
        (self.hand_gen >> 56) as u8
    }

    #[inline(always)]
    fn hand(&self) -> PackedHand {
        PackedHand(self.hand_gen & HAND_BITS)
    }

    #[inline(always)]
    fn kind(&self) -> u8 {
        self.flags & KIND
    }

    #[inline(always)]
    fn rep(&self) -> bool {
        self.flags & REP != 0
    }

    /// Whether it holds a proof or a disproof.
    #[inline(always)]
    fn is_final(&self) -> bool {
        self.kind() != OPEN
    }
}

/// Eight entries, aligned to a cache line.
#[derive(Clone, Copy, Debug)]
#[repr(align(64))]
struct Cluster([Entry; CLUSTER]);

/// The table.
pub(crate) struct Table {
    clusters: Vec<Cluster>,
    /// The clusters of the whole table, less one (a power of two, less one).
    full_mask: usize,
    /// The clusters in use, less one (grows from [`FIRST_CLUSTERS`] to `full_mask`).
    mask: usize,
    /// Entries of this generation written into empty slots since the last clear or growth.
    filled: usize,
    generation: u8,
    /// Entries written over while they still held a proof or disproof.
    pub(crate) evicted_final: u64,
    /// The evasion counts of positions after a check (see [`Table::evasions`]).
    counts: Vec<u64>,
}

impl Table {
    /// A table using at most `bytes` bytes for its entries (at least one cluster).
    pub(crate) fn new(bytes: usize) -> Table {
        let counts = Table::counts_for(bytes);
        let clusters = Table::clusters_for(bytes);
        Table {
            clusters: vec![Cluster([Entry::EMPTY; CLUSTER]); clusters],
            full_mask: clusters - 1,
            mask: clusters.min(FIRST_CLUSTERS) - 1,
            filled: 0,
            generation: 1,
            evicted_final: 0,
            counts: vec![0; counts],
        }
    }

    /// The slots of the evasion-count cache of a table of `bytes` bytes (beside its entries):
    /// a power of two taking a sixteenth of `bytes` at most, and [`COUNTS`] slots at most;
    /// none for a tiny table.
    fn counts_for(bytes: usize) -> usize {
        let n = bytes / 16 / 8;
        if n == 0 {
            0
        } else {
            (1usize << (usize::BITS - 1 - n.leading_zeros())).min(COUNTS)
        }
    }

    /// The clusters of a table of at most `bytes` bytes: a power of two (rounded down, so the
    /// index is a mask), at least one.
    fn clusters_for(bytes: usize) -> usize {
        let clusters = (bytes / std::mem::size_of::<Cluster>()).max(1);
        1usize << (usize::BITS - 1 - clusters.leading_zeros())
    }

    /// The bytes a table made with [`Table::new`]`(bytes)` takes: its entries (`bytes` at
    /// most) and its evasion-count cache (`bytes / 16` and 512 KiB at most).
    pub(crate) fn bytes_for(bytes: usize) -> usize {
        Table::clusters_for(bytes) * std::mem::size_of::<Cluster>() + Table::counts_for(bytes) * 8
    }

    /// The number of evasions of the position whose full key is `full`, if it was counted
    /// since the last clear. A heuristic only: a slot holds the count of the last position
    /// stored there, found again by 40 bits of its key and the generation, and no count of
    /// zero is ever stored (so a mate is never taken from here).
    #[inline(always)]
    pub(crate) fn evasions(&self, full: u64) -> Option<u32> {
        let slot = *self
            .counts
            .get(full as usize & self.counts.len().wrapping_sub(1))?;
        let want = (full & COUNT_TAG) | (u64::from(self.generation) << 16);
        if slot & !0xFFFF == want && slot & 0xFFFF != 0 {
            Some((slot & 0xFFFF) as u32)
        } else {
            None
        }
    }

    /// Asks the memory for the evasion-count slot of `full` ahead of [`Table::evasions`].
    #[inline(always)]
    pub(crate) fn prefetch_evasions(&self, full: u64) {
        let mask = self.counts.len().wrapping_sub(1);
        if let Some(slot) = self.counts.get(full as usize & mask) {
            prefetch_line(std::ptr::from_ref(slot).cast::<i8>());
        }
    }

    /// Keeps the evasion count `n` (not zero) of the position whose full key is `full`.
    #[inline(always)]
    pub(crate) fn set_evasions(&mut self, full: u64, n: u64) {
        let mask = self.counts.len().wrapping_sub(1);
        if let Some(slot) = self.counts.get_mut(full as usize & mask) {
            *slot = (full & COUNT_TAG) | (u64::from(self.generation) << 16) | n.min(0xFFFF);
        }
    }

    /// Forgets everything (in constant time: entries of older generations count as empty).
    pub(crate) fn clear(&mut self) {
        self.evicted_final = 0;
        self.mask = self.full_mask.min(FIRST_CLUSTERS - 1);
        self.filled = 0;
        if self.generation == u8::MAX {
            self.clusters.fill(Cluster([Entry::EMPTY; CLUSTER]));
            self.counts.fill(0);
            self.generation = 1;
        } else {
            self.generation += 1;
        }
    }

    /// Doubles the clusters in use: each entry of this generation in cluster `c` moves to
    /// `c + old size` when its key's next bit says so (the clusters beyond the old size hold
    /// only entries of older generations, that is empty ones).
    fn grow(&mut self) {
        let old = self.mask + 1;
        let new_mask = (self.mask << 1) | 1;
        for c in 0..old {
            for i in 0..CLUSTER {
                let e = self.clusters[c].0[i];
                if e.generation() == self.generation && ((e.key >> 20) as usize & new_mask) != c {
                    self.clusters[c + old].0[i] = e;
                    self.clusters[c].0[i].hand_gen = 0;
                }
            }
        }
        self.mask = new_mask;
        self.filled = 0;
    }

    #[inline(always)]
    fn cluster_index(&self, key: u64) -> usize {
        (key >> 20) as usize & self.mask
    }

    /// Asks the memory for the cluster of `key` ahead of a [`Table::lookup`]: a node's
    /// children are prefetched all at once, so that their table reads (mostly cache misses
    /// in a big table) overlap instead of waiting one after the other.
    #[inline(always)]
    pub(crate) fn prefetch(&self, key: u64) {
        let cluster = &self.clusters[self.cluster_index(key)];
        prefetch_lines(std::ptr::from_ref(cluster).cast::<i8>());
    }

    /// Looks a position up for a search with `rem` plies left on the path `path`. A proof
    /// counts when its length fits in `rem` and its hand is covered by `hand`; a disproof when
    /// it holds for `rem` plies, its hand covers `hand`, and (if it relies on a repetition) the
    /// path is the same. Otherwise the exact entry's numbers, if any, are returned as they are
    /// (a heuristic only).
    #[inline]
    pub(crate) fn lookup(&self, key: u64, hand: PackedHand, rem: u16, path: u64) -> Option<Values> {
        let mut exact = None;
        let generation = self.generation;
        for e in &self.clusters[self.cluster_index(key)].0 {
            if e.key != key || e.generation() != generation {
                continue;
            }
            match e.kind() {
                PROOF => {
                    if e.len <= rem && hand.covers(e.hand()) {
                        return Some(Values::proof(e.len));
                    }
                }
                DISPROOF => {
                    let rep = e.rep();
                    if rem <= e.len
                        && e.hand().covers(hand)
                        && (!rep || (e.data == path && e.hand() == hand))
                    {
                        return Some(Values::disproof(e.len, rep));
                    }
                }
                _ => {
                    if e.hand() == hand && e.rem == rem {
                        exact = Some(Values::open(e.data as u32, (e.data >> 32) as u32));
                    }
                }
            }
        }
        exact
    }

    /// Stores what a search found about a position.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn store(
        &mut self,
        key: u64,
        hand: PackedHand,
        pn: u32,
        dn: u32,
        len: u16,
        rep: bool,
        path: u64,
        rem: u16,
        work: u64,
    ) {
        let generation = self.generation;
        let kind = if pn == 0 {
            PROOF
        } else if dn == 0 {
            DISPROOF
        } else {
            OPEN
        };
        let rep = rep && kind == DISPROOF;
        let new = Entry {
            key,
            hand_gen: hand.0 | (u64::from(generation) << 56),
            data: match kind {
                OPEN => u64::from(pn) | (u64::from(dn) << 32),
                _ if rep => path,
                _ => 0,
            },
            len,
            rem,
            work: work.min(u64::from(u16::MAX)) as u16,
            flags: kind | if rep { REP } else { 0 },
        };
        // One entry per position and kind: its best proof (the shortest), its best disproof
        // (the deepest; one per path for those relying on a repetition), and its unfinished
        // numbers for each depth.
        if self.mask < self.full_mask && self.filled * 2 >= (self.mask + 1) * CLUSTER {
            self.grow();
        }
        let index = self.cluster_index(key);
        let cluster = &mut self.clusters[index].0;
        let mut victim = None;
        let mut victim_score = u64::MAX;
        for (i, e) in cluster.iter().enumerate() {
            if e.generation() != generation {
                if victim_score > 0 {
                    victim = Some(i);
                    victim_score = 0;
                }
                continue;
            }
            if e.key == key && e.hand() == hand && e.kind() == kind {
                let same = match kind {
                    PROOF => true,
                    DISPROOF => e.rep() == rep && (!rep || e.data == path),
                    _ => e.rem == rem,
                };
                if same {
                    let better = match kind {
                        PROOF => len <= e.len,
                        DISPROOF => len >= e.len,
                        _ => true,
                    };
                    if better {
                        cluster[i] = new;
                    }
                    return;
                }
            }
            let score = u64::from(e.work) + if e.is_final() { 1 << 20 } else { 0 };
            if score < victim_score {
                victim_score = score;
                victim = Some(i);
            }
        }
        if let Some(i) = victim {
            let e = cluster[i];
            if e.generation() == generation && e.is_final() {
                self.evicted_final += 1;
            }
            if e.generation() != generation {
                self.filled += 1;
            }
            cluster[i] = new;
        }
    }
}

/// Prefetches the four cache lines of a cluster starting at `p`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
#[allow(unsafe_code)]
fn prefetch_lines(p: *const i8) {
    use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
    for line in 0..CLUSTER / 2 {
        // SAFETY: a prefetch is a hint that never faults and reads nothing into the program
        // (SSE, which it needs, is part of the x86-64 baseline); `wrapping_add` keeps the
        // address computation free of undefined behaviour, and it stays inside the cluster.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(64 * line)) };
    }
}

/// Prefetches the cache line holding `p`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
#[allow(unsafe_code)]
fn prefetch_line(p: *const i8) {
    use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
    // SAFETY: as in `prefetch_lines`: a hint that never faults nor reads into the program.
    unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
}

/// No prefetch on other targets.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn prefetch_lines(_p: *const i8) {}

/// No prefetch on other targets.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn prefetch_line(_p: *const i8) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evasion_counts_are_found_again_until_the_next_clear() {
        let mut t = Table::new(1 << 20);
        let key = 0x0123_4567_89AB_CDEF;
        assert_eq!(t.evasions(key), None);
        t.set_evasions(key, 7);
        assert_eq!(t.evasions(key), Some(7));
        // Another key in the same slot (same low bits) is not taken for it, and replaces it.
        let other = key ^ (1 << 40);
        assert_eq!(t.evasions(other), None);
        t.set_evasions(other, 3);
        assert_eq!((t.evasions(other), t.evasions(key)), (Some(3), None));
        t.clear();
        assert_eq!(t.evasions(other), None);
        // The cache comes on top of the entries, a sixteenth of them at most.
        assert_eq!(Table::bytes_for(1 << 20), (1 << 20) + (1 << 16));
        assert_eq!(Table::bytes_for(64 << 20), (64 << 20) + (512 << 10));
        assert_eq!(Table::counts_for(1 << 30), COUNTS);
        let tiny = Table::new(64);
        assert_eq!((tiny.counts.len(), tiny.evasions(key)), (0, None));
    }
}
