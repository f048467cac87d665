//! The batch driver: inputs read in parallel, results handed back in input order.

use crate::input::Input;
use crate::isolate::isolated;
use crate::read::{
    Fits, InputRecord, Reading, UNSIZED_WHOLE, io_error, read_input, read_input_within,
};
use crate::row::GameRow;
use crate::select::Selection;
use rayon::prelude::*;
use std::ops::ControlFlow;
use std::sync::Arc;

mod members;

/// What the driver hands back, in input order.
#[derive(Debug)]
pub enum Event<T> {
    /// The result of the work on one game.
    Game(T),
    /// Every game of the input has been handed over.
    InputDone,
}

/// A thread pool of `jobs` threads (all cores when `None`).
pub fn pool(jobs: Option<usize>) -> Result<rayon::ThreadPool, String> {
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(n) = jobs {
        if n == 0 {
            return Err("must be at least 1".into());
        }
        b = b.num_threads(n);
    }
    b.build().map_err(|e| format!("cannot start threads: {e}"))
}

/// Inputs read together before their results are handed over (per thread). Each chunk
/// wakes the pool and then the caller: with a few kilobytes a file, 32 a thread spent
/// about a twentieth of `check`'s time in those wake-ups (futex and task switches).
const CHUNK_PER_THREAD: usize = 256;
/// Bytes of input read together at most (bounds the results held at once).
const CHUNK_BYTES: u64 = 64 << 20;
/// Results of a piped input in flight between its reader and the caller.
const STREAM_QUEUE: usize = 1024;
/// Inputs at least this large (and standard input) are read on one worker while the caller
/// takes their games, instead of with other inputs: their results are not held.
const PIPE_FROM: u64 = 4 << 20;

/// Whether `input` is a file whose size is not known (found in a folder walk): read in a
/// chunk only when it is small (see [`UNSIZED_WHOLE`]).
fn size_unknown(input: &Input) -> bool {
    input.size == 0 && input.path.is_some() && input.codec.is_none() && input.member.is_none()
}

/// `input` with the size its file has now (at least 1, so that it is never unsized again).
fn sized(input: &Input) -> Input {
    let path = input.path.as_deref();
    let size = path
        .and_then(|p| std::fs::metadata(p).ok())
        .map_or(0, |m| m.len());
    Input {
        size: size.max(1),
        ..input.clone()
    }
}

fn piped(input: &Input) -> bool {
    input.is_stdin()
        || input.size >= PIPE_FROM
        || (input.codec.is_some() && input.size >= PIPE_FROM / 16)
}

/// Whether `b` is a member of the same archive as `a`.
fn same_archive(a: &Input, b: &Input) -> bool {
    match (&a.member, &b.member) {
        (Some(x), Some(y)) => Arc::ptr_eq(&x.archive, &y.archive),
        _ => false,
    }
}

/// Reads every game of `inputs` on `pool`, runs `work` on each (on a worker thread) and hands
/// the results to `emit` on the calling thread, in input order: inputs as listed, games as
/// in the input. The order does not depend on the number of threads.
///
/// Small files are read many at a time, one per thread; standard input and files of 4 MiB
/// or more are read game by game on one worker while `emit` consumes (a bounded queue
/// between them), so memory does not grow with the number of games.
///
/// Nothing stops the batch but `emit` returning [`ControlFlow::Break`]: an input that
/// cannot be opened is handed to `work` as one game with an `io` error, and a panic while
/// reading a game or in `work` becomes that game's error (reading of that input stops there).
pub fn run<T, W, E>(
    inputs: &[Input],
    reading: &Reading<'_>,
    pool: &rayon::ThreadPool,
    work: W,
    mut emit: E,
) -> ControlFlow<()>
where
    T: Send,
    W: Fn(&Input, InputRecord) -> T + Sync,
    E: FnMut(&Input, Event<T>) -> ControlFlow<()>,
{
    run_inputs(inputs, reading, pool, &work, &mut emit)
}

