//! `shogi convert`: every record of every input written in another format, to stdout or one
//! file per input below an output folder.

use crate::batch::{SelectArgs, ShardArgs};
use crate::cli::InputArgs;
use crate::inputs::{self, Input, io_reason, reading};
use crate::pool::jobs_pool;
use crate::progress::Progress;
use crate::{Ctx, Failure};
use shogi_batch::{
    Dedup, DedupMode, Event, GameRow, INTERNAL_ERROR, ReadGame, Selection, game_key, line_text,
    replay,
};
use shogi_kif::{ErrorKind, Format, Record};
use std::io::Write;
use std::ops::ControlFlow;
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
}

/// Arguments of `shogi convert`.
#[derive(clap::Args)]
#[command(
    after_help = "Each record of each input is converted; a record that cannot be read is reported as \
`path:line:col: error: message` on stderr and the others are still converted (exit 1 at the end).\n\n\
Examples:\n  shogi convert game.kif --to sfen            # the final position\n  \
shogi convert game.kif --to sfen --ply 30   # the position after 30 moves\n  \
shogi convert game.csa --to usi\n  shogi convert - --to kif < game.ki2\n  \
shogi convert records/ --to csa --out-dir csa/   # one file per record file, same layout"
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
    /// Worker threads (default: all cores).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub shard: ShardArgs,
    #[command(flatten)]
    pub select: SelectArgs,
}

/// One game converted: the text, or the errors to report.
struct ConvertedGame {
    text: Option<String>,
    errors: Vec<String>,
    io: Option<String>,
    selected: bool,
    key: Option<u64>,
    line: Option<String>,
}

/// Converts one game (when the selection keeps it).
fn convert_game(
    path: &str,
    game: &ReadGame,
    args: &ConvertArgs,
    selection: &Selection,
    dedup: Option<DedupMode>,
) -> ConvertedGame {
    let mut done = ConvertedGame {
        text: None,
        errors: Vec::new(),
        io: None,
        selected: true,
        key: None,
        line: None,
    };
    if let Some(message) = &game.panic {
        // The start of the record being read is not known: 1:1.
        done.errors
            .push(format!("{path}:1:1: error: {INTERNAL_ERROR}"));
        done.errors
            .push(format!("{path}: note: the internal error was: {message}"));
        return done;
    }
    if !selection.is_empty() {
        let r = game
            .record
            .as_ref()
            .map(|rec| replay(rec, selection.position()))
            .unwrap_or_default();
        let row = GameRow::new(path, game, Some(&r));
        done.selected = selection.matches(&row, Some(&r));
        if !done.selected {
            return done;
        }
    }
    match (&game.record, &game.error) {
        (_, Some(e)) if e.kind == ErrorKind::Io => {
            done.io = Some(format!("error: {path}: {}", e.message));
        }
        (_, Some(e)) => done.errors.push(e.clone().with_path(path).render()),
        (Some(record), None) => {
            if let Some(mode) = dedup {
                done.key = Some(game_key(record));
                done.line = (mode == DedupMode::Prefix).then(|| line_text(record));
            }
            match convert_record(record, args) {
                Ok(text) => done.text = Some(text),
                Err(message) => done.errors.push(format!("{path}: error: {message}")),
            }
        }
        (None, None) => {}
    }
    done
}

/// Where the converted records go, and what went wrong on the way.
struct Outcome {
    failed: bool,
    io_failed: bool,
    /// Records written to stdout so far.
    written: usize,
    /// Files written below --out-dir so far.
    files: usize,
}

