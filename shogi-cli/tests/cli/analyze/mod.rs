//! `shogi analyze` end to end, as a user runs it (the `shogi` binary as a child process):
//! the scripted fake engine for exact tables and every failure (crash, hang, garbage, illegal
//! answers, refused options), the cache across runs and across a SIGKILL, and the two real
//! Debian engines (skipped with a note when missing, failing when CI is set).

use shogi_kif::eval::{Score as KifScore, evaluations};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

mod engines;

const SHOGI: &str = env!("CARGO_BIN_EXE_shogi");

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A fresh scratch folder under the target folder.
fn scratch(name: &str) -> PathBuf {
    let base = Path::new(SHOGI)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(std::env::temp_dir)
        .join("analyze-scratch")
        .join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).unwrap();
    base
}

fn fake() -> String {
    shogi_usi::testing::fake_engine_path()
        .to_string_lossy()
        .into_owned()
}

fn run(args: &[&str]) -> Output {
    Command::new(SHOGI)
        .current_dir(root())
        .arg("analyze")
        .args(args)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The JSON lines of stdout.
fn rows(o: &Output) -> Vec<serde_json::Value> {
    text(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `--engine FAKE --engine-arg A ...` for fake-usi arguments.
fn fake_args(extra: &[&str]) -> Vec<String> {
    let mut v = vec!["--engine".to_string(), fake()];
    for a in extra {
        v.push(format!("--engine-arg={a}"));
    }
    v
}

fn args<'a>(v: &'a [String], more: &[&'a str]) -> Vec<&'a str> {
    v.iter()
        .map(String::as_str)
        .chain(more.iter().copied())
        .collect()
}

const GAME: &str = "samples/game.kif";

/// `shogi analyze GAME --nodes 1 --format jsonl` with the engine flags `engine` and `more`.
fn jsonl(engine: &[String], more: &[&str]) -> Output {
    let mut a = vec![GAME, "--nodes", "1", "--format", "jsonl"];
    a.extend_from_slice(more);
    run(&args(engine, &a))
}
/// Its number of moves (the main line of samples/game.kif).
const PLIES: usize = 30;

/// Fails unless the error column of `row` contains `part`.
#[track_caller]
fn assert_error_has(row: &serde_json::Value, part: &str) {
    let error = row["error"].as_str().unwrap_or_default();
    assert!(error.contains(part), "{row}");
}

#[test]
fn fixed_scores_give_an_exact_table() {
    let f = fake_args(&["--score", "cp 30", "--moves", "7g7f"]);
    let o = jsonl(&f, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let rows = rows(&o);
    assert_eq!(rows.len(), PLIES);
    for (i, r) in rows.iter().enumerate() {
        let ply = i as u64 + 1;
        let sente = ply % 2 == 1;
        assert_eq!(r["ply"], ply);
        assert_eq!(r["side"], if sente { "sente" } else { "gote" });
        // Every position is +30 for the side to move: the mover's best is +30, and the
        // position after the move is +30 for the opponent, -30 for the mover.
        assert_eq!(r["best_cp"], 30, "{r}");
        assert_eq!(r["played_cp"], -30, "{r}");
        assert_eq!(r["best_cp_sente"], if sente { 30 } else { -30 });
        assert_eq!(r["played_cp_sente"], if sente { -30 } else { 30 });
        // 100/(1+e^-0.05) - 100/(1+e^0.05) = 2.4995: rounded 2.5.
        assert_eq!(r["loss"], 2.5, "{r}");
        assert_eq!(r["win_before"], 51.25);
        assert_eq!(r["engine"], "fake-usi");
        assert!(r["error"].is_null(), "{r}");
        let class = if r["move_usi"] == r["best_usi"] {
            "best"
        } else {
            "good"
        };
        assert_eq!(r["class"], class, "{r}");
    }
    // The fake plays 7g7f where it is legal: the first move is the engine's best.
    assert_eq!(rows[0]["best_usi"], "7g7f");
    assert_eq!(rows[0]["class"], "best");
    assert_eq!(rows[0]["move"], "▲７六歩");
    let err = text(&o.stderr);
    assert!(err.contains("analysed 1 game(s) in 1 file(s): 1 complete, 0 with a failure; 31 distinct positions: 31 searched"), "{err}");
}

#[test]
fn csv_header_and_summary() {
    let f = fake_args(&["--score", "cp 30"]);
    let o = run(&args(&f, &[GAME, "--nodes", "1"]));
    assert_eq!(o.status.code(), Some(0));
    let out = text(&o.stdout);
    assert!(out.starts_with("path,game,ply,side,move_usi,move,best_usi,best,best_cp,best_mate,played_cp,played_mate,best_cp_sente,best_mate_sente,played_cp_sente,played_mate_sente,win_before,win_after,loss,class,pv,depth,nodes,engine,error\n"), "{out}");
    assert_eq!(out.lines().count(), PLIES + 1);
    assert_eq!(
        out.lines().next(),
        Some(shogi_cli::ANALYZE_COLUMNS.join(",").as_str())
    );
    let o = run(&args(
        &f,
        &[GAME, "--nodes", "1", "--summary", "--format", "jsonl"],
    ));
    let s = rows(&o);
    let keys: Vec<&str> = shogi_cli::ANALYZE_SUMMARY_COLUMNS.to_vec();
    let mut got: Vec<&str> = s[0]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut want = keys.clone();
    got.sort_unstable();
    want.sort_unstable();
    assert_eq!(got, want);
    // Two sides of one game, then the two players.
    assert_eq!(s.len(), 4, "{s:?}");
    assert_eq!(
        (s[0]["scope"].as_str(), s[0]["side"].as_str()),
        (Some("game"), Some("sente"))
    );
    assert_eq!(s[0]["player"], "Sente");
    assert_eq!(s[0]["moves"], 15);
    assert_eq!(s[0]["judged"], 15);
    assert_eq!(
        s[0]["average_loss"].as_f64().map(|v| (v * 100.0).round()),
        Some(250.0)
    );
    let counts = [
        "best",
        "good",
        "inaccuracy",
        "dubious",
        "mistake",
        "blunder",
    ]
    .map(|c| s[0][c].as_u64().unwrap());
    assert_eq!(counts.iter().sum::<u64>(), 15);
    assert_eq!(s[2]["scope"], "player");
    assert_eq!(s[2]["games"], 1);
}

#[test]
fn mates_have_their_own_columns() {
    let f = fake_args(&["--score", "mate 3"]);
    let o = jsonl(&f, &["--max-plies", "40"]);
    let r = &rows(&o)[0];
    assert!(r["best_cp"].is_null());
    assert_eq!(r["best_mate"], "3");
    assert_eq!(r["played_mate"], "-3");
    assert_eq!(r["best_mate_sente"], "3");
    // Sente played a move after which gote mates: a blunder unless it was the best move.
    assert!(r["loss"].as_f64().unwrap() > 99.0, "{r}");
}

#[test]
fn a_crash_restarts_the_engine_and_the_game_keeps_its_rows() {
    let dir = scratch("crash");
    let counter = dir.join("count");
    let f = fake_args(&["--crash-at-go", "5", "--counter", counter.to_str().unwrap()]);
    let o = jsonl(&f, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let rows = rows(&o);
    assert_eq!(rows.len(), PLIES);
    let notes: Vec<&serde_json::Value> = rows.iter().filter(|r| !r["error"].is_null()).collect();
    // Position 4 (after 4 moves) crashed once: the rows of plies 4 and 5 say so.
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(
        notes[0]["error"]
            .as_str()
            .unwrap()
            .contains("restarted after: engine fake-usi: engine exited")
    );
    assert!(rows.iter().all(|r| r["best_cp"].is_number()));

    // Crashing at every search: each position fails (after one retry), every row says why.
    let f = fake_args(&["--crash-at-go", "1"]);
    let o = jsonl(&f, &[]);
    assert_eq!(o.status.code(), Some(1));
    let rows = self::rows(&o);
    assert_eq!(rows.len(), PLIES);
    assert!(
        rows.iter()
            .all(|r| r["error"].as_str().is_some_and(|e| e.contains("exited")))
    );
    assert!(text(&o.stderr).contains("1 with a failure"));
}

#[test]
fn a_hang_times_out_and_is_retried() {
    let dir = scratch("hang");
    let counter = dir.join("count");
    let f = fake_args(&["--hang-at-go", "2", "--counter", counter.to_str().unwrap()]);
    let start = std::time::Instant::now();
    let o = jsonl(&f, &["--search-timeout", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(start.elapsed() < Duration::from_secs(20));
    let rows = rows(&o);
    assert_eq!(rows.len(), PLIES);
    assert_error_has(&rows[0], "engine hangs");
}

#[test]
fn garbage_illegal_answers_and_refused_options() {
    // Garbage lines around the answers: ignored, the table is complete.
    let f = fake_args(&["--garbage", "--score", "cp 5"]);
    let o = jsonl(&f, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(
        rows(&o)
            .iter()
            .all(|r| r["best_cp"] == 5 && r["error"].is_null())
    );

    // An illegal bestmove: each position's error says so; exit 1.
    let f = fake_args(&["--bestmove", "9a9b"]);
    let o = jsonl(&f, &[]);
    assert_eq!(o.status.code(), Some(1));
    let r = rows(&o);
    assert_eq!(r.len(), PLIES);
    assert_error_has(&r[0], "9a9b");

    // An illegal PV is cut and noted; the score stands.
    let f = fake_args(&["--pv", "7g7f 7g7f", "--score", "cp 1"]);
    let o = jsonl(&f, &[]);
    let r = &rows(&o)[0];
    assert_eq!(r["pv"], "7g7f");
    assert_error_has(r, "pv cut at move 2");

    // An option the engine does not have: usage error naming what it has.
    let f = fake_args(&[]);
    let o = run(&args(&f, &[GAME, "--nodes", "1", "--option", "NoSuch=1"]));
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(err.contains("NoSuch") && err.contains("MultiPV"), "{err}");
    // A missing engine, no limit.
    let o = run(&[GAME, "--engine", "/nonexistent/engine", "--nodes", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("/nonexistent/engine"));
    let o = run(&[GAME, "--engine", &fake()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--nodes"));
    // An unreadable record: its row says so, the batch goes on.
    let dir = scratch("bad");
    std::fs::write(dir.join("bad.kif"), "手数----指手--\n   1 ７五歩(77)\n").unwrap();
    let d = dir.to_str().unwrap();
    let o = run(&args(
        &fake_args(&[]),
        &[d, GAME, "--nodes", "1", "--format", "jsonl"],
    ));
    assert_eq!(o.status.code(), Some(1));
    let r = rows(&o);
    assert_eq!(r.len(), PLIES + 1);
    assert_error_has(&r[0], "move 1");
}

#[test]
fn annotate_dir_refuses_to_overwrite_inputs_and_writes_readable_comments() {
    let dir = scratch("annotate");
    std::fs::copy(root().join(GAME), dir.join("game.kif")).unwrap();
    std::fs::copy(root().join("samples/game.csa"), dir.join("game.csa")).unwrap();
    let d = dir.to_str().unwrap();
    let f = fake_args(&[]);
    let o = run(&args(&f, &[d, "--nodes", "1", "--annotate-dir", d]));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("would overwrite the input"),
        "{}",
        text(&o.stderr)
    );

    let out = dir.join("out");
    let o = run(&args(
        &f,
        &[
            d,
            "--nodes",
            "1",
            "--format",
            "jsonl",
            "--annotate-dir",
            out.to_str().unwrap(),
        ],
    ));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let table = rows(&o);
    for name in ["game.kif", "game.csa"] {
        let rec = shogi_kif::read_path(out.join(name), Default::default()).unwrap();
        let original = shogi_kif::read_path(dir.join(name), Default::default()).unwrap();
        assert_eq!(
            rec.usi_moves(),
            original.usi_moves(),
            "{name}: nothing else changed"
        );
        let evals = evaluations(&rec);
        let mine: Vec<&serde_json::Value> = table
            .iter()
            .filter(|r| r["path"].as_str().unwrap().ends_with(name))
            .collect();
        assert_eq!(evals.len(), mine.len(), "{name}: one evaluation per move");
        for (e, r) in evals.iter().zip(&mine) {
            assert_eq!(u64::from(e.ply), r["ply"].as_u64().unwrap());
            let want = r["played_cp_sente"].as_i64().unwrap() as i32;
            assert_eq!(e.score, Some(KifScore::Cp(want)), "{name} ply {}", e.ply);
        }
        let svg = std::fs::read_to_string(out.join(format!("{name}.svg"))).unwrap();
        assert!(
            svg.starts_with("<svg") && svg.contains("<polyline"),
            "{svg}"
        );
    }
    let kif = std::fs::read_to_string(out.join("game.kif")).unwrap();
    assert!(kif.contains("\n*#評価値="), "{kif}");
    assert!(kif.contains("\n*#エンジン=fake-usi\n"));
}

#[test]
fn from_comments_needs_no_engine() {
    let fixture = root().join("shogi-kif/tests/fixtures/eval/shogihome.kif");
    let o = run(&[
        fixture.to_str().unwrap(),
        "--from-comments",
        "--format",
        "jsonl",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let r = rows(&o);
    assert_eq!(r.len(), 5);
    // Ply 2 is judged by the evaluations after plies 1 (+35 sente) and 2 (+210 sente): gote
    // went from -35 to -210 in its own view.
    assert_eq!(r[1]["best_cp"], -35);
    assert_eq!(r[1]["played_cp"], -210);
    assert_eq!(r[1]["best_usi"], "3c3d");
    assert_eq!(r[1]["class"], "best");
    assert_eq!(r[0]["engine"].as_str(), None);
    assert_eq!(r[1]["engine"], "Fairy-Stockfish 11.1 LB 64");
    // Ply 4: gote mates in 7 after it.
    assert_eq!(r[3]["played_mate"], "7");
}

/// Runs the fake engine named as YaneuraOu (whose fresh state waits: `isready`) with `args`
/// at `--jobs 1`; checks the table equals the plain fake's (an engine given its fresh state
/// just before each search), one search per position and one `isready` per start and per
/// search (sent ahead, not again before `go`); returns how many processes ran.
fn prepared_ahead(name: &str, args: &[&str]) -> usize {
    let dir = scratch(name);
    let log = dir.join("log");
    let _ = std::fs::remove_file(&log);
    let mut all = vec!["--name", "YaneuraOu fake", "--log", log.to_str().unwrap()];
    all.extend_from_slice(args);
    let ahead = jsonl(&fake_args(&all), &["--jobs", "1"]);
    assert_eq!(ahead.status.code(), Some(0), "{}", text(&ahead.stderr));
    let plain = jsonl(&fake_args(&[]), &["--jobs", "1"]);
    let strip = |o: &Output| {
        rows(o)
            .into_iter()
            .map(|mut r| {
                assert!(r["error"].is_null(), "{r}");
                r.as_object_mut().unwrap().remove("engine");
                r
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(strip(&ahead), strip(&plain));
    // Several processes append to one log, so lines may interleave: count the words.
    let logged = std::fs::read_to_string(&log).unwrap();
    let processes = logged.matches("quit").count();
    let searches = logged.matches("go nodes").count();
    assert_eq!(searches, PLIES + 1);
    assert_eq!(logged.matches("isready").count(), processes + searches);
    processes
}

/// An engine whose fresh state waits (YaneuraOu's `isready`) gets four processes per job,
/// each preparing its next search while another searches; when the searches take longer
/// than the preparing (here 30 ms against nothing), four stay enough.
#[test]
fn an_engine_whose_fresh_state_waits_prepares_ahead_in_more_processes() {
    assert_eq!(prepared_ahead("ahead", &["--think", "30"]), 4);
}

/// When preparing takes much longer than searching (`isready` 300 ms, searches 10 ms, as
/// YaneuraOu at a small node count), the first searches tell it and the pool grows to the
/// most processes per job (8) for the rest, the table unchanged.
#[test]
fn the_pool_grows_when_preparing_takes_longer_than_searching() {
    assert_eq!(
        prepared_ahead("grows", &["--think", "10", "--ready-ms", "300"]),
        8
    );
}

/// The go commands an engine logged (fake-usi --log).
fn gos(log: &Path) -> usize {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter(|l| l.starts_with("go "))
        .count()
}

#[test]
fn cache_second_run_costs_no_search_and_kill_9_resumes() {
    let dir = scratch("cache");
    let log = dir.join("log");
    let cache = dir.join("cache.sqlite");
    let f = fake_args(&["--log", log.to_str().unwrap(), "--think", "40"]);
    let c = cache.to_str().unwrap();
    // The reference: one uninterrupted run without the cache.
    let fr = fake_args(&[]);
    let reference = jsonl(&fr, &[]);
    assert_eq!(reference.status.code(), Some(0));

    // A run killed with SIGKILL part way.
    let mut child = Command::new(SHOGI)
        .current_dir(root())
        .arg("analyze")
        .args(args(
            &f,
            &[GAME, "--nodes", "1", "--format", "jsonl", "--cache", c],
        ))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(600));
    child.kill().unwrap();
    let _ = child.wait();
    let first = gos(&log);
    assert!(first > 0 && first < 31, "killed after {first} searches");
    // Run again: it finishes, and the table is the uninterrupted one.
    let again = run(&args(
        &f,
        &[GAME, "--nodes", "1", "--format", "jsonl", "--cache", c],
    ));
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    assert_eq!(text(&again.stdout), text(&reference.stdout));
    let err = text(&again.stderr);
    assert!(err.contains("each searched at most 1 time(s)"), "{err}");
    // No position analysed twice: one go per distinct position over both runs, give or take
    // the one in flight when the kill came.
    let total = gos(&log);
    assert!(
        (31..=32).contains(&total),
        "{total} searches for 31 positions"
    );
    // A third run: everything from the cache, no search at all.
    let third = run(&args(
        &f,
        &[GAME, "--nodes", "1", "--format", "jsonl", "--cache", c],
    ));
    assert_eq!(text(&third.stdout), text(&reference.stdout));
    assert_eq!(gos(&log), total);
    assert!(
        text(&third.stderr).contains("0 searched, 31 from the cache"),
        "{}",
        text(&third.stderr)
    );
    // Another limit is another configuration: searched again.
    let other = run(&args(
        &f,
        &[GAME, "--nodes", "2", "--format", "jsonl", "--cache", c],
    ));
    assert!(text(&other.stderr).contains("31 searched, 0 from the cache"));
}

#[test]
fn jobs_1_and_2_give_the_same_table_with_the_fake() {
    let f = fake_args(&[]);
    let one = run(&args(
        &f,
        &[GAME, "samples/game.csa", "--nodes", "1", "--jobs", "1"],
    ));
    let two = run(&args(
        &f,
        &[GAME, "samples/game.csa", "--nodes", "1", "--jobs", "2"],
    ));
    assert_eq!(one.status.code(), Some(0));
    assert_eq!(text(&one.stdout), text(&two.stdout));
}

// ---- real engines (short: a few games, low nodes) ----

#[test]
fn uci_variant_is_not_an_option_of_analyze() {
    let o = run(&args(
        &fake_args(&[]),
        &[GAME, "--nodes", "1", "--option", "UCI_Variant=shogi"],
    ));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("UCI_Variant"),
        "{}",
        text(&o.stderr)
    );
}

/// `--mode game` sends each position with the game's moves before it (the engine sees the
/// history), keeps position mode's cache apart, and a prefix shared by two games is searched
/// once.
#[test]
fn game_mode_sends_the_moves_before_each_position() {
    let dir = scratch("game-mode");
    let log = dir.join("log");
    let cache = dir.join("cache.sqlite");
    let f = fake_args(&["--log", log.to_str().unwrap()]);
    let c = cache.to_str().unwrap();
    let (a, b) = (dir.join("a.kif"), dir.join("b.kif"));
    let head = "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n";
    std::fs::write(&a, format!("{head}   3 ２六歩(27)\n")).unwrap();
    std::fs::write(&b, format!("{head}   3 ６六歩(67)\n")).unwrap();
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let game = run(&args(
        &f,
        &[
            a, b, "--nodes", "1", "--mode", "game", "--cache", c, "--format", "jsonl",
        ],
    ));
    assert_eq!(game.status.code(), Some(0), "{}", text(&game.stderr));
    let sent = std::fs::read_to_string(&log).unwrap();
    let positions: Vec<&str> = sent.lines().filter(|l| l.starts_with("position")).collect();
    // 4 positions each, the first three shared: 5 searches.
    assert_eq!(positions.len(), 5, "{positions:?}");
    for want in [
        "position startpos",
        "position startpos moves 7g7f",
        "position startpos moves 7g7f 3c3d",
        "position startpos moves 7g7f 3c3d 2g2f",
        "position startpos moves 7g7f 3c3d 6g6f",
    ] {
        assert!(positions.contains(&want), "{want} not in {positions:?}");
    }
    assert_eq!(rows(&game).len(), 6);
    // Position mode does not take game mode's results from the cache, and sends no moves.
    let position = run(&args(
        &f,
        &[a, b, "--nodes", "1", "--cache", c, "--format", "jsonl"],
    ));
    assert_eq!(
        position.status.code(),
        Some(0),
        "{}",
        text(&position.stderr)
    );
    let sent = std::fs::read_to_string(&log).unwrap();
    let later: Vec<&str> = sent
        .lines()
        .filter(|l| l.starts_with("position"))
        .skip(5)
        .collect();
    assert_eq!(later.len(), 5, "{later:?}");
    assert!(later.iter().all(|l| !l.contains(" moves ")), "{later:?}");
    assert!(
        text(&position.stderr).contains("mode game"),
        "{}",
        text(&position.stderr)
    );
    // A second game-mode run takes everything from the cache.
    let again = run(&args(
        &f,
        &[
            a, b, "--nodes", "1", "--mode", "game", "--cache", c, "--format", "jsonl",
        ],
    ));
    assert_eq!(text(&again.stdout), text(&game.stdout));
    assert!(
        text(&again.stderr).contains("0 searched, 5 from the cache"),
        "{}",
        text(&again.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `shogi view --analysis` reads the cache `shogi analyze --cache` writes: the page carries
/// the cache's evaluations (the fake engine's fixed score, in sente's view).
#[test]
fn view_reads_the_analysis_cache() {
    let dir = scratch("view-cache");
    let cache = dir.join("cache.sqlite");
    let c = cache.to_str().unwrap();
    let o = run(&args(
        &fake_args(&["--score", "cp 77"]),
        &[GAME, "--nodes", "1", "--cache", c],
    ));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let page = dir.join("game.html");
    let v = Command::new(SHOGI)
        .current_dir(root())
        .args(["view", GAME, "--analysis", c, "-o", page.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(v.status.code(), Some(0), "{}", text(&v.stderr));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("analysis cache"),
        "no evaluations from the cache"
    );
    // Sente to move scores +77, gote to move -77 (sente's view).
    assert!(
        html.contains("\"+77\"") && html.contains("\"-77\""),
        "scores missing"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
