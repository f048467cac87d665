//! `shogi convert --to hcpe|psv|positions`: training data, one entry per position of every
//! selected game's main line (the entries themselves come from `shogi_kif::training`).
//!
//! Inputs are read in parallel, a chunk at a time, and their entries written in input order:
//! to `--output FILE`, to one file per input below `--out-dir`, or to stdout (binary never to
//! a terminal). Unreadable records are reported like every convert error (exit 1); games that
//! give no entries (no result, a left-out draw or declaration, below `--min-rating`, not
//! encodable) are only counted, in the summary line on stderr.

use crate::convert::{ConvertArgs, ToFormat, extension, output_paths};
use crate::inputs::{self, Input, io_reason};
use crate::isolate::{Panic, isolated};
use crate::pool::jobs_pool;
use crate::read::{self, Stdin, Validation};
use crate::{Ctx, Failure, Options};
use rayon::prelude::*;
use shogi_kif::training::{self, Skip, TrainingOptions};
use shogi_kif::{HeaderKey, Record};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Options of `shogi convert` for the training-data targets (`--to hcpe|psv|positions`).
#[derive(clap::Args, Clone, Debug, Default, PartialEq)]
pub struct TrainingArgs {
    /// With --to hcpe|psv|positions: write every entry into this one file, inputs in order
    /// (`--out-dir` writes one file per input instead; without either, stdout, which must not
    /// be a terminal for hcpe and psv).
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Leave out the first N positions of every game (opening plies).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub skip_first: u32,
    /// Leave out games that ended in a draw (repetition, impasse, move limit).
    #[arg(long)]
    pub skip_draws: bool,
    /// Leave out games that ended with an entering-king declaration (入玉宣言, %KACHI).
    #[arg(long)]
    pub skip_declarations: bool,
    /// Keep games without a result (interrupted, unterminated), written as draws.
    #[arg(long)]
    pub keep_unfinished: bool,
    /// `--min-rating` (a selection flag, shared with `check` and `stats`): keep only games
    /// where both players' ratings are known and at least this.
    #[arg(skip)]
    pub min_rating: Option<f64>,
}

impl TrainingArgs {
    fn options(&self) -> TrainingOptions {
        TrainingOptions {
            skip_first: self.skip_first,
            skip_draws: self.skip_draws,
            skip_declarations: self.skip_declarations,
            keep_unfinished: self.keep_unfinished,
        }
    }
}

/// The bytes of one entry in the target format.
fn encode(to: ToFormat, entry: &training::Entry, out: &mut Vec<u8>) -> Result<(), String> {
    match to {
        ToFormat::Hcpe => out.extend_from_slice(&entry.hcpe().map_err(|e| e.to_string())?),
        ToFormat::Psv => out.extend_from_slice(&entry.psv().map_err(|e| e.to_string())?),
        _ => {
            out.extend_from_slice(entry.text_line().as_bytes());
            out.push(b'\n');
        }
    }
    Ok(())
}

/// Why games were left out, counted.
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    games: u64,
    entries: u64,
    unreadable: u64,
    no_result: u64,
    draws: u64,
    declarations: u64,
    rating: u64,
    not_encodable: u64,
    illegal: u64,
}

impl Counts {
    fn add(&mut self, o: &Counts) {
        self.games += o.games;
        self.entries += o.entries;
        self.unreadable += o.unreadable;
        self.no_result += o.no_result;
        self.draws += o.draws;
        self.declarations += o.declarations;
        self.rating += o.rating;
        self.not_encodable += o.not_encodable;
        self.illegal += o.illegal;
    }

    fn skip(&mut self, s: &Skip) {
        match s {
            Skip::NoResult => self.no_result += 1,
            Skip::Draw => self.draws += 1,
            Skip::Declaration => self.declarations += 1,
            Skip::NoStart | Skip::NotEncodable(_) => self.not_encodable += 1,
            Skip::IllegalMove { .. } => self.illegal += 1,
        }
    }

    /// The summary line for stderr.
    fn summary(&self, to: ToFormat) -> String {
        let mut line = format!(
            "wrote {} {} entr{} from {} game(s)",
            self.entries,
            extension_name(to),
            if self.entries == 1 { "y" } else { "ies" },
            self.games
        );
        let left: Vec<String> = [
            (self.unreadable, "unreadable"),
            (self.no_result, "without a result"),
            (self.draws, "draws"),
            (self.declarations, "declarations"),
            (self.rating, "below --min-rating or unrated"),
            (
                self.not_encodable,
                "not encodable (not standard shogi, no king, extra pieces)",
            ),
            (self.illegal, "with an illegal move"),
        ]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
        if !left.is_empty() {
            line.push_str("; games left out: ");
            line.push_str(&left.join(", "));
        }
        line
    }
}

fn extension_name(to: ToFormat) -> &'static str {
    match to {
        ToFormat::Hcpe => "hcpe",
        ToFormat::Psv => "psv",
        _ => "positions",
    }
}

