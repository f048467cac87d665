//! Training-data codecs from the command line, for `scripts/training-crosscheck.py` and timing:
//! `cargo run --release -p shogi-train --example pack -- MODE ...`.
//!
//! - `encode hcpe|psv`: reads lines `SFEN<TAB>MOVE<TAB>SCORE<TAB>RESULT` (MOVE a USI move or
//!   `-`, RESULT the absolute 0 draw / 1 sente won / 2 gote won) and writes one entry per line
//!   to stdout.
//! - `decode hcpe|psv`: reads entries on stdin and writes the same kind of lines (the SFEN
//!   keeps psv's ply as its move number, hcpe's is 1), each field validated.
//! - `legal`: reads SFEN lines and writes, for each, `USI:CSHOGI16:YANEURAOU16` (hex) for every
//!   legal move, separated by spaces.
//! - `bench FILE [RUNS]`: encodes the positions of FILE (lines as for `encode`) as hcpe and
//!   as psv RUNS times (default 5) and prints the best and median entries per second: once
//!   from positions parsed beforehand (a large working set), and once replaying the games the
//!   lines come from (consecutive lines where the move leads to the next position), the way a
//!   converter writes one entry per position: replay with encoding minus replay alone.
use shogi_core::{Move, Position};
use shogi_train::{GameResult, Hcpe, Move16Format, PackedSfenValue, PositionFormat};
use std::io::{BufRead, BufWriter, Read, Write};
use std::process::ExitCode;
use std::time::Instant;

type Entry = (Position, Option<Move>, i16, GameResult);

fn parse_line(line: &str) -> Result<Entry, String> {
    let f: Vec<&str> = line.split('\t').collect();
    if f.len() != 4 {
        return Err(format!(
            "expected 4 tab-separated fields, found {}",
            f.len()
        ));
    }
    let pos = Position::from_sfen(f[0]).map_err(|e| e.to_string())?;
    let mv = match f[1] {
        "-" => None,
        usi => Some(Move::from_usi(usi).map_err(|e| e.to_string())?),
    };
    let score = f[2].parse::<i16>().map_err(|e| format!("score: {e}"))?;
    let result = f[3]
        .parse::<u8>()
        .ok()
        .and_then(GameResult::from_byte)
        .ok_or("result must be 0, 1 or 2")?;
    Ok((pos, mv, score, result))
}

fn read_entries(input: impl BufRead) -> Result<Vec<Entry>, String> {
    let mut out = Vec::new();
    for (i, line) in input.lines().enumerate() {
        let line = line.map_err(|e| e.to_string())?;
        out.push(parse_line(&line).map_err(|e| format!("line {}: {e}", i + 1))?);
    }
    Ok(out)
}

fn encode(format: &str) -> Result<(), String> {
    let entries = read_entries(std::io::stdin().lock())?;
    let mut out = BufWriter::new(std::io::stdout().lock());
    for (i, (pos, mv, score, result)) in entries.iter().enumerate() {
        let err = |e: shogi_train::EncodeError| format!("line {}: {e}", i + 1);
        match format {
            "hcpe" => out.write_all(
                &Hcpe::new(pos, *score, *mv, *result)
                    .map_err(err)?
                    .to_bytes(),
            ),
            _ => out.write_all(
                &PackedSfenValue::new(pos, *score, *mv, *result)
                    .map_err(err)?
                    .to_bytes(),
            ),
        }
        .map_err(|e| e.to_string())?;
    }
    out.flush().map_err(|e| e.to_string())
}

fn decode(format: &str) -> Result<(), String> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    let size = if format == "hcpe" {
        Hcpe::SIZE
    } else {
        PackedSfenValue::SIZE
    };
    if bytes.len() % size != 0 {
        return Err(format!("{} bytes is not a multiple of {size}", bytes.len()));
    }
    let mut out = BufWriter::new(std::io::stdout().lock());
    for (i, chunk) in bytes.chunks_exact(size).enumerate() {
        let err = |e: shogi_train::DecodeError| format!("entry {i}: {e}");
        let (pos, mv, score, result) = if format == "hcpe" {
            let e = Hcpe::from_bytes(chunk.try_into().unwrap_or(&[0; 38])).map_err(err)?;
            let pos = e.position().map_err(err)?;
            let mv = e.best_move(&pos).map_err(err)?;
            (pos, mv, e.eval, e.game_result)
        } else {
            let e =
                PackedSfenValue::from_bytes(chunk.try_into().unwrap_or(&[0; 40])).map_err(err)?;
            let pos = e.position().map_err(err)?;
            let mv = e.best_move(&pos).map_err(err)?;
            (pos, mv, e.score, e.absolute_result())
        };
        let mv = mv.map_or("-".to_string(), |m| m.to_usi());
        writeln!(
            out,
            "{}\t{mv}\t{score}\t{}",
            pos.to_sfen(),
            result.to_byte()
        )
        .map_err(|e| e.to_string())?;
    }
    out.flush().map_err(|e| e.to_string())
}

fn legal() -> Result<(), String> {
    let mut out = BufWriter::new(std::io::stdout().lock());
    for (i, line) in std::io::stdin().lock().lines().enumerate() {
        let line = line.map_err(|e| e.to_string())?;
        let pos = Position::from_sfen(&line).map_err(|e| format!("line {}: {e}", i + 1))?;
        let mut items = Vec::new();
        for m in pos.legal_moves().iter() {
            let cs = Move16Format::Cshogi.encode(*m).map_err(|e| e.to_string())?;
            let yo = Move16Format::YaneuraOu
                .encode(*m)
                .map_err(|e| e.to_string())?;
            items.push(format!("{}:{cs:04x}:{yo:04x}", m.to_usi()));
        }
        writeln!(out, "{}", items.join(" ")).map_err(|e| e.to_string())?;
    }
    out.flush().map_err(|e| e.to_string())
}

