//! How hcpe and psv store an evaluation read from a record's comments (the comments
//! themselves are read by `shogi_kif::eval`, the one reader of every dialect).

use shogi_core::{Color, Score};

/// psv's largest score: YaneuraOu's `VALUE_MATE`.
pub const PSV_MATE: i16 = 32000;

/// `score` (sente's view) from `side`'s view, clamped to ±`cap`; a mate is `mate(plies)`
/// for the side that mates (plies `None`: unknown distance).
fn signed(score: Score, side: Color, cap: i32, mate: impl Fn(Option<u32>) -> i32) -> i16 {
    let own = score.to_view(Color::Black, side);
    let v = match (own, own.mate_winner()) {
        (Score::Cp(v), _) => v,
        (_, Some(true)) => mate(own.mate_distance()),
        (_, _) => -mate(own.mate_distance()),
    };
    v.clamp(-cap, cap) as i16
}

/// hcpe's `eval` of `score` (sente's view) for a position with `side` to move: clamped to
/// ±32767, a mate ±32767.
pub fn hcpe_eval(score: Score, side: Color) -> i16 {
    signed(score, side, i16::MAX as i32, |_| i16::MAX as i32)
}

/// psv's `score` of `score` (sente's view) for a position with `side` to move: clamped to
/// ±32000, a mate in `n` plies ±(32000 − n), a mate of unknown length ±32000.
pub fn psv_score(score: Score, side: Color) -> i16 {
    let mate = PSV_MATE as i32;
    signed(score, side, mate, |plies| {
        mate - plies.map_or(0, |n| n.min(mate as u32) as i32)
    })
}
