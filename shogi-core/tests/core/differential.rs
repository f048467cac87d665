//! Legal moves compared with independent programs, position by position.
//!
//! `tests/data/legal_moves_standard.txt` (cshogi) and `tests/data/legal_moves_mini.txt`
//! (minishogilib, checked against pyffish) were written by `scripts/differential.py
//! --write-dataset`: a stratified sample of the positions met in its random games (positions in
//! check and double check, pawn drops that would mate, optional promotions, full hands, mates).
//! Each line is an SFEN, a tab and the reference's sorted USI legal moves.
use shogi_core::{Position, Variant};
use std::collections::BTreeSet;
use std::path::Path;

/// Compares every line of a data file; returns the number of positions.
fn check_file(name: &str, variant: Variant) -> usize {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut failures = Vec::new();
    let mut positions = 0;
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let (sfen, moves) = line
            .split_once('\t')
            .unwrap_or_else(|| panic!("{name}:{}: no tab", i + 1));
        positions += 1;
        let pos = match Position::from_sfen(sfen) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{name}:{}: {sfen}: refused: {e}", i + 1));
                continue;
            }
        };
        assert_eq!(pos.variant(), variant, "{name}:{}", i + 1);
        let theirs: BTreeSet<&str> = moves.split_whitespace().collect();
        let ours: BTreeSet<String> = pos.legal_moves().iter().map(|m| m.to_usi()).collect();
        let ours_ref: BTreeSet<&str> = ours.iter().map(String::as_str).collect();
        if ours_ref != theirs {
            let missing: Vec<&str> = theirs.difference(&ours_ref).copied().collect();
            let extra: Vec<&str> = ours_ref.difference(&theirs).copied().collect();
            failures.push(format!(
                "{name}:{}: {sfen}\n  only the reference: {}\n  only shogi-core:    {}",
                i + 1,
                missing.join(" "),
                extra.join(" ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {positions} positions differ:\n{}",
        failures.len(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    positions
}

#[test]
fn standard_legal_moves_equal_cshogi() {
    let n = check_file("legal_moves_standard.txt", Variant::Standard);
    assert!(n >= 20_000, "only {n} positions");
}

#[test]
fn mini_legal_moves_equal_minishogilib_and_pyffish() {
    let n = check_file("legal_moves_mini.txt", Variant::Mini);
    assert!(n >= 5_000, "only {n} positions");
}
