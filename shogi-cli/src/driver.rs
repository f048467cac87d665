//! The one driver loop of the batch commands (`check`, `convert`, `stats` and the training
//! targets of `convert`): inputs expanded and sharded, read in parallel by
//! [`shogi_batch::run`] with the per-record test hook and the progress bar, and each result
//! handed to the command's [`Handler`] in input order; with the pieces every command shares
//! around it (the report of a record whose handling panicked, the selection test, `--dedup`'s
//! choice of copies, the exit status).

use crate::args::InputArgs;
use crate::batch::ShardArgs;
use crate::ctx::{Failure, Options, RecordHook};
use crate::inputs::{expand, reading, record_hook};
use crate::pool::jobs_pool;
use crate::progress::Progress;
use shogi_batch::{
    Dedup, DedupMode, Event, GameRow, INTERNAL_ERROR, Input, InputRecord, Reading, Selection,
    SharedStdin, duplicates,
};
use std::ops::ControlFlow;

/// What a command does with the results of its games, on the calling thread, in input order.
pub(crate) trait Handler<T> {
    /// One game's result (made by the command's work on a worker thread).
    fn game(&mut self, input: &Input, item: T) -> ControlFlow<()>;
    /// Every game of `input` has been handed over.
    fn input_done(&mut self, input: &Input) -> ControlFlow<()>;
}

/// The flags of a batch command that say what it reads and how.
pub(crate) struct Plan<'s> {
    /// The paths given (files, folders, `-`).
    paths: &'s [String],
    /// `--from`, `--encoding`.
    input: &'s InputArgs,
    /// `--jobs`.
    jobs: Option<usize>,
    /// `--shard`, where the command takes it.
    shard: Option<&'s ShardArgs>,
    /// Whether each game is validated (repetition, endings) as it is read.
    validate: bool,
    /// Whether the records keep their moves ([`shogi_kif::ReadOptions::moves`]).
    moves: bool,
    /// The progress bar's label (the command's name).
    label: &'static str,
}

impl<'s> Plan<'s> {
    /// Reads `paths` as `input` says on `jobs` workers, validating each game, without a
    /// shard; `label` names the progress bar.
    pub fn new(
        paths: &'s [String],
        input: &'s InputArgs,
        jobs: Option<usize>,
        label: &'static str,
    ) -> Plan<'s> {
        Plan {
            paths,
            input,
            jobs,
            shard: None,
            validate: true,
            moves: true,
            label,
        }
    }

    /// Only the inputs of `--shard`.
    pub fn shard(self, shard: &'s ShardArgs) -> Plan<'s> {
        Plan {
            shard: Some(shard),
            ..self
        }
    }

    /// Whether each game is validated (repetition, endings) as it is read.
    pub fn validate(self, validate: bool) -> Plan<'s> {
        Plan { validate, ..self }
    }

    /// Whether the records handed to the work keep their moves (by default they do): a
    /// command that uses only the verdict of each game (its error and diagnostics) reads
    /// faster without ([`shogi_kif::ReadOptions::moves`]).
    pub fn moves(self, moves: bool) -> Plan<'s> {
        Plan { moves, ..self }
    }
}

/// A batch command ready to run: its inputs, threads and reading.
pub(crate) struct Batch<'a> {
    /// The inputs, in order (after `--shard`).
    pub inputs: Vec<Input>,
    pool: rayon::ThreadPool,
    reading: Reading<'a>,
    on_record: Option<RecordHook>,
    progress: Progress,
}

impl<'a> Batch<'a> {
    /// Expands and shards the inputs and starts the pool; a bad path, shard or `--jobs` is a
    /// usage error.
    pub fn new(
        plan: &Plan,
        stdin: &'a (dyn SharedStdin + 'a),
        options: &Options,
    ) -> Result<Batch<'a>, Failure> {
        let mut inputs = expand(plan.paths)?;
        if let Some(shard) = plan.shard {
            inputs = shard.apply(inputs)?;
        }
        Ok(Batch {
            inputs,
            pool: jobs_pool(plan.jobs)?,
            reading: {
                let mut reading = reading(plan.input, plan.validate, stdin);
                reading.options.moves = plan.moves;
                reading
            },
            on_record: options.on_record.clone(),
            progress: Progress::new(options.progress, plan.label, "files"),
        })
    }

    /// Runs `work` on every game (on the workers) and hands the results to `handler` in input
    /// order, until the handler breaks or the inputs end; then the progress bar is removed.
    pub fn run<T, W, H>(&self, work: W, handler: &mut H)
    where
        T: Send,
        W: Fn(&Input, InputRecord) -> T + Sync,
        H: Handler<T>,
    {
        let total = self.inputs.len() as u64;
        let on_record = self.on_record.as_ref();
        let progress = &self.progress;
        let _ = shogi_batch::run(
            &self.inputs,
            &self.reading,
            &self.pool,
            |input, game| {
                record_hook(on_record, input, &game);
                work(input, game)
            },
            |input, event| match event {
                Event::Game(item) => {
                    progress.add_games(1);
                    handler.game(input, item)
                }
                Event::InputDone => {
                    progress.inc(total);
                    handler.input_done(input)
                }
            },
        );
        self.progress.finish();
    }
}

