//! `shogi stats`: one row per game (CSV or JSON lines), or totals with `--summary`.

use crate::args::{InputArgs, NotationArg};
use crate::batch::{MateArgs, SelectArgs, ShardArgs};
use crate::ctx::{Ctx, Failure};
use crate::driver::{Batch, Copies, Handler, Plan, status};
use shogi_batch::{
    DedupMode, GameRow, Input, InputRecord, MateSearch, OpeningSummary, Selection, Summary,
    TAG_COLUMNS, csv_header, game_key, line_text,
};
use shogi_kif::notation::Notation;
use shogi_openings::RuleSet;
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

/// What `--summary` counts by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SummaryKey {
    /// Totals by ending, winner, format and variant (group,value,games).
    Totals,
    /// One row per main 戦型 (opening,games,sente_wins,gote_wins,draws,average_plies); with
    /// --player, one per player and 戦型 with the player's wins and losses.
    Opening,
}

/// Arguments of `shogi stats`.
#[derive(clap::Args)]
#[command(
    after_help = "Columns: path, game, line, format, encoding, variant, handicap, sente, gote, start, \
start_iso, event, site, time_control, sente_rating, gote_rating, sente_rank, gote_rank, plies, \
ending, winner, valid, first_error, error_ply, error_line, warnings, repetition_ply, final_sfen, \
start_sfen, key, duplicate_of (see the README); with --moves NOTATION a last column, moves, holds \
the main line in that notation (usi, japanese, western), moves separated by spaces. With --mate four last columns, missed_mate_ply, missed_mate_side, missed_mate_length, missed_mate_pv: the first of the last K positions where the loser of a game lost by resignation or time had a mate in at most M plies (empty when none). With --dedup every row is kept and \
duplicate_of names the first copy. Rows come in input order (paths as given, folders walked in sorted order, \
games as in each file) whatever --jobs is.\n\
Exit status: 0 when every game was read, 1 when any game is invalid, 2 on usage or I/O errors.\n\n\
Examples:\n  shogi stats samples/ > games.csv\n  shogi stats samples/ --format jsonl --min-plies 100\n  \
shogi stats samples/ --summary\n  shogi stats samples/ --summary opening --player 羽生\n  \
shogi stats samples/game.kif --moves western\n  \
shogi stats samples/ --mate --mate-plies 20\n  shogi stats samples/ --shard 2/4 -o part-2.csv"
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
    /// Print totals instead of rows: by ending, winner, format and variant (`--summary`,
    /// group,value,games), or by main 戦型 (`--summary opening`: opening, games, sente_wins,
    /// gote_wins, draws, average_plies; with --player NAME per player, with the player's wins
    /// and losses).
    #[arg(long, value_enum, value_name = "KEY", num_args = 0..=1,
          default_missing_value = "totals")]
    pub summary: Option<SummaryKey>,
    /// Add a `moves` column: the main line as text in this notation, moves separated by
    /// single spaces (for a game with an error, the moves before it).
    #[arg(long, value_enum, value_name = "NOTATION")]
    pub moves: Option<NotationArg>,
    /// With --mate: the missed_mate_* columns (a mate solver runs on each game lost by
    /// resignation or time, so this is slower).
    #[command(flatten)]
    pub mate: MateArgs,
    /// Add the opening and castle columns: opening (the main 戦型), game_class, sente_class,
    /// gote_class, sente_openings, gote_openings, sente_castles, gote_castles (lists joined
    /// by ", " in CSV, arrays in JSON lines) and opening_header (the record's own 戦型).
    #[arg(long)]
    pub tags: bool,
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
    row: Option<Kept>,
    /// The game key (for --dedup; none for a game that could not be read).
    key: Option<u64>,
    /// The main line's text (for --dedup prefix).
    line: Option<String>,
    invalid: bool,
    io: bool,
}

/// A kept game as a worker hands it over: the row itself (when the output needs all rows
/// first: --dedup fills in `duplicate_of` in input order, --summary counts), or the row
/// already written as CSV or JSON lines, so that the thread that writes the output only
/// copies bytes and each row's strings are freed on the thread that made them.
enum Kept {
    Row(Box<GameRow>),
    Text(Result<Vec<u8>, String>),
}

/// How workers hand rows over (see [`Kept`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Handover {
    Row,
    Text(StatsFormat),
}

