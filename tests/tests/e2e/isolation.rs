//! One input's internal failure never stops a batch: a panic while handling one record is
//! reported as `path:LINE:1: error: internal error while reading this record (please
//! report)`, LINE being where the record starts,
//! counted as invalid, and the other inputs are still reported; the exit code is 1.
//!
//! The panic comes from a stand-in for the per-record work injected through
//! `shogi_cli::Options::on_record`, so the test does not depend on a reader bug.

use crate::common;

use common::{assert_contains, code, shogi, shogi_with, stderr, stdout};
use std::sync::Arc;

const DIR: &str = "tests/fixtures/records";
const INTERNAL: &str = "error: internal error while reading this record (please report)";

/// Options whose per-record hook panics on record `n` of the input named `name`.
fn panic_on(name: &'static str, n: usize) -> shogi_cli::Options {
    shogi_cli::Options {
        on_record: Some(Arc::new(move |input: &str, record: usize| {
            if input.ends_with(name) && record == n {
                panic!("stand-in failure on {input} record {record}");
            }
        })),
        ..shogi_cli::Options::default()
    }
}

#[test]
fn check_goes_on_past_a_panic() {
    let plain = shogi(&["check", DIR, "--jobs", "2"]);
    let out = shogi_with(&["check", DIR, "--jobs", "2"], &panic_on("good.kif", 1));
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    // good.kif's line is the internal error; every other file is reported as without the panic.
    let want: Vec<String> = stdout(&plain)
        .lines()
        .map(str::to_string)
        .collect::<Vec<_>>();
    let got: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    let line = format!("{DIR}/good.kif:1:1: {INTERNAL}");
    assert!(got.contains(&line), "{got:#?}");
    let others: Vec<String> = got.into_iter().filter(|l| *l != line).collect();
    assert_eq!(others, want);
    let err = stderr(&out);
    assert!(
        err.contains("checked 7 record(s) in 5 file(s): 3 valid, 4 invalid"),
        "{err}"
    );
    // The panic's own message is kept as a note on stderr, never on stdout.
    assert!(
        err.contains(&format!(
            "{DIR}/good.kif: note: the internal error was: stand-in failure on"
        )),
        "{err}"
    );
    assert!(!stdout(&out).contains("stand-in"));
}

#[test]
fn check_keeps_the_records_read_before_the_panic() {
    // two-games.csa: the first game is valid, the second invalid; the panic hits the second,
    // which starts on line 13: the error is located there.
    let path = format!("{DIR}/more/two-games.csa");
    let out = shogi_with(&["check", &path], &panic_on("two-games.csa", 2));
    assert_eq!(code(&out), 1);
    assert_eq!(stdout(&out), format!("{path}:13:1: {INTERNAL}\n"));
    assert_contains(
        &stderr(&out),
        "checked 2 record(s) in 1 file(s): 1 valid, 1 invalid",
    );
    let json = shogi_with(
        &["check", &path, "--format", "json"],
        &panic_on("two-games.csa", 2),
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&json)).expect("JSON");
    let p = &v["reports"][0]["problems"][0];
    assert_eq!(p["kind"], "internal");
    assert_eq!(
        (p["line"].as_u64(), p["column"].as_u64()),
        (Some(13), Some(1))
    );
}

#[test]
fn convert_and_training_locate_the_record_that_failed() {
    let path = format!("{DIR}/more/two-games.csa");
    for to in ["sfen", "hcpe"] {
        let args = ["convert", &path, "--to", to];
        let out = shogi_with(&args, &panic_on("two-games.csa", 2));
        assert_eq!(code(&out), 1, "{to}");
        let err = stderr(&out);
        assert!(
            err.contains(&format!("{path}:13:1: {INTERNAL}\n")),
            "{to}: {err}"
        );
        let first = shogi_with(&args, &panic_on("two-games.csa", 1));
        assert!(
            stderr(&first).contains(&format!("{path}:1:1: {INTERNAL}\n")),
            "{to}: {}",
            stderr(&first)
        );
    }
}

#[test]
fn convert_goes_on_past_a_panic() {
    let args = ["convert", DIR, "--to", "sfen"];
    let plain = shogi(&args);
    let out = shogi_with(&args, &panic_on("good.kif", 1));
    assert_eq!(code(&out), 1);
    let err = stderr(&out);
    assert!(
        err.contains(&format!("{DIR}/good.kif:1:1: {INTERNAL}\n")),
        "{err}"
    );
    // Every position but good.kif's is still written.
    let good = shogi(&["convert", &format!("{DIR}/good.kif"), "--to", "sfen"]);
    let want = stdout(&plain).replacen(&stdout(&good), "", 1);
    assert!(!stdout(&good).is_empty());
    assert_eq!(stdout(&out), want);
}
