//! `shogi stats`: one row per game (CSV or JSON lines), or totals with `--summary`.

use crate::batch::{SelectArgs, ShardArgs};
use crate::cli::InputArgs;
use crate::pool::jobs_pool;
use crate::progress::Progress;
use crate::{Ctx, Failure};
use shogi_batch::{Dedup, DedupMode, Event, GameRow, Summary, duplicates, game_key, line_text};
use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;

/// Output formats of `shogi stats`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum StatsFormat {
    /// Comma-separated values with a header row.
    Csv,
    /// One JSON object per line.
    Jsonl,
}

/// Arguments of `shogi stats`.
#[derive(clap::Args)]
#[command(
    after_help = "Columns: path, game, line, format, encoding, variant, handicap, sente, gote, start, \
start_iso, event, site, time_control, sente_rating, gote_rating, sente_rank, gote_rank, plies, \
ending, winner, valid, first_error, error_ply, error_line, warnings, repetition_ply, final_sfen, \
start_sfen, key, duplicate_of (see the README). With --dedup every row is kept and \
duplicate_of names the first copy. Rows come in input order (paths as given, folders walked in sorted order, \
games as in each file) whatever --jobs is.\n\
Exit status: 0 when every game was read, 1 when any game is invalid, 2 on usage or I/O errors.\n\n\
Examples:\n  shogi stats samples/ > games.csv\n  shogi stats samples/ --format jsonl --min-plies 100\n  \
shogi stats samples/ --summary\n  shogi stats samples/ --shard 2/4 -o part-2.csv"
)]
pub struct StatsArgs {
    /// Files or directories (walked recursively); `-` reads stdin.
    #[arg(required = true)]
    pub paths: Vec<String>,
    #[command(flatten)]
    pub input: InputArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = StatsFormat::Csv)]
    pub format: StatsFormat,
    /// Write to this file instead of stdout.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Print totals by ending, winner, format and variant (group,value,games) instead of rows.
    #[arg(long)]
    pub summary: bool,
    /// Worker threads (default: all cores).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub shard: ShardArgs,
    #[command(flatten)]
    pub select: SelectArgs,
}

/// What the workers hand back for one game.
struct Item {
    /// The row, when the selection keeps the game.
    row: Option<GameRow>,
    /// The game key (for --dedup).
    key: u64,
    /// The main line's text (for --dedup prefix).
    line: Option<String>,
    invalid: bool,
    io: bool,
}

/// Where rows go: CSV or JSON lines.
enum Sink<'a> {
    Csv(Box<csv::Writer<Box<dyn Write + 'a>>>),
    Jsonl(Box<dyn Write + 'a>),
}

impl Sink<'_> {
    fn row<T: serde::Serialize>(&mut self, row: &T) -> std::io::Result<()> {
        match self {
            Sink::Csv(w) => w.serialize(row).map_err(std::io::Error::other),
            Sink::Jsonl(w) => {
                serde_json::to_writer(&mut *w, row)?;
                w.write_all(b"\n")
            }
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Sink::Csv(w) => w.flush(),
            Sink::Jsonl(w) => w.flush(),
        }
    }
}