/// One row as CSV (no header) or as a JSON line.
fn encode<S: AsRef<str> + serde::Serialize>(
    row: &GameRow<S>,
    format: StatsFormat,
) -> Result<Vec<u8>, String> {
    match format {
        StatsFormat::Csv => {
            let mut out = Vec::with_capacity(512);
            row.write_csv(&mut out);
            Ok(out)
        }
        StatsFormat::Jsonl => {
            let mut out = Vec::with_capacity(768);
            serde_json::to_writer(&mut out, row).map_err(|e| e.to_string())?;
            out.push(b'\n');
            Ok(out)
        }
    }
}

/// Where rows go: CSV or JSON lines serialised here, or rows the workers wrote.
enum Sink<'a> {
    /// Summary lines as CSV.
    Csv(Box<csv::Writer<Box<dyn Write + 'a>>>),
    /// Rows written here as CSV (by `GameRow::write_csv`, which also joins the tag lists);
    /// `header` goes before the first.
    RowsCsv {
        out: Box<dyn Write + 'a>,
        header: Option<String>,
    },
    Jsonl(Box<dyn Write + 'a>),
    /// Rows written by the workers; `header` goes before the first (CSV).
    Text {
        out: Box<dyn Write + 'a>,
        header: Option<String>,
    },
}

impl Sink<'_> {
    /// A summary line.
    fn line<T: serde::Serialize>(&mut self, line: &T) -> std::io::Result<()> {
        match self {
            Sink::Csv(w) => w.serialize(line).map_err(std::io::Error::other),
            Sink::Jsonl(w) => {
                serde_json::to_writer(&mut *w, line)?;
                w.write_all(b"\n")
            }
            Sink::RowsCsv { .. } | Sink::Text { .. } => Err(std::io::Error::other(
                "a summary line sent to rows (a bug: please report it)",
            )),
        }
    }

    fn row(&mut self, row: &GameRow) -> std::io::Result<()> {
        match self {
            Sink::Csv(_) => Err(std::io::Error::other(
                "a row sent to the summary (a bug: please report it)",
            )),
            Sink::RowsCsv { out, header } => {
                if let Some(h) = header.take() {
                    out.write_all(h.as_bytes())?;
                }
                let mut line = Vec::new();
                row.write_csv(&mut line);
                out.write_all(&line)
            }
            Sink::Jsonl(w) => {
                serde_json::to_writer(&mut *w, row)?;
                w.write_all(b"\n")
            }
            Sink::Text { .. } => Err(std::io::Error::other(
                "a row handed over unwritten (a bug: please report it)",
            )),
        }
    }

    /// A row a worker wrote.
    fn text(&mut self, text: &[u8]) -> std::io::Result<()> {
        match self {
            Sink::Text { out, header } => {
                if let Some(h) = header.take() {
                    out.write_all(h.as_bytes())?;
                }
                out.write_all(text)
            }
            Sink::Csv(_) | Sink::RowsCsv { .. } | Sink::Jsonl(_) => Err(std::io::Error::other(
                "a row handed over written (a bug: please report it)",
            )),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Sink::Csv(w) => w.flush(),
            Sink::RowsCsv { out: w, .. } => w.flush(),
            Sink::Jsonl(w) | Sink::Text { out: w, .. } => w.flush(),
        }
    }
}

/// The columns a row may carry at its end: `moves`, the `missed_mate_*` ones.
#[derive(Clone, Copy)]
struct Extra {
    moves: Option<Notation>,
    mate: Option<MateSearch>,
    /// --tags: the rules the tag columns come from.
    tags: Option<&'static RuleSet>,
    /// --summary opening: the rules its games are tagged with (no columns).
    summary_tags: Option<&'static RuleSet>,
}

impl Extra {
    /// Fills the extra columns of the row of `game`.
    fn fill<S: From<String>>(self, row: &mut GameRow<S>, game: &InputRecord) {
        if let Some(notation) = self.moves {
            row.set_moves(game, notation);
        }
        if let Some(search) = self.mate {
            row.set_missed_mate(game, search);
        }
    }

