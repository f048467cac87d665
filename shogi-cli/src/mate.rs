//! `shogi mate`: the df-pn mate solver (shogi-mate) over SFENs and records (tsume problems),
//! one answer per problem, the problems solved in parallel; a record's own answer (its main
//! line) is checked against the solver.

use crate::args::InputArgs;
use crate::ctx::{Ctx, Failure, emit};
use crate::pool::jobs_pool;
use crate::progress::Progress;
use rayon::prelude::*;
use shogi_core::{Move, Position, SetupOptions};
use shogi_kif::notation::{Notation, move_text};
use shogi_kif::{ReadOptions, Reader};
use shogi_mate::{Answer, MateResult, Options, Solver};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

const EXAMPLES: &str = "\
Each problem is the start position of a record (every game of every file; folders are \
walked) or an SFEN given as one argument; the side to move attacks. A record's main line, if \
any, is its stated answer: it is replayed (every attacker move a check, ending in checkmate) \
and, with --shortest, compared with the proven minimal length.\n\
Results: mate (with the line, in USI and Japanese), nomate (proven: no mate at all, or none \
within --depth), unknown:LIMIT (nodes, time, depth or memory stopped it), error (not a \
problem: the defender has no king, or is in check).\n\
--shortest proves the minimal length and checks uniqueness (別詰: another first move that \
mates within it), under the composed-tsume conventions: the defender plays the longest \
defence, among equal ones the one leaving the attacker fewest pieces in hand, and futile \
interpositions (無駄合: a drop between the king and a long-range checker that the attacker \
takes with check, by the checker when no defender piece guards the square, or by any piece \
that cannot be taken back) and their captures are not counted (the line still shows them). \
A stated answer may stop in check with only futile drops left.\n\
Each job's table takes --memory MiB (default 64), and up to 512 KiB more (a sixteenth) for a cache of evasion \
counts; it never grows.\n\
Exit status: 0, 1 when a problem is not a problem or a stated answer is wrong, 2 on usage or \
input errors.\n\n\
Examples:\n  shogi mate '4k4/9/4P4/9/9/9/9/9/4K4 b G 1'\n  shogi mate samples/ --shortest\n  \
shogi mate samples/game.kif --nodes 100000 --format csv --jobs 2\n  \
shogi mate '5/1k3/+b1R2/+S4/4K b RP 1' --depth 7 --format json";

/// Arguments of `shogi mate`.
#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct MateArgs {
    /// SFENs (one argument each: quote them), record files or folders; `-` reads stdin.
    #[arg(required = true)]
    pub inputs: Vec<String>,
    /// Node budget per problem.
    #[arg(long, default_value_t = 10_000_000)]
    pub nodes: u64,
    /// Time budget per problem, in seconds.
    #[arg(long, value_name = "S")]
    pub time: Option<f64>,
    /// Only mates within this many plies count.
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u16).range(1..=4000))]
    pub depth: Option<u16>,
    /// Prove the minimal length, check uniqueness, and count as composed tsume do.
    #[arg(long)]
    pub shortest: bool,
    /// The output: a line of text, a CSV row, or a JSON object per problem.
    #[arg(long, value_enum, default_value_t = MateFormat::Text)]
    pub format: MateFormat,
    /// Problems solved at once (default: one per core).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    /// Table size per job, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 64,
          value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub memory: u64,
    #[command(flatten)]
    pub read: InputArgs,
}

/// Output formats of `shogi mate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MateFormat {
    /// One line per problem.
    Text,
    /// CSV with a header row.
    Csv,
    /// One JSON object per line.
    Json,
}

/// One problem to solve.
struct Problem {
    /// The input (a path, or empty for an SFEN argument).
    path: String,
    /// Which problem of the input: the game number, or the SFEN.
    label: String,
    /// Where it starts, or why it cannot.
    start: Result<Position, String>,
    /// The stated answer (a record's main line), if any.
    answer: Vec<Move>,
    /// The answer's first illegal move, as the reader reported it.
    answer_error: Option<String>,
}

/// One answer, as written.
#[derive(serde::Serialize)]
struct Row {
    path: String,
    problem: String,
    result: String,
    length: Option<u16>,
    minimal: bool,
    unique: Option<bool>,
    pv_usi: String,
    pv_japanese: String,
    nodes: u64,
    time_s: f64,
    note: String,
    #[serde(skip)]
    bad: bool,
}

