//! A pool of engines, one process each, running jobs in parallel and handing results back in
//! input order.

use crate::engine::{Engine, StartOptions};
use crate::error::EngineError;
use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::mpsc::{Receiver, channel, sync_channel};
use std::sync::{Arc, Mutex};

/// N engines, each owned by one worker thread while [`Pool::run`] runs.
///
/// ```no_run
/// use shogi_core::{Position, Variant};
/// use shogi_usi::{Limit, Pool, StartOptions};
/// use std::ops::ControlFlow;
///
/// let mut pool = Pool::start(2, "/usr/games/fairy-stockfish", &[] as &[&str], &StartOptions::default())?;
/// let positions = vec![Position::startpos(Variant::Standard); 4];
/// pool.run(
///     positions,
///     |engine, pos| engine.search_with_retry(&pos, &[], &Limit::nodes(1000)),
///     |i, result| {
///         println!("{i}: {:?}", result.map(|s| s.bestmove));
///         ControlFlow::Continue(())
///     },
/// );
/// # Ok::<(), shogi_usi::EngineError>(())
/// ```
#[derive(Debug)]
pub struct Pool {
    engines: Vec<Engine>,
}

/// Jobs handed out ahead of the result being emitted, per engine (bounds memory).
const AHEAD_PER_ENGINE: usize = 4;

type Done<T> = Result<(usize, T), Box<dyn std::any::Any + Send>>;

impl Pool {
    /// Starts `n` engines (one process each, `n` ≥ 1) with the same program, arguments and
    /// options (`Threads` 1 by default: [`StartOptions::threads`]).
    pub fn start<S: AsRef<OsStr>>(
        n: usize,
        path: impl AsRef<Path>,
        args: &[S],
        options: &StartOptions,
    ) -> Result<Pool, EngineError> {
        if n == 0 {
            return Err(EngineError {
                kind: crate::error::EngineErrorKind::InvalidRequest(
                    "a pool needs at least one engine".into(),
                ),
                context: Box::new(crate::error::ErrorContext {
                    engine: path.as_ref().display().to_string(),
                    last_lines: Vec::new(),
                    last_command: None,
                }),
            });
        }
        let mut pool = Pool {
            engines: Vec::with_capacity(n),
        };
        pool.grow(n, path, args, options)?;
        Ok(pool)
    }

