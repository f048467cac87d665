//! `shogi perft`: leaf counts of one position, suites of known counts, and split/run/merge for
//! runs spread over many machines.

use crate::args::{OutputFormat, VariantArg, parse_position};
use crate::ctx::{Ctx, Failure, emit};
use crate::pool::thread_pool;
use crate::progress::Progress;
use shogi_core::Position;
use shogi_perft::split::{Results, Shard, TaskList};
use shogi_perft::suite::{Limits, Suite};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const EXAMPLES: &str = "\
Examples:
  shogi perft startpos --depth 5
  shogi perft startpos --depth 3 --divide
  shogi perft 'rbsgk/4p/5/P4/KGSBR b - 1' --depth 6 --threads 0
  shogi perft --suite samples/perft.suite --max-depth 3
  shogi perft split startpos --depth 4 --split-depth 2 -o tasks.txt
  shogi perft run tasks.txt --shard 1/2 -o part-1.txt
  shogi perft run tasks.txt --shard 2/2 -o part-2.txt
  shogi perft merge part-*.txt

Text output ends with the line 'nodes <N>'; time and nodes per second go to stderr.
--threads 0 uses one thread per core.
Exit codes: 0 ok, 1 a suite case failed or merge found missing or duplicated tasks,
2 usage, input or I/O error.";

/// Arguments of `shogi perft`.
#[derive(clap::Args)]
#[command(
    after_help = EXAMPLES,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
pub struct PerftArgs {
    /// Split, run and merge a count over many machines.
    #[command(subcommand)]
    pub command: Option<PerftCommand>,
    /// The position: `startpos` or an SFEN as one argument (quote it in the shell).
    #[arg(default_value = "startpos")]
    pub position: String,
    /// Depth in plies (1 to 20); required unless --suite is given.
    #[arg(long, short, value_parser = clap::value_parser!(u32).range(1..=20),
          conflicts_with = "suite")]
    pub depth: Option<u32>,
    /// The variant for `startpos` (default: standard; an SFEN's board shape decides on its own).
    #[arg(long, value_enum)]
    pub variant: Option<VariantArg>,
    /// One line per root move, `<usi> <nodes>`, sorted by the USI text.
    #[arg(long, conflicts_with = "suite")]
    pub divide: bool,
    /// Also count the leaves by kind: captures, promotions, drops, checks, mates (slower: every
    /// leaf is made).
    #[arg(long, conflicts_with = "suite")]
    pub stats: bool,
    /// Worker threads (0: one per core). Default 1, or one per core with --suite.
    #[arg(long, short = 't', value_parser = clap::value_parser!(u32).range(0..=1024))]
    pub threads: Option<u32>,
    /// Output format: lines of text, the last `nodes <N>` (or `N passed, N failed` for a
    /// suite), or one JSON object.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
    /// Check every position of a suite file (`<SFEN> ;D1 <n> ;D2 <n> ...` a line).
    #[arg(long, value_name = "FILE")]
    pub suite: Option<PathBuf>,
    /// With --suite: skip depths above this.
    #[arg(long, requires = "suite", value_name = "D")]
    pub max_depth: Option<u32>,
    /// With --suite: skip cases whose expected count is above this.
    #[arg(long, requires = "suite", value_name = "N")]
    pub max_nodes: Option<u64>,
}

/// `shogi perft` subcommands for a run spread over many machines.
#[derive(clap::Subcommand)]
pub enum PerftCommand {
    /// Write a deterministic task list: the positions `--split-depth` plies below the root,
    /// transpositions merged, each with its multiplicity and remaining depth.
    Split(SplitArgs),
    /// Count one shard of a task list and write mergeable results.
    Run(RunArgs),
    /// Sum results of every shard, refusing missing and duplicated tasks; the last line is
    /// `nodes <N>`.
    Merge(MergeArgs),
}

