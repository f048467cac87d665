//! The record model through serde: every fixture and sample serialised to JSON and read back
//! is the same record once its source lines are put back, and bad input is an error.

use shogi_kif::{Format, ReadOptions, Reader, Record};

/// Every record of every file under `dir` (the readable ones, errors or not).
fn records(dir: &str) -> Vec<(String, Record)> {
    let mut out = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    paths.sort();
    for path in paths {
        let bytes = std::fs::read(&path).expect("readable file");
        let hint = path
            .extension()
            .and_then(|e| e.to_str())
            .and_then(Format::from_extension);
        let Ok(reader) = Reader::new(&bytes[..], ReadOptions::with_hint(hint)) else {
            continue;
        };
        for game in reader {
            if let Ok(r) = game.into_result() {
                out.push((path.display().to_string(), r));
            }
        }
    }
    out
}

#[test]
fn records_come_back_equal() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut all = records(&format!("{root}/tests/fixtures"));
    all.extend(records(&format!("{root}/../samples")));
    assert!(all.len() > 20, "{} records", all.len());
    let mut with_lines = 0;
    for (name, r) in &all {
        let json = serde_json::to_string(r).expect("serialises");
        let mut back: Record = serde_json::from_str(&json).expect(name);
        let lines = r.source_lines();
        with_lines += usize::from(lines.iter().any(|&n| n > 0));
        assert!(back.set_source_lines(&lines), "{name}");
        assert_eq!(&back, r, "{name}");
        // One line too many or too few is refused.
        let mut longer = lines.clone();
        longer.push(1);
        assert!(!back.clone().set_source_lines(&longer), "{name}");
        if let Some((_, fewer)) = lines.split_last() {
            assert!(!back.clone().set_source_lines(fewer), "{name}");
        }
    }
    assert!(with_lines > 20, "{with_lines}");
}

#[test]
fn bad_forms_are_errors() {
    let (_, r) = records(&format!("{}/../samples", env!("CARGO_MANIFEST_DIR")))
        .into_iter()
        .find(|(_, r)| !r.moves.moves.is_empty())
        .expect("a sample with moves");
    let json = serde_json::to_string(&r).expect("serialises");
    let first = r.moves.moves[0].mv.to_usi();
    for (from, to) in [
        (
            format!("\"move\":\"{first}\""),
            "\"move\":\"9z9z\"".to_string(),
        ),
        (
            "\"variant\":\"standard\"".into(),
            "\"variant\":\"chess\"".into(),
        ),
    ] {
        assert!(json.contains(&from), "{from}");
        let bad = json.replacen(&from, &to, 1);
        assert!(serde_json::from_str::<Record>(&bad).is_err(), "{to}");
    }
    assert!(serde_json::from_str::<Record>(&json[..json.len() / 2]).is_err());
}
