//! `shogi check`: every record of every input read and replayed; each problem located.

use crate::cli::{InputArgs, OutputFormat};
use crate::inputs::{self, Input};
use crate::isolate::{Panic, isolated};
use crate::pool::jobs_pool;
use crate::progress::Progress;
use crate::read::{self, Item, Stdin, Validation};
use crate::{Ctx, Failure, Options};
use rayon::prelude::*;
use serde::Serialize;
use shogi_kif::{Diagnostic, Severity};
use std::io::Write;

/// Arguments of `shogi check`.
#[derive(clap::Args)]
#[command(
    after_help = "Each problem is printed as `path:line:col: error: message` (warnings likewise).\n\
Exit status: 0 when every record is valid, 1 when any is invalid, 2 on usage or I/O errors.\n\n\
Examples:\n  shogi check game.kif\n  shogi check records/ --jobs 2\n  cat game.csa | shogi check -"
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
    /// Output format: one line per problem, or one JSON document with every file.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
    /// Show the source line and a caret under each problem.
    #[arg(long)]
    pub context: bool,
    /// Do not print warnings and notes (errors only).
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Serialize)]
struct FileReport {
    path: String,
    records: usize,
    invalid: usize,
    problems: Vec<Problem>,
    /// The message of an internal failure, for stderr.
    #[serde(skip)]
    panic_note: Option<String>,
}

#[derive(Serialize)]
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

/// Checks one input; a panic while doing so is reported as an internal error of the record
/// being read, after what the input gave before it.
fn check_one(input: &Input, args: &CheckArgs, stdin: &Stdin, options: &Options) -> FileReport {
    let mut report = FileReport {
        path: input.name.clone(),
        records: 0,
        invalid: 0,
        problems: Vec::new(),
        panic_note: None,
    };
    let path = input.name.as_str();
    let read = isolated(|| {
        read::for_each_record(input, &args.input, stdin, Validation::On, |item| {
            if let Some(hook) = &options.on_record {
                hook(path, report.records + 1);
            }
            add_record(&mut report, item, path, args.context);
        })
    });
    match read {
        Ok(Ok(())) => {}
        Ok(Err(reason)) => {
            report.invalid += 1;
            report.problems.push(Problem {
                severity: Severity::Error,
                line: 0,
                column: 0,
                kind: Some("io"),
                ply: None,
                rendered: format!("{path}: error: {reason}"),
                message: reason,
            });
        }
        Err(panic) => {
            // The record being read when it failed; its start is not known yet: 1:1.
            report.records += 1;
            report.invalid += 1;
            report.problems.push(Problem {
                severity: Severity::Error,
                line: 1,
                column: 1,
                kind: Some("internal"),
                ply: None,
                rendered: Panic::error_line(path, 1, 1),
                message: Panic::REPORT.to_string(),
            });
            report.panic_note = Some(panic.note(path));
        }
    }
    report
}

/// Adds one record's problems (or the error that stopped the input) to `report`.
fn add_record(report: &mut FileReport, item: Item, path: &str, context: bool) {
    report.records += 1;
    match item {
        Ok((_, diagnostics)) => {
            for d in diagnostics {
                if d.severity == Severity::Error {
                    report.invalid += 1;
                }
                report
                    .problems
                    .push(problem_from_diagnostic(&d, path, context));
            }
        }
        Err(e) => {
            report.invalid += 1;
            let rendered = if context {
                e.clone().with_path(path).render()
            } else {
                e.clone().with_path(path).to_string()
            };
            report.problems.push(Problem {
                severity: Severity::Error,
                line: e.location.line,
                column: e.location.column,
                kind: Some(e.kind.name()),
                ply: e.ply,
                message: e.message,
                rendered,
            });
        }
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
    let inputs = inputs::expand(&args.paths)?;
    let pool = jobs_pool(args.jobs)?;
    let start = std::time::Instant::now();
    let total = inputs.len() as u64;
    let progress = Progress::new(ctx.options.progress, "check", "files");
    let (stdin, options) = (&ctx.stdin, ctx.options);
    let reports: Vec<FileReport> = pool.install(|| {
        inputs
            .par_iter()
            .map(|i| {
                let r = check_one(i, args, stdin, options);
                progress.inc(total);
                r
            })
            .collect()
    });
    progress.finish();
    let records: usize = reports.iter().map(|r| r.records).sum();
    let invalid: usize = reports.iter().map(|r| r.invalid).sum();
    let io_failed = reports
        .iter()
        .any(|r| r.problems.iter().any(|p| p.kind == Some("io")));
    write_reports(args, &reports, records, invalid, ctx.stdout);
    for note in reports.iter().filter_map(|r| r.panic_note.as_ref()) {
        let _ = writeln!(ctx.stderr, "{note}");
    }
    let secs = start.elapsed().as_secs_f64();
    let _ = writeln!(
        ctx.stderr,
        "checked {records} record(s) in {} file(s): {} valid, {invalid} invalid ({secs:.2}s)",
        reports.len(),
        records.saturating_sub(invalid),
    );
    if io_failed {
        Err(Failure::silent(2))
    } else if invalid > 0 {
        Err(Failure::silent(1))
    } else {
        Ok(())
    }
}

/// The reports on stdout: one line per problem, or one JSON document.
fn write_reports(
    args: &CheckArgs,
    reports: &[FileReport],
    records: usize,
    invalid: usize,
    stdout: &mut dyn Write,
) {
    let mut out = std::io::BufWriter::new(stdout);
    match args.format {
        OutputFormat::Text => {
            for r in reports {
                for p in &r.problems {
                    if args.quiet && p.severity != Severity::Error {
                        continue;
                    }
                    let _ = writeln!(out, "{}", p.rendered);
                }
            }
        }
        OutputFormat::Json => {
            let doc = serde_json::json!({
                "files": reports.len(),
                "records": records,
                "invalid": invalid,
                "reports": reports,
            });
            let _ = writeln!(
                out,
                "{}",
                serde_json::to_string_pretty(&doc).unwrap_or_default()
            );
        }
    }
    let _ = out.flush();
}
