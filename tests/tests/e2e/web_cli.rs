//! `shogi view` and `shogi serve` end to end: the API's numbers against `shogi explore` and
//! `shogi find` on a generated database, its refusals, 50 parallel requests, and the real pages
//! in headless Chromium (WebDriver through Debian's chromium-driver): a `shogi view` page from
//! `file://` offline, and the explorer application. Screenshots go to target/web-screenshots/.

#[path = "common/browser.rs"]
mod browser;
use crate::common;

use browser::{Browser, browser, get_json, http};
use common::{code, scratch, shogi, shogi_ok, stderr, stdout};
use serde_json::Value;
use shogi_core::{Move, Position, Variant};
use shogi_kif::{Ending, EndingKind, Format, HeaderKey, MoveNode, Record};
use shogi_testkit::Rng;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// `n` generated games as KIF files in `dir`: openings drawn from the first three legal moves
/// (so that the explorer has rows of several games), then random moves; players from a small
/// set, dates, results, and ShogiHome evaluation comments.
fn generate(dir: &Path, n: usize) {
    std::fs::create_dir_all(dir).unwrap();
    let mut rng = Rng::new(30);
    let names = ["羽生", "藤井", "Alice", "Bob", "渡辺"];
    for i in 0..n {
        let mut pos = Position::startpos(Variant::Standard);
        let mut record = Record::default();
        record.header.push(HeaderKey::Black, names[rng.below(5)]);
        record.header.push(HeaderKey::White, names[rng.below(5)]);
        let day = 1 + rng.below(28);
        record
            .header
            .push(HeaderKey::StartTime, format!("2024/03/{day:02} 10:00:00"));
        let plies = 20 + rng.below(40);
        for ply in 0..plies {
            let mut moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
            if moves.is_empty() {
                break;
            }
            moves.sort_by_key(|m| m.to_usi());
            let mv = if ply < 4 {
                moves[rng.below(3.min(moves.len()))]
            } else {
                moves[rng.below(moves.len())]
            };
            pos.play(mv).unwrap();
            let mut node = MoveNode::new(mv);
            node.comments
                .push(format!("#評価値={}", rng.below(1200) as i64 - 600));
            record.moves.moves.push(node);
        }
        if !pos.legal_moves().is_empty() {
            record.moves.ending = Some(Ending::new(if i % 7 == 0 {
                EndingKind::Interrupt
            } else {
                EndingKind::Resign
            }));
        }
        let text = shogi_kif::write(&record, Format::Kif);
        std::fs::write(dir.join(format!("g{i:03}.kif")), text).unwrap();
    }
}

/// The generated games and their database (built once for the test binary).
fn database() -> &'static (PathBuf, PathBuf) {
    static DB: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    DB.get_or_init(|| {
        let dir = scratch("web-db");
        let games = dir.join("games");
        generate(&games, 120);
        let db = dir.join("games.sqlite");
        let _ = std::fs::remove_file(&db);
        shogi_ok(&[
            "index",
            &games.display().to_string(),
            "--db",
            &db.display().to_string(),
        ]);
        (games, db)
    })
}

/// A server on a free port over the generated database, for the whole test binary.
fn server() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| {
        let (_, db) = database();
        let options = shogi_web::ServeOptions {
            bind: "127.0.0.1:0".into(),
            threads: 4,
            ..Default::default()
        };
        let server = shogi_web::Server::bind(db, &options).expect("the server starts");
        let addr = server.addr();
        std::thread::spawn(move || server.run());
        addr
    })
}

fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// `shogi explore POS --db DB --format json [--notation N]` as JSON.
fn cli_explore(pos: &str, notation: &str) -> Value {
    let db = database().1.display().to_string();
    let out = shogi(&[
        "explore",
        pos,
        "--db",
        &db,
        "--format",
        "json",
        "--notation",
        notation,
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn api_numbers_equal_the_cli() {
    let addr = server();
    // From the start, along the most played line, and a rarer branch.
    let mut line: Vec<String> = Vec::new();
    for depth in 0..5 {
        let pos = if line.is_empty() {
            "startpos".to_string()
        } else {
            format!("startpos moves {}", line.join(" "))
        };
        for notation in ["usi", "japanese"] {
            let (status, api) = get_json(
                addr,
                &format!("/api/explore?pos={}&notation={notation}", enc(&pos)),
            );
            assert_eq!(status, 200, "{api}");
            assert_eq!(api, cli_explore(&pos, notation), "{pos}");
        }
        let (_, api) = get_json(addr, &format!("/api/explore?pos={}", enc(&pos)));
        let moves = api["moves"].as_array().unwrap();
        assert!(!moves.is_empty(), "{pos}: the generated games continue");
        if depth == 0 {
            assert!(moves.len() >= 2 && moves[0]["games"].as_u64().unwrap() > 10);
        }
        // The games of the position: the same hits as `shogi find`, page by page.
        let db = database().1.display().to_string();
        let out = shogi(&["find", &pos, "--db", &db, "--format", "jsonl"]);
        let found: Vec<Value> = stdout(&out)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let mut paged = Vec::new();
        let mut offset = 0;
        loop {
            let (status, page) = get_json(
                addr,
                &format!("/api/games?pos={}&offset={offset}&limit=7", enc(&pos)),
            );
            assert_eq!(status, 200);
            assert_eq!(page["total"].as_u64(), Some(found.len() as u64));
            let items = page["items"].as_array().unwrap();
            paged.extend(items.iter().cloned());
            offset += items.len();
            if !page["more"].as_bool().unwrap() {
                break;
            }
        }
        assert_eq!(paged.len(), found.len(), "{pos}");
        for (a, f) in paged.iter().zip(&found) {
            assert_eq!(a["path"], f["path"]);
            assert_eq!(a["game"], f["game"]);
            assert_eq!(a["ply"], f["ply"]);
            assert_eq!(a["winner"], f["winner"]);
        }
        line.push(
            moves[line.len() % moves.len().min(2)]["usi"]
                .as_str()
                .unwrap()
                .to_string(),
        );
    }
    // A game: its moves are those the database holds, and it reaches the position.
    let (_, page) = get_json(addr, "/api/games?pos=startpos&limit=1");
    let first = &page["items"][0];
    let path = first["path"].as_str().unwrap();
    let (status, game) = get_json(addr, &format!("/api/game?path={}&game=1", enc(path)));
    assert_eq!(status, 200, "{game}");
    let plies = game["plies"].as_array().unwrap();
    assert_eq!(plies.len() as u64, first["plies"].as_u64().unwrap() + 1);
    assert_eq!(plies[0]["board"]["cells"][0], "v香");
    // The record file still holds the game: its comments and evaluations are shown.
    assert_eq!(game["eval_source"], "record comments");
    assert!(plies[1]["eval"]["cp"].is_i64(), "{}", plies[1]);
    assert_eq!(
        plies[1]["comments"][0]
            .as_str()
            .map(|c| c.starts_with("#評価値=")),
        Some(true)
    );
    // The record itself, read by `shogi convert`, has the same main line.
    let out = shogi_ok(&["convert", path, "--to", "usi"]);
    let usi: Vec<String> = plies[1..]
        .iter()
        .map(|p| p["usi"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        stdout(&out).trim(),
        format!("position startpos moves {}", usi.join(" "))
    );
    // Search by player: every game has the name, and `shogi stats --player` counts as many.
    let (status, found) = get_json(
        addr,
        &format!("/api/search?player={}&limit=100", enc("藤井")),
    );
    assert_eq!(status, 200);
    let items = found["items"].as_array().unwrap();
    assert!(!items.is_empty());
    for g in items {
        assert!(g["sente"] == "藤井" || g["gote"] == "藤井", "{g}");
    }
    let games_dir = database().0.display().to_string();
    let out = shogi_ok(&["stats", &games_dir, "--player", "藤井"]);
    assert_eq!(
        stdout(&out).lines().count() - 1,
        items.len(),
        "{}",
        stdout(&out)
    );
    // The total counts every game of the player, beyond the page.
    let (_, page) = get_json(addr, &format!("/api/search?player={}&limit=1", enc("藤井")));
    assert_eq!(page["total"].as_u64(), Some(items.len() as u64), "{page}");
    assert_eq!(page["items"].as_array().unwrap().len(), 1);
    // The position endpoint: the legal moves are shogi-core's.
    let (status, p) = get_json(addr, "/api/position?pos=startpos+moves+7g7f");
    assert_eq!(status, 200);
    assert_eq!(p["legal"].as_array().unwrap().len(), 30);
    assert_eq!(p["line"][0], "▲７六歩");
    assert_eq!(p["board"]["turn"], "gote");
}

#[test]
fn api_filters_equal_the_cli() {
    let addr = server();
    let db = database().1.display().to_string();
    // Parameters of /api/explore and /api/games, and the same as flags of the CLI.
    let filters: [&[(&str, &str)]; 5] = [
        &[("since", "2024-03-10")],
        &[("since", "2024-03"), ("until", "2024-03-15")],
        &[("until", "2024-02")],
        &[("min_rating", "1500"), ("rating_of", "average")],
        &[("event", "nothing-of-the-kind")],
    ];
    let mut nonempty = 0;
    for pos in ["startpos", "startpos moves 1g1f"] {
        for f in filters {
            let query: String = f.iter().map(|(k, v)| format!("&{k}={}", enc(v))).collect();
            let mut flags: Vec<String> = Vec::new();
            for (k, v) in f {
                flags.push(format!("--{}", k.replace('_', "-")));
                flags.push(v.to_string());
            }
            let (status, api) = get_json(
                addr,
                &format!("/api/explore?pos={}&notation=japanese{query}", enc(pos)),
            );
            assert_eq!(status, 200, "{api}");
            let mut args = vec!["explore", pos, "--db", &db, "--format", "json"];
            args.extend(["--notation", "japanese"]);
            args.extend(flags.iter().map(String::as_str));
            let cli: Value = serde_json::from_slice(&shogi_ok(&args).stdout).unwrap();
            assert_eq!(api, cli, "{pos} {query}");
            nonempty += usize::from(api["games"].as_u64().unwrap() > 0);
            let (_, page) = get_json(addr, &format!("/api/games?pos={}{query}", enc(pos)));
            let mut args = vec!["find", pos, "--db", &db, "--format", "jsonl"];
            args.extend(flags.iter().map(String::as_str));
            let hits = stdout(&shogi_ok(&args)).lines().count() as u64;
            assert_eq!(page["total"].as_u64(), Some(hits), "{pos} {query}");
        }
    }
    assert!(nonempty >= 4, "{nonempty}");
    let (status, e) = get_json(addr, "/api/explore?pos=startpos&since=2024-13");
    assert_eq!(status, 400);
    assert!(e["error"].as_str().unwrap().contains("since"), "{e}");
}

#[test]
fn api_refuses_bad_requests_with_a_message() {
    let addr = server();
    for (path, status, part) in [
        ("/api/explore?pos=lnsgk%2F9+b", 400, "not a position"),
        ("/api/explore?pos=startpos+moves+7g7e", 400, "7g7e"),
        ("/api/games?limit=100000", 400, "at most 100"),
        ("/api/games?offset=-1", 400, "must not be negative"),
        ("/api/games?offset=x", 400, "not a whole number"),
        ("/api/game?path=nowhere.kif&game=1", 404, "no game 1"),
        ("/api/game?game=1", 400, "path"),
        ("/api/search", 400, "player"),
        ("/api/explore?notation=klingon", 400, "notation"),
        ("/api/nothing", 404, "no such page"),
        ("/../../etc/passwd", 404, "no such page"),
        ("/api/explore?pos=%FF", 400, "UTF-8"),
    ] {
        let (got, body) = get_json(addr, path);
        assert_eq!(got, status, "{path}: {body}");
        let msg = body["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{path}: {body}"));
        assert!(msg.contains(part), "{path}: {msg}");
    }
    let long = format!("/api/explore?pos={}", "a".repeat(10_000));
    assert_eq!(get_json(addr, &long).0, 414);
    let (status, _) = http(addr, "POST", "/api/explore", Some(&Value::Null));
    assert_eq!(status, 405);
}

#[test]
fn fifty_parallel_requests_are_all_answered() {
    let addr = server();
    let want = get_json(addr, "/api/explore?pos=startpos").1;
    let answers: Vec<_> = (0..50)
        .map(|i| {
            std::thread::spawn(move || {
                let path = match i % 3 {
                    0 => "/api/explore?pos=startpos".to_string(),
                    1 => format!("/api/games?pos=startpos&offset={i}&limit=5"),
                    _ => "/api/position?pos=startpos".to_string(),
                };
                (i, get_json(addr, &path))
            })
        })
        .collect();
    for a in answers {
        let (i, (status, body)) = a.join().unwrap();
        assert_eq!(status, 200, "{body}");
        if i % 3 == 0 {
            assert_eq!(body, want);
        }
    }
}

#[test]
fn serve_refuses_a_file_that_is_not_a_game_database() {
    let dir = scratch("web-notdb");
    let f = dir.join("x.sqlite");
    std::fs::write(&f, "not a database at all, just text").unwrap();
    let out = shogi(&[
        "serve",
        "--db",
        &f.display().to_string(),
        "--bind",
        "127.0.0.1:0",
    ]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("x.sqlite"), "{}", stderr(&out));
    // A usable database: --check says so; an address reachable from elsewhere is warned of.
    let db = database().1.display().to_string();
    let out = shogi(&["serve", "--db", &db, "--bind", "127.0.0.1:0", "--check"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("can be served at http://127.0.0.1:"));
    assert_eq!(stderr(&out), "");
    let out = shogi(&["serve", "--db", &db, "--bind", "0.0.0.0:0", "--check"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("reachable from other machines"),
        "{}",
        stderr(&out)
    );
    let out = shogi(&["serve", "--db", "/nonexistent/g.sqlite"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("no such file"), "{}", stderr(&out));
}

#[test]
fn view_writes_small_self_contained_pages() {
    let (games, _) = database();
    let dir = scratch("web-view");
    let out = dir.join("pages");
    let _ = std::fs::remove_dir_all(&out);
    let res = shogi_ok(&[
        "view",
        &games.display().to_string(),
        "-o",
        &out.display().to_string(),
    ]);
    assert!(
        stdout(&res).contains("120 game pages and index.html"),
        "{}",
        stdout(&res)
    );
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(index.contains("g000.kif.html"));
    // A 150-move game stays under 300 KB.
    let long = dir.join("long.kif");
    let mut pos = Position::startpos(Variant::Standard);
    let mut record = Record::default();
    let mut rng = Rng::new(7);
    while record.moves.moves.len() < 150 {
        let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
        let mv = moves[rng.below(moves.len())];
        pos.play(mv).unwrap();
        let mut node = MoveNode::new(mv);
        node.comments.push("#評価値=123".into());
        record.moves.moves.push(node);
    }
    std::fs::write(&long, shogi_kif::write(&record, Format::Kif)).unwrap();
    let page = dir.join("long.html");
    shogi_ok(&[
        "view",
        &long.display().to_string(),
        "-o",
        &page.display().to_string(),
    ]);
    let size = std::fs::metadata(&page).unwrap().len();
    assert!(size < 300_000, "{size} bytes");
    let view = |input: &Path, out: &Path| {
        shogi(&[
            "view",
            &input.display().to_string(),
            "-o",
            &out.display().to_string(),
        ])
    };
    // Several games and -o FILE.html: refused, nothing written.
    let res = view(games, &dir.join("all.html"));
    assert_eq!(code(&res), 2);
    assert!(stderr(&res).contains("give a folder"), "{}", stderr(&res));
    assert!(!dir.join("all.html").exists());
    // A record with an error: reported with its place, shown up to there, exit 1.
    let bad = dir.join("bad.kif");
    std::fs::write(&bad, "手数----指手--\n   1 ７六歩(77)\n   2 ７五歩(76)\n").unwrap();
    let res = view(&bad, &dir.join("bad.html"));
    assert_eq!(code(&res), 1);
    assert!(stderr(&res).contains("bad.kif:3:"), "{}", stderr(&res));
    let html = std::fs::read_to_string(dir.join("bad.html")).unwrap();
    assert!(html.contains("shown up to there") && html.contains("▲７六歩"));
}

/// The moves of `record` as `shogi convert --to kif` writes them: the text after each move
/// line's number (the generated games have no times), the ending's line last.
fn kif_writer_moves(record: &Path) -> Vec<String> {
    let out = shogi_ok(&["convert", &record.display().to_string(), "--to", "kif"]);
    stdout(&out)
        .lines()
        .filter_map(|l| {
            let (n, rest) = l.trim_start_matches(' ').split_once(' ')?;
            n.parse::<u32>().ok()?;
            Some(rest.trim_end_matches(' ').to_string())
        })
        .collect()
}

/// The texts of a move list's moves (`root`: a CSS selector of the list).
fn move_list(b: &Browser, root: &str) -> Vec<String> {
    let v = b.js(&format!(
        "return Array.from(document.querySelectorAll('{root} .mv .t')).map(function (e) {{ return e.textContent; }});"
    ));
    serde_json::from_value(v).unwrap()
}

/// Asserts that a move list shows the KIF writer's moves of `record`.
fn assert_kif_moves(shown: &[String], record: &Path) {
    let kif = kif_writer_moves(record);
    assert!(
        shown.len() >= 20 && kif.len() >= shown.len(),
        "{shown:?} {kif:?}"
    );
    assert_eq!(shown, &kif[..shown.len()]);
    assert!(
        shown.iter().any(|m| m.contains('(')),
        "KIF's source squares"
    );
}

/// The browser's view of the page: ply shown, board cells with a piece, graph present.
const STATE: &str = "var a = document.getElementById('vroot'); \
if (!a || !a.hasAttribute('data-ply')) a = document.getElementById('app'); return {ply: a.getAttribute('data-ply'), \
pieces: document.querySelectorAll('svg.board text.pc').length, graph: !!document.querySelector('svg.graph polyline'), \
status: (document.getElementById('status') || {}).textContent, resources: performance.getEntriesByType('resource').length};";

#[test]
fn view_page_in_a_browser_offline() {
    let Some(driver) = browser() else {
        return;
    };
    let dir = scratch("web-view-browser");
    let page = dir.join("game.html");
    let (games, _) = database();
    shogi_ok(&[
        "view",
        &games.join("g001.kif").display().to_string(),
        "-o",
        &page.display().to_string(),
    ]);
    for (name, w, h) in [("view-desktop", 1200, 900), ("view-phone", 390, 1400)] {
        let b = Browser::start(&driver, w, h);
        b.offline();
        b.go(&format!("file://{}", page.display()));
        b.wait(
            "return document.querySelector('svg.board') !== null",
            "the board",
        );
        let s = b.js(STATE);
        assert_eq!(s["ply"], "0");
        assert_eq!(s["pieces"], 40, "{s}");
        assert_eq!(s["graph"], true, "{s}");
        assert_eq!(s["resources"], 0, "the page loaded nothing: {s}");
        // The moves as the KIF writer writes them; Western at a choice the page remembers.
        let record = games.join("g001.kif");
        assert_kif_moves(&move_list(&b, "#moves"), &record);
        if name == "view-desktop" {
            b.js(
                "var s = document.getElementById('nota'); s.value = 'western'; \
                  s.dispatchEvent(new Event('change')); return 0;",
            );
            let out = shogi_ok(&["convert", &record.display().to_string(), "--to", "moves"]);
            let cli = shogi_ok(&[
                "convert",
                &record.display().to_string(),
                "--to",
                "moves",
                "--notation",
                "western",
            ]);
            assert_ne!(stdout(&out), stdout(&cli));
            let west: Vec<String> = stdout(&cli).split_whitespace().map(String::from).collect();
            assert_eq!(move_list(&b, "#moves"), west);
            b.go(&format!("file://{}", page.display()));
            b.wait(
                "return document.querySelector('svg.board') !== null",
                "the board again",
            );
            assert_eq!(
                b.js("return document.getElementById('nota').value;"),
                "western"
            );
            assert_eq!(move_list(&b, "#moves"), west);
            b.js("var s = document.getElementById('nota'); s.value = 'kif'; \
                  s.dispatchEvent(new Event('change')); return 0;");
        }
        // Keys: → twice, ← once, End, Home.
        b.press("\u{E014}");
        b.press("\u{E014}");
        assert_eq!(b.js(STATE)["ply"], "2");
        b.press("\u{E012}");
        assert_eq!(b.js(STATE)["ply"], "1");
        b.press("\u{E010}");
        let end = b.js(STATE)["ply"]
            .as_str()
            .unwrap()
            .parse::<usize>()
            .unwrap();
        assert!(end >= 20, "End goes to the last move: {end}");
        // A click on the graph's middle jumps to the middle of the game.
        b.click("#graph svg");
        let mid = b.js(STATE)["ply"]
            .as_str()
            .unwrap()
            .parse::<usize>()
            .unwrap();
        assert!(mid.abs_diff(end / 2) <= 1, "{mid} of {end}");
        b.press("\u{E011}");
        assert_eq!(b.js(STATE)["ply"], "0");
        b.press("\u{E014}");
        b.screenshot(name);
    }
}

#[test]
fn serve_in_a_browser() {
    let Some(driver) = browser() else {
        return;
    };
    let addr = server();
    for (name, w, h) in [("serve-desktop", 1200, 900), ("serve-phone", 390, 1600)] {
        let b = Browser::start(&driver, w, h);
        b.go(&format!("http://{addr}/"));
        b.wait("return document.body.getAttribute('data-loaded') === 'startpos' && document.querySelectorAll('#gtable tr.gamerow').length > 0", "the start position");
        // The explorer's rows are the API's and `shogi explore`'s.
        let rows = b.js("return Array.from(document.querySelectorAll('#xtable tr.mvrow')).map(function (r) { \
            return [r.getAttribute('data-usi'), r.children[0].textContent, +r.children[1].textContent]; });");
        let cli = cli_explore("startpos", "japanese");
        let want: Vec<Value> = cli["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| serde_json::json!([m["usi"], m["move"], m["games"]]))
            .collect();
        assert_eq!(rows, Value::Array(want));
        // A drag on the board (a finger on the phone, the mouse on the desktop): 2g to 2f
        // (cells 6*9+7 and 5*9+7); the explorer follows, the move list shows it as KIF.
        b.drag(
            "rect.sq[data-cell='61']",
            "rect.sq[data-cell='52']",
            name == "serve-phone",
        );
        b.wait(
            "return document.body.getAttribute('data-loaded') === 'startpos moves 2g2f'",
            "the dragged move",
        );
        let dragged = b.js(
            "return Array.from(document.querySelectorAll('#xtable tr.mvrow')).map(function (r) { \
            return [r.getAttribute('data-usi'), +r.children[1].textContent]; });",
        );
        let cli = cli_explore("startpos moves 2g2f", "usi");
        let want: Vec<Value> = cli["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| serde_json::json!([m["usi"], m["games"]]))
            .collect();
        assert!(!want.is_empty());
        assert_eq!(dragged, Value::Array(want));
        assert_eq!(move_list(&b, "#xmoves"), ["２六歩(27)"]);
        // A drag that ends off the legal squares plays nothing.
        b.drag("rect.sq[data-cell='20']", "rect.sq[data-cell='40']", false);
        assert_eq!(
            b.js("return document.querySelectorAll('#xboard circle').length;"),
            0
        );
        assert_eq!(
            b.js("return document.body.getAttribute('data-loaded');"),
            "startpos moves 2g2f"
        );
        b.click("#reset");
        b.wait(
            "return document.body.getAttribute('data-loaded') === 'startpos'",
            "the start again",
        );
        // A click on the first move plays it: the board and the table change.
        let first = rows[0][0].as_str().unwrap().to_string();
        let before = b.js("return document.getElementById('xboard').innerHTML;");
        b.click("#xtable tr.mvrow");
        let want_spec = format!("startpos moves {first}");
        b.wait(
            &format!("return document.body.getAttribute('data-loaded') === '{want_spec}'"),
            "the move played",
        );
        assert_ne!(
            b.js("return document.getElementById('xboard').innerHTML;"),
            before
        );
        let rows2 = b.js("return Array.from(document.querySelectorAll('#xtable tr.mvrow')).map(function (r) { return r.getAttribute('data-usi'); });");
        let cli2 = cli_explore(&want_spec, "usi");
        let want2: Vec<Value> = cli2["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["usi"].clone())
            .collect();
        assert_eq!(rows2, Value::Array(want2));
        // A move by clicks on the board: gote's pawn 3c to 3d (cells 2*9+6 then 3*9+6).
        b.click("rect.sq[data-cell='24']");
        b.click("rect.sq[data-cell='33']");
        let spec3 = format!("{want_spec} 3c3d");
        b.wait(
            &format!("return document.body.getAttribute('data-loaded') === '{spec3}'"),
            "the board move",
        );
        b.click("#back");
        b.wait(
            &format!("return document.body.getAttribute('data-loaded') === '{want_spec}'"),
            "back",
        );
        // The filter form: the table is then `shogi explore --since` of the position.
        b.js(
            "document.querySelector('#filters [name=since]').value = '2024-03-15'; \
              document.getElementById('fapply').click(); return 0;",
        );
        b.wait(
            "return document.body.getAttribute('data-filters') === '{\"since\":\"2024-03-15\"}'",
            "the filter applied",
        );
        let usi_rows = "return Array.from(document.querySelectorAll('#xtable tr.mvrow')).map(function (r) { \
            return [r.getAttribute('data-usi'), +r.children[1].textContent]; });";
        let db = database().1.display().to_string();
        let args = ["explore", &want_spec, "--db", &db, "--format", "json"];
        let out = shogi_ok(&[&args[..], &["--since", "2024-03-15"]].concat());
        let cli3: Value = serde_json::from_slice(&out.stdout).unwrap();
        let want3: Vec<Value> = cli3["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| serde_json::json!([m["usi"], m["games"]]))
            .collect();
        assert_eq!(b.js(usi_rows), Value::Array(want3));
        assert_ne!(cli3["games"], cli2["games"], "the filter keeps fewer games");
        if name == "serve-desktop" {
            b.screenshot("serve-explorer");
        }
        b.js(
            "document.querySelector('#filters [name=since]').value = ''; \
              document.getElementById('fapply').click(); return 0;",
        );
        b.wait(
            "return document.body.getAttribute('data-filters') === '{}'",
            "the filter cleared",
        );
        // Open a game from the list and step through it, then click its graph.
        b.click("#gtable tr.gamerow");
        b.wait("return !document.getElementById('gameview').hidden && document.querySelector('#vroot svg.board') !== null", "the game");
        let ply0 = b.js(STATE)["ply"].clone();
        assert_eq!(ply0, "1", "opened at the ply where it reached the position");
        assert_eq!(
            b.js(STATE)["graph"],
            true,
            "the record's evaluations are drawn"
        );
        b.press("\u{E014}");
        assert_eq!(b.js(STATE)["ply"], "2");
        let path = b.js("return document.querySelector('#vroot #tags td + td').textContent;");
        assert_kif_moves(
            &move_list(&b, "#vroot #moves"),
            Path::new(path.as_str().unwrap()),
        );
        b.click("#vroot #graph svg");
        let mid = b.js(STATE)["ply"]
            .as_str()
            .unwrap()
            .parse::<usize>()
            .unwrap();
        assert!(mid > 2, "the graph click moved to ply {mid}");
        b.screenshot(name);
        b.click("#close");
        b.wait(
            "return document.getElementById('gameview').hidden",
            "back to the explorer",
        );
    }
}

/// The book of the book tests: at the start, 2g2f (which games played) and 7g7f (which none
/// did); a position stored flipped, found for `startpos moves 2g2f` by the flipped lookup.
const BOOK: &str = "#YANEURAOU-DB2016 1.00\n\
sfen lnsgkgsnl/1r5b1/p1ppppppp/1p7/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 2\n\
8g8f none -20 8 2\n\
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n\
7g7f 3c3d 80 12 7\n\
2g2f none 50 10 3\n";

/// A server over the generated database with [`BOOK`], and the book's path.
fn book_server() -> &'static (SocketAddr, PathBuf) {
    static ADDR: OnceLock<(SocketAddr, PathBuf)> = OnceLock::new();
    ADDR.get_or_init(|| {
        let (_, db) = database();
        let book = scratch("web-book").join("book.db");
        std::fs::write(&book, BOOK).unwrap();
        let marks = shogi_book::MarkBook::open(&book).expect("the book");
        let options = shogi_web::ServeOptions {
            bind: "127.0.0.1:0".into(),
            threads: 2,
            book: Some(std::sync::Arc::new(marks)),
            ..Default::default()
        };
        let server = shogi_web::Server::bind(db, &options).expect("the server starts");
        let addr = server.addr();
        std::thread::spawn(move || server.run());
        (addr, book)
    })
}

#[test]
fn api_marks_book_moves_as_the_cli_does() {
    let (addr, book) = book_server();
    let db = database().1.display().to_string();
    let mut only_seen = Vec::new();
    for pos in ["startpos", "startpos moves 2g2f", "startpos moves 1g1f"] {
        for notation in ["usi", "japanese"] {
            let (status, mut api) = get_json(
                *addr,
                &format!("/api/explore?pos={}&notation={notation}", enc(pos)),
            );
            assert_eq!(status, 200, "{api}");
            let only = api.as_object_mut().unwrap().remove("book_only").unwrap();
            let args = ["explore", pos, "--db", &db, "--format", "json"];
            let book = book.display().to_string();
            let extra = ["--notation", notation, "--book", &book];
            let cli: Value =
                serde_json::from_slice(&shogi_ok(&[&args[..], &extra].concat()).stdout).unwrap();
            assert_eq!(api, cli, "{pos} {notation}");
            // The book's other moves: not among the games' moves.
            for m in only.as_array().unwrap() {
                let usi = m["usi"].as_str().unwrap();
                assert!(
                    api["moves"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .all(|x| x["usi"] != usi)
                );
                only_seen.push((pos, usi.to_string(), m["book"]["value"].clone()));
            }
        }
    }
    // 7g7f at the start, once in each notation; 2g2f's marks; after 2g2f, the games' 2c2d
    // marked through the flipped position (its 8g8f).
    assert_eq!(
        only_seen,
        [
            ("startpos", "7g7f".to_string(), Value::from(80)),
            ("startpos", "7g7f".to_string(), Value::from(80)),
        ]
    );
    for (pos, usi, marks) in [
        (
            "startpos",
            "2g2f",
            serde_json::json!({"value": 50, "depth": 10, "count": 3}),
        ),
        (
            "startpos moves 2g2f",
            "2c2d",
            serde_json::json!({"value": -20, "depth": 8, "count": 2}),
        ),
    ] {
        let answer = get_json(*addr, &format!("/api/explore?pos={}", enc(pos))).1;
        let moves = answer["moves"].as_array().unwrap();
        let row = moves.iter().find(|m| m["usi"] == usi).unwrap();
        assert_eq!(row["book"], marks, "{pos} {usi}");
    }
    // Without a book, no book field at all (as the CLI without --book).
    let plain = get_json(server(), "/api/explore?pos=startpos").1;
    assert!(plain.get("book_only").is_none() && plain["moves"][0].get("book").is_none());
}

#[test]
fn serve_marks_book_moves_in_a_browser() {
    let Some(driver) = browser() else {
        return;
    };
    let (addr, _) = book_server();
    for (name, w, h) in [
        ("serve-book-desktop", 1200, 900),
        ("serve-book-phone", 390, 1200),
    ] {
        let b = Browser::start(&driver, w, h);
        b.go(&format!("http://{addr}/"));
        b.wait(
            "return document.body.getAttribute('data-loaded') === 'startpos'",
            "the start position",
        );
        let marked = b.js("return Array.from(document.querySelectorAll('#xtable tr.mvrow')).map(function (r) { \
            return [r.getAttribute('data-usi'), r.className.indexOf('inbook') >= 0, r.className.indexOf('bookonly') >= 0, \
            r.lastElementChild.textContent]; });");
        let rows = marked.as_array().unwrap();
        let find = |usi: &str| rows.iter().find(|r| r[0] == usi).cloned();
        assert_eq!(
            find("2g2f"),
            Some(serde_json::json!(["2g2f", true, false, "◆ 50"]))
        );
        assert_eq!(
            find("7g7f"),
            Some(serde_json::json!(["7g7f", true, true, "◆ 80"]))
        );
        assert_eq!(rows.iter().filter(|r| r[1] == true).count(), 2, "{marked}");
        b.screenshot(name);
        // The book-only move plays as any other.
        b.click("#xtable tr.bookonly");
        b.wait(
            "return document.body.getAttribute('data-loaded') === 'startpos moves 7g7f'",
            "the book move played",
        );
    }
}
