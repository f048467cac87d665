//! `shogi check` and `shogi convert`: reading records from files, directories and stdin.

use crate::Failure;
use rayon::prelude::*;
use serde::Serialize;
use shogi_kif::{Diagnostic, Encoding, Format, ReadError, ReadOptions, Record, Severity};
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

/// Record formats on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    /// Kakinoki KIF.
    Kif,
    /// KI2.
    Ki2,
    /// CSA (V2.2 / V3.0).
    Csa,
    /// USI `position` lines.
    Usi,
    /// SFEN positions.
    Sfen,
    /// JSON Kifu Format.
    Jkf,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Kif => Format::Kif,
            FormatArg::Ki2 => Format::Ki2,
            FormatArg::Csa => Format::Csa,
            FormatArg::Usi => Format::Usi,
            FormatArg::Sfen => Format::Sfen,
            FormatArg::Jkf => Format::Jkf,
        }
    }
}

/// Text encodings on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EncodingArg {
    /// UTF-8.
    Utf8,
    /// Shift_JIS (CP932).
    #[value(alias = "sjis", alias = "cp932")]
    ShiftJis,
    /// EUC-JP.
    EucJp,
}

impl From<EncodingArg> for Encoding {
    fn from(e: EncodingArg) -> Encoding {
        match e {
            EncodingArg::Utf8 => Encoding::Utf8,
            EncodingArg::ShiftJis => Encoding::ShiftJis,
            EncodingArg::EucJp => Encoding::EucJp,
        }
    }
}

/// Options shared by the commands that read records.
#[derive(clap::Args, Clone)]
pub struct InputArgs {
    /// The input format (default: detected from the content; the extension is only a hint).
    #[arg(long = "from", value_enum)]
    pub from: Option<FormatArg>,
    /// The text encoding (default: BOM, then a declaration, then UTF-8, CP932, EUC-JP).
    #[arg(long, value_enum)]
    pub encoding: Option<EncodingArg>,
}

/// Extensions read when walking a directory.
const RECORD_EXTENSIONS: &[&str] = &["kif", "kifu", "ki2", "ki2u", "csa", "jkf", "usi", "sfen"];

/// One input: a path, or stdin (`-`).
#[derive(Clone, Debug)]
pub struct Input {
    /// The name shown in messages.
    pub name: String,
    path: Option<PathBuf>,
    /// The path an output for this input takes below an output folder: the file name for a
    /// file given on the command line, the path below the directory for a walked one.
    rel: PathBuf,
}

/// Expands the command line's paths: files as given, directories walked recursively for
/// record files (sorted, so output is deterministic), `-` for stdin.
pub fn expand_inputs(paths: &[String]) -> Result<Vec<Input>, Failure> {
    let mut out = Vec::new();
    for p in paths {
        if p == "-" {
            out.push(Input {
                name: "<stdin>".into(),
                path: None,
                rel: PathBuf::from("stdin"),
            });
            continue;
        }
        let path = PathBuf::from(p);
        let meta = std::fs::metadata(&path)
            .map_err(|e| Failure::usage(format!("error: {p}: {}", io_reason(&e))))?;
        if meta.is_dir() {
            // `walk` gives the files in path order (sorted), each directory sorted by name.
            let mut files = Vec::new();
            walk(&path, &mut files)
                .map_err(|e| Failure::usage(format!("error: {p}: {}", io_reason(&e))))?;
            out.extend(files.into_iter().map(|f| {
                Input {
                    name: f.display().to_string(),
                    rel: f
                        .strip_prefix(&path)
                        .map(Path::to_path_buf)
                        .unwrap_or_else(|_| f.clone()),
                    path: Some(f),
                }
            }));
        } else {
            out.push(Input {
                name: p.clone(),
                rel: path
                    .file_name()
                    .map(PathBuf::from)
                    .unwrap_or_else(|| path.clone()),
                path: Some(path),
            });
        }
    }
    Ok(out)
}

/// The record files under `dir`, in the order of sorting their paths: a path sorts by its
/// components, so visiting each directory's entries by name gives that order without
/// comparing whole paths.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        entries.push((entry.file_name(), entry.path(), entry.file_type()?));
    }
    entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    for (_, path, ft) in entries {
        if ft.is_dir() {
            walk(&path, out)?;
        } else if ft.is_file() {
            let ext = path
                .extension()
                .and_then(|e| e.to_str())
                .map(|e| e.to_ascii_lowercase());
            if ext.is_some_and(|e| RECORD_EXTENSIONS.contains(&e.as_str())) {
                out.push(path);
            }
        }
    }
    Ok(())
}

fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

impl Input {
    fn hint(&self) -> Option<Format> {
        self.path.as_deref().and_then(Format::from_path)
    }
}

/// Reads an input, handing its games (or the error that stops them before the first) to
/// `f`. Files and standard input take the same path: the reader reads a small input whole
/// and a larger multi-game one a chunk at a time, so memory does not grow with the number of
/// games. With `validate`, each game comes with what `shogi_kif::validate` says of it.
fn with_games(
    input: &Input,
    args: &InputArgs,
    validate: bool,
    f: impl FnOnce(Result<shogi_kif::Reader<Box<dyn BufRead + '_>>, ReadError>),
) -> Result<(), String> {
    let opts = ReadOptions {
        format: args.from.map(Format::from),
        hint: input.hint(),
        encoding: args.encoding.map(Encoding::from),
        validate,
        ..ReadOptions::default()
    };
    let source: Box<dyn BufRead> = match &input.path {
        None => Box::new(std::io::BufReader::with_capacity(
            1 << 16,
            std::io::stdin().lock(),
        )),
        Some(p) => {
            let file = std::fs::File::open(p).map_err(|e| io_reason(&e))?;
            Box::new(std::io::BufReader::with_capacity(1 << 16, file))
        }
    };
    f(shogi_kif::Reader::new(source, opts));
    Ok(())
}

/// Reads every record of an input, calling `f` with each result.
fn for_each_record(
    input: &Input,
    args: &InputArgs,
    mut f: impl FnMut(Result<Record, ReadError>),
) -> Result<(), String> {
    with_games(input, args, false, |games| match games {
        Ok(games) => games.for_each(|g| f(g.into_result())),
        Err(e) => f(Err(e)),
    })
}

// ---------------------------------------------------------------------------------------------
// check

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
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
    /// Show the source line and a caret under each problem.
    #[arg(long)]
    pub context: bool,
    /// Do not print warnings and notes (errors only).
    #[arg(long, short)]
    pub quiet: bool,
}

/// Machine or human output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// One line per problem.
    Text,
    /// One JSON document with every file.
    Json,
}