/// Runs `shogi convert`.
pub fn run(args: &ConvertArgs, ctx: &mut Ctx) -> Result<(), Failure> {
    if args.ply.is_some() && args.to != ToFormat::Sfen {
        return Err(Failure::usage("error: --ply goes with --to sfen"));
    }
    let selection = args.select.selection()?;
    let dedup = args.select.dedup()?;
    let inputs = inputs::expand(&args.paths)?;
    let inputs = args.shard.apply(inputs)?;
    let targets = match &args.out_dir {
        Some(dir) => Some(output_paths(dir, &inputs, args.to)?),
        None => None,
    };
    let pool = jobs_pool(args.jobs)?;
    // Validation only matters to a selection (--valid, --ending ...).
    let reading = reading(&args.input, !selection.is_empty(), &ctx.stdin);
    let on_record = ctx.options.on_record.clone();
    let progress = Progress::new(ctx.options.progress, "convert", "files");
    let total = inputs.len() as u64;
    let mut outcome = Outcome {
        failed: false,
        io_failed: false,
        written: 0,
        files: 0,
    };
    let claimed = std::sync::Mutex::new(std::collections::HashSet::new());
    let mut exact = Dedup::new();
    // Per input: its texts and errors, handed over when the input is done.
    let mut texts: Vec<String> = Vec::new();
    let mut errors: Vec<String> = Vec::new();
    let mut held: Vec<(usize, ConvertedGame)> = Vec::new();
    let mut index_of = std::collections::HashMap::new();
    for (i, input) in inputs.iter().enumerate() {
        index_of.insert(input.name.clone(), i);
    }
    let mut out = std::io::BufWriter::new(&mut *ctx.stdout);
    let stderr = &mut *ctx.stderr;
    let _ = shogi_batch::run(
        &inputs,
        &reading,
        &pool,
        |input, game| {
            if let Some(hook) = &on_record {
                if game.panic.is_none() {
                    hook(&input.name, game.index as usize);
                }
            }
            convert_game(&input.name, &game, args, &selection, dedup)
        },
        |input, event| {
            match event {
                Event::Game(g) => {
                    progress.add_games(1);
                    if !g.selected {
                        return ControlFlow::Continue(());
                    }
                    if let Some(io) = &g.io {
                        errors.push(io.clone());
                        outcome.io_failed = true;
                    }
                    outcome.failed |= !g.errors.is_empty();
                    errors.extend(g.errors.iter().cloned());
                    match (dedup, g.key) {
                        (Some(DedupMode::Prefix), Some(_)) => {
                            held.push((index_of[&input.name], g));
                        }
                        (Some(DedupMode::Exact), Some(key))
                            if exact.check(key, &input.name).is_some() => {}
                        _ => texts.extend(g.text),
                    }
                }
                Event::InputDone => {
                    progress.inc(total);
                    let i = index_of[&input.name];
                    flush_input(
                        args,
                        input,
                        targets.as_ref().map(|t| &t[i]),
                        &std::mem::take(&mut texts),
                        &std::mem::take(&mut errors),
                        &claimed,
                        &mut out,
                        stderr,
                        &mut outcome,
                    );
                }
            }
            ControlFlow::Continue(())
        },
    );
    if !held.is_empty() {
        // --dedup prefix: every game was needed before deciding; the kept ones now, by input.
        let lines: Vec<String> = held
            .iter()
            .map(|(_, g)| g.line.clone().unwrap_or_default())
            .collect();
        let dups = shogi_batch::duplicates(&lines, DedupMode::Prefix);
        let mut by_input: Vec<Vec<String>> = vec![Vec::new(); inputs.len()];
        for ((i, g), d) in held.into_iter().zip(dups) {
            if d.is_none() {
                by_input[i].extend(g.text);
            }
        }
        for (i, t) in by_input.into_iter().enumerate() {
            if !t.is_empty() {
                flush_input(
                    args,
                    &inputs[i],
                    targets.as_ref().map(|x| &x[i]),
                    &t,
                    &[],
                    &claimed,
                    &mut out,
                    stderr,
                    &mut outcome,
                );
            }
        }
    }
    progress.finish();
    let _ = out.flush();
    drop(out);
    if let Some(dir) = &args.out_dir {
        let _ = writeln!(
            ctx.stderr,
            "wrote {} file(s) into {} from {} input(s)",
            outcome.files,
            dir.display(),
            inputs.len()
        );
    } else if outcome.written > 1
        && matches!(args.to, ToFormat::Kif | ToFormat::Ki2 | ToFormat::Jkf)
    {
        let _ = writeln!(
            ctx.stderr,
            "note: {} {} records were written one after another to stdout, which \
             no reader takes as one input; --out-dir writes a file for each",
            outcome.written,
            extension(args.to).to_ascii_uppercase()
        );
    }
    if outcome.io_failed {
        Err(Failure::silent(2))
    } else if outcome.failed {
        Err(Failure::silent(1))
    } else {
        Ok(())
    }
}

/// Writes one input's converted records (to stdout or its file) and reports its errors.
#[allow(clippy::too_many_arguments)]
fn flush_input(
    args: &ConvertArgs,
    input: &Input,
    target: Option<&PathBuf>,
    texts: &[String],
    errors: &[String],
    claimed: &std::sync::Mutex<std::collections::HashSet<PathBuf>>,
    out: &mut dyn Write,
    stderr: &mut dyn Write,
    outcome: &mut Outcome,
) {
    match target {
        None => {
            for text in texts {
                // CSA separates games with a `/` line; the other formats hold one record a
                // file (SFEN and USI one a line).
                if outcome.written > 0 && args.to == ToFormat::Csa {
                    let _ = out.write_all(b"/\n");
                }
                let _ = out.write_all(text.as_bytes());
                if !text.ends_with('\n') {
                    let _ = out.write_all(b"\n");
                }
                outcome.written += 1;
            }
            // Keep stdout and stderr in step for a reader watching both.
            let _ = out.flush();
        }
        Some(base) => match write_outputs(base, args.to, texts, claimed, input) {
            Ok(n) => outcome.files += n,
            Err(e) => {
                let _ = writeln!(stderr, "{e}");
                outcome.io_failed = true;
            }
        },
    }
    for e in errors {
        let _ = writeln!(stderr, "{e}");
    }
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
    }
}

/// The output file of each input below `dir`: its relative path with the output format's
/// extension, or, where two inputs would meet in one file (`game.kif` and `game.ki2`), the whole
/// input name with the extension added (`game.kif.csa`). Writing over an input is refused.
fn output_paths(dir: &Path, inputs: &[Input], to: ToFormat) -> Result<Vec<PathBuf>, Failure> {
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
        ToFormat::Kif | ToFormat::Ki2 | ToFormat::Jkf => texts
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
        ToFormat::Usi => usi_position_line(record)?,
        ToFormat::Kif => shogi_kif::write(record, Format::Kif),
        ToFormat::Ki2 => shogi_kif::write(record, Format::Ki2),
        ToFormat::Csa => shogi_kif::write(record, Format::Csa),
        ToFormat::Jkf => shogi_kif::write(record, Format::Jkf),
    })
}

/// `position startpos|sfen … moves …` for the main line (up to a declared foul move, which an
/// engine could not play).
fn usi_position_line(record: &Record) -> Result<String, String> {
    let start = record
        .start_position()
        .ok_or_else(|| "the record has no playable start position".to_string())?;
    let mut line = String::from("position ");
    let sfen = start.to_sfen();
    if sfen == shogi_core::Variant::Standard.start_sfen() {
        line.push_str("startpos");
    } else {
        line.push_str("sfen ");
        line.push_str(&sfen);
    }
    let moves: Vec<String> = record
        .main_line()
        .take_while(|n| n.foul.is_none())
        .map(|n| n.mv.to_usi())
        .collect();
    if !moves.is_empty() {
        line.push_str(" moves ");
        line.push_str(&moves.join(" "));
    }
    Ok(line)
}
