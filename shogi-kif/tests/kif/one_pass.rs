//! A `Reader` that validates (one replay) must give exactly what reading without validation
//! and then calling `validate` gives, on every record file at hand: the fixtures, the CLI's fixtures
//! and the shared corpus (when present).

use shogi_kif::{Format, ReadOptions, Reader};
use std::path::{Path, PathBuf};

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p
            .extension()
            .and_then(|e| e.to_str())
            .and_then(Format::from_extension)
            .is_some()
        {
            out.push(p);
        }
    }
}

#[test]
fn validated_reading_matches_read_then_validate() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in [
        base.join("tests/fixtures"),
        base.join("../tests/fixtures"),
        base.join("../../shared/corpus"),
    ] {
        walk(&dir, &mut files);
    }
    files.sort();
    assert!(
        files.len() > 20,
        "too few record files found: {}",
        files.len()
    );
    let mut records_seen = 0;
    for f in &files {
        let Ok(bytes) = std::fs::read(f) else {
            continue;
        };
        let hint = f
            .extension()
            .and_then(|e| e.to_str())
            .and_then(Format::from_extension);
        let plain_opts = ReadOptions {
            validate: false,
            ..ReadOptions::with_hint(hint)
        };
        let (Ok(plain), Ok(mut checked)) = (
            Reader::new(&bytes[..], plain_opts),
            Reader::new(&bytes[..], ReadOptions::with_hint(hint)),
        ) else {
            continue;
        };
        for (n, a) in plain.enumerate() {
            let a = a.into_result();
            let b = checked
                .next()
                .map(|g| g.error.map_or(Ok((g.record, g.diagnostics)), Err))
                .unwrap_or_else(|| panic!("{}: record {n} missing", f.display()));
            match (a, b) {
                (Ok(a), Ok((b, diags))) => {
                    assert_eq!(a, b, "{}: record {n} differs", f.display());
                    assert_eq!(
                        shogi_kif::validate(&a),
                        diags,
                        "{}: record {n}: diagnostics differ",
                        f.display()
                    );
                    records_seen += 1;
                }
                (Err(a), Err(b)) => assert_eq!(a, b, "{}: record {n}", f.display()),
                (a, b) => panic!("{}: record {n}: {a:?} vs {b:?}", f.display()),
            }
        }
        assert!(checked.next().is_none(), "{}: extra record", f.display());
    }
    assert!(records_seen > 20, "only {records_seen} records read");
}

#[test]
fn even_start_is_the_usual_start() {
    let r = shogi_kif::read_str("手合割：平手\n   1 ７六歩(77)\n", ReadOptions::default()).unwrap();
    assert_eq!(r.start, shogi_kif::Start::even());
    let pos = shogi_core::Position::startpos(shogi_core::Variant::Standard);
    assert_eq!(pos.to_sfen(), r.start.sfen());
    assert_eq!(r.start_position(), &pos);
}
