//! `shogi convert`: every record of every input written in another format, to stdout or one
//! file per input below an output folder.

use crate::cli::InputArgs;
use crate::inputs::{self, Input, io_reason};
use crate::isolate::{Panic, isolated};
use crate::pool::jobs_pool;
use crate::read::{self, Stdin, Validation};
use crate::{Ctx, Failure, Options};
use rayon::prelude::*;
use shogi_kif::{Format, Record, UsiForm};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Output formats of `shogi convert`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ToFormat {
    /// The SFEN of the final position (or of `--ply N`), one line per record.
    Sfen,
    /// A USI `position … moves …` line per record.
    Usi,
    /// Kakinoki KIF (UTF-8).
    Kif,
    /// KI2 (UTF-8).
    Ki2,
    /// CSA (V3.0, UTF-8).
    Csa,
    /// JSON Kifu Format.
    Jkf,
    /// Training data: cshogi/DLShogi hcpe, 38 bytes per position (binary).
    Hcpe,
    /// Training data: YaneuraOu PackedSfenValue, 40 bytes per position (binary).
    Psv,
    /// Training data as text: a line per position, `SFEN<TAB>move<TAB>ply<TAB>result<TAB>eval`.
    Positions,
}

impl ToFormat {
    /// The training-data targets (one entry per position; see `shogi_kif::training`).
    pub fn is_training(self) -> bool {
        matches!(self, ToFormat::Hcpe | ToFormat::Psv | ToFormat::Positions)
    }
}

/// Arguments of `shogi convert`.
#[derive(clap::Args)]
#[command(
    after_help = "Each record of each input is converted; a record that cannot be read is reported as \
`path:line:col: error: message` on stderr and the others are still converted (exit 1 at the end).\n\n\
Examples:\n  shogi convert game.kif --to sfen            # the final position\n  \
shogi convert game.kif --to sfen --ply 30   # the position after 30 moves\n  \
shogi convert game.csa --to usi\n  shogi convert - --to kif < game.ki2\n  \
shogi convert records/ --to csa --out-dir csa/   # one file per record file, same layout\n\n\
Training data (--to hcpe|psv|positions): one entry per position of each game's main line, before \
each move, with the move played, the game's result and the evaluation of the record's engine \
comments (Floodgate '**, ShogiHome 評価値=, ShogiGUI, ぴよ将棋; sente's view in the record, the \
side to move's in the output) or 0. hcpe: result 0 draw / 1 sente won / 2 gote won; psv and \
positions: 1 / 0 / -1 for the side to move, ply = the SFEN move number. Games without a result \
are left out unless --keep-unfinished; the counts go to stderr.\n  \
shogi convert floodgate/ --to hcpe --output train.hcpe --min-rating 3500 --skip-draws\n  \
shogi convert games.kif --to positions"
)]
pub struct ConvertArgs {
    /// Record files or directories (walked recursively); `-` reads stdin.
    #[arg(required = true)]
    pub paths: Vec<String>,
    /// The output format.
    #[arg(long, value_enum)]
    pub to: ToFormat,
    /// With `--to sfen`: the position after this many main-line moves (0 = the start).
    #[arg(long)]
    pub ply: Option<usize>,
    /// Write one file per input into this folder (the layout below a given directory is kept,
    /// the extension becomes the output format's) instead of printing to stdout. An input with
    /// several records gives one file for SFEN, USI and CSA (games split by `/`) and numbered
    /// files (`name-2.kif`, ...) for KIF, KI2 and JKF.
    #[arg(long, short = 'o')]
    pub out_dir: Option<PathBuf>,
    /// Worker threads with --out-dir (default: all cores).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub training: crate::training::TrainingArgs,
}

/// What converting one input gave: the converted records and the errors, in input order.
struct Converted {
    texts: Vec<String>,
    errors: Vec<String>,
    /// An I/O error that stopped the input (exit 2).
    io: Option<String>,
}

/// Converts one input; a panic while doing so is reported as an internal error of the record
/// being read, after what the input gave before it.
fn convert_input(input: &Input, args: &ConvertArgs, stdin: &Stdin, options: &Options) -> Converted {
    let path = input.name.as_str();
    let mut done = Converted {
        texts: Vec::new(),
        errors: Vec::new(),
        io: None,
    };
    let mut records = 0;
    let res = isolated(|| {
        read::for_each_record(input, &args.input, stdin, Validation::Off, |item| {
            records += 1;
            if let Some(hook) = &options.on_record {
                hook(path, records);
            }
            match item {
                Err(e) => done.errors.push(e.with_path(path).render()),
                Ok((record, _)) => match convert_record(&record, args) {
                    Ok(text) => done.texts.push(text),
                    Err(message) => done.errors.push(format!("{path}: error: {message}")),
                },
            }
        })
    });
    match res {
        Ok(Ok(())) => {}
        Ok(Err(reason)) => done.io = Some(format!("error: {path}: {reason}")),
        Err(panic) => {
            // The start of the record being read is not known yet: 1:1.
            done.errors.push(Panic::error_line(path, 1, 1));
            done.errors.push(panic.note(path));
        }
    }
    done
}