/// Runs `shogi stats`.
pub fn run(args: &StatsArgs, ctx: &mut Ctx) -> Result<(), Failure> {
    let selection = args.select.selection()?;
    let dedup = args.select.dedup()?;
    let inputs = crate::inputs::expand(&args.paths)?;
    let inputs = args.shard.apply(inputs)?;
    let pool = jobs_pool(args.jobs)?;
    let out: Box<dyn Write + '_> = match &args.output {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path).map_err(|e| {
                Failure::usage(format!(
                    "error: {}: {}",
                    path.display(),
                    shogi_batch::io_reason(&e)
                ))
            })?,
        )),
        None => Box::new(std::io::BufWriter::new(&mut *ctx.stdout)),
    };
    let mut sink = match args.format {
        StatsFormat::Csv => Sink::Csv(Box::new(csv::Writer::from_writer(out))),
        StatsFormat::Jsonl => Sink::Jsonl(out),
    };
    let reading = crate::inputs::reading(&args.input, true, &ctx.stdin);
    let start = std::time::Instant::now();
    let progress = Progress::new(ctx.options.progress, "stats", "files");
    let total = inputs.len() as u64;
    let prefix = dedup == Some(DedupMode::Prefix);
    let mut exact = Dedup::new();
    let mut held: Vec<(GameRow, String)> = Vec::new();
    let mut summary = Summary::default();
    let (mut games, mut invalid, mut io_failed) = (0u64, 0u64, false);
    let mut write_error = None;
    let on_record = ctx.options.on_record.clone();
    let mut put = |row: &GameRow, summary: &mut Summary, sink: &mut Sink| -> ControlFlow<()> {
        if args.summary {
            summary.add(row);
            return ControlFlow::Continue(());
        }
        match sink.row(row) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                write_error = Some(e);
                ControlFlow::Break(())
            }
        }
    };
    let _ = shogi_batch::run(
        &inputs,
        &reading,
        &pool,
        |input, game| {
            if let Some(hook) = &on_record {
                if game.error.is_none() {
                    hook(&input.name, game.index as usize);
                }
            }
            let r = game.replay(selection.position());
            let row = GameRow::new(&input.name, &game, Some(&r));
            let io = game
                .error
                .as_ref()
                .is_some_and(|e| e.kind == shogi_kif::ErrorKind::Io);
            let invalid = !row.valid;
            let keep = selection.matches(&row, Some(&r));
            let (key, line) = match &game.record {
                Some(rec) if keep && dedup.is_some() => {
                    (game_key(rec), prefix.then(|| line_text(rec)))
                }
                _ => (0, None),
            };
            Item {
                row: keep.then_some(row),
                key,
                line,
                invalid,
                io,
            }
        },
        |_, event| match event {
            Event::InputDone => {
                progress.inc(total);
                ControlFlow::Continue(())
            }
            Event::Game(item) => {
                games += 1;
                progress.add_games(1);
                invalid += u64::from(item.invalid);
                io_failed |= item.io;
                let Some(mut row) = item.row else {
                    return ControlFlow::Continue(());
                };
                match dedup {
                    None => put(&row, &mut summary, &mut sink),
                    Some(DedupMode::Exact) => {
                        if row.key.is_some() {
                            row.duplicate_of = exact.check(item.key, &row.id());
                        }
                        put(&row, &mut summary, &mut sink)
                    }
                    Some(DedupMode::Prefix) => {
                        // Unreadable games have no line: a line of their own keeps them apart.
                        let line = item.line.unwrap_or_else(|| format!("\u{0}{}", row.id()));
                        held.push((row, line));
                        ControlFlow::Continue(())
                    }
                }
            }
        },
    );
    progress.finish();
    if prefix {
        let lines: Vec<String> = held.iter().map(|h| h.1.clone()).collect();
        let dups = duplicates(&lines, DedupMode::Prefix);
        let ids: Vec<String> = held.iter().map(|h| h.0.id()).collect();
        for ((mut row, _), dup) in held.into_iter().zip(dups) {
            row.duplicate_of = dup.map(|k| ids[k].clone());
            if put(&row, &mut summary, &mut sink).is_break() {
                break;
            }
        }
    }
    if args.summary {
        for line in summary.lines() {
            if let Err(e) = sink.row(&line) {
                write_error = Some(e);
                break;
            }
        }
    }
    if let Err(e) = sink.flush() {
        write_error.get_or_insert(e);
    }
    drop(sink);
    if let Some(e) = write_error {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            return Err(Failure::usage(format!(
                "error: cannot write the output: {e}"
            )));
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let _ = writeln!(
        ctx.stderr,
        "read {games} game(s) in {} file(s): {} valid, {invalid} invalid ({secs:.2}s)",
        inputs.len(),
        games - invalid,
    );
    if io_failed {
        Err(Failure::silent(2))
    } else if invalid > 0 {
        Err(Failure::silent(1))
    } else {
        Ok(())
    }
}