fn bench(path: &str, runs: usize) -> Result<(), String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let entries = read_entries(std::io::BufReader::new(file))?;
    let n = entries.len();
    println!("{n} positions from {path}, {runs} runs");
    for format in ["hcpe", "psv", "hcp only"] {
        let mut rates = Vec::new();
        let mut buf: Vec<u8> = Vec::with_capacity(n * 40);
        let mut check = 0u64;
        for _ in 0..runs {
            buf.clear();
            let t = Instant::now();
            match format {
                "hcpe" => {
                    for (pos, mv, score, result) in &entries {
                        let e = Hcpe::new(pos, *score, *mv, *result).map_err(|e| e.to_string())?;
                        buf.extend_from_slice(&e.to_bytes());
                    }
                }
                "psv" => {
                    for (pos, mv, score, result) in &entries {
                        let e = PackedSfenValue::new(pos, *score, *mv, *result)
                            .map_err(|e| e.to_string())?;
                        buf.extend_from_slice(&e.to_bytes());
                    }
                }
                _ => {
                    let mut hcp = [0u8; 32];
                    for (pos, ..) in &entries {
                        PositionFormat::Hcp
                            .encode(pos, &mut hcp)
                            .map_err(|e| e.to_string())?;
                        buf.extend_from_slice(&hcp);
                    }
                }
            }
            let dt = t.elapsed().as_secs_f64();
            check = check.wrapping_add(buf.iter().map(|&b| b as u64).sum::<u64>());
            rates.push(n as f64 / dt);
        }
        rates.sort_by(|a, b| b.total_cmp(a));
        println!(
            "{format:>8}: best {:>6.2} M entries/s, median {:>6.2} M entries/s ({} bytes, checksum {check})",
            rates[0] / 1e6,
            rates[rates.len() / 2] / 1e6,
            buf.len()
        );
    }
    bench_replay(&entries, runs)
}

/// A start position and the plies played from it (move, score, result).
type Game = (Position, Vec<(Move, i16, GameResult)>);

/// Splits the entries into games: runs of lines where each move leads to the next position.
fn games(entries: &[Entry]) -> Vec<Game> {
    let mut out: Vec<Game> = Vec::new();
    let mut cur: Option<Position> = None;
    for (pos, mv, score, result) in entries {
        let same = cur
            .as_ref()
            .is_some_and(|c| c.key() == pos.key() && c == pos);
        if !same {
            out.push((pos.clone(), Vec::new()));
            cur = Some(pos.clone());
        }
        let Some(m) = mv else {
            cur = None;
            continue;
        };
        if let (Some(c), Some(game)) = (cur.as_mut(), out.last_mut()) {
            if c.play(*m).is_err() {
                cur = None;
                continue;
            }
            game.1.push((*m, *score, *result));
        }
    }
    out
}

fn bench_replay(entries: &[Entry], runs: usize) -> Result<(), String> {
    let games = games(entries);
    let n: usize = games.iter().map(|g| g.1.len()).sum();
    let mut buf: Vec<u8> = Vec::with_capacity(n * 40);
    for format in ["hcpe", "psv"] {
        let mut rates = Vec::new();
        let mut full_rates = Vec::new();
        for _ in 0..runs {
            let t = Instant::now();
            let mut moves = 0usize;
            for (start, plies) in &games {
                let mut pos = start.clone();
                for (m, ..) in plies {
                    pos.play_unchecked(*m);
                    moves += 1;
                }
                std::hint::black_box(&pos);
            }
            let t_play = t.elapsed().as_secs_f64();
            buf.clear();
            let t = Instant::now();
            for (start, plies) in &games {
                let mut pos = start.clone();
                for &(m, score, result) in plies {
                    if format == "hcpe" {
                        let e =
                            Hcpe::new(&pos, score, Some(m), result).map_err(|e| e.to_string())?;
                        buf.extend_from_slice(&e.to_bytes());
                    } else {
                        let e = PackedSfenValue::new(&pos, score, Some(m), result)
                            .map_err(|e| e.to_string())?;
                        buf.extend_from_slice(&e.to_bytes());
                    }
                    pos.play_unchecked(m);
                }
            }
            let t_full = t.elapsed().as_secs_f64();
            assert_eq!(moves, n);
            full_rates.push(n as f64 / t_full);
            rates.push(n as f64 / (t_full - t_play).max(1e-9));
        }
        rates.sort_by(|a, b| b.total_cmp(a));
        full_rates.sort_by(|a, b| b.total_cmp(a));
        println!(
            "{format:>8} replay: {n} entries of {} games; encoding best {:.2} median {:.2} M entries/s; \
             replay+encode best {:.2} median {:.2} M entries/s",
            games.len(),
            rates[0] / 1e6,
            rates[rates.len() / 2] / 1e6,
            full_rates[0] / 1e6,
            full_rates[full_rates.len() / 2] / 1e6,
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let r = match a.as_slice() {
        ["encode", f @ ("hcpe" | "psv")] => encode(f),
        ["decode", f @ ("hcpe" | "psv")] => decode(f),
        ["legal"] => legal(),
        ["bench", path] => bench(path, 5),
        ["bench", path, runs] => match runs.parse::<usize>() {
            Ok(r) if r > 0 => bench(path, r),
            _ => Err("RUNS must be a positive number".into()),
        },
        _ => Err("usage: pack encode|decode hcpe|psv, pack legal, pack bench FILE [RUNS]".into()),
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pack: {e}");
            ExitCode::FAILURE
        }
    }
}
