//! Pieces in hand.

use crate::types::Role;

/// The pieces one side holds in hand: a count per hand role (P L N S G B R).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Hand {
    counts: [u8; 7],
}

impl Hand {
    /// An empty hand.
    pub const EMPTY: Hand = Hand { counts: [0; 7] };

    /// How many pieces of `role` (unpromoted) the hand holds; 0 for roles a hand cannot hold.
    #[inline(always)]
    pub const fn count(&self, role: Role) -> u8 {
        if role.is_hand_role() {
            self.counts[role as usize]
        } else {
            0
        }
    }

    /// Sets the count of a hand role. Roles a hand cannot hold are ignored (returns false).
    pub fn set(&mut self, role: Role, count: u8) -> bool {
        if role.is_hand_role() {
            self.counts[role as usize] = count;
            true
        } else {
            false
        }
    }

    /// Adds one piece of `role` (promoted roles are added unpromoted). The king is ignored.
    #[inline(always)]
    pub fn add(&mut self, role: Role) {
        let r = role.unpromote();
        if r.is_hand_role() {
            self.counts[r as usize] = self.counts[r as usize].saturating_add(1);
        }
    }

    /// Removes one piece of `role`; returns false (and changes nothing) when there is none.
    #[inline(always)]
    pub fn take(&mut self, role: Role) -> bool {
        if role.is_hand_role() && self.counts[role as usize] > 0 {
            self.counts[role as usize] -= 1;
            true
        } else {
            false
        }
    }

    /// Whether the hand holds nothing.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.counts == [0; 7]
    }

    /// Total number of pieces.
    pub fn total(&self) -> u32 {
        self.counts.iter().map(|&c| c as u32).sum()
    }

    /// The (role, count) pairs with a non-zero count, in SFEN order (R B G S N L P).
    pub fn iter(&self) -> impl Iterator<Item = (Role, u8)> + '_ {
        Role::HAND_SFEN_ORDER
            .iter()
            .map(move |&r| (r, self.counts[r as usize]))
            .filter(|&(_, c)| c > 0)
    }
}