/// Runs `shogi mate`.
pub fn run(args: &MateArgs, ctx: &mut Ctx) -> Result<(), Failure> {
    if let Some(t) = args.time {
        if !(t.is_finite() && t > 0.0) {
            return Err(Failure::usage(
                "error: --time must be a positive number of seconds",
            ));
        }
    }
    let problems = gather(args, ctx)?;
    let pool = jobs_pool(args.jobs)?;
    let options = Options {
        nodes: args.nodes,
        time: args.time.map(Duration::from_secs_f64),
        max_depth: args.depth,
        shortest: args.shortest,
        tsume: args.shortest,
    };
    let memory = (args.memory as usize).saturating_mul(1 << 20);
    let progress = Progress::new(ctx.options.progress, "mate", "problems");
    let done = AtomicU64::new(0);
    let total = problems.len() as u64;
    let rows: Vec<Row> = pool.install(|| {
        problems
            .par_iter()
            .map_init(
                || Solver::new(memory),
                |solver, p| {
                    let row = solve_one(solver, p, &options);
                    progress.set(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                    row
                },
            )
            .collect()
    });
    progress.finish();
    let mut out = String::new();
    match args.format {
        MateFormat::Text => {
            for r in &rows {
                text_line(&mut out, r);
            }
        }
        MateFormat::Json => {
            for r in &rows {
                let line =
                    serde_json::to_string(r).map_err(|e| Failure::usage(format!("error: {e}")))?;
                out.push_str(&line);
                out.push('\n');
            }
        }
        MateFormat::Csv => {
            let mut w = csv::Writer::from_writer(Vec::new());
            for r in &rows {
                w.serialize(r)
                    .map_err(|e| Failure::usage(format!("error: {e}")))?;
            }
            let bytes = w
                .into_inner()
                .map_err(|e| Failure::usage(format!("error: {e}")))?;
            out.push_str(&String::from_utf8_lossy(&bytes));
        }
    }
    emit(ctx.stdout, &out)?;
    if rows.iter().any(|r| r.bad) {
        Err(Failure::silent(1))
    } else {
        Ok(())
    }
}

fn text_line(out: &mut String, r: &Row) {
    let name = if r.path.is_empty() {
        r.problem.clone()
    } else {
        format!("{}:{}", r.path, r.problem)
    };
    let _ = write!(out, "{name}: {}", r.result);
    if let Some(l) = r.length {
        let _ = write!(out, " {l}");
        let mut tags = Vec::new();
        if r.minimal {
            tags.push("minimal");
        }
        match r.unique {
            Some(true) => tags.push("unique"),
            Some(false) => tags.push("not unique"),
            None => {}
        }
        if !tags.is_empty() {
            let _ = write!(out, " ({})", tags.join(", "));
        }
        let _ = write!(out, ": {} / {}", r.pv_usi, r.pv_japanese);
    }
    let _ = write!(out, " [{} nodes, {:.3} s]", r.nodes, r.time_s);
    if !r.note.is_empty() {
        let _ = write!(out, " {}", r.note);
    }
    out.push('\n');
}

/// Reads every input into problems.
fn gather(args: &MateArgs, ctx: &mut Ctx) -> Result<Vec<Problem>, Failure> {
    let mut problems = Vec::new();
    let mut paths = Vec::new();
    for input in &args.inputs {
        if input != "-" && !std::path::Path::new(input).exists() {
            // Not a path: an SFEN.
            let start =
                Position::from_sfen_with(input.trim(), SetupOptions::TSUME).map_err(|e| {
                    Failure::usage(format!(
                        "error: '{input}' is neither a file nor a valid SFEN: {e}"
                    ))
                })?;
            problems.push(Problem {
                path: String::new(),
                label: input.trim().to_string(),
                start: Ok(start),
                answer: Vec::new(),
                answer_error: None,
            });
        } else {
            paths.push(input.clone());
        }
    }
    let opts = ReadOptions {
        format: args.read.from,
        encoding: args.read.encoding.map(Into::into),
        ..ReadOptions::default()
    };
    for input in crate::inputs::expand(&paths)? {
        let unreadable = |e: shogi_kif::ReadError| {
            Failure::usage(
                e.with_path(input.name.clone())
                    .render()
                    .trim_end()
                    .to_string(),
            )
        };
        let games: Vec<shogi_kif::ReadRecord> = match &input.path {
            _ if input.member.is_some() || input.codec.is_some() => {
                let bytes = shogi_batch::input_bytes(&input)
                    .map_err(|e| Failure::usage(format!("error: {}: {e}", input.name)))?;
                Reader::new(&bytes[..], opts).map_err(unreadable)?.collect()
            }
            Some(path) => Reader::open(path, opts).map_err(unreadable)?.collect(),
            None => {
                let mut bytes = Vec::new();
                let mut guard = ctx.stdin.lock().unwrap_or_else(|e| e.into_inner());
                guard
                    .read_to_end(&mut bytes)
                    .map_err(|e| Failure::usage(format!("error: cannot read stdin: {e}")))?;
                Reader::new(&bytes[..], opts).map_err(unreadable)?.collect()
            }
        };
        for game in games {
            let label = game.index.to_string();
            let record = &game.record;
            // Every record has a playable start (the model holds it as a position).
            let start: Result<Position, String> = Ok(record.start_position().clone());
            let answer: Vec<Move> = record
                .main_line()
                .take_while(|n| n.foul.is_none())
                .map(|n| n.mv)
                .collect();
            let answer_error = match (&start, &game.error) {
                (Ok(_), Some(e)) => Some(
                    e.clone()
                        .with_path(input.name.clone())
                        .render()
                        .trim_end()
                        .to_string(),
                ),
                _ => None,
            };
            problems.push(Problem {
                path: input.name.clone(),
                label,
                start,
                answer,
                answer_error,
            });
        }
    }
    Ok(problems)
}

/// The moves in Japanese notation from `pos`, separated by spaces.
fn japanese(pos: &Position, moves: &[Move]) -> String {
    let mut p = pos.clone();
    let mut last = None;
    let mut out = Vec::with_capacity(moves.len());
    for m in moves {
        out.push(move_text(&p, *m, last, Notation::Japanese));
        last = Some(m.to());
        if p.play(*m).is_err() {
            break;
        }
    }
    out.join(" ")
}

// About 100 lines: one problem's row, step by step (solve, the line in both notations, the
// record's stated answer checked against it).
fn solve_one(solver: &mut Solver, p: &Problem, options: &Options) -> Row {
    let mut row = Row {
        path: p.path.clone(),
        problem: p.label.clone(),
        result: String::new(),
        length: None,
        minimal: false,
        unique: None,
        pv_usi: String::new(),
        pv_japanese: String::new(),
        nodes: 0,
        time_s: 0.0,
        note: String::new(),
        bad: false,
    };
    let start = match &p.start {
        Ok(s) => s,
        Err(why) => {
            row.result = "error".into();
            row.note = why.clone();
            row.bad = true;
            return row;
        }
    };
    let answer: Result<Answer, _> = solver.solve(start, options);
    let a = match answer {
        Ok(a) => a,
        Err(e) => {
            row.result = "error".into();
            row.note = e.to_string();
            row.bad = true;
            return row;
        }
    };
    row.nodes = a.nodes;
    row.time_s = a.time.as_secs_f64();
    row.minimal = a.minimal;
    row.unique = a.unique;
    let mut notes = Vec::new();
    row.result = a.result.verdict();
    match &a.result {
        MateResult::Mate { pv } => {
            row.length = a.length;
            row.pv_usi = pv.iter().map(|m| m.to_usi()).collect::<Vec<_>>().join(" ");
            row.pv_japanese = japanese(start, pv);
            if let Some(m) = a.other_first_move {
                notes.push(format!(
                    "another first move mates within the length: {}",
                    m.to_usi()
                ));
            }
        }
        MateResult::NoMate { .. } | MateResult::Unknown { .. } => {}
    }
    // The stated answer.
    if let Some(e) = &p.answer_error {
        notes.push(format!("stated answer is not legal: {e}"));
        row.bad = true;
    } else if !p.answer.is_empty() {
        let judged = shogi_mate::check_stated_answer(solver, start, &p.answer, &a, 1_000_000);
        row.bad |= judged.is_wrong();
        notes.push(judged.to_string());
    }
    row.note = notes.join("; ");
    row
}
