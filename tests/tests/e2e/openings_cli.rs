//! The opening and castle columns of `shogi stats --tags` and the --opening, --castle,
//! --class, --side and --tag-rules filters, end to end on games written here.

use crate::common;

use common::{assert_contains, code, scratch, shogi, shogi_ok, stderr, stdout};
use serde_json::Value;
use shogi_openings::{Kind, RuleSet};
use std::path::{Path, PathBuf};

/// A folder of games: 四間飛車 against Static Rook, a bishop exchange, both sides ranging,
/// nothing recognised, a 二枚落ち game and Mini Shogi (no taxonomy: empty columns).
fn games(name: &str) -> PathBuf {
    let dir = scratch(name);
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    write(
        "a-shiken.usi",
        "position startpos moves 7g7f 3c3d 6g6f 8c8d 2h6h 8d8e 5i4h 5a4b 4h3h 4b3b 3h2h 7a7b 3i3h\n",
    );
    write(
        "b-kakugawari.usi",
        "position startpos moves 7g7f 3c3d 2g2f 8c8d 8h2b+ 3a2b 7i8h 7a7b 3i4h 5a4b 4g4f 6c6d 4h4g 6a5b 4g5f\n",
    );
    write(
        "c-aifuri.usi",
        "position startpos moves 7g7f 3c3d 2h7h 8b3b\n",
    );
    write(
        "d-quiet.usi",
        "position startpos moves 9g9f 1c1d 1g1f 9c9d\n",
    );
    write(
        "e-nimai.kif",
        "手合割：二枚落ち\n戦型：二枚落ち\n   1 ６二銀(71)\n   2 ７六歩(77)\n   3 投了\n",
    );
    write(
        "f-mini.usi",
        "position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 5e4d\n",
    );
    write(
        "h-gote.usi",
        "position startpos moves 7g7f 3c3d 2g2f 4c4d 2f2e 8b4b\n",
    );
    write(
        "g-header.kif",
        "戦型：三間飛車\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７八飛(28)\n   4 投了\n",
    );
    dir
}

