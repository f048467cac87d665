//! `shogi check`: every record of every input read and replayed; each problem located.

use crate::batch::{SelectArgs, ShardArgs};
use crate::cli::InputArgs;
use crate::inputs::reading;
use crate::pool::jobs_pool;
use crate::progress::Progress;
use crate::{Ctx, Failure};
use serde::Serialize;
use shogi_batch::{Dedup, DedupMode, Event, GameRow, INTERNAL_ERROR, ReadGame, game_key, replay};
use shogi_kif::{Diagnostic, ErrorKind, Severity};
use std::io::Write;
use std::ops::ControlFlow;

/// Arguments of `shogi check`.
#[derive(clap::Args)]
#[command(
    after_help = "Each problem is printed as `path:line:col: error: message` (warnings likewise).\n\
Exit status: 0 when every record is valid, 1 when any is invalid, 2 on usage or I/O errors.\n\n\
Examples:\n  shogi check game.kif\n  shogi check records/ --jobs 2\n  cat game.csa | shogi check -\n  \
shogi check records/ --format jsonl --strict > report.jsonl\n  shogi check records/ --shard 1/4 --fail-fast"
)]
pub struct CheckArgs {
    /// Files or directories (walked recursively); `-` reads stdin.
    #[arg(required = true)]
    pub paths: Vec<String>,
    #[command(flatten)]
    pub input: InputArgs,
    /// Worker threads (default: all cores).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    /// Output format: one line per problem, one JSON document with every file, or one JSON
    /// object per record (streamed).
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    pub format: CheckFormat,
    /// Show the source line and a caret under each problem.
    #[arg(long)]
    pub context: bool,
    /// Do not print warnings and notes (errors only).
    #[arg(long, short)]
    pub quiet: bool,
    /// Warnings count as errors: a record with a warning is invalid.
    #[arg(long)]
    pub strict: bool,
    /// Stop at the first invalid record (after reporting it).
    #[arg(long)]
    pub fail_fast: bool,
    #[command(flatten)]
    pub shard: ShardArgs,
    #[command(flatten)]
    pub select: SelectArgs,
}

/// Output formats of `shogi check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckFormat {
    /// One line per problem.
    Text,
    /// One JSON document with every file.
    Json,
    /// One JSON object per record, as each is checked.
    Jsonl,
}

#[derive(Serialize)]
struct FileReport {
    path: String,
    records: usize,
    invalid: usize,
    problems: Vec<Problem>,
}

#[derive(Serialize, Clone)]
struct Problem {
    severity: Severity,
    line: u32,
    column: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ply: Option<u32>,
    message: String,
    #[serde(skip)]
    rendered: String,
}

/// One record checked (a line of `--format jsonl`).
#[derive(Serialize)]
struct RecordReport {
    path: String,
    game: u32,
    valid: bool,
    problems: Vec<Problem>,
    /// For --dedup: the game key; for --dedup prefix, the main line.
    #[serde(skip)]
    key: Option<u64>,
    #[serde(skip)]
    line: Option<String>,
    #[serde(skip)]
    selected: bool,
    #[serde(skip)]
    io: bool,
    #[serde(skip)]
    panic_note: Option<String>,
}

/// Checks one game: its problems, and whether the selection keeps it.
fn check_game(
    path: &str,
    game: &ReadGame,
    args: &CheckArgs,
    selection: &shogi_batch::Selection,
    dedup: Option<DedupMode>,
) -> RecordReport {
    let mut problems = Vec::new();
    let mut invalid = false;
    let mut panic_note = None;
    if let Some(message) = &game.panic {
        invalid = true;
        // Where the record that failed starts.
        let line = game.line.max(1);
        problems.push(Problem {
            severity: Severity::Error,
            line,
            column: 1,
            kind: Some("internal"),
            ply: None,
            message: INTERNAL_ERROR.to_string(),
            rendered: format!("{path}:{line}:1: error: {INTERNAL_ERROR}"),
        });
        panic_note = Some(format!("{path}: note: the internal error was: {message}"));
    } else if let Some(e) = &game.error {
        invalid = true;
        let rendered = if e.kind == ErrorKind::Io && e.location.line == 0 {
            format!("{path}: error: {}", e.message)
        } else if args.context {
            e.clone().with_path(path).render()
        } else {
            e.clone().with_path(path).to_string()
        };
        problems.push(Problem {
            severity: Severity::Error,
            line: e.location.line,
            column: e.location.column,
            kind: Some(e.kind.name()),
            ply: e.ply,
            message: e.message.clone(),
            rendered,
        });
    }
    for d in &game.diagnostics {
        if d.severity == Severity::Error || (args.strict && d.severity == Severity::Warning) {
            invalid = true;
        }
        problems.push(problem_from_diagnostic(d, path, args.context));
    }
    let io = game.error.as_ref().is_some_and(|e| e.kind == ErrorKind::Io);
    let selected = selection.is_empty() || {
        let r = game
            .record
            .as_ref()
            .map(|rec| replay(rec, selection.position()))
            .unwrap_or_default();
        let mut row = GameRow::new(path, game, Some(&r));
        row.valid = !invalid;
        selection.matches(&row, Some(&r))
    };
    let (key, line) = match (&game.record, dedup) {
        (Some(rec), Some(mode)) => (
            Some(game_key(rec)),
            (mode == DedupMode::Prefix).then(|| shogi_batch::line_text(rec)),
        ),
        _ => (None, None),
    };
    RecordReport {
        path: path.to_string(),
        game: game.index,
        valid: !invalid,
        problems,
        key,
        line,
        selected,
        io,
        panic_note,
    }
}

