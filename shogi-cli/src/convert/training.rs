//! `shogi convert --to hcpe|psv|positions`: training data, one entry per position of every
//! selected game's main line (the entries themselves come from `shogi_train`).
//!
//! Inputs are read in parallel by shogi-batch (the reading path, ratings and selection of every
//! batch command), and their entries written in input order:
//! to `--output FILE`, to one file per input below `--out-dir`, or to stdout (binary never to
//! a terminal). Unreadable records are reported like every convert error (exit 1); games that
//! give no entries (no result, a left-out draw or declaration, below `--min-rating`, not
//! encodable) are only counted, in the summary line on stderr.

use super::{ConvertArgs, ToFormat, chosen_line, extension, output_paths};
use crate::batch::SelectArgs;
use crate::ctx::{Ctx, Failure};
use crate::driver::{Batch, Handler, Plan, internal_error, selected, status};
use crate::inputs::io_reason;
use shogi_batch::{Input, InputRecord, Selection};
use shogi_kif::{Encoding, ErrorKind};
use shogi_train::{self as training, Skip, TrainingOptions};
use std::io::Write;
use std::ops::ControlFlow;
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
    /// Left out by --opening, --castle or --class.
    tags: u64,
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
        self.tags += o.tags;
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
                self.tags,
                "without the --opening/--castle/--class asked for",
            ),
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

/// What one game gave: its entries' bytes, the lines for stderr, and what was counted.
#[derive(Default)]
struct Trained {
    bytes: Vec<u8>,
    errors: Vec<String>,
    /// The input could not be read at all (exit 2).
    io: Option<String>,
    counts: Counts,
}

/// The selection flags the training targets take: --min-rating, and the tag filters.
struct TrainSelection {
    rating: Selection,
    tags: Selection,
}

/// Encodes the entries of one game (when it is readable and selected); runs on a worker.
fn train_game(
    path: &str,
    game: &InputRecord,
    args: &ConvertArgs,
    selection: &TrainSelection,
) -> Trained {
    let mut done = Trained::default();
    if let Some((_, error, note)) = internal_error(path, game) {
        done.errors.extend([error, note]);
        return done;
    }
    let record = match (&game.record, &game.error) {
        (_, Some(e)) if e.kind == ErrorKind::Io => {
            done.io = Some(format!("error: {path}: {}", e.message));
            return done;
        }
        (_, Some(e)) => {
            done.counts.unreadable += 1;
            done.errors.push(e.clone().with_path(path).render());
            return done;
        }
        (Some(record), None) => record,
        (None, None) => return done,
    };
    // Only --min-rating and the tag filters reach here (see `convert::run`).
    if !selected(&selection.rating, path, game, None) {
        done.counts.rating += 1;
        return done;
    }
    if !selected(&selection.tags, path, game, None) {
        done.counts.tags += 1;
        return done;
    }
    let record = match chosen_line(record, args.variation) {
        Ok(r) => r,
        Err(m) => {
            done.errors
                .push(format!("{path}: error: record {}: {m}", game.index));
            return done;
        }
    };
    let mut failed = None;
    let res = training::for_each_entry(&record, &args.training.options(), |e| {
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
            done.bytes.clear();
            done.counts.not_encodable += 1;
            done.errors
                .push(format!("{path}: error: record {}: {m}", game.index));
        }
        (Err(skip), None) => done.counts.skip(&skip),
    }
    done
}

/// Where the entries go: one file per input below `--out-dir`, one `--output` file, or
/// stdout; and what went wrong on the way.
struct Sink<'a> {
    /// With `--out-dir`: each input's file, and the entries of the input being read.
    targets: Option<(Vec<PathBuf>, Vec<u8>)>,
    file: Option<(std::io::BufWriter<std::fs::File>, &'a Path)>,
    stdout: &'a mut dyn Write,
    /// Inputs done so far (the index of the current input's target).
    inputs_done: usize,
    files: usize,
    /// A write failed (this message, exit 2).
    write_error: Option<String>,
    /// Standard output was closed: stop quietly (exit 0).
    closed: bool,
}

impl Sink<'_> {
    /// Takes one game's entries.
    fn entries(&mut self, bytes: &[u8]) -> ControlFlow<()> {
        let written = match (&mut self.targets, &mut self.file) {
            (Some((_, pending)), _) => {
                pending.extend_from_slice(bytes);
                Ok(())
            }
            (None, Some((f, p))) => f
                .write_all(bytes)
                .map_err(|e| format!("error: {}: {}", p.display(), io_reason(&e))),
            (None, None) => match self.stdout.write_all(bytes) {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                    self.closed = true;
                    return ControlFlow::Break(());
                }
                r => r.map_err(|e| format!("error: cannot write stdout: {e}")),
            },
        };
        self.check(written)
    }

    /// An input is done: with `--out-dir`, its file is written.
    fn input_written(&mut self) -> ControlFlow<()> {
        let i = self.inputs_done;
        self.inputs_done += 1;
        let Some((targets, pending)) = &mut self.targets else {
            return ControlFlow::Continue(());
        };
        let written = write_file(&targets[i], pending).map(|n| self.files += n);
        pending.clear();
        self.check(written)
    }

    fn check(&mut self, written: Result<(), String>) -> ControlFlow<()> {
        match written {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                self.write_error = Some(e);
                ControlFlow::Break(())
            }
        }
    }

    /// Flushes the `--output` file and stdout.
    fn finish(&mut self) -> Result<(), Failure> {
        if let Some((f, p)) = &mut self.file {
            f.flush().map_err(|e| {
                Failure::usage(format!("error: {}: {}", p.display(), io_reason(&e)))
            })?;
        }
        let _ = self.stdout.flush();
        Ok(())
    }
}