    /// Recognises the game's tags when the columns or the selection need them (before the
    /// selection looks at the row), filling the columns with --tags.
    fn tags<'a, S: From<&'a str> + From<String>>(
        self,
        row: &mut GameRow<S>,
        game: &'a InputRecord,
        selection: &Selection,
    ) {
        let rules = self.tags.or(self.summary_tags).or(selection.tag_rules());
        if let Some(rules) = rules {
            row.set_tags(game, rules, self.tags.is_some());
        }
    }
}

/// The row of one game (when the selection keeps it) and what --dedup needs; runs on a
/// worker.
fn stats_game(
    input: &Input,
    game: &InputRecord,
    selection: &Selection,
    dedup: Option<DedupMode>,
    extra: Extra,
    handover: Handover,
) -> Item {
    let io = game
        .error
        .as_ref()
        .is_some_and(|e| e.kind == shogi_kif::ErrorKind::Io);
    if let (Handover::Text(format), true) = (handover, selection.is_empty()) {
        // Every game kept, written at once: the row borrows from the game.
        let mut row = GameRow::borrowed(&input.name, game);
        extra.fill(&mut row, game);
        extra.tags(&mut row, game, selection);
        return Item {
            invalid: !row.valid,
            row: Some(Kept::Text(encode(&row, format))),
            key: None,
            line: None,
            io,
        };
    }
    let mut row = GameRow::new(&input.name, game);
    extra.tags(&mut row, game, selection);
    let invalid = !row.valid;
    let keep = selection.matches(&row, |want| game.reached(want));
    if keep {
        extra.fill(&mut row, game);
    }
    let (key, line) = match &game.record {
        Some(rec) if keep && dedup.is_some() => (
            Some(game_key(rec)),
            (dedup == Some(DedupMode::Prefix)).then(|| line_text(rec)),
        ),
        _ => (None, None),
    };
    let row = keep.then(|| match handover {
        Handover::Row => Kept::Row(Box::new(row)),
        Handover::Text(format) => Kept::Text(encode(&row, format)),
    });
    Item {
        row,
        key,
        line,
        invalid,
        io,
    }
}

/// The rows written so far (or the totals), and what --dedup holds.
struct Rows<'a> {
    summary_only: bool,
    sink: Sink<'a>,
    summary: Summary,
    /// --summary opening: the totals by 戦型 (instead of `summary`).
    openings: Option<OpeningSummary>,
    /// --dedup: each copy's `duplicate_of` (with prefix, every kept row held until the end).
    copies: Copies<GameRow>,
    games: u64,
    invalid: u64,
    io_failed: bool,
    write_error: Option<std::io::Error>,
}

impl Rows<'_> {
    /// Writes a row (or counts it, with --summary).
    fn put(&mut self, row: &GameRow) -> ControlFlow<()> {
        if self.summary_only {
            match &mut self.openings {
                Some(o) => o.add(row),
                None => self.summary.add(row),
            }
            return ControlFlow::Continue(());
        }
        match self.sink.row(row) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                self.write_error = Some(e);
                ControlFlow::Break(())
            }
        }
    }

    /// --dedup prefix: the rows, now that every game is known.
    fn flush_held(&mut self) {
        let held = self.copies.finish();
        let ids: Vec<String> = held.iter().map(|h| h.0.id()).collect();
        for (mut row, dup) in held {
            row.duplicate_of = dup.map(|k| ids[k].clone());
            if self.put(&row).is_break() {
                break;
            }
        }
    }

    /// With --summary, the totals; then the output is flushed. A closed pipe is no error.
    fn finish(mut self) -> Result<(), Failure> {
        if self.summary_only {
            let written = match &self.openings {
                Some(o) => o.lines().iter().try_for_each(|l| self.sink.line(l)),
                None => self
                    .summary
                    .lines()
                    .iter()
                    .try_for_each(|l| self.sink.line(l)),
            };
            if let Err(e) = written {
                self.write_error = Some(e);
            }
        }
        if let Err(e) = self.sink.flush() {
            self.write_error.get_or_insert(e);
        }
        match self.write_error {
            Some(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(Failure::usage(format!(
                "error: cannot write the output: {e}"
            ))),
            _ => Ok(()),
        }
    }
}