/// [`run`] (with the work and the caller's hand-over borrowed, to read again the inputs a
/// chunk found larger than their share).
fn run_inputs<T, W, E>(
    inputs: &[Input],
    reading: &Reading<'_>,
    pool: &rayon::ThreadPool,
    work: &W,
    emit: &mut E,
) -> ControlFlow<()>
where
    T: Send,
    W: Fn(&Input, InputRecord) -> T + Sync,
    E: FnMut(&Input, Event<T>) -> ControlFlow<()>,
{
    let per_chunk = CHUNK_PER_THREAD * pool.current_num_threads().max(1);
    let mut i = 0;
    while i < inputs.len() {
        if inputs[i].member.is_some() {
            let mut j = i + 1;
            while j < inputs.len() && same_archive(&inputs[i], &inputs[j]) {
                j += 1;
            }
            members::run_members(&inputs[i..j], reading, pool, work, emit)?;
            i = j;
            continue;
        }
        if piped(&inputs[i]) {
            stream_one(&inputs[i], reading, pool, work, emit)?;
            i += 1;
            continue;
        }
        // A run of small files, up to the chunk's size (a file of unknown size counts as
        // the most it is read in a chunk).
        let mut j = i;
        let mut bytes = 0u64;
        let share = |input: &Input| {
            if size_unknown(input) {
                UNSIZED_WHOLE
            } else {
                input.size
            }
        };
        while j < inputs.len()
            && j - i < per_chunk
            && !piped(&inputs[j])
            && (j == i || bytes + share(&inputs[j]) <= CHUNK_BYTES)
        {
            bytes += share(&inputs[j]);
            j += 1;
        }
        let chunk = &inputs[i..j];
        // `None`: a file of unknown size found larger than its share, not read yet.
        let read_one = |input: &Input| {
            // Most files hold one game: room for it without growing from empty.
            let mut out = Vec::with_capacity(1);
            let mut fits = Fits::Read;
            read_guarded(
                input,
                work,
                |each| {
                    fits = read_input_within(input, reading, size_unknown(input), each)?;
                    Ok(())
                },
                &mut |t| {
                    out.push(t);
                    ControlFlow::Continue(())
                },
            );
            (fits == Fits::Read).then_some(out)
        };
        let mut results: Vec<Option<Vec<T>>> = if pool.current_num_threads() == 1 {
            // One worker: the caller reads the chunk itself. Handing it to the pool's one
            // thread and waiting bought nothing but two task switches a chunk, and moved
            // every result between the cores' caches.
            chunk.iter().map(read_one).collect()
        } else {
            pool.install(|| chunk.par_iter().map(read_one).collect())
        };
        let mut k = 0;
        while k < chunk.len() {
            let Some(games) = results[k].take() else {
                // The larger files, with their sizes now, read as files of known size are.
                let mut larger = Vec::new();
                while k < chunk.len() && results[k].is_none() {
                    larger.push(sized(&chunk[k]));
                    k += 1;
                }
                run_inputs(&larger, reading, pool, work, emit)?;
                continue;
            };
            for t in games {
                emit(&chunk[k], Event::Game(t))?;
            }
            emit(&chunk[k], Event::InputDone)?;
            k += 1;
        }
        i = j;
    }
    ControlFlow::Continue(())
}

/// One streamed input: read on a worker, handed over through a bounded queue.
fn stream_one<T, W, E>(
    input: &Input,
    reading: &Reading<'_>,
    pool: &rayon::ThreadPool,
    work: &W,
    emit: &mut E,
) -> ControlFlow<()>
where
    T: Send,
    W: Fn(&Input, InputRecord) -> T + Sync,
    E: FnMut(&Input, Event<T>) -> ControlFlow<()>,
{
    let (tx, rx) = std::sync::mpsc::sync_channel::<T>(STREAM_QUEUE);
    let mut flow = ControlFlow::Continue(());
    pool.in_place_scope(|scope| {
        scope.spawn(move |_| {
            read_guarded(
                input,
                work,
                |each| read_input(input, reading, each),
                &mut |t| match tx.send(t) {
                    Ok(()) => ControlFlow::Continue(()),
                    Err(_) => ControlFlow::Break(()),
                },
            );
        });
        for t in rx.iter() {
            if emit(input, Event::Game(t)).is_break() {
                flow = ControlFlow::Break(());
                break;
            }
        }
        // Dropping the receiver stops the reader at its next game.
        drop(rx);
    });
    flow?;
    emit(input, Event::InputDone)
}

/// Reads one input's games with `source`, runs `work` on each game, with the panic guard
/// (see [`run`]).
pub(crate) fn read_guarded<T, W>(
    input: &Input,
    work: &W,
    source: impl FnOnce(&mut dyn FnMut(InputRecord)) -> Result<(), String>,
    out: &mut dyn FnMut(T) -> ControlFlow<()>,
) where
    W: Fn(&Input, InputRecord) -> T + Sync,
{
    let (mut count, mut line) = (0u32, 1u32);
    let mut stopped = false;
    let guarded_work = |game: InputRecord| -> Option<T> {
        let (index, line) = (game.index, game.line);
        match isolated(|| work(input, game)) {
            Ok(t) => Some(t),
            Err(message) => {
                let failed = InputRecord::panicked(index, line, message);
                isolated(|| work(input, failed)).ok()
            }
        }
    };
    let result = isolated(|| {
        source(&mut |game| {
            if stopped {
                return;
            }
            count = game.index;
            line = game.line.max(line);
            if let Some(t) = guarded_work(game) {
                if out(t).is_break() {
                    stopped = true;
                }
            }
        })
    });
    if stopped {
        return;
    }
    let failed = match result {
        Ok(Ok(())) => None,
        Ok(Err(reason)) => Some(InputRecord::failed(1, io_error(&reason))),
        // Outside the reader's games (shogi-batch's own code): the last line known.
        Err(message) => Some(InputRecord::panicked(count + 1, line, message)),
    };
    if let Some(game) = failed {
        if let Some(t) = guarded_work(game) {
            let _ = out(t);
        }
    }
}

/// The work of `shogi stats` on one game: its row, or `None` when `selection` drops it.
pub fn select_row(input: &Input, game: &InputRecord, selection: &Selection) -> Option<GameRow> {
    let mut row = GameRow::new(&input.name, game);
    if let Some(rules) = selection.tag_rules() {
        row.set_tags(game, rules, false);
    }
    selection
        .matches(&row, |want| game.reached(want))
        .then_some(row)
}