#[derive(Serialize)]
struct FileReport {
    path: String,
    records: usize,
    invalid: usize,
    problems: Vec<Problem>,
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

fn check_one(input: &Input, args: &CheckArgs) -> FileReport {
    let mut report = FileReport {
        path: input.name.clone(),
        records: 0,
        invalid: 0,
        problems: Vec::new(),
    };
    let path = input.name.as_str();
    // Each record comes with what `shogi_kif::validate` says of it, from the same replay.
    let mut each = |r: Result<(Record, Vec<Diagnostic>), ReadError>| {
        report.records += 1;
        match r {
            Ok((_, diagnostics)) => {
                for d in diagnostics {
                    if d.severity == Severity::Error {
                        report.invalid += 1;
                    }
                    report
                        .problems
                        .push(problem_from_diagnostic(&d, path, args.context));
                }
            }
            Err(e) => {
                report.invalid += 1;
                let rendered = if args.context {
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
    };
    let res = with_games(input, &args.input, true, |games| match games {
        Ok(games) => {
            for g in games {
                each(g.error.map_or(Ok((g.record, g.diagnostics)), Err));
            }
        }
        Err(e) => each(Err(e)),
    });
    if let Err(reason) = res {
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
    report
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

fn thread_pool(jobs: Option<usize>) -> Result<rayon::ThreadPool, Failure> {
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(n) = jobs {
        if n == 0 {
            return Err(Failure::usage("error: --jobs must be at least 1"));
        }
        b = b.num_threads(n);
    }
    b.build()
        .map_err(|e| Failure::usage(format!("error: cannot start threads: {e}")))
}

/// Runs `shogi check`.
pub fn check(args: &CheckArgs) -> Result<(), Failure> {
    let inputs = expand_inputs(&args.paths)?;
    let pool = thread_pool(args.jobs)?;
    let start = std::time::Instant::now();
    let progress = progress_bar(inputs.len() as u64);
    let reports: Vec<FileReport> = pool.install(|| {
        inputs
            .par_iter()
            .map(|i| {
                let r = check_one(i, args);
                if let Some(p) = &progress {
                    p.inc(1);
                }
                r
            })
            .collect()
    });
    if let Some(p) = progress {
        p.finish_and_clear();
    }
    let records: usize = reports.iter().map(|r| r.records).sum();
    let invalid: usize = reports.iter().map(|r| r.invalid).sum();
    let io_failed = reports
        .iter()
        .any(|r| r.problems.iter().any(|p| p.kind == Some("io")));
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    match args.format {
        OutputFormat::Text => {
            for r in &reports {
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
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "checked {records} record(s) in {} file(s): {} valid, {invalid} invalid ({secs:.2}s)",
        reports.len(),
        records.saturating_sub(invalid),
    );
    if io_failed {
        Err(Failure {
            code: 2,
            message: String::new(),
        })
    } else if invalid > 0 {
        Err(Failure {
            code: 1,
            message: String::new(),
        })
    } else {
        Ok(())
    }
}

fn progress_bar(len: u64) -> Option<indicatif::ProgressBar> {
    if len < 50 || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(len);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} files {per_sec} ETA {eta}")
    {
        bar.set_style(style);
    }
    Some(bar)
}

// ---------------------------------------------------------------------------------------------
// convert

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
    /// Worker threads with --out-dir (default: all cores).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub input: InputArgs,
}

/// What converting one input gave: the converted records and the errors, in input order.
struct Converted {
    texts: Vec<String>,
    errors: Vec<String>,
    /// An I/O error that stopped the input (exit 2).
    io: Option<String>,
}

fn convert_input(input: &Input, args: &ConvertArgs) -> Converted {
    let path = input.name.as_str();
    let mut done = Converted {
        texts: Vec::new(),
        errors: Vec::new(),
        io: None,
    };
    let res = for_each_record(input, &args.input, |r| match r {
        Err(e) => done.errors.push(e.with_path(path).render()),
        Ok(record) => match convert_record(&record, args) {
            Ok(text) => done.texts.push(text),
            Err(message) => done.errors.push(format!("{path}: error: {message}")),
        },
    });
    if let Err(reason) = res {
        done.io = Some(format!("error: {path}: {reason}"));
    }
    done
}

/// Runs `shogi convert`.
pub fn convert(args: &ConvertArgs) -> Result<(), Failure> {
    if args.ply.is_some() && args.to != ToFormat::Sfen {
        return Err(Failure::usage("error: --ply goes with --to sfen"));
    }
    let inputs = expand_inputs(&args.paths)?;
    let mut failed = false;
    let mut io_failed = false;
    let mut write_failed = false;
    let mut report = |c: &Converted| {
        for e in &c.errors {
            eprintln!("{e}");
            failed = true;
        }
        if let Some(e) = &c.io {
            eprintln!("{e}");
            io_failed = true;
        }
    };
    match &args.out_dir {
        None => {
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            let mut written = 0usize;
            for input in &inputs {
                let c = convert_input(input, args);
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
                report(&c);
            }
            if written > 1 && matches!(args.to, ToFormat::Kif | ToFormat::Ki2 | ToFormat::Jkf) {
                eprintln!(
                    "note: {written} {} records were written one after another to stdout, which \
                     no reader takes as one input; --out-dir writes a file for each",
                    extension(args.to).to_ascii_uppercase()
                );
            }
        }
        Some(dir) => {
            let targets = output_paths(dir, &inputs, args.to)?;
            // Every file written in this run, so that no two records meet in one file.
            let claimed = std::sync::Mutex::new(std::collections::HashSet::new());
            let pool = thread_pool(args.jobs)?;
            let results: Vec<(Converted, Result<usize, String>)> = pool.install(|| {
                inputs
                    .par_iter()
                    .zip(targets.par_iter())
                    .map(|(input, base)| {
                        let c = convert_input(input, args);
                        let written = write_outputs(base, args.to, &c.texts, &claimed, input);
                        (c, written)
                    })
                    .collect()
            });
            let mut files = 0;
            for (c, written) in &results {
                report(c);
                match written {
                    Ok(n) => files += n,
                    Err(e) => {
                        eprintln!("{e}");
                        write_failed = true;
                    }
                }
            }
            eprintln!(
                "wrote {files} file(s) into {} from {} input(s)",
                dir.display(),
                inputs.len()
            );
        }
    }
    if io_failed || write_failed {
        Err(Failure {
            code: 2,
            message: String::new(),
        })
    } else if failed {
        Err(Failure {
            code: 1,
            message: String::new(),
        })
    } else {
        Ok(())
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
