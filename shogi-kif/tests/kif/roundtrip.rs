//! Round trips over the corpus: read → write → read gives the same record, as far as the
//! target format can hold it (CSA/USI: main line only; KI2: no times).

use serde_json::Value;
use shogi_kif::{EndingKind, Format, ReadOptions, ReadRecord, Reader, Record, write};
use std::path::Path;

fn strip(v: &mut Value, keys: &[&str]) {
    match v {
        Value::Object(m) => {
            for k in keys {
                m.remove(*k);
            }
            for (_, x) in m.iter_mut() {
                strip(x, keys);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| strip(x, keys)),
        _ => {}
    }
}

fn round_ms(v: &mut Value) {
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                if k == "spent_ms" || k == "total_ms" {
                    if let Some(n) = x.as_u64() {
                        *x = Value::from(n / 1000 * 1000);
                    }
                } else {
                    round_ms(x);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(round_ms),
        _ => {}
    }
}

/// Whether some time in the record has the time spent but no running total.
fn lacks_totals(v: &Value) -> bool {
    match v {
        Value::Object(m) => {
            let set = |k: &str| m.get(k).is_some_and(|x| !x.is_null());
            (set("spent_ms") && !set("total_ms")) || m.values().any(lacks_totals)
        }
        Value::Array(a) => a.iter().any(lacks_totals),
        _ => false,
    }
}

/// The part of a record that `format` can carry.
fn projection(r: &Record, format: Format) -> Value {
    let mut v = serde_json::to_value(r).unwrap_or(Value::Null);
    strip(&mut v, &["diagnostics"]);
    // CSA and JKF have no move number in the start position.
    if let Some(Value::String(sfen)) = v.pointer_mut("/start/sfen") {
        *sfen = sfen.split(' ').take(3).collect::<Vec<_>>().join(" ");
    }
    if matches!(format, Format::Kif | Format::Ki2) {
        strip(&mut v, &["offender"]);
        // KIF header values are trimmed when read.
        if let Some(Value::Array(entries)) = v.get_mut("header") {
            for e in entries {
                if let Some(Value::String(s)) = e.get_mut("value") {
                    *s = s.trim_matches([' ', '\u{3000}']).to_string();
                }
            }
        }
    }
    if matches!(format, Format::Kif | Format::Jkf) {
        // KIF and JKF times have whole seconds.
        round_ms(&mut v);
    }
    // CSA has no word for some endings (不戦勝, …); a sealed move (封じ手) is written as an
    // interruption (%CHUDAN) after a comment naming it.
    if format == Format::Csa {
        match r.ending().map(|e| &e.kind) {
            Some(EndingKind::SealedMove) => {
                if let Some(Value::String(k)) = v.pointer_mut("/moves/ending/kind") {
                    *k = "abort".into();
                }
            }
            Some(k) if k.csa().is_none() && !k.is_foul() => {
                if let Some(Value::Object(m)) = v.pointer_mut("/moves") {
                    m.remove("ending");
                }
            }
            _ => {}
        }
    }
    match format {
        Format::Kif | Format::Jkf => {
            if format == Format::Jkf {
                strip(&mut v, &["bookmarks", "start_bookmarks", "name", "header"]);
            }
            v
        }
        Format::Ki2 => {
            strip(&mut v, &["time", "bookmarks", "start_bookmarks"]);
            v
        }
        Format::Csa => {
            strip(
                &mut v,
                &[
                    "variations",
                    "bookmarks",
                    "start_bookmarks",
                    "header",
                    "total_ms",
                    "name",
                ],
            );
            v
        }
        Format::Usi | Format::Sfen => serde_json::json!({
            "start": r.start.sfen(),
            "moves": r.usi_moves(),
        }),
    }
}

#[test]
fn corpus_round_trips() {
    let Some(files) = shogi_testkit::corpus::files("round-trip test") else {
        return;
    };
    let mut failures = Vec::new();
    let mut count = 0;
    for (path, bytes) in files {
        let hint = Format::from_path(Path::new(&path));
        let Ok(records) = Reader::new(&bytes[..], ReadOptions::with_hint(hint)) else {
            continue;
        };
        for rec in records.flat_map(ReadRecord::into_result) {
            if rec.moves.moves.iter().any(|m| m.foul.is_some()) {
                continue;
            }
            for format in Format::ALL {
                // CSA cannot hold a record whose main line ends in a variation-only ending.
                let text = write(&rec, format);
                let back = match shogi_kif::read_str(&text, ReadOptions::with_hint(Some(format))) {
                    Ok(b) => b,
                    Err(e) => {
                        failures.push(format!("{path} via {format:?}: {}\n{text}", e.render()));
                        continue;
                    }
                };
                count += 1;
                let (mut a, mut b) = (projection(&rec, format), projection(&back, format));
                // KIF and JKF times carry running totals, which the writer fills in for records
                // that lack them (read from CSA): compare the times spent only.
                if matches!(format, Format::Kif | Format::Ki2 | Format::Jkf) && lacks_totals(&a) {
                    strip(&mut a, &["total_ms"]);
                    strip(&mut b, &["total_ms"]);
                }
                if a != b {
                    failures.push(format!(
                        "{path} via {format:?} differs:\n ours {}\n back {}",
                        serde_json::to_string(&a)
                            .unwrap_or_default()
                            .chars()
                            .take(3000)
                            .collect::<String>(),
                        serde_json::to_string(&b)
                            .unwrap_or_default()
                            .chars()
                            .take(3000)
                            .collect::<String>()
                    ));
                }
            }
        }
    }
    println!("{count} round trips");
    for f in failures.iter().take(15) {
        println!("FAIL {f}");
    }
    assert!(failures.is_empty(), "{} round trips differ", failures.len());
}
