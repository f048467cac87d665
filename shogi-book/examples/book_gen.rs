//! Writes a large unsorted text book of random-walk positions, for timing sorts and merges:
//! `cargo run --release -p shogi-book --example book_gen -- POSITIONS SEED OUT.db`.
//! Each walk starts at the start position and plays up to 80 random legal moves; every
//! position gets the move played from it. Positions repeat (every walk starts at the start).

use shogi_book::{BookMove, Entry, position_key, write_record};
use shogi_core::{Position, Variant};
use std::io::{BufWriter, Write};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, n, seed, out] = &args[..] else {
        return Err("usage: book_gen POSITIONS SEED OUT.db".into());
    };
    let n: u64 = n.parse()?;
    let mut state: u64 = seed.parse::<u64>()? | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut w = BufWriter::with_capacity(1 << 20, std::fs::File::create(out)?);
    writeln!(w, "{}", shogi_book::HEADER)?;
    let mut written = 0;
    while written < n {
        let mut pos = Position::startpos(Variant::Standard);
        for _ in 0..80 {
            let moves = pos.legal_moves();
            if moves.is_empty() || written == n {
                break;
            }
            let mv = moves.as_slice()[(next() % moves.len() as u64) as usize];
            let mut m = BookMove::new(mv);
            m.value = (next() % 2001) as i32 - 1000;
            m.count = 1 + next() % 100;
            let entry = Entry {
                ply: Some(pos.move_number()),
                moves: vec![m],
                comments: Vec::new(),
            };
            write_record(&mut w, &position_key(&pos), &entry)?;
            written += 1;
            pos.play_unchecked(mv);
        }
    }
    w.flush()?;
    Ok(())
}