/// Where the converted records go, and what went wrong on the way.
struct Outcome {
    failed: bool,
    io_failed: bool,
}

impl Outcome {
    /// Reports an input's errors on stderr.
    fn report(&mut self, c: &Converted, stderr: &mut dyn Write) {
        for e in &c.errors {
            let _ = writeln!(stderr, "{e}");
            self.failed = true;
        }
        if let Some(e) = &c.io {
            let _ = writeln!(stderr, "{e}");
            self.io_failed = true;
        }
    }
}

/// Runs `shogi convert`.
pub fn run(args: &ConvertArgs, ctx: &mut Ctx) -> Result<(), Failure> {
    if args.ply.is_some() && args.to != ToFormat::Sfen {
        return Err(Failure::usage("error: --ply goes with --to sfen"));
    }
    if args.to.is_training() {
        return crate::training::run(args, ctx);
    }
    if args.training != crate::training::TrainingArgs::default() {
        return Err(Failure::usage(
            "error: --output, --skip-first, --skip-draws, --skip-declarations, --keep-unfinished \
             and --min-rating go with --to hcpe, psv or positions",
        ));
    }
    let inputs = inputs::expand(&args.paths)?;
    let mut outcome = Outcome {
        failed: false,
        io_failed: false,
    };
    match &args.out_dir {
        None => to_stdout(args, &inputs, ctx, &mut outcome),
        Some(dir) => to_folder(args, dir, &inputs, ctx, &mut outcome)?,
    }
    if outcome.io_failed {
        Err(Failure::silent(2))
    } else if outcome.failed {
        Err(Failure::silent(1))
    } else {
        Ok(())
    }
}

/// Every input's records on stdout, one input after another.
fn to_stdout(args: &ConvertArgs, inputs: &[Input], ctx: &mut Ctx, outcome: &mut Outcome) {
    let mut out = std::io::BufWriter::new(&mut *ctx.stdout);
    let mut written = 0usize;
    for input in inputs {
        let c = convert_input(input, args, &ctx.stdin, ctx.options);
        for text in &c.texts {
            // CSA separates games with a `/` line; the other formats hold one record a
            // file (SFEN and USI one a line).
            if written > 0 && args.to == ToFormat::Csa {
                let _ = out.write_all(b"/\n");
            }
            let _ = out.write_all(text.as_bytes());
            if !text.ends_with('\n') {
                let _ = out.write_all(b"\n");
            }
            written += 1;
        }
        // Keep stdout and stderr in step for a reader watching both.
        let _ = out.flush();
        outcome.report(&c, ctx.stderr);
    }
    if written > 1 && matches!(args.to, ToFormat::Kif | ToFormat::Ki2 | ToFormat::Jkf) {
        let _ = writeln!(
            ctx.stderr,
            "note: {written} {} records were written one after another to stdout, which \
             no reader takes as one input; --out-dir writes a file for each",
            extension(args.to).to_ascii_uppercase()
        );
    }
}

/// One file per input below `dir`, the inputs converted in parallel.
fn to_folder(
    args: &ConvertArgs,
    dir: &Path,
    inputs: &[Input],
    ctx: &mut Ctx,
    outcome: &mut Outcome,
) -> Result<(), Failure> {
    let targets = output_paths(dir, inputs, args.to)?;
    // Every file written in this run, so that no two records meet in one file.
    let claimed = std::sync::Mutex::new(std::collections::HashSet::new());
    let pool = jobs_pool(args.jobs)?;
    let (stdin, options) = (&ctx.stdin, ctx.options);
    let results: Vec<(Converted, Result<usize, String>)> = pool.install(|| {
        inputs
            .par_iter()
            .zip(targets.par_iter())
            .map(|(input, base)| {
                let c = convert_input(input, args, stdin, options);
                let written = write_outputs(base, args.to, &c.texts, &claimed, input);
                (c, written)
            })
            .collect()
    });
    let mut files = 0;
    for (c, written) in &results {
        outcome.report(c, ctx.stderr);
        match written {
            Ok(n) => files += n,
            Err(e) => {
                let _ = writeln!(ctx.stderr, "{e}");
                outcome.io_failed = true;
            }
        }
    }
    let _ = writeln!(
        ctx.stderr,
        "wrote {files} file(s) into {} from {} input(s)",
        dir.display(),
        inputs.len()
    );
    Ok(())
}

/// The extension of an output format.
fn extension(to: ToFormat) -> &'static str {
    match to {
        ToFormat::Sfen => "sfen",
        ToFormat::Usi => "usi",
        ToFormat::Kif => "kif",
        ToFormat::Ki2 => "ki2",
        ToFormat::Csa => "csa",
        ToFormat::Jkf => "jkf",
        ToFormat::Hcpe => "hcpe",
        ToFormat::Psv => "psv",
        ToFormat::Positions => "positions",
    }
}

