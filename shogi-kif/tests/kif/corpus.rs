//! Conformance over the shared corpus: start SFEN, main-line USI moves and final SFEN must
//! equal REFERENCE_CONSENSUS.tsv, except where DISAGREEMENTS.md shows the references wrong
//! (listed in `OUR_ANSWERS` with the reason). Skips (passes) when the corpus is absent.

use shogi_kif::{ErrorKind, Format, ReadOptions, ReadRecord, Reader};
use shogi_testkit::corpus;
use std::collections::BTreeMap;
use std::path::Path;

/// Files where our answer differs from the consensus on purpose.
/// (path, what we give, why)
const OUR_ANSWERS: &[(&str, &str, &str)] = &[
    (
        "ShogiBoardQ/tests/fixtures/test_collection.sfen",
        "3 records",
        "a list of bare SFEN positions: every reference rejected it; we read one position record per line",
    ),
    (
        "bioshogi/spec/files/wars_kachi_gote.csa",
        "225 moves from the even-game start, %KACHI",
        "Shogi Wars CSA without any start position: every reference rejected it; we assume 平手 (with a warning), and it replays legally (DISAGREEMENTS.md §2)",
    ),
    (
        "bioshogi/spec/files/wars_setsudan_chudan.csa",
        "124 moves from the even-game start, %CHUDAN",
        "same as wars_kachi_gote.csa",
    ),
];

