//! Zobrist keys, generated at compile time. Keys are combined by wrapping addition, so a hand
//! of `n` pieces of a role contributes `n` times that role's key and updates stay O(1).

const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const fn piece_square_keys() -> [[u64; 81]; 28] {
    let mut s = 0x5eed_0f51_0610_0001u64;
    let mut t = [[0u64; 81]; 28];
    let mut p = 0;
    while p < 28 {
        let mut q = 0;
        while q < 81 {
            t[p][q] = splitmix(&mut s);
            q += 1;
        }
        p += 1;
    }
    t
}

const fn hand_keys() -> [[u64; 7]; 2] {
    let mut s = 0x4a4e_d5eeu64;
    let mut t = [[0u64; 7]; 2];
    let mut c = 0;
    while c < 2 {
        let mut r = 0;
        while r < 7 {
            t[c][r] = splitmix(&mut s) | 1;
            r += 1;
        }
        c += 1;
    }
    t
}

/// Key of a piece (index `color * 14 + role`) on a square.
pub(crate) static PIECE_SQUARE: [[u64; 81]; 28] = piece_square_keys();
/// Key added once per piece of a role in a colour's hand.
pub(crate) static HAND: [[u64; 7]; 2] = hand_keys();
/// Key added when White is to move.
pub(crate) const WHITE_TO_MOVE: u64 = 0x8c3c_d7e2_9b1f_45a1;
