//! `shogi book`: build from records, probe, convert between the three formats, check, merge,
//! backup and key, with the located errors of bad books.

use crate::common;

use common::{code, scratch, shogi, shogi_stdin, stderr, stdout, workspace_root};

const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

fn samples() -> String {
    workspace_root().join("samples").display().to_string()
}

#[test]
fn build_probe_convert_and_check() {
    let dir = scratch("book-build");
    let db = dir.join("s.db").display().to_string();
    let out = shogi(&["book", "build", &samples(), "-o", &db, "--max-ply", "12"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("1 not standard shogi"),
        "{}",
        stderr(&out)
    );
    let text = std::fs::read_to_string(&db).unwrap();
    assert!(text.starts_with("#YANEURAOU-DB2016 1.00\nsfen "), "{text}");
    assert_eq!(text.matches("\nsfen ").count(), 12, "{text}");
    // The five standard samples are one game: 7g7f five times.
    let out = shogi(&["book", "probe", &db, "startpos", "--notation", "japanese"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let lines: Vec<String> = stdout(&out).lines().map(String::from).collect();
    assert_eq!(
        lines[0],
        "move\tnotation\tvalue\tdepth\tcount\tshare\tponder"
    );
    assert!(lines[1].starts_with("7g7f\t▲７六歩\t"), "{lines:?}");
    assert!(lines[1].ends_with("\t0\t5\t100.00%\tnone"), "{lines:?}");
    // Not in the book: exit 1.
    let out = shogi(&["book", "probe", &db, "startpos moves 2g2f"]);
    assert_eq!(code(&out), 1);
    // Round trips through .ybb and book.bin come back with the same moves and values.
    for ext in ["ybb", "bin"] {
        let other = dir.join(format!("book.{ext}")).display().to_string();
        let back = dir.join(format!("back-{ext}.db")).display().to_string();
        for (a, b) in [(&db, &other), (&other, &back)] {
            let out = shogi(&["book", "convert", a, b]);
            assert_eq!(code(&out), 0, "{}", stderr(&out));
        }
        let fields = |t: &str| -> Vec<String> {
            t.lines()
                .map(|l| l.split(' ').take(3).collect::<Vec<_>>().join(" "))
                .collect()
        };
        assert_eq!(
            fields(&std::fs::read_to_string(&back).unwrap()),
            fields(&text),
            "{ext}"
        );
        let out = shogi(&["book", "probe", &other]);
        assert!(
            stdout(&out).contains("7g7f\t7g7f\t"),
            "{ext}: {}",
            stdout(&out)
        );
        let out = shogi(&["book", "check", &other]);
        assert_eq!(code(&out), 0, "{ext}: {}{}", stdout(&out), stderr(&out));
        if ext == "ybb" {
            // Streamed from disk: the statistics of the text book it came from.
            let stats = |b: &str| stdout(&shogi(&["book", "stats", b]));
            assert_eq!(stats(&other), stats(&db));
        }
    }
    let out = shogi(&["book", "check", &db]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let out = shogi(&["book", "stats", &db]);
    assert!(
        stdout(&out).starts_with("positions\t12\nmoves\t12\n"),
        "{}",
        stdout(&out)
    );
    assert!(
        stdout(&out).contains("depth 0\t12\nply 1\t1\n"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn the_selection_of_stats_applies_to_build() {
    let dir = scratch("book-select");
    let db = dir.join("s.db").display().to_string();
    let out = shogi(&["book", "build", &samples(), "-o", &db, "--winner", "sente"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stderr(&out).contains("0 counted"), "{}", stderr(&out));
}

#[test]
fn check_locates_every_problem() {
    let dir = scratch("book-check");
    let db = dir.join("bad.db");
    std::fs::write(
        &db,
        format!(
            "#YANEURAOU-DB2016 1.00\n\
sfen {START}\n7g7e none 0 0 1\n2g2f none x\n\
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n8c8d none 0 0 1\n\
sfen {START}\n7g7f none\n"
        ),
    )
    .unwrap();
    let path = db.display().to_string();
    let out = shogi(&["book", "check", &path]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(
        lines[0].starts_with(&format!("{path}:3:1: illegal move 7g7e")),
        "{text}"
    );
    assert!(
        lines[1].starts_with(&format!("{path}:4:11: value `x`")),
        "{text}"
    );
    assert!(
        lines[2].starts_with(&format!("{path}:5:6: out of order: `sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2` comes after `sfen {START}` (line 2)")),
        "{text}"
    );
    assert!(
        lines[3].starts_with(&format!(
            "{path}:7:6: repeated position `{}` (also at line 2)",
            &START[..START.len() - 2]
        )),
        "{text}"
    );
    // Reading it for anything else stops at the first.
    let out = shogi(&["book", "stats", &path]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).starts_with(&format!("error: {path}:3:1: illegal move 7g7e")),
        "{}",
        stderr(&out)
    );
}

#[test]
fn bad_binary_and_mini_books_are_errors() {
    let dir = scratch("book-bad");
    let bin = dir.join("book.bin").display().to_string();
    std::fs::write(&bin, [0u8; 20]).unwrap();
    let out = shogi(&[
        "book",
        "convert",
        &bin,
        &dir.join("o.db").display().to_string(),
    ]);
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out).trim(),
        format!(
            "error: {bin}: 20 bytes is not a whole number of 16-byte Apery records (4 bytes left over)"
        )
    );
    assert!(!dir.join("o.db").exists());
    let mini = dir.join("mini.db").display().to_string();
    std::fs::write(&mini, "sfen rbsgk/4p/5/P4/KGSBR b - 1\n5e4d none\n").unwrap();
    let out = shogi(&["book", "check", &mini]);
    assert_eq!(code(&out), 1);
    assert!(
        stdout(&out).starts_with(&format!("{mini}:1:6: a Mini Shogi position")),
        "{}",
        stdout(&out)
    );
    let out = shogi(&[
        "book",
        "build",
        &workspace_root()
            .join("samples/mini.kif")
            .display()
            .to_string(),
        "-o",
        &mini,
    ]);
    assert!(
        stderr(&out).contains("1 not standard shogi"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_failed_merge_keeps_the_output() {
    let dir = scratch("book-merge");
    let a = dir.join("a.db").display().to_string();
    let b = dir.join("b.db").display().to_string();
    let out_path = dir.join("out.db").display().to_string();
    std::fs::write(&a, format!("sfen {START}\n7g7f none 10 0 2\n")).unwrap();
    std::fs::write(&b, format!("sfen {START}\n2g2f none 20 5 1\n")).unwrap();
    let out = shogi(&["book", "merge", &a, &b, "-o", &out_path]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // YaneuraOu's rule: b's first move is deeper.
    let merged = std::fs::read_to_string(&out_path).unwrap();
    assert_eq!(
        merged,
        format!("#YANEURAOU-DB2016 1.00\nsfen {START}\n2g2f none 20 5 1\n")
    );
    let out = shogi(&["book", "merge", &a, &b, "-o", &out_path, "--add-counts"]);
    assert_eq!(code(&out), 0);
    assert!(
        std::fs::read_to_string(&out_path)
            .unwrap()
            .ends_with("7g7f none 10 0 2\n2g2f none 20 5 1\n")
    );
    std::fs::write(&b, format!("sfen {START}\n2g2f none 20 5 1\n7g7e none\n")).unwrap();
    let before = std::fs::read_to_string(&out_path).unwrap();
    let out = shogi(&["book", "merge", &a, &b, "-o", &out_path]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains(&format!("{b}:3:1: illegal move 7g7e")),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_to_string(&out_path).unwrap(), before);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 3);
}

#[test]
fn backup_and_key() {
    let dir = scratch("book-backup");
    let a = dir.join("a.db").display().to_string();
    let o = dir.join("o.db").display().to_string();
    std::fs::write(
        &a,
        format!("sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL w - 2\n8c8d none -30 0 1\nsfen {START}\n7g7f none 10 0 1\n"),
    )
    .unwrap();
    let out = shogi(&["book", "backup", &a, &o]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stderr(&out)
            .starts_with("2 nodes (2 acyclic, 0 on perpetual-check loops), 1 converged moves"),
        "{}",
        stderr(&out)
    );
    assert!(std::fs::read_to_string(&o).unwrap().ends_with(&format!(
        "sfen {START}\n2g2f none 30 1 1\n7g7f none 10 0 1\n"
    )));
    let out = shogi_stdin(
        &["book", "key", "-"],
        &format!("{START}\nstartpos moves 7g7f\n"),
    );
    assert_eq!(stdout(&out), "eebe8ee7e1ad7e15\n3e7b1f82567220d5\n");
}