/// What one input gave.
struct Done {
    bytes: Vec<u8>,
    errors: Vec<String>,
    io: Option<String>,
    counts: Counts,
}

/// A rating as written: digits (ASCII or full-width) with an optional decimal part.
fn rating_from(value: &str) -> Option<f64> {
    let digits: String = value
        .trim()
        .chars()
        .map(|c| match c {
            '０'..='９' => char::from_u32(c as u32 - '０' as u32 + '0' as u32).unwrap_or(c),
            _ => c,
        })
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    digits.parse().ok().filter(|r: &f64| r.is_finite())
}

/// The players' ratings in the record's header, where it names them.
fn header_ratings(record: &Record) -> Ratings {
    let find = |names: &[&str]| {
        names.iter().find_map(|n| {
            record
                .header
                .get(&HeaderKey::Other((*n).to_string()))
                .and_then(rating_from)
        })
    };
    [
        find(&["先手レーティング", "下手レーティング", "black_rate"]),
        find(&["後手レーティング", "上手レーティング", "white_rate"]),
    ]
}

/// Floodgate's `'black_rate:NAME:RATING` and `'white_rate:…` comment lines, which the record
/// model does not keep, game by game (games split by `/` lines) in a CSA file.
fn floodgate_ratings(path: &Path) -> Vec<Ratings> {
    let Ok(bytes) = std::fs::read(path) else {
        return Vec::new();
    };
    let mut games = vec![[None, None]];
    for line in bytes.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line == b"/" {
            games.push([None, None]);
            continue;
        }
        for (i, key) in [&b"'black_rate:"[..], &b"'white_rate:"[..]]
            .iter()
            .enumerate()
        {
            if let Some(rest) = line.strip_prefix(*key) {
                // NAME:RATING; the rating follows the last ':'.
                let value = rest.rsplit(|&b| b == b':').next().unwrap_or(rest);
                if let Some(games_last) = games.last_mut() {
                    games_last[i] = std::str::from_utf8(value).ok().and_then(rating_from);
                }
            }
        }
    }
    games
}

/// Both players' ratings (sente, gote), where known.
type Ratings = [Option<f64>; 2];

/// Which games to keep: the record, its number in its input (from 1), and the ratings read
/// from the input's text game by game (empty unless `--min-rating` asked for them).
/// `shogi stats`'s selection plugs in here.
type Select<'a> = &'a (dyn Fn(&Record, usize, &[Ratings]) -> bool + Sync);

/// Reads one input and encodes the entries of its selected games.
fn train_input(
    input: &Input,
    args: &ConvertArgs,
    stdin: &Stdin,
    options: &Options,
    select: Select<'_>,
) -> Done {
    let path = input.name.as_str();
    let mut done = Done {
        bytes: Vec::new(),
        errors: Vec::new(),
        io: None,
        counts: Counts::default(),
    };
    let scanned = match (&input.path, args.select.min_rating_value().ok().flatten()) {
        (Some(p), Some(_)) => floodgate_ratings(p),
        _ => Vec::new(),
    };
    let opts = args.training.options();
    let mut records = 0;
    let at = std::cell::Cell::new(1);
    let res = isolated(|| {
        read::for_each_record(input, &args.input, stdin, Validation::Off, &at, |item| {
            records += 1;
            if let Some(hook) = &options.on_record {
                hook(path, records);
            }
            let record = match item {
                Err(e) => {
                    done.counts.unreadable += 1;
                    done.errors.push(e.with_path(path).render());
                    return;
                }
                Ok((record, _)) => record,
            };
            if !select(&record, records, &scanned) {
                done.counts.rating += 1;
                return;
            }
            let mark = done.bytes.len();
            let mut failed = None;
            let res = training::for_each_entry(&record, &opts, |e| {
                if failed.is_none() {
                    if let Err(m) = encode(args.to, e, &mut done.bytes) {
                        failed = Some(m);
                    }
                }
            });
            match (res, failed) {
                (Ok(n), None) => {
                    done.counts.games += 1;
                    done.counts.entries += n as u64;
                }
                (_, Some(m)) => {
                    done.bytes.truncate(mark);
                    done.counts.not_encodable += 1;
                    done.errors
                        .push(format!("{path}: error: record {records}: {m}"));
                }
                (Err(skip), None) => done.counts.skip(&skip),
            }
        })
    });
    match res {
        Ok(Ok(())) => {}
        Ok(Err(reason)) => done.io = Some(format!("error: {path}: {reason}")),
        Err(panic) => {
            // Where the record that failed starts.
            done.errors
                .push(Panic::error_line(path, at.get().max(1), 1));
            done.errors.push(panic.note(path));
        }
    }
    done
}

/// Inputs read in parallel per chunk; the chunk's outputs are written in input order.
const CHUNK: usize = 256;