/// For a game whose handling panicked: the error located where its record starts
/// (`path:LINE:1: error: internal error …`), and the note with the panic's message.
pub(crate) fn internal_error(path: &str, game: &InputRecord) -> Option<(u32, String, String)> {
    let message = game.panic.as_ref()?;
    let line = game.line.max(1);
    Some((
        line,
        format!("{path}:{line}:1: error: {INTERNAL_ERROR}"),
        format!("{path}: note: the internal error was: {message}"),
    ))
}

/// Whether `selection` keeps the game; `valid` overrides the row's validity (`check
/// --strict`). An empty selection keeps every game without building its row.
pub(crate) fn selected(
    selection: &Selection,
    path: &str,
    game: &InputRecord,
    valid: Option<bool>,
) -> bool {
    if selection.is_empty() {
        return true;
    }
    let mut row = GameRow::new(path, game);
    if let Some(v) = valid {
        row.valid = v;
    }
    if let Some(rules) = selection.tag_rules() {
        row.set_tags(game, rules, false);
    }
    selection.matches(&row, |want| game.reached(want))
}

/// The exit status of a batch: 2 when an input could not be read, 1 when a record failed.
pub(crate) fn status(io_failed: bool, failed: bool) -> Result<(), Failure> {
    if io_failed {
        Err(Failure::silent(2))
    } else if failed {
        Err(Failure::silent(1))
    } else {
        Ok(())
    }
}

/// `--dedup`'s choice of copies, the same for every command: with `exact`, each item as it
/// comes with the id of the first copy of its game (if it is a copy); with `prefix`, every
/// item held until [`Copies::finish`] knows all the games.
pub(crate) struct Copies<T> {
    mode: Option<DedupMode>,
    exact: Dedup,
    held: Vec<(T, String)>,
}

impl<T> Copies<T> {
    /// For `--dedup MODE` (none: every item passes as it comes).
    pub fn new(mode: Option<DedupMode>) -> Copies<T> {
        Copies {
            mode,
            exact: Dedup::new(),
            held: Vec::new(),
        }
    }

    /// Offers an item: its game's key (none for a game that could not be read, which is
    /// never a copy), the id that names it as a first copy (made only when needed), and its main line's text (for
    /// `prefix`). Returns the item now, with the id of the game it copies, or `None` when it
    /// is held.
    pub fn offer(
        &mut self,
        item: T,
        key: Option<u64>,
        id: impl FnOnce(&T) -> String,
        line: Option<String>,
    ) -> Option<(T, Option<String>)> {
        match self.mode {
            None => Some((item, None)),
            Some(DedupMode::Exact) => {
                let copy_of = key.and_then(|k| self.exact.check(k, &id(&item)));
                Some((item, copy_of))
            }
            Some(DedupMode::Prefix) => {
                // A game without a line gets a line of its own: it copies nothing.
                let line = line.unwrap_or_else(|| format!("\u{0}{}", id(&item)));
                self.held.push((item, line));
                None
            }
        }
    }

    /// The held items (with `prefix`), in input order, each with the index (among them) of
    /// the item it is a copy of.
    pub fn finish(&mut self) -> Vec<(T, Option<usize>)> {
        let held = std::mem::take(&mut self.held);
        if held.is_empty() {
            return Vec::new();
        }
        let lines: Vec<String> = held.iter().map(|h| h.1.clone()).collect();
        let dups = duplicates(&lines, DedupMode::Prefix);
        held.into_iter().map(|h| h.0).zip(dups).collect()
    }
}
