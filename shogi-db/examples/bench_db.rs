//! Benchmarks of the game database for the note: index speed with 1 and 2 jobs, bytes per
//! game, and `find`/`explore` latency (median of 20) for the start position, a common
//! position (after 1 ply) and a rare one, against a brute-force scan of the records.
//!
//! ```text
//! cargo run --release -p shogi-kif --example gen_games -- --out /tmp/g100k --games 100000 --seed 1
//! cargo run --release -p shogi-db --example bench_db -- /tmp/g100k /tmp/bench [--jobs 1,2] [--scans 3] [--reuse]
//! ```

use shogi_batch::Selection;
use shogi_core::{Position, Variant};
use shogi_db::{Db, Hit, IndexOptions, index, scan};
use std::path::Path;
use std::time::Instant;

/// The fields `shogi find --format csv` prints of a hit, in its order.
type Line<'a> = (
    &'a str,
    u32,
    u32,
    Option<String>,
    &'a str,
    Option<&'a str>,
    Option<&'a str>,
    Option<&'a str>,
    Option<f64>,
    Option<f64>,
    Option<&'a str>,
    u32,
    bool,
);

fn line(h: &Hit) -> Line<'_> {
    let r = &h.row;
    let start = r.start_iso.as_deref().or(r.start.as_deref());
    (
        &r.path,
        r.game,
        h.ply,
        h.next_move.map(|m| m.to_usi()),
        r.winner.name(),
        r.ending.map(|e| e.name()),
        r.sente.as_deref(),
        r.gote.as_deref(),
        r.sente_rating,
        r.gote_rating,
        start,
        r.plies,
        r.valid,
    )
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// CPU seconds (user + system) of this process so far (Linux; 0 elsewhere): wall time on a
/// shared machine says little, CPU time says what the work costs.
fn cpu() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    let after = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // Fields 14 and 15 of stat (utime, stime), in clock ticks of 1/100 s.
    (ticks(11) + ticks(12)) / 100.0
}

fn time<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t = Instant::now();
    let r = f();
    (r, t.elapsed().as_secs_f64())
}

// Over 100 lines on purpose: a benchmark script, each measured step in the order it runs.
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = args
        .first()
        .ok_or("usage: bench_db RECORDS OUTDIR [--jobs 1,2] [--scans N]")?;
    let out = Path::new(args.get(1).ok_or("OUTDIR missing")?);
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let jobs: Vec<usize> = flag("--jobs")
        .unwrap_or_else(|| "1,2".into())
        .split(',')
        .map(|j| j.parse().unwrap())
        .collect();
    let scans: usize = flag("--scans").map_or(3, |s| s.parse().unwrap());
    // Queries only, on the databases a previous run left in OUTDIR.
    let reuse = args.iter().any(|a| a == "--reuse");
    std::fs::create_dir_all(out)?;
    let paths = [dir.as_str()];
    let mut db = None;
    for j in &jobs {
        let file = out.join(format!("bench-j{j}.sqlite"));
        if reuse && file.exists() {
            println!("index --jobs {j}: reusing {}", file.display());
            db = Some(file);
            continue;
        }
        let _ = std::fs::remove_file(&file);
        let opts = IndexOptions {
            jobs: Some(*j),
            ..IndexOptions::default()
        };
        let cpu0 = cpu();
        let (report, secs) = time(|| index(&paths, &file, &opts));
        let cpu_secs = cpu() - cpu0;
        let report = report?;
        let size = std::fs::metadata(&file)?.len();
        println!(
            "index --jobs {j}: {} games, {} positions in {secs:.2} s = {:.0} games/s; CPU {cpu_secs:.2} s = {:.0} games per CPU-second; {} bytes = {:.0} bytes/game, {:.1} bytes/position",
            report.games_added,
            report.positions_added,
            report.games_added as f64 / secs,
            report.games_added as f64 / cpu_secs,
            size,
            size as f64 / report.games_added as f64,
            size as f64 / report.positions_added as f64
        );
        let (again, secs) = time(|| index(&paths, &file, &opts));
        let again = again?;
        println!(
            "  re-index, nothing changed: {:.2} s ({} files unchanged)",
            secs, again.files_unchanged
        );
        db = Some(file);
    }
    let db = db.ok_or("no --jobs")?;
    let none = Selection::new();
    let start = Position::startpos(Variant::Standard);
    let table = Db::open(&db)?.explore(&start, &none)?;
    let first = table.moves.first().ok_or("no games")?;
    let mut common = start.clone();
    common.play(shogi_core::Move::from_usi(&first.usi)?)?;
    // A rare position: ply 40 of the first game's line.
    let conn = rusqlite::Connection::open(&db)?;
    let moves: String = conn.query_row(
        "SELECT moves FROM games WHERE plies >= 40 ORDER BY id LIMIT 1",
        [],
        |r| r.get(0),
    )?;
    let mut rare = start.clone();
    for m in moves.split_whitespace().take(40) {
        rare.play(shogi_core::Move::from_usi(m)?)?;
    }
    for (name, pos) in [
        ("start position", &start),
        ("common (after 1 ply)", &common),
        ("rare (ply 40)", &rare),
    ] {
        let mut f_times = Vec::new();
        let mut e_times = Vec::new();
        let mut hits = 0;
        let cpu0 = cpu();
        for _ in 0..20 {
            let ((), s) = time(|| {
                // As `shogi find --format csv` prints them: the database opened, the hits
                // streamed.
                let mut buf = Vec::new();
                // (The header row, written once, is left out.)
                let mut w = csv::Writer::from_writer(&mut buf);
                let db = Db::open(&db).unwrap();
                let counts = db
                    .find_each(pos, &none, None, &mut |h| {
                        w.serialize(line(h)).unwrap();
                        std::ops::ControlFlow::Continue(())
                    })
                    .unwrap();
                w.flush().unwrap();
                hits = counts.total;
            });
            f_times.push(s);
            let ((), s) = time(|| {
                let table = Db::open(&db).unwrap().explore(pos, &none).unwrap();
                let mut buf = Vec::new();
                serde_json::to_writer_pretty(&mut buf, &table).unwrap();
            });
            e_times.push(s);
        }
        // Both queries, 20 times: CPU per query (the tick is 10 ms, so a mean, not a median).
        let cpu_ms = (cpu() - cpu0) / 40.0 * 1e3;
        let mut s_times = Vec::new();
        for _ in 0..scans {
            let (found, s) = time(|| scan(&paths, pos, &none, None, Some(2)).unwrap());
            assert_eq!(found.total, hits, "scan and database disagree on {name}");
            s_times.push(s);
        }
        println!(
            "{name}: {hits} hits; find {:.1} ms, explore {:.1} ms (median of 20; mean CPU per query {cpu_ms:.1} ms); brute-force scan (2 jobs) {:.0} ms (median of {scans})",
            median(f_times) * 1e3,
            median(e_times) * 1e3,
            if s_times.is_empty() {
                f64::NAN
            } else {
                median(s_times) * 1e3
            }
        );
    }
    Ok(())
}
