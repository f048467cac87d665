//! Writes a collection of KIF files of seeded random legal play, for throughput benchmarks.
//!
//! ```text
//! cargo run --release -p shogi-kif --example gen_games -- --out DIR [--games 10000]
//!     [--seed 1] [--min-plies 80] [--max-plies 200] [--encoding utf8|sjis] [--times]
//! ```
//!
//! Each game is played from the even start with moves drawn uniformly from the legal moves,
//! for a length drawn between `--min-plies` and `--max-plies`, stopping early at mate (the
//! game then ends 詰み; otherwise the side to move resigns). Where a move may promote or not,
//! only the promotion is drawn, so no move needs 不成 (which some KIF readers, cshogi 1.1.0
//! among them, do not read). The same seed always writes the same files.
//!
//! The files are written as the shogi-kif KIF writer writes them: UTF-8 with a
//! `#KIF version=2.0 encoding=UTF-8` line. With `--encoding sjis` they are Shift_JIS (CP932)
//! with the line saying so, which is what readers that take `.kif` as CP932 expect.
//!
//! With `--times` every move has a time field, as most KIF writers put one
//! (`   1 ７六歩(77)   ( 1:19/00:01:19)`: 0 to 125 seconds a move, and the mover's total). The
//! times come from a generator of their own, so the games are the same moves as without them.

use shogi_core::{Move, Position, Variant};
use shogi_kif::{Ending, EndingKind, Format, HeaderKey, Line, MoveNode, MoveTime, Record, Start};
use std::path::PathBuf;
use std::process::ExitCode;

/// SplitMix64: small, fast and fully determined by the seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (n > 0).
    fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next()) * u128::from(n)) >> 64) as u64
    }
}

struct Options {
    out: PathBuf,
    games: u32,
    seed: u64,
    min_plies: u32,
    max_plies: u32,
    sjis: bool,
    times: bool,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        out: PathBuf::new(),
        games: 10_000,
        seed: 1,
        min_plies: 80,
        max_plies: 200,
        sjis: false,
        times: false,
    };
    let mut out = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        let num = |v: String, name: &str| -> Result<u64, String> {
            v.parse::<u64>()
                .map_err(|_| format!("{name}: not a whole number: {v}"))
        };
        match a.as_str() {
            "--out" => out = Some(PathBuf::from(value("--out")?)),
            "--games" => o.games = num(value("--games")?, "--games")? as u32,
            "--seed" => o.seed = num(value("--seed")?, "--seed")?,
            "--min-plies" => o.min_plies = num(value("--min-plies")?, "--min-plies")? as u32,
            "--max-plies" => o.max_plies = num(value("--max-plies")?, "--max-plies")? as u32,
            "--encoding" => match value("--encoding")?.as_str() {
                "utf8" | "utf-8" => o.sjis = false,
                "sjis" | "shift_jis" | "cp932" => o.sjis = true,
                other => return Err(format!("--encoding: utf8 or sjis, not {other}")),
            },
            "--times" => o.times = true,
            "-h" | "--help" => {
                return Err("usage: gen_games --out DIR [--games N] [--seed S] [--min-plies A] [--max-plies B] [--encoding utf8|sjis] [--times]".into());
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    o.out = out.ok_or("--out DIR is required")?;
    if o.min_plies == 0 || o.max_plies < o.min_plies {
        return Err("need 0 < --min-plies <= --max-plies".into());
    }
    Ok(o)
}

/// A total order on the moves of one position.
fn order_key(m: Move) -> u32 {
    match m {
        Move::Normal { from, to, promote } => {
            (from.index() as u32) << 8 | (to.index() as u32) << 1 | u32::from(promote)
        }
        Move::Drop { role, to } => (100 + role.sfen_char() as u32) << 8 | (to.index() as u32) << 1,
    }
}

/// One game of random play.
fn random_game(rng: &mut Rng, min: u32, max: u32, index: u32, seed: u64) -> Record {
    let length = min + rng.below(u64::from(max - min + 1)) as u32;
    let mut pos = Position::startpos(Variant::Standard);
    let mut moves = Vec::with_capacity(length as usize);
    let mut ending = EndingKind::Resign;
    let mut choice: Vec<Move> = Vec::with_capacity(128);
    while moves.len() < length as usize {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            ending = EndingKind::Mate;
            break;
        }
        choice.clear();
        for &m in legal.iter() {
            // Skip a non-promotion when the promotion is also legal.
            if let Move::Normal {
                from,
                to,
                promote: false,
            } = m
            {
                let promoted = Move::Normal {
                    from,
                    to,
                    promote: true,
                };
                if legal.contains(&promoted) {
                    continue;
                }
            }
            choice.push(m);
        }
        // A fixed order, so that the games depend on the seed only, not on the order in
        // which the move generator happens to list moves.
        choice.sort_unstable_by_key(|m| order_key(*m));
        let m = choice[rng.below(choice.len() as u64) as usize];
        pos.play_unchecked(m);
        moves.push(MoveNode::new(m));
    }
    if ending == EndingKind::Resign && !pos.has_legal_moves() {
        ending = EndingKind::Mate;
    }
    let mut record = Record {
        start: Start::even(),
        moves: Line {
            moves,
            ending: Some(Ending::new(ending)),
        },
        ..Record::default()
    };
    record
        .header
        .push(HeaderKey::Event, format!("random play, seed {seed}"));
    record
        .header
        .push(HeaderKey::Black, format!("random-{index}-b"));
    record
        .header
        .push(HeaderKey::White, format!("random-{index}-w"));
    record
}

fn run() -> Result<(), String> {
    let o = parse_args()?;
    std::fs::create_dir_all(&o.out).map_err(|e| format!("{}: {e}", o.out.display()))?;
    let mut rng = Rng(o.seed);
    let (mut bytes, mut plies) = (0usize, 0usize);
    // Numbers padded to one width, so that the sorted walk reads the files in game order.
    let width = o.games.to_string().len().max(5);
    let mut clock = Rng(o.seed ^ 0x7115_C10C_7115_C10C);
    for i in 1..=o.games {
        let mut record = random_game(&mut rng, o.min_plies, o.max_plies, i, o.seed);
        if o.times {
            let mut totals = [0u64; 2];
            for (k, node) in record.moves.moves.iter_mut().enumerate() {
                let spent = clock.below(126) * 1000;
                totals[k % 2] += spent;
                node.time = Some(MoveTime {
                    spent_ms: Some(spent),
                    total_ms: Some(totals[k % 2]),
                });
            }
        }
        plies += record.moves.moves.len();
        let text = shogi_kif::write(&record, Format::Kif);
        let data: Vec<u8> = if o.sjis {
            let text = text.replacen("encoding=UTF-8", "encoding=Shift_JIS", 1);
            let (b, _, unmappable) = encoding_rs::SHIFT_JIS.encode(&text);
            if unmappable {
                return Err(format!("game {i}: text not representable in Shift_JIS"));
            }
            b.into_owned()
        } else {
            text.into_bytes()
        };
        bytes += data.len();
        let path = o.out.join(format!("game-{i:0width$}.kif"));
        std::fs::write(&path, &data).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    eprintln!(
        "wrote {} games ({plies} plies, {:.1} MB) to {}",
        o.games,
        bytes as f64 / 1e6,
        o.out.display()
    );
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gen_games: {e}");
            ExitCode::from(2)
        }
    }
}