/// Arguments of `shogi perft split`.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  shogi perft split startpos --depth 4 --split-depth 2 -o tasks.txt\n  shogi perft split 'rbsgk/4p/5/P4/KGSBR b - 1' --depth 5 --split-depth 1"
)]
pub struct SplitArgs {
    /// The position: `startpos` or an SFEN as one argument.
    #[arg(default_value = "startpos")]
    pub position: String,
    /// Full depth in plies (1 to 20).
    #[arg(long, short, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub depth: u32,
    /// Plies below the root to cut at (at most the depth).
    #[arg(long, short = 'k', value_parser = clap::value_parser!(u32).range(0..=20))]
    pub split_depth: u32,
    /// The variant for `startpos` (default: standard).
    #[arg(long, value_enum)]
    pub variant: Option<VariantArg>,
    /// Write the list here instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

/// Arguments of `shogi perft run`.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  shogi perft split startpos --depth 4 --split-depth 2 -o tasks.txt\n  shogi perft run tasks.txt --shard 1/2 -o part-1.txt\n  shogi perft run tasks.txt --shard 2/2 --threads 2"
)]
pub struct RunArgs {
    /// The task list written by `shogi perft split` (`-` for stdin).
    pub tasks: PathBuf,
    /// This shard, `I/N` with I from 1 to N: tasks I, I+N, I+2N, ...
    #[arg(long, default_value = "1/1")]
    pub shard: Shard,
    /// Worker threads (0: one per core).
    #[arg(long, short = 't', default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(0..=1024))]
    pub threads: u32,
    /// Write the results here instead of stdout (written whole at the end).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

/// Arguments of `shogi perft merge`.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  shogi perft split startpos --depth 4 --split-depth 2 -o tasks.txt\n  shogi perft run tasks.txt --shard 1/2 -o part-1.txt\n  shogi perft run tasks.txt --shard 2/2 -o part-2.txt\n  shogi perft merge part-1.txt part-2.txt --format json"
)]
pub struct MergeArgs {
    /// Results files written by `shogi perft run`, in any order.
    #[arg(required = true)]
    pub results: Vec<PathBuf>,
    /// Output format: text lines ending with `nodes <N>`, or one JSON object.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
}

/// Runs `shogi perft`.
pub fn run(args: &PerftArgs, ctx: &mut Ctx) -> Result<(), Failure> {
    match &args.command {
        Some(PerftCommand::Split(a)) => return split(a, ctx),
        Some(PerftCommand::Run(a)) => return run_shard(a, ctx),
        Some(PerftCommand::Merge(a)) => return merge(a, ctx),
        None => {}
    }
    if let Some(file) = &args.suite {
        return suite(args, file, ctx);
    }
    let Some(depth) = args.depth else {
        return Err(Failure::usage(
            "error: --depth <DEPTH> is required (or --suite FILE) (see 'shogi perft --help')",
        ));
    };
    let pos = parse_position(&args.position, args.variant)?;
    let pool = thread_pool(args.threads.unwrap_or(1) as usize)?;
    let start = Instant::now();
    let bar = Progress::new(ctx.options.progress, "perft", "units");
    let progress = |d: usize, t: usize| bar.set(d as u64, t as u64);
    let (nodes, divide, counters) = pool.install(|| {
        if args.stats {
            let (total, div) = shogi_perft::parallel::perft_counters(&pos, depth, &progress);
            let div = div.into_iter().map(|(m, c)| (m, c.nodes)).collect();
            (total.nodes, Some(div), Some(total))
        } else if args.divide {
            let div = shogi_perft::parallel::divide_with_progress(&pos, depth, &progress);
            (div.iter().map(|(_, n)| n).sum(), Some(div), None)
        } else if pool.current_num_threads() == 1 && !bar.enabled() {
            (shogi_perft::perft(&pos, depth), None, None)
        } else {
            let n = shogi_perft::parallel::perft_with_progress(&pos, depth, &progress);
            (n, None, None)
        }
    });
    bar.finish();
    report_time(ctx.stderr, nodes, start.elapsed());
    let divide = divide.filter(|_| args.divide);
    let mut out = String::new();
    match args.format {
        OutputFormat::Text => {
            for (m, n) in divide.iter().flatten() {
                out.push_str(&format!("{} {n}\n", m.to_usi()));
            }
            if let Some(c) = counters {
                for (name, v) in c.fields() {
                    if name != "nodes" {
                        out.push_str(&format!("{name} {v}\n"));
                    }
                }
            }
            out.push_str(&format!("nodes {nodes}\n"));
        }
        OutputFormat::Json => {
            let mut obj = serde_json::json!({
                "sfen": pos.to_sfen(),
                "variant": pos.variant().name(),
                "depth": depth,
                "nodes": nodes,
            });
            if let Some(div) = &divide {
                obj["divide"] = div
                    .iter()
                    .map(|(m, n)| serde_json::json!({"move": m.to_usi(), "nodes": n}))
                    .collect();
            }
            if let Some(c) = counters {
                let map: serde_json::Map<String, serde_json::Value> = c
                    .fields()
                    .iter()
                    .map(|(k, v)| (k.to_string(), (*v).into()))
                    .collect();
                obj["counters"] = map.into();
            }
            out.push_str(&obj.to_string());
            out.push('\n');
        }
    }
    emit(ctx.stdout, &out)
}

