//! The transposition table: a fixed number of clusters of entries, sized from a byte budget
//! given once (it never grows). Entries are found by the board key and the attacker's exact
//! hand; proofs are also found for any superior hand and disproofs for any inferior hand.

use crate::dfpn::Values;
use crate::key::PackedHand;

/// Proof and disproof numbers are saturated at this value; `INF` itself means "proven".
pub(crate) const INF: u32 = u32::MAX;
/// The largest finite proof or disproof number.
pub(crate) const BIG: u32 = u32::MAX - 1;
/// A disproof depth meaning "no mate at any depth".
pub(crate) const NO_DEPTH_LIMIT: u16 = u16::MAX;

const CLUSTER: usize = 8;

/// The clusters in use after a clear (2048 clusters of 8 entries of 48 bytes: 768 KiB),
/// doubled each time the entries in use reach half of them, up to the whole table. A small
/// search so stays within the caches; a large one uses all the memory.
const FIRST_CLUSTERS: usize = 1 << 11;

/// What the table holds about one position (board key + attacker's hand).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub(crate) key: u64,
    pub(crate) hand: PackedHand,
    pub(crate) pn: u32,
    pub(crate) dn: u32,
    /// For a proof: the length of the proof found (plies). For a disproof: the depth it holds
    /// for (no mate within `len` plies; `NO_DEPTH_LIMIT` = none at all).
    pub(crate) len: u16,
    /// A disproof that relies on a repetition of a position on the path it was found on; it
    /// holds only on that same path (`path`).
    pub(crate) rep: bool,
    pub(crate) generation: u16,
    /// For unfinished numbers: the plies left when they were found (numbers found with
    /// another depth are kept apart, as a depth-limited search needs).
    pub(crate) rem: u16,
    /// Nodes spent below this entry (the replacement policy keeps the costly ones).
    pub(crate) work: u32,
    pub(crate) path: u64,
}

impl Entry {
    const EMPTY: Entry = Entry {
        key: 0,
        hand: PackedHand(0),
        pn: 1,
        dn: 1,
        len: 0,
        rep: false,
        generation: 0,
        rem: 0,
        work: 0,
        path: 0,
    };
}

/// The table.
pub(crate) struct Table {
    entries: Vec<Entry>,
    /// The clusters of the whole table, less one (a power of two, less one).
    full_mask: usize,
    /// The clusters in use, less one (grows from [`FIRST_CLUSTERS`] to `full_mask`).
    mask: usize,
    /// Entries of this generation written into empty slots since the last clear or growth.
    filled: usize,
    generation: u16,
    /// Entries written over while they still held a proof or disproof.
    pub(crate) evicted_final: u64,
}

impl Table {
    /// A table using at most `bytes` bytes for its entries (at least one cluster).
    pub(crate) fn new(bytes: usize) -> Table {
        let per_cluster = CLUSTER * std::mem::size_of::<Entry>();
        let clusters = (bytes / per_cluster).max(1);
        // A power of two, rounded down, so the index is a mask.
        let clusters = 1usize << (usize::BITS - 1 - clusters.leading_zeros());
        Table {
            entries: vec![Entry::EMPTY; clusters * CLUSTER],
            full_mask: clusters - 1,
            mask: clusters.min(FIRST_CLUSTERS) - 1,
            filled: 0,
            generation: 1,
            evicted_final: 0,
        }
    }

