//! The solver alone over a file of SFENs, one JSON object per line in the fields
//! `scripts/bench-mate.py` reads from `shogi mate --format json` (problem, result, length,
//! nodes, time_s, pv_usi). It builds in a fraction of the CLI's time, for profiling and quick runs:
//!
//! `cargo run --release -p shogi-mate --example mate-bench -- FILE [--nodes N] [--depth D] [--memory MIB]`
//!
//! The bench script takes it as `--shogi target/release/examples/mate-bench` (the `mate`,
//! `--format` and `--jobs` words it passes are ignored: this runs one job).
use shogi_core::{Position, SetupOptions};
use shogi_mate::{MateResult, Options, Solver};

fn main() {
    let mut args = std::env::args().skip(1);
    let mut file = None;
    let mut options = Options::default();
    let mut memory = shogi_mate::DEFAULT_MEMORY;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--nodes" => options.nodes = args.next().and_then(|s| s.parse().ok()).unwrap_or(0),
            "--depth" => options.max_depth = args.next().and_then(|s| s.parse().ok()),
            "--format" | "--jobs" => {
                args.next();
            }
            "--shortest" => options.shortest = true,
            "--memory" => {
                memory = args.next().and_then(|s| s.parse().ok()).unwrap_or(64) << 20;
            }
            "mate" => {}
            _ => file = Some(a),
        }
    }
    let Some(file) = file else {
        eprintln!("usage: mate-bench FILE [--nodes N] [--depth D] [--shortest]");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(&file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{file}: {e}");
            std::process::exit(2);
        }
    };
    let mut solver = Solver::new(memory);
    for (i, line) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        let problem = i + 1;
        let pos = match Position::from_sfen_with(line.trim(), SetupOptions::TSUME) {
            Ok(p) => p,
            Err(e) => {
                println!(
                    "{{\"problem\":\"{problem}\",\"result\":\"error\",\"note\":\"{e}\",\"nodes\":0,\"time_s\":0,\"length\":null}}"
                );
                continue;
            }
        };
        let mut pv_usi = String::new();
        let (result, length, nodes, time) = match solver.solve(&pos, &options) {
            Ok(a) => {
                let r = match &a.result {
                    MateResult::Mate { pv } => {
                        pv_usi = pv.iter().map(|m| m.to_usi()).collect::<Vec<_>>().join(" ");
                        "mate".to_string()
                    }
                    MateResult::NoMate { within: None } => "nomate".to_string(),
                    MateResult::NoMate { within: Some(n) } => format!("nomate within {n}"),
                    MateResult::Unknown { limit } => format!("unknown:{}", limit.name()),
                };
                (r, a.length, a.nodes, a.time.as_secs_f64())
            }
            Err(e) => (format!("error: {e}"), None, 0, 0.0),
        };
        let length = length.map_or("null".to_string(), |l| l.to_string());
        println!(
            "{{\"problem\":\"{problem}\",\"result\":\"{result}\",\"length\":{length},\"nodes\":{nodes},\"time_s\":{time},\"pv_usi\":\"{pv_usi}\"}}"
        );
    }
}
