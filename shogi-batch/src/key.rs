//! The game key: a stable 64-bit hash of a game's start and main line.

use shogi_kif::Record;

/// FNV-1a, 64-bit: offset basis `0xcbf29ce484222325`, prime `0x100000001b3`; for each byte,
/// `h = (h ^ byte) * prime` (wrapping).
#[derive(Clone, Copy, Debug)]
pub struct Fnv1a(u64);

impl Fnv1a {
    /// The FNV-1a 64-bit offset basis.
    pub const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    /// The FNV-1a 64-bit prime.
    pub const PRIME: u64 = 0x0000_0100_0000_01b3;

    /// A fresh hasher.
    pub fn new() -> Fnv1a {
        Fnv1a(Fnv1a::OFFSET)
    }

    /// Feeds bytes.
    #[inline]
    pub fn write(&mut self, bytes: &[u8]) {
        let mut h = self.0;
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(Fnv1a::PRIME);
        }
        self.0 = h;
    }

    /// The hash so far.
    pub fn finish(&self) -> u64 {
        self.0
    }
}

impl Default for Fnv1a {
    fn default() -> Fnv1a {
        Fnv1a::new()
    }
}

/// The start position as the key spells it: the first three SFEN fields (board, side to
/// move, hands) separated by one space; the move number is left out.
pub fn start_text(sfen: &str) -> String {
    sfen.split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The game key: FNV-1a 64 (see [`Fnv1a`]) of the UTF-8 text
/// `<board> <side> <hands>` (the start SFEN without its move number), followed, for each
/// main-line move in order, by one space and the move in USI (`7g7f`, `P*5e`, `8h2b+`).
///
/// Copies of a game that differ only in the header, comments, times, variations or the
/// file format have the same key; it is printed as 16 lowercase hex digits. The start
/// position is the record's own SFEN (handicap presets are spelled by their position), so a
/// game written with a board diagram and the same game written with its 手合割 name agree.
///
/// Example: the even start and `7g7f` hash the text
/// `lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 7g7f`.
pub fn game_key(record: &Record) -> u64 {
    let mut k = start_hash(record.start.sfen());
    for node in record.main_line() {
        k = feed_usi(k, node.mv);
    }
    k
}

/// The even start's `start_text`.
const EVEN_START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";

/// FNV-1a of `bytes`, at compile time.
const fn fnv_const(bytes: &[u8]) -> u64 {
    let mut h = Fnv1a::OFFSET;
    let mut i = 0;
    while i < bytes.len() {
        h = (h ^ bytes[i] as u64).wrapping_mul(Fnv1a::PRIME);
        i += 1;
    }
    h
}

/// FNV-1a of the even start's text, worked out once (most games start there).
const EVEN_START_HASH: u64 = fnv_const(EVEN_START.as_bytes());

/// FNV-1a of `start_text(sfen)`, fed word by word (no string is made for it).
fn start_hash(sfen: &str) -> u64 {
    // The first three words are the even start's: its text, whatever follows.
    let even = sfen
        .strip_prefix(EVEN_START)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(char::is_whitespace));
    if even {
        return EVEN_START_HASH;
    }
    let mut h = Fnv1a::new();
    for (i, word) in sfen.split_whitespace().take(3).enumerate() {
        if i > 0 {
            h.write(b" ");
        }
        h.write(word.as_bytes());
    }
    h.finish()
}

/// The USI spelling of each square, by index: file digit, rank letter.
const SQUARE_USI: [[u8; 2]; 81] = {
    let mut t = [[0u8; 2]; 81];
    let mut i = 0;
    while i < 81 {
        // Index = (file - 1) * 9 + (rank - 1), as `Square::index` has it.
        t[i] = [b'1' + (i / 9) as u8, b'a' + (i % 9) as u8];
        i += 1;
    }
    t
};

/// FNV-1a of a space and the move in USI (what [`usi`] spells), fed to the hash `h` byte by
/// byte in straight-line code: the key is computed for every game `shogi stats` writes.
#[inline]
fn feed_usi(h: u64, mv: shogi_core::Move) -> u64 {
    let step = |h: u64, b: u8| (h ^ u64::from(b)).wrapping_mul(Fnv1a::PRIME);
    let square = |h: u64, s: shogi_core::Square| {
        let [f, r] = SQUARE_USI[s.index()];
        step(step(h, f), r)
    };
    let h = step(h, b' ');
    match mv {
        shogi_core::Move::Normal { from, to, promote } => {
            let h = square(square(h, from), to);
            if promote { step(h, b'+') } else { h }
        }
        shogi_core::Move::Drop { role, to } => {
            square(step(step(h, role.sfen_char() as u8), b'*'), to)
        }
    }
}