fn problem_from_diagnostic(d: &Diagnostic, path: &str, context: bool) -> Problem {
    let rendered = if context {
        d.render(Some(path))
    } else {
        d.render(Some(path))
            .lines()
            .next()
            .unwrap_or_default()
            .to_string()
    };
    Problem {
        severity: d.severity,
        line: d.line,
        column: d.column,
        kind: None,
        ply: None,
        message: d.message.clone(),
        rendered,
    }
}

/// Runs `shogi check`.
pub fn run(args: &CheckArgs, ctx: &mut Ctx) -> Result<(), Failure> {
    let selection = args.select.selection()?;
    let dedup = args.select.dedup()?;
    let inputs = crate::inputs::expand(&args.paths)?;
    let inputs = args.shard.apply(inputs)?;
    let pool = jobs_pool(args.jobs)?;
    let start = std::time::Instant::now();
    let total = inputs.len() as u64;
    let progress = Progress::new(ctx.options.progress, "check", "files");
    let reading = reading(&args.input, true, &ctx.stdin);
    let on_record = ctx.options.on_record.clone();
    let mut out = std::io::BufWriter::new(&mut *ctx.stdout);
    let mut notes = Vec::new();
    let (mut records, mut invalid, mut io_failed) = (0usize, 0usize, false);
    let mut files: Vec<FileReport> = Vec::new();
    let mut current: Option<FileReport> = None;
    let mut exact = Dedup::new();
    let mut held: Vec<RecordReport> = Vec::new();
    let mut stopped = false;
    // Reports one record (kept by the selection and not a duplicate).
    let mut report = |r: RecordReport,
                      out: &mut dyn Write,
                      current: &mut Option<FileReport>,
                      files: &mut Vec<FileReport>|
     -> ControlFlow<()> {
        records += 1;
        io_failed |= r.io;
        if let Some(n) = &r.panic_note {
            notes.push(n.clone());
        }
        if !r.valid {
            invalid += 1;
        }
        match args.format {
            CheckFormat::Text => {
                for p in &r.problems {
                    if args.quiet && p.severity != Severity::Error {
                        continue;
                    }
                    let _ = writeln!(out, "{}", p.rendered);
                }
            }
            CheckFormat::Jsonl => {
                let _ = serde_json::to_writer(&mut *out, &r);
                let _ = out.write_all(b"\n");
            }
            CheckFormat::Json => {
                if current.as_ref().is_some_and(|f| f.path != r.path) {
                    files.extend(current.take());
                }
                let file = current.get_or_insert_with(|| FileReport {
                    path: r.path.clone(),
                    records: 0,
                    invalid: 0,
                    problems: Vec::new(),
                });
                file.records += 1;
                file.invalid += usize::from(!r.valid);
                file.problems.extend(r.problems);
            }
        }
        if args.fail_fast && !r.valid {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
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
            check_game(&input.name, &game, args, &selection, dedup)
        },
        |input, event| match event {
            Event::InputDone => {
                progress.inc(total);
                // With --dedup prefix the records come at the end, grouped there.
                if args.format == CheckFormat::Json && dedup != Some(DedupMode::Prefix) {
                    files.push(current.take().unwrap_or_else(|| FileReport {
                        path: input.name.clone(),
                        records: 0,
                        invalid: 0,
                        problems: Vec::new(),
                    }));
                }
                let _ = out.flush();
                ControlFlow::Continue(())
            }
            Event::Game(r) => {
                progress.add_games(1);
                if !r.selected {
                    return ControlFlow::Continue(());
                }
                match (dedup, r.key) {
                    (Some(DedupMode::Prefix), _) => {
                        held.push(r);
                        ControlFlow::Continue(())
                    }
                    (Some(DedupMode::Exact), Some(key))
                        if exact
                            .check(key, &format!("{}#{}", r.path, r.game))
                            .is_some() =>
                    {
                        ControlFlow::Continue(())
                    }
                    _ => {
                        let flow = report(r, &mut out, &mut current, &mut files);
                        stopped |= flow.is_break();
                        flow
                    }
                }
            }
        },
    );
    if !held.is_empty() {
        let lines: Vec<String> = held
            .iter()
            .map(|r| {
                r.line
                    .clone()
                    .unwrap_or_else(|| format!("\u{0}{}#{}", r.path, r.game))
            })
            .collect();
        let dups = shogi_batch::duplicates(&lines, DedupMode::Prefix);
        for (r, d) in held.into_iter().zip(dups) {
            if d.is_none() && report(r, &mut out, &mut current, &mut files).is_break() {
                stopped = true;
                break;
            }
        }
    }
    progress.finish();
    if args.format == CheckFormat::Json {
        if let Some(f) = current.take() {
            files.push(f);
        }
        let doc = serde_json::json!({
            "files": files.len(),
            "records": records,
            "invalid": invalid,
            "reports": files,
        });
        let _ = writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&doc).unwrap_or_default()
        );
    }
    let _ = out.flush();
    drop(out);
    for note in &notes {
        let _ = writeln!(ctx.stderr, "{note}");
    }
    let secs = start.elapsed().as_secs_f64();
    let _ = writeln!(
        ctx.stderr,
        "checked {records} record(s) in {} file(s): {} valid, {invalid} invalid ({secs:.2}s){}",
        inputs.len(),
        records.saturating_sub(invalid),
        if stopped {
            "; stopped at the first invalid record (--fail-fast)"
        } else {
            ""
        },
    );
    if io_failed {
        Err(Failure::silent(2))
    } else if invalid > 0 {
        Err(Failure::silent(1))
    } else {
        Ok(())
    }
}
