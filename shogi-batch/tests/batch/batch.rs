//! The batch driver over a folder of good and bad inputs.

use shogi_batch::{Event, GameRow, Selection, Shard, expand, pool, run, select_row};
use std::ops::ControlFlow;
use std::path::Path;

/// A folder with records of every kind and inputs of every kind of trouble.
fn collection(dir: &Path) {
    let w = |name: &str, bytes: &[u8]| {
        let p = dir.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    };
    w(
        "a/game.kif",
        "先手：甲\n後手：乙\n手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n"
            .as_bytes(),
    );
    w(
        "a/many.csa",
        b"N+x\nN-y\n'black_rate:x:1500\n'white_rate:y:1600.5\nPI\n+\n+7776FU\n%TORYO\n/\nPI\n+\n+2726FU\n-9394FU\n/\nPI\n+\n+7776FU\n-9394FU\n+0055KA\n",
    );
    w(
        "a/lines.usi",
        b"position startpos moves 7g7f 3c3d\nposition startpos moves 7g7f 3c3d 8h2b+\nnot a usi line\n",
    );
    w("b/empty.kif", b"");
    w("b/binary.kif", &[0u8, 159, 146, 150, 255, 254, 0, 1, 2, 3]);
    // Shift_JIS header, then a UTF-8 line: no single encoding reads it.
    let mut mixed = encoding_rs::SHIFT_JIS.encode("先手：甲\n").0.into_owned();
    mixed.extend_from_slice("後手：乙\n   1 ７六歩(77)\n".as_bytes());
    w("b/mixed.kif", &mixed);
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.join("nowhere.kif"), dir.join("b/dangling.kif")).unwrap();
    w("c/ignored.txt", b"not a record");
}

fn rows(paths: &[String], jobs: usize, selection: &Selection) -> Vec<GameRow> {
    let inputs = expand(paths).unwrap();
    let mut out = Vec::new();
    let flow = run(
        &inputs,
        &Default::default(),
        &pool(Some(jobs)).unwrap(),
        |input, game| select_row(input, &game, selection),
        |_, e| {
            if let Event::Game(Some(row)) = e {
                out.push(row);
            }
            ControlFlow::Continue(())
        },
    );
    assert!(flow.is_continue());
    out
}

#[test]
fn every_input_gets_its_rows_in_order() {
    let dir = tempfile::tempdir().unwrap();
    collection(dir.path());
    let root = dir.path().display().to_string();
    let all = rows(std::slice::from_ref(&root), 2, &Selection::new());
    let summary: Vec<(String, u32, bool, u32)> = all
        .iter()
        .map(|r| {
            let rel = r.path.strip_prefix(&root).unwrap().to_string();
            (rel, r.game, r.valid, r.plies)
        })
        .collect();
    let want: Vec<(String, u32, bool, u32)> = [
        ("/a/game.kif", 1, true, 2),
        ("/a/lines.usi", 1, true, 2),
        ("/a/lines.usi", 2, true, 3),
        ("/a/lines.usi", 3, false, 0),
        ("/a/many.csa", 1, true, 1),
        ("/a/many.csa", 2, true, 2),
        // Refused at its third move (a bishop dropped from an empty hand): the two before count.
        ("/a/many.csa", 3, false, 2),
        ("/b/binary.kif", 1, false, 0),
        ("/b/dangling.kif", 1, false, 0),
        ("/b/empty.kif", 1, false, 0),
        ("/b/mixed.kif", 1, false, 0),
    ]
    .iter()
    .map(|(p, g, v, n)| (p.to_string(), *g, *v, *n))
    .collect();
    assert_eq!(summary, want);
    let many = &all[4];
    assert_eq!(many.sente_rating, Some(1500.0));
    assert_eq!(many.gote_rating, Some(1600.5));
    // Sente played 7g7f, then gote (to move) resigned.
    assert_eq!(many.winner, shogi_kif::Winner::Sente);
    assert_eq!(all[5].sente_rating, None);
    let dangling = &all[8];
    assert_eq!(
        dangling.first_error.as_deref(),
        Some("io: no such file or directory")
    );
    assert!(all[9].first_error.as_deref().unwrap().contains("empty"));
    // The illegal drop names its ply.
    assert_eq!(all[6].error_ply, Some(3));
    // Same rows whatever the number of threads.
    assert_eq!(rows(std::slice::from_ref(&root), 1, &Selection::new()), all);
}