fn canonical(sfen: &str) -> String {
    sfen.split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn corpus_conformance() {
    let Some(rows) = corpus::consensus("conformance test") else {
        return;
    };
    let root = Path::new(corpus::ROOT);
    let mut per_format: BTreeMap<String, (u32, u32)> = BTreeMap::new();
    let mut failures = Vec::new();
    for row in &rows {
        let path = row.path.as_str();
        let (init, fin, usi) = (&row.initial_sfen, &row.final_sfen, &row.usi_moves);
        let entry = per_format.entry(row.format.clone()).or_default();
        entry.1 += 1;
        let bytes = match std::fs::read(root.join(path)) {
            Ok(b) => b,
            Err(e) => {
                failures.push(format!("{path}: cannot read: {e}"));
                continue;
            }
        };
        let hint = Path::new(path)
            .extension()
            .and_then(|e| e.to_str())
            .and_then(Format::from_extension);
        let mut records = match Reader::new(&bytes[..], ReadOptions::with_hint(hint)) {
            Ok(r) => r.map(ReadRecord::into_result),
            Err(e) => {
                failures.push(format!("{path}: {}", e.with_path(path)));
                continue;
            }
        };
        if let Some((_, ours, _)) = OUR_ANSWERS.iter().find(|(p, _, _)| *p == path) {
            let all: Vec<_> = records.by_ref().collect();
            let ok = all.iter().all(|r| r.is_ok());
            let desc = match all.as_slice() {
                [Ok(r)] => format!(
                    "{} moves from the even-game start, {}",
                    r.moves.moves.len(),
                    r.ending()
                        .and_then(|e| e.kind.csa())
                        .map_or(String::new(), |c| format!("%{c}"))
                ),
                _ => format!("{} records", all.len()),
            };
            if ok && desc == *ours {
                entry.0 += 1;
            } else {
                failures.push(format!(
                    "{path}: expected our answer {ours:?}, got {desc:?} ({:?})",
                    all.iter().find_map(|r| r.as_ref().err())
                ));
            }
            continue;
        }
        let result = records
            .next()
            .unwrap_or_else(|| Err(shogi_kif::ReadError::new(ErrorKind::Truncated, "no record")));
        if let Some(ply) = row.illegal_ply() {
            match &result {
                Err(e) if e.kind == ErrorKind::IllegalMove && e.ply == Some(ply) => entry.0 += 1,
                Ok(r)
                    if r.moves.moves.len() as u32 == ply
                        && r.moves.moves.last().is_some_and(|m| m.foul.is_some()) =>
                {
                    // A foul the record declares: compare like a legal record.
                    let f = r
                        .final_setup()
                        .map(|s| canonical(&s.to_sfen()))
                        .unwrap_or_default();
                    if canonical(r.start.sfen()) == *init
                        && f == *fin
                        && r.usi_moves().join(" ") == *usi
                    {
                        entry.0 += 1;
                    } else {
                        failures.push(format!("{path}: foul record differs: final {f} vs {fin}"));
                    }
                }
                Ok(_) => failures.push(format!(
                    "{path}: expected illegal at ply {ply}, read as valid"
                )),
                Err(e) => failures.push(format!(
                    "{path}: expected illegal at ply {ply}, got {}",
                    e.clone().with_path(path)
                )),
            }
            continue;
        }
        let r = match result {
            Ok(r) => r,
            Err(e) => {
                failures.push(e.with_path(path).render());
                continue;
            }
        };
        let got_init = canonical(r.start.sfen());
        let got_usi = r.usi_moves().join(" ");
        let got_fin = r
            .final_setup()
            .map(|s| canonical(&s.to_sfen()))
            .unwrap_or_default();
        let mut bad = Vec::new();
        if got_init != *init {
            bad.push(format!("start {got_init} != {init}"));
        }
        if r.moves.moves.len().to_string() != row.move_count {
            bad.push(format!(
                "{} moves != {}",
                r.moves.moves.len(),
                row.move_count
            ));
        }
        if got_usi != *usi {
            bad.push(format!("moves differ:\n   ours {got_usi}\n   ref  {usi}"));
        }
        if got_fin != *fin {
            bad.push(format!("final {got_fin} != {fin}"));
        }
        if bad.is_empty() {
            entry.0 += 1;
        } else {
            failures.push(format!("{path}: {}", bad.join("; ")));
        }
    }
    for (f, (ok, all)) in &per_format {
        println!("{f}: {ok}/{all} agree");
    }
    for f in &failures {
        println!("FAIL {f}");
    }
    assert!(
        failures.is_empty(),
        "{} corpus files differ",
        failures.len()
    );
}

/// DISAGREEMENTS.md §3: what validation must say about the corpus's repetition and
/// declaration games. (path, text every warning about the ending must contain, or "" for none)
const VALIDATION_FACTS: &[(&str, &str)] = &[
    ("shogi-server/test/csa/oute_sennichite.csa", "sente loses"),
    ("shogi-server/test/csa/oute_sennichite2.csa", "gote loses"),
    ("shogi-server/test/csa/oute_sennichite3.csa", "sente loses"),
    ("shogi-server/test/csa/not_sennichite.csa", ""),
    ("shogi-server/test/csa/jishogi_kachi.csa", ""),
    ("ShogiBoardQ/tests/fixtures/test_kiou_comments.kif", ""),
    ("mog-core-scala/jvm/src/test/resources/kif/game/009.kif", ""),
];

#[test]
fn corpus_validation_facts() {
    let root = Path::new(corpus::ROOT);
    if !root.join("REFERENCE_CONSENSUS.tsv").exists() {
        eprintln!(
            "note: corpus not found at {}; validation facts skipped",
            corpus::ROOT
        );
        return;
    }
    for (path, expect) in VALIDATION_FACTS {
        let bytes = std::fs::read(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
        let r = shogi_kif::read_bytes(&bytes, ReadOptions::default())
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        let found: Vec<String> = shogi_kif::validate(&r)
            .into_iter()
            .filter(|d| {
                d.message.contains("repetition")
                    || d.message.contains("千日手")
                    || d.message.contains("declaration")
            })
            .map(|d| d.message)
            .collect();
        if expect.is_empty() {
            assert!(found.is_empty(), "{path}: {found:?}");
        } else {
            assert!(
                found.len() == 1 && found[0].contains(expect),
                "{path}: expected one warning with {expect:?}, got {found:?}"
            );
        }
    }
}
