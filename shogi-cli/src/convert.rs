//! `shogi convert`: every record of every input written in another format, to stdout or one
//! file per input below an output folder.

use crate::batch::{SelectArgs, ShardArgs};
use crate::cli::{EncodingArg, InputArgs};
use crate::inputs::{self, Input, io_reason, reading};
use crate::pool::jobs_pool;
use crate::progress::Progress;
use crate::{Ctx, Failure};
use shogi_batch::{
    Dedup, DedupMode, Event, GameRow, INTERNAL_ERROR, ReadGame, Selection, game_key, line_text,
    replay,
};
use shogi_kif::{Encoding, EndingKind, ErrorKind, Format, Loss, Record, UsiForm, WriteOptions};
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
    /// Kakinoki KIF (UTF-8, or Shift_JIS with --to-encoding).
    Kif,
    /// KI2 (UTF-8, or Shift_JIS with --to-encoding).
    Ki2,
    /// CSA (V3.0; UTF-8, or Shift_JIS with --to-encoding).
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
Nothing is dropped silently: a record holding what the output format cannot (variations in CSA or \
USI; comments, times, bookmarks, the header or the ending in USI; times in KI2; bookmarks in CSA \
and JKF; variations in the record a --to sfen position is taken from) is not converted and the \
error names what would be lost. --mainline converts the main line only (variations dropped, in \
every format); --lossy drops whatever the format cannot hold. Either way one warning per record \
on stderr names what was dropped.\n\n\
Examples:\n  shogi convert game.kif --to sfen            # the final position\n  \
shogi convert game.kif --to sfen --ply 30   # the position after 30 moves\n  \
shogi convert game.csa --to usi --lossy\n  shogi convert - --to kif < game.ki2\n  \
shogi convert records/ --to csa --out-dir csa/   # one file per record file, same layout\n  \
shogi convert game.kifu --to csa --mainline  # a game with variations, its main line as CSA\n  \
shogi convert game.csa --to kif --to-encoding shift-jis -o out/  # out/game.kif in Shift_JIS\n\n\
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
    /// the extension becomes the output format's: `.kifu` and `.ki2u` for UTF-8 KIF and KI2,
    /// `.kif` and `.ki2` for Shift_JIS) instead of printing to stdout. An input with several
    /// records gives one file for SFEN, USI and CSA (games split by `/`) and numbered files
    /// (`name-2.kifu`, ...) for KIF, KI2 and JKF.
    #[arg(long, short = 'o')]
    pub out_dir: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    /// Convert the main line only: variations are dropped (in every format) and a warning
    /// says how many.
    #[arg(long)]
    pub mainline: bool,
    /// Drop whatever the output format cannot hold (see below) and name it in a warning; in
    /// Shift_JIS output, write ▲ for ☗, △ for ☖ and `U+XXXX` for any other character
    /// Shift_JIS lacks.
    #[arg(long)]
    pub lossy: bool,
    /// The text encoding of KIF, KI2 and CSA output (default utf8); its declaration line says
    /// which. A character Shift_JIS lacks is an error naming it, unless --lossy.
    #[arg(long, value_enum, value_name = "ENCODING")]
    pub to_encoding: Option<EncodingArg>,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub shard: ShardArgs,
    #[command(flatten)]
    pub select: SelectArgs,
    #[command(flatten)]
    pub training: crate::training::TrainingArgs,
}

impl ConvertArgs {
    /// The encoding of the output text.
    fn encoding(&self) -> Encoding {
        self.to_encoding.map_or(Encoding::Utf8, Encoding::from)
    }
}

/// An error or warning of one input.
enum Message {
    /// A line as it is printed.
    Plain(String),
    /// About the `index`th record (from 1): printed after the input's name, with the record's
    /// number when the input holds several.
    Record {
        index: usize,
        text: String,
        error: bool,
    },
}

impl Message {
    /// The line printed for an input `path` of `records` records.
    fn render(&self, path: &str, records: usize) -> String {
        match self {
            Message::Plain(s) => s.clone(),
            Message::Record { index, text, error } => {
                let level = if *error { "error" } else { "warning" };
                if records > 1 {
                    format!("{path}: {level}: record {index}: {text}")
                } else {
                    format!("{path}: {level}: {text}")
                }
            }
        }
    }