    /// Starts engines until the pool has `n` (none when it has that many), all at once: an
    /// engine's start is mostly waiting (gpsusi loads its tables for about 2 s, YaneuraOu's
    /// first `isready` sleeps), so `n` starts take about as long as one. The engines that
    /// started are kept when another fails; the first failure is returned.
    pub fn grow<S: AsRef<OsStr>>(
        &mut self,
        n: usize,
        path: impl AsRef<Path>,
        args: &[S],
        options: &StartOptions,
    ) -> Result<(), EngineError> {
        let wanted = n.saturating_sub(self.engines.len());
        let path = path.as_ref();
        let args: Vec<std::ffi::OsString> = args.iter().map(|a| a.as_ref().to_owned()).collect();
        let args = &args[..];
        let started: Vec<Result<Engine, EngineError>> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..wanted)
                .map(|_| scope.spawn(|| Engine::start(path, args, options.clone())))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect()
        });
        let mut first_error = None;
        for r in started {
            match r {
                Ok(e) => self.engines.push(e),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        first_error.map_or(Ok(()), Err)
    }

    /// A pool of engines started elsewhere (an empty pool runs no job).
    pub fn from_engines(engines: Vec<Engine>) -> Pool {
        Pool { engines }
    }

    /// The number of engines.
    pub fn len(&self) -> usize {
        self.engines.len()
    }

    /// Whether the pool has no engine.
    pub fn is_empty(&self) -> bool {
        self.engines.is_empty()
    }

    /// The engines.
    pub fn engines(&self) -> &[Engine] {
        &self.engines
    }

    /// The engines, to set options on.
    pub fn engines_mut(&mut self) -> &mut [Engine] {
        &mut self.engines
    }

    /// The engines back.
    pub fn into_engines(self) -> Vec<Engine> {
        self.engines
    }

    /// Runs `work` on every job, each on a worker that owns one engine, and hands the results
    /// to `emit` on the calling thread in input order (index, result). An engine found dead
    /// before a job (crashed or hung in an earlier one) is restarted first; if that fails the
    /// job still runs and gets the engine's error from its calls. `emit` returning
    /// [`ControlFlow::Break`] stops handing out jobs (running ones finish, their results are
    /// dropped). A panic in `work` is re-raised here after the other workers finish.
    pub fn run<J, T, W, E>(
        &mut self,
        jobs: impl IntoIterator<Item = J>,
        work: W,
        mut emit: E,
    ) -> ControlFlow<()>
    where
        J: Send,
        T: Send,
        W: Fn(&mut Engine, J) -> T + Sync,
        E: FnMut(usize, T) -> ControlFlow<()>,
    {
        if self.engines.is_empty() {
            return ControlFlow::Continue(());
        }
        let window = AHEAD_PER_ENGINE * self.engines.len();
        let (job_tx, job_rx) = sync_channel::<(usize, J)>(window);
        let job_rx = Arc::new(Mutex::new(job_rx));
        let (done_tx, done_rx) = channel::<Done<T>>();
        let work = &work;
        std::thread::scope(|scope| {
            for engine in self.engines.iter_mut() {
                let job_rx = Arc::clone(&job_rx);
                let done_tx = done_tx.clone();
                scope.spawn(move || worker(engine, &job_rx, &done_tx, work));
            }
            drop(done_tx);
            let mut flow = ControlFlow::Continue(());
            let mut panic = None;
            let mut pending: BTreeMap<usize, T> = BTreeMap::new();
            let mut next_out = 0usize;
            let mut sent = 0usize;
            let mut jobs = jobs.into_iter();
            let mut job_tx = Some(job_tx);
            let mut exhausted = false;
            loop {
                // Keep up to `window` jobs in flight.
                while !exhausted
                    && flow.is_continue()
                    && panic.is_none()
                    && sent - next_out < window
                {
                    match jobs.next() {
                        Some(j) => {
                            if let Some(tx) = &job_tx {
                                if tx.send((sent, j)).is_err() {
                                    exhausted = true;
                                    break;
                                }
                            }
                            sent += 1;
                        }
                        None => exhausted = true,
                    }
                }
                if exhausted || flow.is_break() || panic.is_some() {
                    job_tx = None;
                }
                if next_out == sent && job_tx.is_none() {
                    break;
                }
                match done_rx.recv() {
                    Ok(Ok((i, t))) => {
                        pending.insert(i, t);
                    }
                    Ok(Err(p)) => {
                        panic.get_or_insert(p);
                        // That job will never report: stop here.
                        break;
                    }
                    Err(_) => break,
                }
                while let Some(t) = pending.remove(&next_out) {
                    next_out += 1;
                    if flow.is_continue() && panic.is_none() {
                        flow = emit(next_out - 1, t);
                    }
                }
            }
            drop(job_tx);
            // Workers end when the job channel is closed and drained; drop the rest.
            for _ in done_rx.iter() {}
            if let Some(p) = panic {
                std::panic::resume_unwind(p);
            }
            flow
        })
    }
}

fn worker<J, T, W>(
    engine: &mut Engine,
    jobs: &Mutex<Receiver<(usize, J)>>,
    done: &std::sync::mpsc::Sender<Done<T>>,
    work: &W,
) where
    W: Fn(&mut Engine, J) -> T + Sync,
{
    loop {
        let next = match jobs.lock() {
            Ok(rx) => rx.recv(),
            Err(_) => return,
        };
        let Ok((i, job)) = next else { return };
        if engine.is_dead() {
            let _ = engine.restart();
        }
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(engine, job)));
        let failed = r.is_err();
        if done.send(r.map(|t| (i, t))).is_err() || failed {
            return;
        }
    }
}