/// Runs `shogi convert --to hcpe|psv|positions`.
pub fn run(args: &ConvertArgs, ctx: &mut Ctx) -> Result<(), Failure> {
    let t = &args.training;
    let binary = matches!(args.to, ToFormat::Hcpe | ToFormat::Psv);
    if t.output.is_some() && args.out_dir.is_some() {
        return Err(Failure::usage(
            "error: --output and --out-dir exclude each other",
        ));
    }
    if binary && t.output.is_none() && args.out_dir.is_none() && ctx.options.stdout_terminal {
        return Err(Failure::usage(format!(
            "error: {} is binary: not written to a terminal; use --output FILE, --out-dir DIR or a pipe",
            extension_name(args.to)
        )));
    }
    let inputs = inputs::expand(&args.paths)?;
    let targets = match &args.out_dir {
        Some(dir) => Some(output_paths(
            dir,
            &inputs,
            extension(args.to, shogi_kif::Encoding::Utf8),
        )?),
        None => None,
    };
    let mut file = match &t.output {
        Some(p) => Some(std::io::BufWriter::new(std::fs::File::create(p).map_err(
            |e| Failure::usage(format!("error: {}: {}", p.display(), io_reason(&e))),
        )?)),
        None => None,
    };
    let min_rating = args.select.min_rating_value()?;
    let select = move |record: &Record, index: usize, scanned: &[Ratings]| {
        let Some(min) = min_rating else {
            return true;
        };
        let header = header_ratings(record);
        let from_file = scanned.get(index - 1).copied().unwrap_or([None, None]);
        let r = [header[0].or(from_file[0]), header[1].or(from_file[1])];
        matches!(r, [Some(a), Some(b)] if a >= min && b >= min)
    };
    let pool = jobs_pool(args.jobs)?;
    let (mut failed, mut io_failed) = (false, false);
    let mut counts = Counts::default();
    let mut files = 0;
    for (c, chunk) in inputs.chunks(CHUNK).enumerate() {
        let (stdin, options) = (&ctx.stdin, ctx.options);
        let results: Vec<Done> = pool.install(|| {
            chunk
                .par_iter()
                .map(|input| train_input(input, args, stdin, options, &select))
                .collect()
        });
        for (i, done) in results.into_iter().enumerate() {
            let written = match (&targets, &mut file) {
                (Some(targets), _) => {
                    write_file(&targets[c * CHUNK + i], &done.bytes).map(|n| files += n)
                }
                (None, Some(f)) => f.write_all(&done.bytes).map_err(|e| {
                    let p = t.output.as_deref().unwrap_or(Path::new("-"));
                    format!("error: {}: {}", p.display(), io_reason(&e))
                }),
                (None, None) => match ctx.stdout.write_all(&done.bytes) {
                    Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
                    r => r.map_err(|e| format!("error: cannot write stdout: {e}")),
                },
            };
            for e in &done.errors {
                let _ = writeln!(ctx.stderr, "{e}");
                failed = true;
            }
            if let Some(e) = &done.io {
                let _ = writeln!(ctx.stderr, "{e}");
                io_failed = true;
            }
            if let Err(e) = written {
                let _ = writeln!(ctx.stderr, "{e}");
                return Err(Failure::silent(2));
            }
            counts.add(&done.counts);
        }
    }
    if let Some(f) = &mut file {
        if let Err(e) = f.flush() {
            let p = t.output.as_deref().unwrap_or(Path::new("-"));
            return Err(Failure::usage(format!(
                "error: {}: {}",
                p.display(),
                io_reason(&e)
            )));
        }
    }
    let _ = ctx.stdout.flush();
    let mut summary = counts.summary(args.to);
    if let Some(dir) = &args.out_dir {
        summary.push_str(&format!("; {files} file(s) in {}", dir.display()));
    }
    let _ = writeln!(ctx.stderr, "{summary}");
    if io_failed {
        Err(Failure::silent(2))
    } else if failed {
        Err(Failure::silent(1))
    } else {
        Ok(())
    }
}

/// Writes one input's entries to `path` (no file for an input without entries).
fn write_file(path: &Path, bytes: &[u8]) -> Result<usize, String> {
    if bytes.is_empty() {
        return Ok(0);
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("error: {}: {}", parent.display(), io_reason(&e)))?;
    }
    std::fs::write(path, bytes)
        .map_err(|e| format!("error: {}: {}", path.display(), io_reason(&e)))?;
    Ok(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_from_floodgate_lines_game_by_game() {
        let dir = std::env::temp_dir().join(format!("shogi-train-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let p = dir.join("two.csa");
        std::fs::write(
            &p,
            "V2\r\n'black_rate:a+1:3382.0\r\n'white_rate:b+2:3613.5\r\nPI\n+\n/\nPI\n+\n'white_rate:c:12\n",
        )
        .expect("write");
        let r = floodgate_ratings(&p);
        assert_eq!(r, vec![[Some(3382.0), Some(3613.5)], [None, Some(12.0)]]);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(rating_from("１５００"), Some(1500.0));
        assert_eq!(rating_from("R"), None);
    }
}