    fn is_error(&self) -> bool {
        !matches!(self, Message::Record { error: false, .. })
    }
}

/// One game converted: the text, or the errors to report.
struct ConvertedGame {
    text: Option<Vec<u8>>,
    errors: Vec<Message>,
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
        // Located where the record that failed starts.
        let line = game.line.max(1);
        done.errors.push(Message::Plain(format!(
            "{path}:{line}:1: error: {INTERNAL_ERROR}"
        )));
        done.errors.push(Message::Plain(format!(
            "{path}: note: the internal error was: {message}"
        )));
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
        (_, Some(e)) => done
            .errors
            .push(Message::Plain(e.clone().with_path(path).render())),
        (Some(record), None) => {
            if let Some(mode) = dedup {
                done.key = Some(game_key(record));
                done.line = (mode == DedupMode::Prefix).then(|| line_text(record));
            }
            let index = game.index as usize;
            let (result, warning) = convert_record(record, args);
            if let Some(text) = warning {
                done.errors.push(Message::Record {
                    index,
                    text,
                    error: false,
                });
            }
            match result {
                Ok(text) => done.text = Some(text),
                Err(text) => done.errors.push(Message::Record {
                    index,
                    text,
                    error: true,
                }),
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
    match args.to_encoding {
        None | Some(EncodingArg::Utf8) => {}
        Some(EncodingArg::ShiftJis)
            if matches!(args.to, ToFormat::Kif | ToFormat::Ki2 | ToFormat::Csa) => {}
        Some(EncodingArg::ShiftJis) => {
            return Err(Failure::usage(
                "error: --to-encoding shift-jis goes with --to kif, ki2 or csa (the other formats are UTF-8 or ASCII)",
            ));
        }
        Some(EncodingArg::EucJp) => {
            return Err(Failure::usage(
                "error: --to-encoding takes utf8 or shift-jis (EUC-JP is read, not written)",
            ));
        }
    }
    if args.to.is_training() {
        // The training writers take --min-rating from the selection; the other selection
        // flags, --dedup and --shard are not theirs yet: refused rather than ignored.
        let others = SelectArgs {
            min_rating: None,
            ..args.select.clone()
        };
        if !others.selection()?.is_empty() || others.dedup.is_some() || args.shard.shard.is_some() {
            return Err(Failure::usage(
                "error: with --to hcpe, psv or positions, only --min-rating of the selection \
                 flags applies (and not --dedup or --shard)",
            ));
        }
        return crate::training::run(args, ctx);
    }
    if args.training != crate::training::TrainingArgs::default() {
        return Err(Failure::usage(
            "error: --output, --skip-first, --skip-draws, --skip-declarations and \
             --keep-unfinished go with --to hcpe, psv or positions",
        ));
    }
    let selection = args.select.selection()?;
    let dedup = args.select.dedup()?;
    let inputs = inputs::expand(&args.paths)?;
    let inputs = args.shard.apply(inputs)?;
    let targets = match &args.out_dir {
        Some(dir) => Some(output_paths(
            dir,
            &inputs,
            extension(args.to, args.encoding()),
        )?),
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
    let mut texts: Vec<Vec<u8>> = Vec::new();
    let mut errors: Vec<Message> = Vec::new();
    // Games the current input gave, for `record N` in its messages.
    let mut games = 0usize;
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
                Event::Game(mut g) => {
                    progress.add_games(1);
                    games += 1;
                    if !g.selected {
                        return ControlFlow::Continue(());
                    }
                    if let Some(io) = &g.io {
                        errors.push(Message::Plain(io.clone()));
                        outcome.io_failed = true;
                    }
                    outcome.failed |= g.errors.iter().any(Message::is_error);
                    errors.extend(std::mem::take(&mut g.errors));
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
                        std::mem::take(&mut games),
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
        let mut by_input: Vec<Vec<Vec<u8>>> = vec![Vec::new(); inputs.len()];
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
                    0,
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
            format_of(args.to)
                .map_or("", Format::name)
                .to_ascii_uppercase()
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
    texts: &[Vec<u8>],
    errors: &[Message],
    records: usize,
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
                let _ = out.write_all(text);
                if !text.ends_with(b"\n") {
                    let _ = out.write_all(b"\n");
                }
                outcome.written += 1;
            }
            // Keep stdout and stderr in step for a reader watching both.
            let _ = out.flush();
        }
        Some(base) => match write_outputs(base, args, texts, claimed, input) {
            Ok(n) => outcome.files += n,
            Err(e) => {
                let _ = writeln!(stderr, "{e}");
                outcome.io_failed = true;
            }
        },
    }
    for e in errors {
        let _ = writeln!(stderr, "{}", e.render(&input.name, records));
    }
}

/// The extension of an output format: Kakinoki's `.kif`/`.ki2` for Shift_JIS, `.kifu`/`.ki2u`
/// for UTF-8.
pub(crate) fn extension(to: ToFormat, encoding: Encoding) -> &'static str {
    let utf8 = encoding == Encoding::Utf8;
    match to {
        ToFormat::Sfen => "sfen",
        ToFormat::Usi => "usi",
        ToFormat::Kif if utf8 => "kifu",
        ToFormat::Kif => "kif",
        ToFormat::Ki2 if utf8 => "ki2u",
        ToFormat::Ki2 => "ki2",
        ToFormat::Csa => "csa",
        ToFormat::Jkf => "jkf",
        ToFormat::Hcpe => "hcpe",
        ToFormat::Psv => "psv",
        ToFormat::Positions => "positions",
    }
}