fn report_time(stderr: &mut dyn Write, nodes: u64, elapsed: Duration) {
    let secs = elapsed.as_secs_f64();
    let _ = writeln!(
        stderr,
        "time {secs:.3}s, {:.0} nodes/s",
        nodes as f64 / secs.max(1e-9)
    );
}

fn write_output(ctx: &mut Ctx, path: Option<&Path>, text: &str) -> Result<(), Failure> {
    match path {
        None => emit(ctx.stdout, text),
        Some(p) => std::fs::write(p, text)
            .map_err(|e| Failure::usage(format!("error: cannot write {}: {e}", p.display()))),
    }
}

fn read_input(ctx: &mut Ctx, path: &Path) -> Result<String, Failure> {
    let result = if path == Path::new("-") {
        let mut s = String::new();
        let stdin = ctx.stdin.get_mut().unwrap_or_else(|e| e.into_inner());
        stdin.read_to_string(&mut s).map(|_| s)
    } else {
        std::fs::read_to_string(path)
    };
    result.map_err(|e| Failure::usage(format!("error: cannot read {}: {e}", path.display())))
}

/// `FILE:LINE: message` (or `FILE: message` for the file as a whole), exit 2.
fn parse_failure(path: &Path, e: &shogi_perft::ParseError) -> Failure {
    if e.line == 0 {
        Failure::usage(format!("{}: error: {}", path.display(), e.message))
    } else {
        Failure::usage(format!(
            "{}:{}: error: {}",
            path.display(),
            e.line,
            e.message
        ))
    }
}

fn suite(args: &PerftArgs, file: &Path, ctx: &mut Ctx) -> Result<(), Failure> {
    let text = read_input(ctx, file)?;
    let suite = Suite::parse(&text).map_err(|e| parse_failure(file, &e))?;
    let limits = Limits {
        max_depth: args.max_depth,
        max_nodes: args.max_nodes,
    };
    let pool = thread_pool(args.threads.unwrap_or(0) as usize)?;
    let start = Instant::now();
    let bar = Progress::new(ctx.options.progress, "suite", "units");
    let report =
        pool.install(|| suite.run_with_progress(&limits, &|d, t| bar.set(d as u64, t as u64)));
    bar.finish();
    let nodes: u64 = report.results.iter().map(|r| r.counted).sum();
    report_time(ctx.stderr, nodes, start.elapsed());
    if report.skipped > 0 {
        let _ = writeln!(
            ctx.stderr,
            "{} case(s) skipped by --max-depth/--max-nodes",
            report.skipped
        );
    }
    let passed = report.passed().count();
    let failed = report.failed().count();
    let mut out = String::new();
    match args.format {
        OutputFormat::Text => {
            for r in report.failed() {
                out.push_str(&format!(
                    "{}:{}: depth {} expected {} counted {} ({})\n",
                    file.display(),
                    r.line,
                    r.depth,
                    r.expected,
                    r.counted,
                    r.sfen
                ));
            }
            out.push_str(&format!("{passed} passed, {failed} failed\n"));
        }
        OutputFormat::Json => {
            let results: Vec<serde_json::Value> = report
                .results
                .iter()
                .map(|r| {
                    serde_json::json!({
                        "line": r.line, "sfen": r.sfen, "depth": r.depth,
                        "expected": r.expected, "counted": r.counted, "passed": r.passed(),
                    })
                })
                .collect();
            let obj = serde_json::json!({
                "file": file.display().to_string(),
                "results": results,
                "passed": passed,
                "failed": failed,
                "skipped": report.skipped,
            });
            out.push_str(&obj.to_string());
            out.push('\n');
        }
    }
    emit(ctx.stdout, &out)?;
    if failed > 0 {
        return Err(Failure {
            code: 1,
            message: format!("{failed} suite case(s) failed"),
        });
    }
    Ok(())
}