#[test]
fn shards_partition_the_inputs() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..60 {
        let p = dir.path().join(format!("d{}/g{i}.usi", i % 3));
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, "position startpos moves 7g7f\n").unwrap();
    }
    let root = dir.path().display().to_string();
    let all: Vec<String> = expand(std::slice::from_ref(&root))
        .unwrap()
        .into_iter()
        .map(|i| i.name)
        .collect();
    for n in 1..=5u32 {
        let mut union = Vec::new();
        for i in 1..=n {
            let shard = Shard { index: i, count: n };
            let part: Vec<String> = shard
                .select(expand(std::slice::from_ref(&root)).unwrap())
                .into_iter()
                .map(|i| i.name)
                .collect();
            union.extend(part);
        }
        union.sort();
        let mut whole = all.clone();
        whole.sort();
        // Each input is in exactly one shard: the union, counted with repeats, is the whole.
        assert_eq!(union, whole, "{n} shards");
    }
}

#[test]
fn selection_by_position_and_rating() {
    let dir = tempfile::tempdir().unwrap();
    collection(dir.path());
    let root = dir.path().display().to_string();
    let s = Selection::new().passes_through(
        shogi_batch::filter_text::position(
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b -",
        )
        .unwrap(),
    );
    let hits: Vec<(String, u32)> = rows(std::slice::from_ref(&root), 2, &s)
        .into_iter()
        .map(|r| (r.path.rsplit('/').next().unwrap().to_string(), r.game))
        .collect();
    assert_eq!(
        hits,
        [
            ("game.kif".to_string(), 1),
            ("lines.usi".to_string(), 1),
            ("lines.usi".to_string(), 2)
        ]
    );
    let s = Selection::new().min_rating(1500.0);
    assert_eq!(rows(std::slice::from_ref(&root), 1, &s).len(), 1);
}

#[test]
fn a_panic_in_the_work_becomes_that_games_error() {
    let dir = tempfile::tempdir().unwrap();
    collection(dir.path());
    let root = dir.path().display().to_string();
    let inputs = expand(std::slice::from_ref(&root)).unwrap();
    let mut out = Vec::new();
    let _ = run(
        &inputs,
        &Default::default(),
        &pool(Some(2)).unwrap(),
        |input, game| {
            if input.name.ends_with("lines.usi") && game.index == 2 && game.error.is_none() {
                panic!("planned");
            }
            (game.index, game.panic)
        },
        |input, e| {
            if let Event::Game(t) = e {
                if input.name.ends_with("lines.usi") {
                    out.push(t);
                }
            }
            ControlFlow::Continue(())
        },
    );
    assert_eq!(out.len(), 3);
    assert_eq!(out[0], (1, None));
    assert_eq!(out[1].0, 2);
    assert!(out[1].1.as_deref().unwrap().starts_with("planned ("));
    assert_eq!(out[2].0, 3);
}

#[test]
fn files_of_unknown_size_read_as_files_of_known_size() {
    // A folder walk does not ask for the sizes of record files: small ones are read in a
    // chunk, larger ones (here two in a row, and one alone) found so and read by size.
    let dir = tempfile::tempdir().unwrap();
    let usi = |games: usize| {
        let mut text = String::new();
        for g in 0..games {
            let tail = ["7g7f 3c3d", "2g2f 8c8d 2f2e"][g % 2];
            text.push_str(&format!("position startpos moves {tail}\n"));
        }
        text
    };
    let csa = vec!["PI\n+\n+7776FU\n-3334FU\n"; 6000].join("/\n");
    let files: [(&str, String); 6] = [
        ("1.usi", usi(3)),
        ("2.usi", usi(4000)),
        ("3.usi", usi(5000)),
        ("4.kif", "   1 ７六歩(77)\n   2 ３四歩(33)\n".to_string()),
        ("5.csa", csa),
        ("6.usi", usi(1)),
    ];
    for (name, text) in &files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let large = shogi_batch::read::UNSIZED_WHOLE as usize;
    assert!(files[1].1.len() > large && files[2].1.len() > large && files[4].1.len() > large);
    let root = dir.path().display().to_string();
    let walked = expand(std::slice::from_ref(&root)).unwrap();
    assert!(walked.iter().all(|i| i.size == 0), "{walked:?}");
    let named: Vec<String> = files.iter().map(|(n, _)| format!("{root}/{n}")).collect();
    assert!(expand(&named).unwrap().iter().all(|i| i.size > 0));
    for jobs in [1, 2] {
        let by_walk = rows(std::slice::from_ref(&root), jobs, &Selection::new());
        let by_name = rows(&named, jobs, &Selection::new());
        let games: Vec<usize> = ["1.usi", "2.usi", "3.usi", "4.kif", "5.csa", "6.usi"]
            .iter()
            .map(|n| by_walk.iter().filter(|r| r.path.ends_with(n)).count())
            .collect();
        assert_eq!(games, [3, 4000, 5000, 1, 6000, 1]);
        assert!(by_walk.iter().all(|r| r.valid));
        assert_eq!(by_walk, by_name);
    }
}