/// The library's format for an output format (none for training data).
fn format_of(to: ToFormat) -> Option<Format> {
    Some(match to {
        ToFormat::Sfen => Format::Sfen,
        ToFormat::Usi => Format::Usi,
        ToFormat::Kif => Format::Kif,
        ToFormat::Ki2 => Format::Ki2,
        ToFormat::Csa => Format::Csa,
        ToFormat::Jkf => Format::Jkf,
        ToFormat::Hcpe | ToFormat::Psv | ToFormat::Positions => return None,
    })
}

/// The output file of each input below `dir`: its relative path with the output format's
/// extension, or, where two inputs would meet in one file (`game.kif` and `game.ki2`), the whole
/// input name with the extension added (`game.kif.csa`). Writing over an input is refused.
pub(crate) fn output_paths(
    dir: &Path,
    inputs: &[Input],
    ext: &str,
) -> Result<Vec<PathBuf>, Failure> {
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
    args: &ConvertArgs,
    texts: &[Vec<u8>],
    claimed: &std::sync::Mutex<std::collections::HashSet<PathBuf>>,
    input: &Input,
) -> Result<usize, String> {
    if texts.is_empty() {
        return Ok(0);
    }
    let (to, ext) = (args.to, extension(args.to, args.encoding()));
    let base = base.to_path_buf();
    if let Some(parent) = base.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("error: {}: {}", parent.display(), io_reason(&e)))?;
    }
    let line = |t: &Vec<u8>| {
        let mut t = t.clone();
        if !t.ends_with(b"\n") {
            t.push(b'\n');
        }
        t
    };
    let outputs: Vec<(PathBuf, Vec<u8>)> = match to {
        ToFormat::Sfen | ToFormat::Usi => vec![(base, texts.iter().flat_map(line).collect())],
        ToFormat::Csa => vec![(
            base,
            texts.iter().map(line).collect::<Vec<_>>().join(&b"/\n"[..]),
        )],
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

/// What the output of `args.to` cannot hold of `record`. `--to sfen` writes a position, which
/// is the main line's: only variations are lost there. `--to usi` writes an engine's
/// `position` command, without the ending word the library's USI form adds.
fn record_losses(record: &Record, to: ToFormat) -> Vec<Loss> {
    let Some(format) = format_of(to) else {
        return Vec::new();
    };
    let mut losses = shogi_kif::losses(record, format);
    match to {
        ToFormat::Sfen => losses.retain(Loss::is_variations),
        ToFormat::Usi => {
            let fouled = record.main_line().any(|n| n.foul.is_some());
            if let Some(e) = record.ending() {
                if !fouled && matches!(e.kind, EndingKind::Resign | EndingKind::Declaration) {
                    losses.push(Loss::Ending(e.kind.clone()));
                }
            }
        }
        _ => {}
    }
    losses
}

fn list(losses: &[Loss]) -> String {
    losses
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The name of the output in messages.
fn target_name(to: ToFormat) -> &'static str {
    match to {
        ToFormat::Sfen => "an SFEN position",
        ToFormat::Usi => "a USI position line",
        ToFormat::Kif => "KIF",
        ToFormat::Ki2 => "KI2",
        ToFormat::Csa => "CSA",
        ToFormat::Jkf => "JKF",
        ToFormat::Hcpe | ToFormat::Psv | ToFormat::Positions => "training data",
    }
}

/// Convert one record: the bytes written or an error message, and the warning naming what
/// was dropped (with --mainline or --lossy).
fn convert_record(
    record: &Record,
    args: &ConvertArgs,
) -> (Result<Vec<u8>, String>, Option<String>) {
    let mut dropped = Vec::new();
    // Only --mainline needs a copy of the record (without its variations).
    let stripped;
    let record = if args.mainline {
        let mut copy = record.clone();
        let n = copy.drop_variations();
        if n > 0 {
            dropped.push(Loss::Variations(n));
        }
        stripped = copy;
        &stripped
    } else {
        record
    };
    let losses = record_losses(record, args.to);
    if !losses.is_empty() && !args.lossy {
        let what = list(&losses);
        let hint = if losses.iter().all(Loss::is_variations) {
            "--mainline or --lossy drops them"
        } else if losses.iter().any(Loss::is_variations) {
            "--mainline drops the variations, --lossy all of it"
        } else {
            "--lossy drops them"
        };
        let error = format!(
            "{} cannot hold {what}: not converted ({hint})",
            target_name(args.to)
        );
        return (Err(error), None);
    }
    dropped.extend(losses);
    let text = match write_record(record, args) {
        Ok(t) => t,
        Err(e) => return (Err(e), None),
    };
    let encoding = args.encoding();
    let (bytes, replaced) = if args.lossy {
        let (b, r) = shogi_kif::encode_lossy(&text, encoding);
        (b.into_owned(), r)
    } else {
        match shogi_kif::encode(&text, encoding) {
            Ok(b) => (b.into_owned(), Vec::new()),
            Err(e) => {
                let error = format!(
                    "{} has no form for {} (U+{:04X}), at line {}, column {} of the {} written \
                     (\"{}\"): not converted (--lossy writes ▲ for ☗, △ for ☖ and U+XXXX for \
                     any other)",
                    e.encoding.label(),
                    e.ch,
                    u32::from(e.ch),
                    e.line,
                    e.column,
                    target_name(args.to),
                    e.line_text
                );
                return (Err(error), None);
            }
        }
    };
    (Ok(bytes), warning(&dropped, &replaced))
}

/// The one warning of a record: what was dropped and which characters were replaced.
fn warning(dropped: &[Loss], replaced: &[char]) -> Option<String> {
    let mut parts = Vec::new();
    if !dropped.is_empty() {
        parts.push(format!("dropped {}", list(dropped)));
    }
    if !replaced.is_empty() {
        let subs: Vec<String> = replaced
            .iter()
            .map(|&c| format!("{c} by {}", shogi_kif::substitute(c)))
            .collect();
        parts.push(format!("replaced {}", subs.join(", ")));
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// The text of one record in the output format.
fn write_record(record: &Record, args: &ConvertArgs) -> Result<String, String> {
    let options = WriteOptions::encoding(args.encoding());
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
        to => match format_of(to) {
            Some(format) => shogi_kif::write_with(record, format, &options),
            // Written entry by entry by the training module, never as a record's text.
            None => return Err("training data is not a record format".to_string()),
        },
    })
}