fn split(args: &SplitArgs, ctx: &mut Ctx) -> Result<(), Failure> {
    let pos: Position = parse_position(&args.position, args.variant)?;
    let list = TaskList::new(&pos, args.depth, args.split_depth)
        .map_err(|e| Failure::usage(format!("error: {e}")))?;
    let paths: u128 = list.tasks.iter().map(|t| u128::from(t.multiplicity)).sum();
    write_output(ctx, args.output.as_deref(), &list.to_text())?;
    let _ = writeln!(
        ctx.stderr,
        "{} tasks ({paths} move sequences) at depth {}, {} plies each, list {}",
        list.tasks.len(),
        list.split_depth,
        list.depth - list.split_depth,
        list.hash_hex()
    );
    Ok(())
}

fn run_shard(args: &RunArgs, ctx: &mut Ctx) -> Result<(), Failure> {
    let text = read_input(ctx, &args.tasks)?;
    let list = TaskList::parse(&text).map_err(|e| parse_failure(&args.tasks, &e))?;
    let pool = thread_pool(args.threads as usize)?;
    let start = Instant::now();
    let bar = Progress::new(
        ctx.options.progress,
        &format!("shard {}", args.shard),
        "units",
    );
    let results = pool.install(|| list.run_shard(args.shard, &|d, t| bar.set(d as u64, t as u64)));
    bar.finish();
    let nodes: u64 = results
        .entries
        .iter()
        .map(|e| e.nodes.saturating_mul(e.multiplicity))
        .fold(0, u64::saturating_add);
    report_time(ctx.stderr, nodes, start.elapsed());
    let _ = writeln!(
        ctx.stderr,
        "shard {}: {} of {} tasks",
        args.shard,
        results.entries.len(),
        list.tasks.len()
    );
    write_output(ctx, args.output.as_deref(), &results.to_text())
}

fn merge(args: &MergeArgs, ctx: &mut Ctx) -> Result<(), Failure> {
    let mut all = Vec::with_capacity(args.results.len());
    for path in &args.results {
        let text = read_input(ctx, path)?;
        all.push(Results::parse(&text).map_err(|e| parse_failure(path, &e))?);
    }
    let merged = shogi_perft::split::merge(&all).map_err(|e| {
        // Name inputs by file rather than by position on the command line.
        let mut msg = e.to_string();
        if let shogi_perft::split::MergeError::Duplicated(d) = &e {
            let items: Vec<String> = d
                .iter()
                .take(10)
                .map(|(id, inputs)| {
                    let files: Vec<String> = inputs
                        .iter()
                        .map(|&i| args.results[i].display().to_string())
                        .collect();
                    format!("task {id} in {}", files.join(" and "))
                })
                .collect();
            msg = format!(
                "{} duplicated task(s): {}{}",
                d.len(),
                items.join(", "),
                if d.len() > 10 { ", ..." } else { "" }
            );
        }
        if let shogi_perft::split::MergeError::DifferentLists { other, .. } = e {
            msg = format!(
                "{} belongs to task list {:016x}, {} to {:016x}: results of different task lists cannot be merged",
                args.results[other].display(),
                all[other].list,
                args.results[0].display(),
                all[0].list
            );
        }
        Failure {
            code: 1,
            message: format!("error: {msg}"),
        }
    })?;
    let out = match args.format {
        OutputFormat::Text => format!(
            "root {}\ndepth {}\ntasks {}\nnodes {}\n",
            merged.root, merged.depth, merged.tasks, merged.nodes
        ),
        OutputFormat::Json => {
            let obj = serde_json::json!({
                "sfen": merged.root, "depth": merged.depth,
                "tasks": merged.tasks, "nodes": merged.nodes,
            });
            format!("{obj}\n")
        }
    };
    emit(ctx.stdout, &out)
}