impl Handler<Item> for Rows<'_> {
    /// Takes one game's item.
    fn game(&mut self, _: &Input, item: Item) -> ControlFlow<()> {
        self.games += 1;
        self.invalid += u64::from(item.invalid);
        self.io_failed |= item.io;
        let row = match item.row {
            None => return ControlFlow::Continue(()),
            Some(Kept::Row(row)) => *row,
            Some(Kept::Text(text)) => {
                let written = text
                    .map_err(std::io::Error::other)
                    .and_then(|t| self.sink.text(&t));
                return match written {
                    Ok(()) => ControlFlow::Continue(()),
                    Err(e) => {
                        self.write_error = Some(e);
                        ControlFlow::Break(())
                    }
                };
            }
        };
        // An unreadable game has no key (and no line): it copies nothing.
        let key = item.key.filter(|_| row.key.is_some());
        match self.copies.offer(row, key, GameRow::id, item.line) {
            Some((mut row, copy_of)) => {
                row.duplicate_of = copy_of;
                self.put(&row)
            }
            None => ControlFlow::Continue(()),
        }
    }

    fn input_done(&mut self, _: &Input) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

/// The output: `--output FILE` or stdout, as CSV or JSON lines (serialised here, or by the
/// workers as `handover` says).
fn open_sink<'a>(
    args: &StatsArgs,
    handover: Handover,
    stdout: &'a mut dyn Write,
) -> Result<Sink<'a>, Failure> {
    let out = crate::inputs::output(args.output.as_deref(), stdout)?;
    Ok(match (handover, args.format) {
        (Handover::Text(StatsFormat::Csv), _) => Sink::Text {
            out,
            header: Some(header(args)),
        },
        (Handover::Text(StatsFormat::Jsonl), _) => Sink::Text { out, header: None },
        (Handover::Row, StatsFormat::Csv) if args.summary.is_some() => {
            Sink::Csv(Box::new(csv::Writer::from_writer(out)))
        }
        (Handover::Row, StatsFormat::Csv) => Sink::RowsCsv {
            out,
            header: Some(header(args)),
        },
        (Handover::Row, StatsFormat::Jsonl) => Sink::Jsonl(out),
    })
}

/// The CSV header: the columns, `moves`, the mate columns, the tag columns, as the row has them.
fn header(args: &StatsArgs) -> String {
    let mut h = csv_header(args.moves.is_some(), args.mate.mate);
    if args.tags {
        h.pop();
        for c in TAG_COLUMNS {
            h.push(',');
            h.push_str(c);
        }
        h.push('\n');
    }
    h
}

/// Runs `shogi stats`.
pub fn run(args: &StatsArgs, ctx: &mut Ctx) -> Result<(), Failure> {
    let selection = args.select.selection()?;
    let dedup = args.select.dedup()?;
    let extra = Extra {
        moves: args.moves.map(Notation::from),
        mate: args.mate.search(),
        tags: if args.tags {
            Some(args.select.tag_rules()?)
        } else {
            None
        },
        summary_tags: match args.summary {
            Some(SummaryKey::Opening) => Some(args.select.tag_rules()?),
            _ => None,
        },
    };
    let plan = Plan::new(&args.paths, &args.input, args.jobs, "stats").shard(&args.shard);
    let batch = Batch::new(&plan, &ctx.stdin, ctx.options)?;
    let handover = if args.summary.is_some() || dedup.is_some() {
        Handover::Row
    } else {
        Handover::Text(args.format)
    };
    let mut rows = Rows {
        summary_only: args.summary.is_some(),
        sink: open_sink(args, handover, &mut *ctx.stdout)?,
        summary: Summary::default(),
        openings: extra
            .summary_tags
            .map(|rules| OpeningSummary::new(rules, &args.select.player)),
        copies: Copies::new(dedup),
        games: 0,
        invalid: 0,
        io_failed: false,
        write_error: None,
    };
    let start = std::time::Instant::now();
    batch.run(
        |input, game| stats_game(input, &game, &selection, dedup, extra, handover),
        &mut rows,
    );
    rows.flush_held();
    let (games, invalid, io_failed) = (rows.games, rows.invalid, rows.io_failed);
    rows.finish()?;
    let secs = start.elapsed().as_secs_f64();
    let _ = writeln!(
        ctx.stderr,
        "read {games} game(s) in {} file(s): {} valid, {invalid} invalid ({secs:.2}s)",
        batch.inputs.len(),
        games - invalid,
    );
    status(io_failed, invalid > 0)
}
