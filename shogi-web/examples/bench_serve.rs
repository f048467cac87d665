//! Times `shogi serve` over a game database: the requests of the page's first render of the
//! start position, and `/api/explore` over 100 positions from common to rare (plies 0 to 40
//! of ten stored games), against the same explorer queries made in-process (`Db::explore`,
//! the anchor: what the HTTP layer and JSON add). Prints the page's size too.
//!
//! `cargo run --release -p shogi-web --example bench_serve -- games.sqlite`

use shogi_batch::Selection;
use shogi_core::Position;
use shogi_db::Db;
use shogi_web::{ServeOptions, Server, app_page};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// One GET; the status and the body's length.
fn get(addr: SocketAddr, path: &str) -> (u16, usize) {
    let mut s = TcpStream::connect(addr).expect("connect");
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let text = String::from_utf8_lossy(&raw);
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (status, raw.len())
}

fn enc(s: &str) -> String {
    s.replace(' ', "+").replace('/', "%2F")
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// (median, p99, max) of `v` in ms.
fn stats(mut v: Vec<Duration>) -> (f64, f64, f64) {
    v.sort();
    let at = |q: f64| ms(v[((v.len() - 1) as f64 * q).round() as usize]);
    (at(0.5), at(0.99), at(1.0))
}

fn main() {
    let db_path = std::env::args().nth(1).expect("usage: bench_serve DB");
    let db = Db::open_read_only(&db_path).expect("the database");
    let all = Selection::new();
    let start = Position::startpos(shogi_core::Variant::Standard);
    // Positions: plies 0..40 of ten games spread over the database.
    let found = db.find(&start, &all, Some(10_000)).expect("games");
    let step = (found.hits.len() / 10).max(1);
    let mut positions = Vec::new();
    for h in found.hits.iter().step_by(step).take(10) {
        let g = db.game(&h.row.path, h.row.game).unwrap().unwrap();
        for ply in [0usize, 1, 2, 3, 4, 6, 8, 12, 20, 40] {
            let ply = ply.min(g.moves.len());
            let line: Vec<String> = g.moves[..ply].iter().map(|m| m.to_usi()).collect();
            let spec = if line.is_empty() {
                format!("sfen {}", g.start.to_sfen())
            } else {
                format!("sfen {} moves {}", g.start.to_sfen(), line.join(" "))
            };
            let mut pos = g.start.clone();
            for m in &g.moves[..ply] {
                pos.play_unchecked(*m);
            }
            positions.push((spec, pos));
        }
    }
    // One untimed pass warms SQLite's and the system's caches for both ways of asking.
    let mut games = Vec::new();
    for (_, pos) in &positions {
        games.push(db.explore(pos, &all).unwrap().games);
    }
    let options = ServeOptions {
        bind: "127.0.0.1:0".into(),
        ..ServeOptions::default()
    };
    let server = Server::bind(db_path.as_ref(), &options).expect("bind");
    let addr = server.addr();
    let stop = server.stopper();
    let handle = std::thread::spawn(move || server.run());
    // First render: the page, then what its script asks for the start position.
    let t = Instant::now();
    let (s1, page) = get(addr, "/");
    let (s2, _) = get(addr, "/api/position?pos=startpos");
    let (s3, _) = get(addr, "/api/explore?pos=startpos&notation=japanese");
    let (s4, _) = get(addr, "/api/games?pos=startpos&offset=0&limit=10");
    let first = t.elapsed();
    assert!([s1, s2, s3, s4].iter().all(|s| *s == 200));
    // Each position asked in-process (the anchor) and over HTTP, one after the other.
    let (mut direct, mut api) = (Vec::new(), Vec::new());
    for (spec, pos) in &positions {
        let t = Instant::now();
        db.explore(pos, &all).unwrap();
        direct.push(t.elapsed());
        let t = Instant::now();
        let (status, _) = get(addr, &format!("/api/explore?pos={}", enc(spec)));
        api.push(t.elapsed());
        assert_eq!(status, 200, "{spec}");
    }
    stop.stop();
    let _ = handle.join();
    let (dm, dp, dx) = stats(direct.clone());
    let (am, ap, ax) = stats(api.clone());
    games.sort();
    println!("database: {db_path}");
    println!(
        "positions: {} (games reaching them: {} to {})",
        positions.len(),
        games[0],
        games[games.len() - 1]
    );
    println!(
        "page: {} bytes ({} bytes with headers)",
        app_page().len(),
        page
    );
    println!(
        "first render's requests (page, position, explore, games of startpos): {:.1} ms",
        ms(first)
    );
    println!("explore in-process (anchor): median {dm:.2} ms, p99 {dp:.2} ms, max {dx:.2} ms");
    println!("/api/explore over HTTP:      median {am:.2} ms, p99 {ap:.2} ms, max {ax:.2} ms");
    let total = |v: &[Duration]| v.iter().sum::<Duration>().as_secs_f64();
    println!(
        "HTTP / in-process, total time: {:.2}x",
        total(&api) / total(&direct)
    );
}