fn rows(args: &[&str]) -> Vec<Value> {
    let out = shogi_ok(args);
    stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn strs(v: &Value) -> Vec<&str> {
    v.as_array()
        .map(|a| a.iter().map(|x| x.as_str().unwrap()).collect())
        .unwrap_or_default()
}

fn file(v: &Value) -> &str {
    Path::new(v["path"].as_str().unwrap())
        .file_name()
        .unwrap()
        .to_str()
        .unwrap()
}

#[test]
fn tag_columns_in_json_lines_and_csv() {
    let dir = games("openings-columns");
    let d = dir.to_str().unwrap();
    let rows = rows(&["stats", d, "--tags", "--format", "jsonl"]);
    let by = |name: &str| rows.iter().find(|r| file(r) == name).unwrap();
    let a = by("a-shiken.usi");
    assert_eq!(
        (a["opening"].as_str(), a["game_class"].as_str()),
        (Some("四間飛車"), Some("対抗形"))
    );
    assert_eq!(
        (a["sente_class"].as_str(), a["gote_class"].as_str()),
        (Some("振り飛車"), Some("居飛車"))
    );
    assert_eq!(strs(&a["sente_openings"]), ["四間飛車", "ノーマル四間飛車"]);
    assert_eq!(strs(&a["sente_castles"]), ["片美濃囲い"]);
    assert!(strs(&a["gote_openings"]).is_empty());
    let b = by("b-kakugawari.usi");
    assert_eq!(
        (b["opening"].as_str(), b["game_class"].as_str()),
        (Some("角換わり腰掛け銀"), Some("相居飛車"))
    );
    assert_eq!(
        strs(&b["sente_openings"]),
        ["角換わり", "角換わり腰掛け銀", "腰掛け銀"]
    );
    assert_eq!(strs(&b["gote_openings"]), ["角換わり"]);
    assert_eq!(by("c-aifuri.usi")["opening"].as_str(), Some("相振り飛車"));
    assert_eq!(by("d-quiet.usi")["opening"].as_str(), Some("力戦"));
    for name in ["e-nimai.kif", "f-mini.usi"] {
        let r = by(name);
        assert!(
            r["opening"].is_null()
                && r["game_class"].is_null()
                && strs(&r["sente_openings"]).is_empty(),
            "{r}"
        );
    }
    assert_eq!(
        by("e-nimai.kif")["opening_header"].as_str(),
        Some("二枚落ち")
    );
    let g = by("g-header.kif");
    assert_eq!(
        (g["opening"].as_str(), g["opening_header"].as_str()),
        (Some("三間飛車"), Some("三間飛車"))
    );
    // CSV: the tag columns last, lists joined by ", ".
    let csv = stdout(&shogi_ok(&["stats", d, "--tags"]));
    let header = csv.lines().next().unwrap();
    assert!(header.ends_with(",opening,game_class,sente_class,gote_class,sente_openings,gote_openings,sente_castles,gote_castles,opening_header"), "{header}");
    assert_contains(
        &csv,
        ",角換わり腰掛け銀,相居飛車,居飛車,居飛車,\"角換わり, 角換わり腰掛け銀, 腰掛け銀\",角換わり,,,\n",
    );
    // Held rows (--dedup) are written alike.
    assert_eq!(
        stdout(&shogi_ok(&["stats", d, "--tags", "--dedup", "-j", "1"])),
        csv
    );
    // Without --tags the columns are absent.
    assert!(
        !stdout(&shogi_ok(&["stats", d]))
            .lines()
            .next()
            .unwrap()
            .contains("opening")
    );
}

#[test]
fn filters_keep_exactly_the_games_with_a_descendant() {
    let dir = games("openings-filters");
    let d = dir.to_str().unwrap();
    let all = rows(&["stats", d, "--tags", "--format", "jsonl"]);
    let rules = RuleSet::builtin();
    // `find` takes the same filters, from a database and from the records.
    let db = scratch("openings-filters-db").join("games.sqlite");
    let db = db.to_str().unwrap();
    shogi_ok(&["index", d, "--db", db]);
    for (flag, name, kind, side) in [
        ("--opening", "振り飛車", Kind::Opening, "either"),
        ("--opening", "四間飛車", Kind::Opening, "sente"),
        ("--opening", "四間飛車", Kind::Opening, "gote"),
        ("--opening", "角換わり", Kind::Opening, "gote"),
        ("--castle", "美濃", Kind::Castle, "either"),
    ] {
        let family = rules
            .find(name, None)
            .into_iter()
            .find(|&t| rules.tag(t).kind == kind || rules.tag(t).kind == Kind::Class)
            .unwrap();
        let cols: &[&str] = match (kind, side) {
            (Kind::Opening, "sente") => &["sente_openings"],
            (Kind::Opening, "gote") => &["gote_openings"],
            (Kind::Opening, _) => &["sente_openings", "gote_openings"],
            _ => &["sente_castles", "gote_castles"],
        };
        let want: Vec<&str> = all
            .iter()
            .filter(|r| {
                cols.iter().any(|c| {
                    strs(&r[*c]).iter().any(|t| {
                        let id = rules.find(t, Some(kind))[0];
                        rules.lineage(id).any(|a| a == family)
                    })
                })
            })
            .map(file)
            .collect();
        assert!(!want.is_empty(), "{flag} {name}");
        let got = rows(&[
            "stats", d, "--tags", "--format", "jsonl", flag, name, "--side", side,
        ]);
        assert_eq!(
            got.iter().map(file).collect::<Vec<_>>(),
            want,
            "{flag} {name} --side {side}"
        );
        for from in [&["--db", db][..], &[d][..]] {
            let find = [
                "find", "startpos", "--format", "jsonl", flag, name, "--side", side,
            ];
            let found = rows(&[&find[..], from].concat());
            let mut found: Vec<&str> = found.iter().map(file).collect();
            found.dedup();
            assert_eq!(found, want, "find {flag} {name} --side {side} {from:?}");
        }
    }
    let names = |args: &[&str]| {
        rows(&[&["stats", d, "--format", "jsonl"][..], args].concat())
            .iter()
            .map(|r| file(r).to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&["--class", "相振り飛車"]), ["c-aifuri.usi"]);
    assert_eq!(names(&["--class", "力戦"]), ["d-quiet.usi"]);
    assert_eq!(
        names(&["--class", "振り飛車", "--side", "gote"]),
        ["c-aifuri.usi", "h-gote.usi"]
    );
    assert_eq!(
        names(&["--class", "対抗形"]),
        ["a-shiken.usi", "g-header.kif", "h-gote.usi"]
    );
    // Aliases and spellings; check and convert take the same filters.
    assert_eq!(names(&["--castle", "本美濃"]).len(), 0);
    assert_eq!(
        names(&["--opening", "四間飛車戦法"]),
        ["a-shiken.usi", "h-gote.usi"]
    );
    let out = shogi_ok(&["convert", d, "--to", "usi", "--opening", "角換わり"]);
    assert_eq!(stdout(&out).lines().count(), 1);
}

#[test]
fn unknown_names_and_bad_rule_files_are_usage_errors() {
    let dir = games("openings-errors");
    let d = dir.to_str().unwrap();
    let out = shogi(&["stats", d, "--opening", "五間飛車"]);
    assert_eq!(code(&out), 2);
    assert_contains(
        &stderr(&out),
        "error: --opening: unknown opening '五間飛車' (nearest: 四間飛車, 三間飛車",
    );
    let out = shogi(&["stats", d, "--class", "居玉"]);
    assert_eq!(code(&out), 2);
    assert_contains(&stderr(&out), "unknown class '居玉'");
    let out = shogi(&["stats", d, "--opening", "四間飛車", "--side", "left"]);
    assert_eq!(code(&out), 2);
    let bad = dir.join("bad.rules");
    std::fs::write(
        &bad,
        "opening 五間飛車 < 振り飛車\n  rule\n    moved 飛 at 5十\n",
    )
    .unwrap();
    let out = shogi(&["stats", d, "--tags", "--tag-rules", bad.to_str().unwrap()]);
    assert_eq!(code(&out), 2);
    assert_contains(
        &stderr(&out),
        &format!("{}:3:17: unknown square `5十`", bad.display()).replace(":3:17:", ":3:16:"),
    );
    assert!(stdout(&out).is_empty(), "nothing runs");
    // Given without anything that needs tags, the file is still read and its mistake refused.
    for args in [&["stats", d][..], &["convert", d, "--to", "usi"]] {
        let out = shogi(&[args, &["--tag-rules", bad.to_str().unwrap()]].concat());
        assert_eq!(code(&out), 2, "{args:?}");
        assert_contains(&stderr(&out), "unknown square `5十`");
        assert!(stdout(&out).is_empty(), "nothing runs: {args:?}");
    }
    let missing = dir.join("missing.rules");
    let out = shogi(&["stats", d, "--tag-rules", missing.to_str().unwrap()]);
    assert_eq!(code(&out), 2);
    assert_contains(&stderr(&out), "error: --tag-rules");
    let good = dir.join("good.rules");
    std::fs::write(
        &good,
        "opening 早指し四間 < 四間飛車\n  main 99\n  rule\n    ply <= 5\n    requires 四間飛車\n",
    )
    .unwrap();
    let g = good.to_str().unwrap();
    let got = rows(&[
        "stats",
        d,
        "--tags",
        "--format",
        "jsonl",
        "--tag-rules",
        g,
        "--opening",
        "早指し四間",
    ]);
    assert_eq!(got.iter().map(file).collect::<Vec<_>>(), ["a-shiken.usi"]);
    assert_eq!(got[0]["opening"].as_str(), Some("早指し四間"));
}

#[test]
fn show_lists_each_sides_tags_with_plies() {
    let line =
        "position startpos moves 7g7f 3c3d 6g6f 8c8d 2h6h 8d8e 5i4h 5a4b 4h3h 4b3b 3h2h 7a7b 3i3h";
    let text = stdout(&shogi_ok(&["show", line, "--tags"]));
    assert_contains(&text, "Tags: 対抗形, 戦型 四間飛車\n");
    assert_contains(
        &text,
        "  sente (black, ▲) 振り飛車: 四間飛車 (5), ノーマル四間飛車 (5); castles: 片美濃囲い (13)\n",
    );
    assert_contains(&text, "  gote (white, △) 居飛車: -; castles: -\n");
    let mini = stdout(&shogi_ok(&["show", "samples/mini.kif", "--tags"]));
    assert_contains(&mini, "Tags: none");
    assert!(!stdout(&shogi_ok(&["show", line])).contains("Tags:"));
}

#[test]
fn summary_by_opening_and_player() {
    let dir = games("openings-summary");
    let d = dir.to_str().unwrap();
    let out = shogi_ok(&["stats", d, "--summary", "opening"]);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "opening,games,sente_wins,gote_wins,draws,average_plies"
    );
    // Mini Shogi and 二枚落ち (上手 resigned at ply 3) are counted under none; the USI
    // games have no result.
    for want in [
        "none,2,1,0,0,1.5",
        "四間飛車,2,0,0,0,9.5",
        "三間飛車,1,1,0,0,3.0",
        "力戦,1,0,0,0,4.0",
        "相振り飛車,1,0,0,0,4.0",
    ] {
        assert!(lines.contains(&want), "{want} not in {text}");
    }
    let total: u64 = lines[1..]
        .iter()
        .map(|l| l.split(',').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(total, 8, "{text}");
    let bad = shogi(&["stats", d, "--summary", "castle"]);
    assert_eq!(code(&bad), 2, "{}", stderr(&bad));
}

#[test]
fn summary_by_opening_per_player() {
    let dir = scratch("openings-summary-player");
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    let game = |sente: &str, gote: &str, end: &str| {
        format!(
            "先手：{sente}\n後手：{gote}\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７八飛(28)\n{end}"
        )
    };
    write("1.kif", &game("Alpha", "Beta", "   4 投了\n"));
    write("2.kif", &game("Beta", "Alpha", "   4 投了\n"));
    write(
        "3.kif",
        &game("Gamma", "Alpha", "   4 ８四歩(83)\n   5 投了\n"),
    );
    let d = dir.to_str().unwrap();
    let out = shogi_ok(&[
        "stats",
        d,
        "--summary",
        "opening",
        "--player",
        "alpha",
        "--player",
        "beta",
    ]);
    assert_eq!(
        stdout(&out),
        "player,opening,games,sente_wins,gote_wins,draws,wins,losses,average_plies\n\
         alpha,三間飛車,3,2,1,0,2,1,3.3\n\
         beta,三間飛車,2,2,0,0,1,1,3.0\n"
    );
}

/// The header lines `convert --tags` wrote into a KIF file: (key, value) of the tag keys.
fn tag_lines(path: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter_map(|l| l.split_once('：'))
        .filter(|(k, _)| *k == "戦型" || k.ends_with("の戦型") || k.ends_with("の囲い"))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn convert_tags_writes_headers_that_read_back() {
    let dir = games("openings-convert");
    std::fs::write(
        dir.join("i-own.kif"),
        "戦型：矢倉\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ６八飛(28)\n   4 投了\n",
    )
    .unwrap();
    let out = scratch("openings-convert-out");
    let (d, o) = (dir.to_str().unwrap(), out.to_str().unwrap());
    let done = shogi(&["convert", d, "--to", "kif", "--tags", "--out-dir", o]);
    assert_eq!(code(&done), 0, "{}", stderr(&done));
    // The record's own 戦型 is kept, and the note says what we recognised.
    assert_contains(
        &stderr(&done),
        "i-own.kif: note: kept the record's own 戦型：矢倉 (recognised: 四間飛車)",
    );
    assert_eq!(
        tag_lines(&out.join("i-own.kifu")),
        [("戦型", "矢倉"), ("先手の戦型", "四間飛車")].map(|(k, v)| (k.into(), v.into()))
    );
    assert_eq!(tag_lines(&out.join("f-mini.kifu")), []);
    // Read back: the 戦型 line is the opening column, the side lines are the side's tags.
    let before = rows(&["stats", d, "--tags", "--format", "jsonl"]);
    let after = rows(&["stats", o, "--tags", "--format", "jsonl"]);
    assert_eq!(before.len(), after.len());
    for (b, a) in before.iter().zip(&after) {
        let name = file(a).replace(".kifu", "");
        for col in [
            "opening",
            "sente_openings",
            "gote_openings",
            "sente_castles",
            "gote_castles",
        ] {
            assert_eq!(a[col], b[col], "{name} {col}");
        }
        let lines = tag_lines(&out.join(file(a)));
        let line = |k: &str| lines.iter().find(|l| l.0 == k).map(|l| l.1.clone());
        if name != "i-own" && name != "g-header" && name != "e-nimai" {
            assert_eq!(a["opening_header"], b["opening"], "{name}");
        }
        for (key, col) in [
            ("先手の戦型", "sente_openings"),
            ("後手の戦型", "gote_openings"),
            ("先手の囲い", "sente_castles"),
            ("後手の囲い", "gote_castles"),
        ] {
            let want = strs(&b[col]).join(", ");
            assert_eq!(line(key).unwrap_or_default(), want, "{name} {key}");
        }
    }
    // CSA: the 戦型 as $OPENING, read back as the record's header.
    let csa = shogi_ok(&[
        "convert",
        &format!("{d}/a-shiken.usi"),
        "--to",
        "csa",
        "--tags",
    ]);
    assert_contains(&stdout(&csa), "$OPENING:四間飛車\n");
    let bad = shogi(&["convert", d, "--to", "usi", "--tags"]);
    assert_eq!(code(&bad), 2);
}

#[test]
fn training_export_of_one_opening() {
    let dir = games("openings-training");
    let d = dir.to_str().unwrap();
    let out = shogi(&[
        "convert",
        d,
        "--to",
        "positions",
        "--keep-unfinished",
        "--opening",
        "振り飛車",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // Kept: the games with a Ranging Rook opening (a-shiken, c-aifuri, g-header, h-gote).
    let kept = rows(&["stats", d, "--opening", "振り飛車", "--format", "jsonl"]);
    let plies: u64 = kept.iter().map(|r| r["plies"].as_u64().unwrap()).sum();
    assert_eq!(stdout(&out).lines().count() as u64, plies);
    assert_contains(
        &stderr(&out),
        &format!(
            "{} without the --opening/--castle/--class asked for",
            8 - kept.len()
        ),
    );
}
