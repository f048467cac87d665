//! Legal moves of many positions through one process, for differential testing
//! (`scripts/differential.py`): `cargo run --release -p shogi-core --example legal_moves`.
//!
//! Reads one SFEN a line on stdin (standard shogi or Mini Shogi, told by the board's shape).
//! Writes one line for each: the sorted USI legal moves separated by spaces (an empty line when
//! there are none), or `error: MESSAGE` when the line is not a valid position.
//!
//! With `--info`, each answer starts with the number of pieces giving check and a tab.
//!
//! Output is flushed whenever no more input is waiting, so a caller can feed positions one at a
//! time or in large batches through the same process.
use shogi_core::Position;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};

/// Longest line read; longer lines are answered with an error and skipped.
const MAX_LINE: u64 = 4096;

/// Discards the rest of an overlong line without holding it in memory.
fn skip_line(input: &mut impl BufRead) -> std::io::Result<()> {
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        if let Some(i) = buf.iter().position(|&b| b == b'\n') {
            input.consume(i + 1);
            return Ok(());
        }
        let n = buf.len();
        input.consume(n);
    }
}

fn main() -> std::io::Result<()> {
    let info = std::env::args().skip(1).any(|a| a == "--info");
    let mut input = BufReader::with_capacity(1 << 16, std::io::stdin());
    let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let mut line = Vec::new();
    let mut moves: Vec<String> = Vec::new();
    let mut number = 0u64;
    loop {
        line.clear();
        let n = (&mut input).take(MAX_LINE).read_until(b'\n', &mut line)?;
        if n == 0 {
            break;
        }
        number += 1;
        if line.last() != Some(&b'\n') && n as u64 == MAX_LINE {
            writeln!(out, "error: line {number}: longer than {MAX_LINE} bytes")?;
            skip_line(&mut input)?;
        } else {
            match std::str::from_utf8(&line) {
                Err(e) => writeln!(out, "error: line {number}: not UTF-8: {e}")?,
                Ok(text) => match Position::from_sfen(text.trim()) {
                    Ok(pos) => {
                        if info {
                            write!(out, "{}\t", pos.checkers().count())?;
                        }
                        moves.clear();
                        moves.extend(pos.legal_moves().iter().map(|m| m.to_usi()));
                        moves.sort_unstable();
                        writeln!(out, "{}", moves.join(" "))?;
                    }
                    Err(e) => writeln!(
                        out,
                        "error: line {number}: {}",
                        e.to_string().replace('\n', " ")
                    )?,
                },
            }
        }
        if input.buffer().is_empty() {
            out.flush()?;
        }
    }
    out.flush()
}