/// A space and the move in USI, without allocating (`" 7g7f"`, `" 8h2b+"`, `" P*5e"`).
pub(crate) fn usi(mv: shogi_core::Move) -> ([u8; 6], usize) {
    let sq = |s: shogi_core::Square| [b'0' + s.file(), b'a' + s.rank() - 1];
    let mut b = [b' '; 6];
    match mv {
        shogi_core::Move::Normal { from, to, promote } => {
            b[1..3].copy_from_slice(&sq(from));
            b[3..5].copy_from_slice(&sq(to));
            if promote {
                b[5] = b'+';
                (b, 6)
            } else {
                (b, 5)
            }
        }
        shogi_core::Move::Drop { role, to } => {
            b[1] = role.sfen_char() as u8;
            b[2] = b'*';
            b[3..5].copy_from_slice(&sq(to));
            (b, 5)
        }
    }
}

/// A key as 16 lowercase hex digits.
pub fn key_hex(key: u64) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(16);
    for i in (0..16).rev() {
        s.push(char::from(DIGITS[((key >> (i * 4)) & 0xf) as usize]));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_square_table_spells_usi() {
        for sq in shogi_core::Square::all() {
            let [f, r] = SQUARE_USI[sq.index()];
            assert_eq!([f, r], [b'0' + sq.file(), b'a' + sq.rank() - 1], "{sq:?}");
        }
    }

    #[test]
    fn the_even_start_shortcut_hashes_its_text() {
        let even = shogi_core::Variant::Standard.start_sfen();
        assert_eq!(start_text(even), EVEN_START);
        let mut h = Fnv1a::new();
        h.write(EVEN_START.as_bytes());
        assert_eq!(start_hash(even), h.finish());
        assert_eq!(EVEN_START_HASH, h.finish());
        // Another start that begins like it; the even start without a move number, with
        // another, with more words.
        for sfen in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -P 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 7",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 2",
        ] {
            let mut h = Fnv1a::new();
            h.write(start_text(sfen).as_bytes());
            assert_eq!(start_hash(sfen), h.finish(), "{sfen}");
        }
        assert_eq!(key_hex(0xab), "00000000000000ab");
        assert_eq!(key_hex(u64::MAX), "ffffffffffffffff");
        assert_eq!(key_hex(0x0123_4567_89ab_cdef), "0123456789abcdef");
    }

    #[test]
    fn fnv1a_known_values() {
        // Published FNV-1a 64 test vectors.
        let h = |s: &str| {
            let mut f = Fnv1a::new();
            f.write(s.as_bytes());
            f.finish()
        };
        assert_eq!(h(""), 0xcbf29ce484222325);
        assert_eq!(h("a"), 0xaf63dc4c8601ec8c);
        assert_eq!(h("foobar"), 0x85944171f73967e8);
    }

    #[test]
    fn key_is_pinned() {
        let rec = shogi_kif::read_str(
            "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n",
            Default::default(),
        )
        .unwrap();
        // Computed independently (Python: FNV-1a 64 over the UTF-8 text
        // "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 7g7f 3c3d").
        assert_eq!(key_hex(game_key(&rec)), PINNED_KEY);
        let same = shogi_kif::read_str(
            "N+a\nN-b\nPI\n+\n+7776FU\nT3\n-3334FU\n%TORYO\n",
            Default::default(),
        )
        .unwrap();
        assert_eq!(game_key(&same), game_key(&rec));
    }

    #[test]
    fn usi_text_matches_shogi_core() {
        for m in ["7g7f", "8h2b+", "P*5e", "R*1a", "1a1b"] {
            let mv = shogi_core::Move::from_usi(m).unwrap();
            let (b, n) = usi(mv);
            assert_eq!(
                std::str::from_utf8(&b[..n]).unwrap(),
                format!(" {}", mv.to_usi())
            );
            let mut f = Fnv1a::new();
            f.write(&b[..n]);
            assert_eq!(feed_usi(Fnv1a::OFFSET, mv), f.finish(), "{m}");
        }
    }

    const PINNED_KEY: &str = "42e014c4f9c6a445";
}
