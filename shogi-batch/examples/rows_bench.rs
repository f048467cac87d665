//! Throughput of the library: rows (as `shogi stats` makes them, written as CSV to a sink)
//! against reading and validating alone (what `shogi check` does), over the same inputs.
//!
//! ```text
//! cargo run --release -p shogi-batch --example rows_bench -- rows|check JOBS PATH...
//! ```
use shogi_batch::*;
use std::ops::ControlFlow;
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = args[0].clone();
    let jobs: usize = args[1].parse().unwrap();
    let inputs = expand(&args[2..]).unwrap();
    let pool = pool(Some(jobs)).unwrap();
    let sel = Selection::new();
    let t = std::time::Instant::now();
    let mut n = 0u64;
    let mut out = csv::Writer::from_writer(std::io::sink());
    if mode == "rows" {
        let _ = run(
            &inputs,
            &Default::default(),
            &pool,
            |i, g| select_row(i, &g, &sel),
            |_, e| {
                if let Event::Game(Some(r)) = e {
                    n += 1;
                    out.serialize(r).unwrap();
                }
                ControlFlow::Continue(())
            },
        );
    } else {
        let _ = run(
            &inputs,
            &Default::default(),
            &pool,
            |_, g| g.is_valid(),
            |_, e| {
                if let Event::Game(_) = e {
                    n += 1;
                }
                ControlFlow::Continue(())
            },
        );
    }
    let s = t.elapsed().as_secs_f64();
    eprintln!(
        "{mode} jobs {jobs}: {n} games in {s:.3}s = {:.0} games/s",
        n as f64 / s
    );
}
