//! Runs a suite file quickly: `cargo run --release -p shogi-perft --example quick FILE MAXNODES`.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).unwrap();
    let max: u64 = args[2].parse().unwrap();
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let mut parts = line.split(';');
        let sfen = parts.next().unwrap().trim();
        let pos = shogi_core::Position::from_sfen(sfen).unwrap();
        for p in parts {
            let mut w = p.split_whitespace();
            let d: u32 = w.next().unwrap()[1..].parse().unwrap();
            let n: u64 = w.next().unwrap().parse().unwrap();
            if n > max {
                continue;
            }
            let t = std::time::Instant::now();
            let got = shogi_perft::perft(&pos, d);
            println!(
                "{} {sfen} D{d} expected {n} got {got} {:.3}s",
                if got == n { "ok  " } else { "FAIL" },
                t.elapsed().as_secs_f64()
            );
        }
    }
}
