//! What particular engines do differently, recognised by their `id name` (ENGINE-FACTS §2):
//! the one place outside [`crate::FreshState`] that tells engines apart, so that callers
//! (matches, analysis) ask the engine layer instead of testing names themselves.

use crate::limit::Limit;

/// Whether an `id name` is gpsusi's (`gpsshogi (smp) host r3033 …`).
pub(crate) fn is_gpsusi(id_name: &str) -> bool {
    id_name.starts_with("gpsshogi")
}

/// Whether an `id name` is fairy-stockfish 11's, which reads sente's time from `wtime` and
/// gote's from `btime` in USI mode (ENGINE-FACTS §2.3): its clocks are written swapped.
pub(crate) fn swaps_clocks(id_name: &str) -> bool {
    id_name.starts_with("Fairy-Stockfish 11.")
}

/// Why the engine named `id_name` cannot search under `limit`, if it cannot: gpsusi aborts on
/// `binc`/`winc`, `nodes` and `movetime` (ENGINE-FACTS §2.3).
pub(crate) fn refusal(id_name: &str, limit: &Limit) -> Option<String> {
    if !is_gpsusi(id_name) {
        return None;
    }
    let what = if limit.binc.is_some() || limit.winc.is_some() {
        "an increment (go binc/winc)"
    } else if limit.nodes.is_some() {
        "go nodes"
    } else if limit.movetime.is_some() {
        "go movetime"
    } else {
        return None;
    };
    Some(format!(
        "{id_name:?} (gpsusi) aborts on {what}: give it byoyomi or main time only (ENGINE-FACTS §2.3)"
    ))
}

/// `USI_Hash` and `USI_Ponder`: options a GUI sends whether or not the engine lists them
/// (gpsusi accepts both unlisted; an unlisted option is also one gpsusi does not save to its
/// configuration file). Set at start, they are sent unchecked when the engine does not list
/// them.
pub(crate) fn is_gui_reserved(option: &str) -> bool {
    matches!(option, "USI_Hash" | "USI_Ponder")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn gpsusi_refuses_what_it_aborts_on() {
        let gps = "gpsshogi (smp) vm r3033 wordsize 64 gcc 12.2.0";
        assert!(refusal(gps, &Limit::nodes(1)).unwrap().contains("go nodes"));
        assert!(refusal(gps, &Limit::movetime(1)).is_some());
        let fischer = Limit {
            btime: Some(Duration::from_millis(1)),
            wtime: Some(Duration::from_millis(1)),
            binc: Some(Duration::from_millis(1)),
            winc: Some(Duration::from_millis(1)),
            ..Limit::default()
        };
        assert!(refusal(gps, &fischer).unwrap().contains("increment"));
        assert!(refusal(gps, &Limit::byoyomi(100)).is_none());
        assert!(refusal("Fairy-Stockfish 11.1 LB 64", &Limit::nodes(1)).is_none());
    }

    #[test]
    fn only_fairy_11_swaps_clocks() {
        assert!(swaps_clocks("Fairy-Stockfish 11.1 LB 64"));
        assert!(!swaps_clocks("Fairy-Stockfish 14.0.1 LB"));
        assert!(!swaps_clocks("gpsshogi (smp) vm r3033"));
    }

    #[test]
    fn gui_reserved_options() {
        assert!(is_gui_reserved("USI_Hash"));
        assert!(is_gui_reserved("USI_Ponder"));
        assert!(!is_gui_reserved("Hash"));
    }
}