/// The entries' sink, and the messages and counts of the games so far.
struct Trainer<'a> {
    sink: Sink<'a>,
    stderr: &'a mut dyn Write,
    failed: bool,
    io_failed: bool,
    counts: Counts,
}

impl Handler<Trained> for Trainer<'_> {
    fn game(&mut self, _: &Input, done: Trained) -> ControlFlow<()> {
        self.sink.entries(&done.bytes)?;
        for e in &done.errors {
            let _ = writeln!(self.stderr, "{e}");
            self.failed = true;
        }
        if let Some(e) = &done.io {
            let _ = writeln!(self.stderr, "{e}");
            self.io_failed = true;
        }
        self.counts.add(&done.counts);
        ControlFlow::Continue(())
    }

    fn input_done(&mut self, _: &Input) -> ControlFlow<()> {
        self.sink.input_written()
    }
}

/// The usage errors of the training targets: `--output` with `--out-dir`, binary data to a
/// terminal.
fn check_usage(args: &ConvertArgs, ctx: &Ctx) -> Result<(), Failure> {
    let t = &args.training;
    if t.output.is_some() && args.out_dir.is_some() {
        return Err(Failure::usage(
            "error: --output and --out-dir exclude each other",
        ));
    }
    let binary = matches!(args.to, ToFormat::Hcpe | ToFormat::Psv);
    if binary && t.output.is_none() && args.out_dir.is_none() && ctx.options.stdout_terminal {
        return Err(Failure::usage(format!(
            "error: {} is binary: not written to a terminal; use --output FILE, --out-dir DIR or a pipe",
            extension_name(args.to)
        )));
    }
    Ok(())
}

/// Runs `shogi convert --to hcpe|psv|positions`.
pub fn run(args: &ConvertArgs, ctx: &mut Ctx) -> Result<(), Failure> {
    check_usage(args, ctx)?;
    // --shard is refused with these targets (see `convert::run`).
    let plan = Plan::new(&args.paths, &args.input, args.jobs, "convert").validate(false);
    let batch = Batch::new(&plan, &ctx.stdin, ctx.options)?;
    let targets = match &args.out_dir {
        Some(dir) => Some((
            output_paths(dir, &batch.inputs, extension(args.to, Encoding::Utf8))?,
            Vec::new(),
        )),
        None => None,
    };
    let file = match &args.training.output {
        Some(p) => Some((
            std::io::BufWriter::new(std::fs::File::create(p).map_err(|e| {
                Failure::usage(format!("error: {}: {}", p.display(), io_reason(&e)))
            })?),
            p.as_path(),
        )),
        None => None,
    };
    // Only --min-rating and the tag filters are allowed here (see `convert::run`), each
    // counted apart in the closing line.
    let base = SelectArgs {
        side: args.select.side.clone(),
        tag_rules: args.select.tag_rules.clone(),
        ..SelectArgs::default()
    };
    let selection = TrainSelection {
        rating: SelectArgs {
            min_rating: args.select.min_rating.clone(),
            ..base.clone()
        }
        .selection()?,
        tags: SelectArgs {
            opening: args.select.opening.clone(),
            castle: args.select.castle.clone(),
            class: args.select.class.clone(),
            ..base
        }
        .selection()?,
    };
    let mut t = Trainer {
        sink: Sink {
            targets,
            file,
            stdout: &mut *ctx.stdout,
            inputs_done: 0,
            files: 0,
            write_error: None,
            closed: false,
        },
        stderr: &mut *ctx.stderr,
        failed: false,
        io_failed: false,
        counts: Counts::default(),
    };
    batch.run(
        |input, game| train_game(&input.name, &game, args, &selection),
        &mut t,
    );
    if t.sink.closed {
        return Ok(());
    }
    if let Some(e) = &t.sink.write_error {
        let _ = writeln!(t.stderr, "{e}");
        return Err(Failure::silent(2));
    }
    t.sink.finish()?;
    let mut summary = t.counts.summary(args.to);
    if let Some(dir) = &args.out_dir {
        summary.push_str(&format!("; {} file(s) in {}", t.sink.files, dir.display()));
    }
    let _ = writeln!(t.stderr, "{summary}");
    status(t.io_failed, t.failed)
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
