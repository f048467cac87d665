//! KI2 qualifiers as JSA writes them, in positions from the corpus that tsshogi checks: a
//! pinned piece of the same kind still counts as one to tell the mover from, and a dragon
//! or horse is told apart by its motion when that settles it. Our reader takes both these
//! forms and the shorter ones it used to be written in.

use shogi_kif::{Format, ReadOptions, read_str, write};

/// The KI2 text of the one move `usi` from `sfen` (its last line of moves, side mark first).
fn ki2_move(sfen: &str, usi: &str) -> String {
    let r = read_str(
        &format!("position sfen {sfen} moves {usi}\n"),
        Default::default(),
    )
    .expect("a legal move");
    let ki2 = write(&r, Format::Ki2);
    ki2.lines()
        .rfind(|l| l.starts_with(['▲', '△']))
        .expect("a move line")
        .trim()
        .to_string()
}

/// Our KI2 reader's move for `text` (one move, side mark first) from `sfen`.
fn read_ki2_move(sfen: &str, text: &str) -> Result<String, String> {
    let kif = shogi_kif::write(
        &read_str(&format!("position sfen {sfen}\n"), Default::default()).expect("SFEN"),
        Format::Ki2,
    );
    let ki2 = format!("{kif}{text}\n");
    let r = read_str(&ki2, ReadOptions::with_format(Format::Ki2)).map_err(|e| e.to_string())?;
    Ok(r.usi_moves().join(" "))
}

/// simple.ki2 move 55: of black's silvers on 6h and 4h, the one on 4h stands between its
/// king on 4g and white's dragon on 4i and cannot move; the record writes 6h5i as 左 all the
/// same.
const PINNED: &str =
    "ln1gg1+L1p/1s1k1g1+R1/p1pppp3/6p2/8B/2P3Pp1/P2PPK2P/3S1S3/L4+rSNL b BN2Pgn2p 1";
/// 32ryu-cumbersome (white to move): the dragon on 8f goes back to 9e, the one on 5e would
/// go sideways.
const DRAGONS: &str =
    "+S4+P3/K+P4+B2/1G+N+P3+B1/PG7/L3+r2p1/1+r4pg1/3+p1+l1k1/2p+p3+p1/9 w 3S3NL3Pgl5p 1";

#[test]
fn a_pinned_piece_of_the_same_kind_still_needs_telling_apart() {
    assert_eq!(ki2_move(PINNED, "6h5i"), "▲５九銀左");
    // Both forms read as the same move.
    assert_eq!(read_ki2_move(PINNED, "▲５九銀左"), Ok("6h5i".to_string()));
    assert_eq!(read_ki2_move(PINNED, "▲５九銀"), Ok("6h5i".to_string()));
}

#[test]
fn dragons_and_horses_are_told_apart_by_motion_first() {
    assert_eq!(ki2_move(DRAGONS, "8f9e"), "△９五龍引");
    assert_eq!(ki2_move(DRAGONS, "5e9e"), "△９五龍寄");
    for (text, usi) in [
        ("△９五龍引", "8f9e"),
        ("△９五龍右", "8f9e"),
        ("△９五龍寄", "5e9e"),
        ("△９五龍左", "5e9e"),
    ] {
        assert_eq!(read_ki2_move(DRAGONS, text), Ok(usi.to_string()), "{text}");
    }
}

#[test]
fn dragons_moving_the_same_way_are_told_apart_by_side() {
    // Black dragons on 9i and 1i, both going sideways to 5i: 右 is the one on 1i.
    let sfen = "4k4/9/9/9/9/9/9/4K4/+R7+R b - 1";
    assert_eq!(ki2_move(sfen, "1i5i"), "▲５九龍右");
    assert_eq!(ki2_move(sfen, "9i5i"), "▲５九龍左");
    assert_eq!(read_ki2_move(sfen, "▲５九龍右"), Ok("1i5i".to_string()));
}

#[test]
fn a_drop_says_uchi_when_a_pinned_piece_could_reach_the_square() {
    // The black silver on 5h is pinned by the rook on 5a against the king on 5i; it
    // attacks 4g, so a silver dropped there is written 打.
    let sfen = "4r3k/9/9/9/9/9/9/4S4/4K4 b S 1";
    assert_eq!(ki2_move(sfen, "S*4g"), "▲４七銀打");
    assert_eq!(read_ki2_move(sfen, "▲４七銀打"), Ok("S*4g".to_string()));
    assert_eq!(read_ki2_move(sfen, "▲４七銀"), Ok("S*4g".to_string()));
}