/// The output file of each input below `dir`: its relative path with the output format's
/// extension, or, where two inputs would meet in one file (`game.kif` and `game.ki2`), the whole
/// input name with the extension added (`game.kif.csa`). Writing over an input is refused.
pub(crate) fn output_paths(
    dir: &Path,
    inputs: &[Input],
    to: ToFormat,
) -> Result<Vec<PathBuf>, Failure> {
    let ext = extension(to);
    let plain: Vec<PathBuf> = inputs
        .iter()
        .map(|i| dir.join(&i.rel).with_extension(ext))
        .collect();
    let mut seen = std::collections::HashMap::new();
    for p in &plain {
        *seen.entry(p.clone()).or_insert(0) += 1;
    }
    let mut out = Vec::with_capacity(inputs.len());
    for (input, p) in inputs.iter().zip(plain) {
        let target = if seen[&p] > 1 {
            let mut name = dir.join(&input.rel).into_os_string();
            name.push(".");
            name.push(ext);
            PathBuf::from(name)
        } else {
            p
        };
        if let Some(src) = &input.path {
            let same = match (std::fs::canonicalize(src), std::fs::canonicalize(&target)) {
                (Ok(a), Ok(b)) => a == b,
                _ => false,
            };
            if same {
                return Err(Failure::usage(format!(
                    "error: {}: converting it would overwrite it; choose another --out-dir",
                    input.name
                )));
            }
        }
        out.push(target);
    }
    Ok(out)
}

/// Writes the converted records of one input to `base` (numbered siblings for KIF, KI2 and
/// JKF inputs with several records); returns the number of files written.
fn write_outputs(
    base: &Path,
    to: ToFormat,
    texts: &[String],
    claimed: &std::sync::Mutex<std::collections::HashSet<PathBuf>>,
    input: &Input,
) -> Result<usize, String> {
    if texts.is_empty() {
        return Ok(0);
    }
    let ext = extension(to);
    let base = base.to_path_buf();
    if let Some(parent) = base.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("error: {}: {}", parent.display(), io_reason(&e)))?;
    }
    let line = |t: &String| {
        if t.ends_with('\n') {
            t.clone()
        } else {
            format!("{t}\n")
        }
    };
    let outputs: Vec<(PathBuf, String)> = match to {
        ToFormat::Sfen | ToFormat::Usi => vec![(base, texts.iter().map(line).collect())],
        ToFormat::Csa => vec![(base, texts.iter().map(line).collect::<Vec<_>>().join("/\n"))],
        _ => texts
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let path = if i == 0 {
                    base.clone()
                } else {
                    let stem = base
                        .file_stem()
                        .and_then(|s| s.to_str())
                        .unwrap_or("record");
                    base.with_file_name(format!("{stem}-{}.{ext}", i + 1))
                };
                (path, line(t))
            })
            .collect(),
    };
    for (path, _) in &outputs {
        let fresh = claimed
            .lock()
            .map(|mut set| set.insert(path.clone()))
            .unwrap_or(false);
        if !fresh {
            return Err(format!(
                "error: {}: two records would be written to {}; rename one of the inputs",
                input.name,
                path.display()
            ));
        }
    }
    for (path, text) in &outputs {
        std::fs::write(path, text)
            .map_err(|e| format!("error: {}: {}", path.display(), io_reason(&e)))?;
    }
    Ok(outputs.len())
}

fn convert_record(record: &Record, args: &ConvertArgs) -> Result<String, String> {
    Ok(match args.to {
        ToFormat::Sfen => {
            let moves = record.main_line().count();
            let pos = match args.ply {
                Some(n) if n > moves => {
                    return Err(format!("--ply {n}: the main line has only {moves} moves"));
                }
                Some(n) => record
                    .position_at(n)
                    .ok_or_else(|| format!("no legal position after {n} moves"))?,
                None => record
                    .final_position()
                    .ok_or_else(|| "the record has no playable start position".to_string())?,
            };
            pos.to_sfen()
        }
        ToFormat::Usi => {
            // The `position` command an engine takes: the moves before a foul move.
            if record.start_position().is_none() {
                return Err("the record has no playable start position".to_string());
            }
            let mut line = String::new();
            shogi_kif::write_usi(&mut line, record, UsiForm::Engine).map_err(|e| e.to_string())?;
            line
        }
        ToFormat::Kif => shogi_kif::write(record, Format::Kif),
        ToFormat::Ki2 => shogi_kif::write(record, Format::Ki2),
        ToFormat::Csa => shogi_kif::write(record, Format::Csa),
        ToFormat::Jkf => shogi_kif::write(record, Format::Jkf),
        // Written entry by entry by the training module, never as a record's text.
        ToFormat::Hcpe | ToFormat::Psv | ToFormat::Positions => {
            return Err("training data is not a record format".to_string());
        }
    })
}
