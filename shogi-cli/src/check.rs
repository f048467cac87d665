//! `shogi check`: every record of every input read and replayed; each problem located.

use crate::args::InputArgs;
use crate::batch::{MateArgs, SelectArgs, ShardArgs};
use crate::ctx::{Ctx, Failure};
use crate::driver::{Batch, Copies, Handler, Plan, internal_error, selected, status};
use serde::Serialize;
use shogi_batch::{DedupMode, INTERNAL_ERROR, Input, InputRecord, game_key};
use shogi_kif::{Diagnostic, ErrorKind, Severity};
use std::io::Write;
use std::ops::ControlFlow;

/// Arguments of `shogi check`.
#[derive(clap::Args)]
#[command(
    after_help = "Each problem is printed as `path:line:col: error: message` (warnings likewise).\n\
Exit status: 0 when every record is valid, 1 when any is invalid, 2 on usage or I/O errors.\n\n\
Examples:\n  shogi check samples/game.kif\n  shogi check samples/ --jobs 2\n  shogi check - < samples/game.csa\n  \
shogi check samples/ --format jsonl --strict > report.jsonl\n  shogi check samples/ --shard 1/4 --fail-fast"
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
    /// With --mate: a warning for a game whose loser missed a forced mate.
    #[command(flatten)]
    pub mate: MateArgs,
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
    game: &InputRecord,
    args: &CheckArgs,
    selection: &shogi_batch::Selection,
    dedup: Option<DedupMode>,
) -> RecordReport {
    let mut problems = Vec::new();
    let mut invalid = false;
    let mut panic_note = None;
    if let Some((line, error, note)) = internal_error(path, game) {
        invalid = true;
        problems.push(Problem {
            severity: Severity::Error,
            line,
            column: 1,
            kind: Some("internal"),
            ply: None,
            message: INTERNAL_ERROR.to_string(),
            rendered: error,
        });
        panic_note = Some(note);
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
    if let Some(p) = missed_mate(path, game, args) {
        invalid |= args.strict;
        problems.push(p);
    }
    let io = game.error.as_ref().is_some_and(|e| e.kind == ErrorKind::Io);
    let selected = selected(selection, path, game, Some(!invalid));
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

/// With `--mate`: the warning for a game whose loser missed a forced mate.
fn missed_mate(path: &str, game: &InputRecord, args: &CheckArgs) -> Option<Problem> {
    let search = args.mate.search()?;
    if game.error.is_some() || game.panic.is_some() {
        return None;
    }
    let record = game.record.as_ref()?;
    let found = shogi_batch::missed_mate(record, search)?;
    let (ply, length) = (found.ply, found.length);
    let pv: Vec<String> = found.pv.iter().map(|m| m.to_usi()).collect();
    let pv = pv.join(" ");
    let message = format!(
        "the loser had a forced mate in {length} at ply {ply} (move {}): {pv}",
        ply + 1
    );
    let line = game.line.max(1);
    Some(Problem {
        severity: Severity::Warning,
        line,
        column: 1,
        kind: Some("missed-mate"),
        ply: Some(ply as u32),
        rendered: format!("{path}:{line}:1: warning: {message}"),
        message,
    })
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

/// What has been reported so far, and where reports go.
struct Reporter<'a> {
    args: &'a CheckArgs,
    out: std::io::BufWriter<&'a mut dyn Write>,
    /// Notes for stderr (the messages of internal errors), after the reports.
    notes: Vec<String>,
    records: usize,
    invalid: usize,
    io_failed: bool,
    /// With --format json: the files reported, and the one being reported.
    files: Vec<FileReport>,
    current: Option<FileReport>,
    /// --dedup: the copies dropped (with prefix, every kept record held until the end).
    copies: Copies<RecordReport>,
    dedup: Option<DedupMode>,
    /// --fail-fast stopped the batch.
    stopped: bool,
}

impl Reporter<'_> {
    /// Reports one record (kept by the selection and not a duplicate).
    fn report(&mut self, r: RecordReport) -> ControlFlow<()> {
        self.records += 1;
        self.io_failed |= r.io;
        if let Some(n) = &r.panic_note {
            self.notes.push(n.clone());
        }
        if !r.valid {
            self.invalid += 1;
        }
        match self.args.format {
            CheckFormat::Text => {
                for p in &r.problems {
                    if self.args.quiet && p.severity != Severity::Error {
                        continue;
                    }
                    let _ = writeln!(self.out, "{}", p.rendered);
                }
            }
            CheckFormat::Jsonl => {
                let _ = serde_json::to_writer(&mut self.out, &r);
                let _ = self.out.write_all(b"\n");
            }
            CheckFormat::Json => {
                if self.current.as_ref().is_some_and(|f| f.path != r.path) {
                    self.files.extend(self.current.take());
                }
                let file = self
                    .current
                    .get_or_insert_with(|| FileReport::empty(r.path.clone()));
                file.records += 1;
                file.invalid += usize::from(!r.valid);
                file.problems.extend(r.problems);
            }
        }
        if self.args.fail_fast && !r.valid {
            self.stopped = true;
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    /// --dedup prefix: the kept records, now that every one is known.
    fn flush_held(&mut self) {
        for (r, copy_of) in self.copies.finish() {
            if copy_of.is_none() && self.report(r).is_break() {
                break;
            }
        }
    }

    /// With --format json: the one document, written at the end.
    fn write_json(&mut self) {
        if self.args.format != CheckFormat::Json {
            return;
        }
        self.files.extend(self.current.take());
        let doc = serde_json::json!({
            "files": self.files.len(),
            "records": self.records,
            "invalid": self.invalid,
            "reports": self.files,
        });
        let _ = writeln!(
            self.out,
            "{}",
            serde_json::to_string_pretty(&doc).unwrap_or_default()
        );
    }
}

impl Handler<RecordReport> for Reporter<'_> {
    /// Takes one checked record: reported now, held for --dedup prefix, or dropped.
    fn game(&mut self, _: &Input, mut r: RecordReport) -> ControlFlow<()> {
        if !r.selected {
            return ControlFlow::Continue(());
        }
        let (key, line) = (r.key, r.line.take());
        match self
            .copies
            .offer(r, key, |r| format!("{}#{}", r.path, r.game), line)
        {
            Some((r, None)) => self.report(r),
            _ => ControlFlow::Continue(()),
        }
    }

    /// An input is done.
    fn input_done(&mut self, input: &Input) -> ControlFlow<()> {
        // With --dedup prefix the records come at the end, grouped there.
        if self.args.format == CheckFormat::Json && self.dedup != Some(DedupMode::Prefix) {
            let file = self
                .current
                .take()
                .unwrap_or_else(|| FileReport::empty(input.name.clone()));
            self.files.push(file);
        }
        let _ = self.out.flush();
        ControlFlow::Continue(())
    }
}

impl FileReport {
    fn empty(path: String) -> FileReport {
        FileReport {
            path,
            records: 0,
            invalid: 0,
            problems: Vec::new(),
        }
    }
}

/// Runs `shogi check`.
pub fn run(args: &CheckArgs, ctx: &mut Ctx) -> Result<(), Failure> {
    let selection = args.select.selection()?;
    let dedup = args.select.dedup()?;
    // The records' moves are read only for --mate, --dedup and the selection's filters:
    // without them a record's verdict is the same, and reading is faster.
    let moves = args.mate.search().is_some() || dedup.is_some() || !selection.is_empty();
    let plan = Plan::new(&args.paths, &args.input, args.jobs, "check")
        .shard(&args.shard)
        .moves(moves);
    let batch = Batch::new(&plan, &ctx.stdin, ctx.options)?;
    let start = std::time::Instant::now();
    let mut rep = Reporter {
        args,
        out: std::io::BufWriter::new(&mut *ctx.stdout),
        notes: Vec::new(),
        records: 0,
        invalid: 0,
        io_failed: false,
        files: Vec::new(),
        current: None,
        copies: Copies::new(dedup),
        dedup,
        stopped: false,
    };
    batch.run(
        |input, game| check_game(&input.name, &game, args, &selection, dedup),
        &mut rep,
    );
    rep.flush_held();
    rep.write_json();
    let _ = rep.out.flush();
    drop(rep.out);
    for note in &rep.notes {
        let _ = writeln!(ctx.stderr, "{note}");
    }
    let (records, invalid) = (rep.records, rep.invalid);
    let _ = writeln!(
        ctx.stderr,
        "checked {records} record(s) in {} file(s): {} valid, {invalid} invalid ({:.2}s){}",
        batch.inputs.len(),
        records.saturating_sub(invalid),
        start.elapsed().as_secs_f64(),
        if rep.stopped {
            "; stopped at the first invalid record (--fail-fast)"
        } else {
            ""
        },
    );
    status(rep.io_failed, invalid > 0)
}