    /// The bytes the entries take.
    pub(crate) fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry>()
    }

    /// Forgets everything (in constant time: entries of older generations count as empty).
    pub(crate) fn clear(&mut self) {
        self.evicted_final = 0;
        self.mask = self.full_mask.min(FIRST_CLUSTERS - 1);
        self.filled = 0;
        if self.generation == u16::MAX {
            self.entries.fill(Entry::EMPTY);
            self.generation = 1;
        } else {
            self.generation += 1;
        }
    }

    /// Doubles the clusters in use: each entry of this generation in cluster `c` moves to
    /// `c + old size` when its key's next bit says so (the slots beyond the old size hold
    /// only entries of older generations, that is empty ones).
    fn grow(&mut self) {
        let old = self.mask + 1;
        let new_mask = (self.mask << 1) | 1;
        for c in 0..old {
            for i in c * CLUSTER..(c + 1) * CLUSTER {
                let e = self.entries[i];
                if e.generation == self.generation && ((e.key >> 20) as usize & new_mask) != c {
                    self.entries[i + old * CLUSTER] = e;
                    self.entries[i].generation = 0;
                }
            }
        }
        self.mask = new_mask;
        self.filled = 0;
    }

    #[inline(always)]
    fn cluster(&self, key: u64) -> std::ops::Range<usize> {
        let start = ((key >> 20) as usize & self.mask) * CLUSTER;
        start..start + CLUSTER
    }

    /// Looks a position up for a search with `rem` plies left on the path `path`. A proof
    /// counts when its length fits in `rem` and its hand is covered by `hand`; a disproof when
    /// it holds for `rem` plies, its hand covers `hand`, and (if it relies on a repetition) the
    /// path is the same. Otherwise the exact entry's numbers, if any, are returned as they are
    /// (a heuristic only).
    #[inline]
    pub(crate) fn lookup(&self, key: u64, hand: PackedHand, rem: u16, path: u64) -> Option<Values> {
        let mut exact = None;
        for e in &self.entries[self.cluster(key)] {
            if e.generation != self.generation || e.key != key {
                continue;
            }
            if e.pn == 0 {
                if e.len <= rem && hand.covers(e.hand) {
                    return Some(Values::proof(e.len));
                }
            } else if e.dn == 0 {
                if rem <= e.len
                    && e.hand.covers(hand)
                    && (!e.rep || (e.path == path && e.hand == hand))
                {
                    return Some(Values::disproof(e.len, e.rep));
                }
            } else if e.hand == hand && e.rem == rem {
                exact = Some(Values::open(e.pn, e.dn));
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
        let new = Entry {
            key,
            hand,
            pn,
            dn,
            len,
            rep,
            generation,
            rem,
            work: work.min(u64::from(u32::MAX)) as u32,
            path,
        };
        // One entry per position and kind: its best proof (the shortest), its best disproof
        // (the deepest; one per path for those relying on a repetition), and its unfinished
        // numbers for each depth.
        let kind = |pn: u32, dn: u32| {
            if pn == 0 {
                0
            } else if dn == 0 {
                1
            } else {
                2
            }
        };
        let new_kind = kind(pn, dn);
        if self.mask < self.full_mask && self.filled * 2 >= (self.mask + 1) * CLUSTER {
            self.grow();
        }
        let range = self.cluster(key);
        let cluster = &mut self.entries[range];
        let mut victim = None;
        let mut victim_score = u64::MAX;
        for (i, e) in cluster.iter().enumerate() {
            if e.generation != generation {
                if victim_score > 0 {
                    victim = Some(i);
                    victim_score = 0;
                }
                continue;
            }
            if e.key == key && e.hand == hand && kind(e.pn, e.dn) == new_kind {
                let same = match new_kind {
                    0 => true,
                    1 => e.rep == rep && (!rep || e.path == path),
                    _ => e.rem == rem,
                };
                if same {
                    let better = match new_kind {
                        0 => len <= e.len,
                        1 => len >= e.len,
                        _ => true,
                    };
                    if better {
                        cluster[i] = new;
                    }
                    return;
                }
            }
            let score = u64::from(e.work) + if e.pn == 0 || e.dn == 0 { 1 << 20 } else { 0 };
            if score < victim_score {
                victim_score = score;
                victim = Some(i);
            }
        }
        if let Some(i) = victim {
            let e = cluster[i];
            if e.generation == generation && (e.pn == 0 || e.dn == 0) {
                self.evicted_final += 1;
            }
            if e.generation != generation {
                self.filled += 1;
            }
            cluster[i] = new;
        }
    }
}
