//! The engine side of an analysis: starting the pool (and opening the cache for its
//! configuration), planning which positions to search, and searching them.

use crate::cache::{Cache, CacheKey, program_build};
use crate::error::AnalysisError;
use crate::read::GameIn;
use crate::result::PosResult;
use crate::slots::Slot;
use crate::{EngineSettings, Message, Observer, Settings};
use shogi_core::{Move, Position, Variant};
use shogi_usi::{BestMove, Engine, EngineError, Limit, OptionKind, Pool, StartOptions};
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// Every option the engine offered at its default, overridden by those set and marked `(set)`:
/// the option part of the cache key (buttons left out). An option set to its default value is
/// not the same as one left alone: fairy-stockfish 11.1 searches differently once
/// `UCI_Variant` has been set, even to its default.
fn option_key(engine: &Engine) -> String {
    let applied: HashMap<String, Option<String>> = engine
        .applied_options()
        .iter()
        .map(|(n, v)| (n.to_ascii_lowercase(), v.clone()))
        .collect();
    let mut lines: Vec<String> = engine
        .options()
        .iter()
        .filter(|o| !matches!(o.kind, OptionKind::Button))
        .map(|o| {
            let default = match &o.kind {
                OptionKind::Check { default } => default.map(|b| b.to_string()),
                OptionKind::Spin { default, .. } => default.map(|v| v.to_string()),
                OptionKind::Combo { default, .. }
                | OptionKind::String { default }
                | OptionKind::Filename { default } => default.clone(),
                OptionKind::Button => None,
            };
            match applied.get(&o.name.to_ascii_lowercase()) {
                Some(set) => format!("{}={} (set)", o.name, set.clone().unwrap_or_default()),
                None => format!("{}={}", o.name, default.unwrap_or_default()),
            }
        })
        .collect();
    // Options set without being offered (USI_Hash or USI_Ponder sent to an engine that does
    // not list them, as a GUI sends them): the key must not miss them.
    for (n, v) in engine.applied_options() {
        if !engine
            .options()
            .iter()
            .any(|o| o.name.eq_ignore_ascii_case(n))
        {
            lines.push(format!("{n}={} (set)", v.clone().unwrap_or_default()));
        }
    }
    lines.sort();
    lines.join("\n")
}

/// Whether the engine can play Mini Shogi (a `UCI_Variant` combo offering `minishogi`).
fn plays_mini(engine: &Engine) -> bool {
    engine.options().iter().any(|o| {
        o.name.eq_ignore_ascii_case("UCI_Variant")
            && matches!(&o.kind, OptionKind::Combo { vars, .. } if vars.iter().any(|v| v == "minishogi"))
    })
}

/// The first line of an engine error (the table's error column); the whole text goes to
/// the caller's messages.
fn short(e: &EngineError) -> String {
    e.to_string().lines().next().unwrap_or("").to_string()
}

/// One search, as a result (the engine gives itself a fresh state first: the pool's engines
/// are started with [`StartOptions::fresh_state`]).
fn analyse(
    engine: &mut Engine,
    start: &Position,
    moves: &[Move],
    limit: &Limit,
) -> (PosResult, Option<String>) {
    match engine.search_with_retry(start, moves, limit) {
        Ok(s) => {
            let best = match s.bestmove {
                BestMove::Move(m) => m.to_usi(),
                BestMove::Resign => "resign".into(),
                BestMove::Win(_) => "win".into(),
            };
            let line = s.best_line();
            let mut warnings: Vec<String> = Vec::new();
            if let Some(first) = &s.retried {
                warnings.push(format!("restarted after: {}", short(first)));
            }
            if let Some(cut) = line.and_then(|l| l.pv_cut.as_ref()) {
                warnings.push(format!(
                    "pv cut at move {} ({}): {}",
                    cut.index + 1,
                    cut.text,
                    cut.reason
                ));
            }
            let others = s
                .lines
                .iter()
                .skip(1)
                .map(|l| {
                    (
                        l.score.map(|p| p.relative()),
                        l.pv.iter().map(|m| m.to_usi()).collect(),
                    )
                })
                .collect();
            let r = PosResult {
                best: Some(best),
                score: s.score().map(|p| p.relative()),
                pv: line
                    .map(|l| l.pv.iter().map(|m| m.to_usi()).collect())
                    .unwrap_or_default(),
                depth: line.and_then(|l| l.depth),
                nodes: s.nodes.or_else(|| line.and_then(|l| l.nodes)),
                others,
                warning: (!warnings.is_empty()).then(|| warnings.join("; ")),
                error: None,
            };
            (r, None)
        }
        Err(e) => (
            PosResult {
                error: Some(short(&e)),
                ..PosResult::default()
            },
            Some(e.to_string()),
        ),
    }
}

/// The started engines and what was learnt from the first: its name, why it cannot play Mini
/// Shogi, and the cache opened for it with the notes on what the file holds that is not used.
pub(crate) struct Engines {
    pub pool: Pool,
    /// How many of the pool's engines search at once (the jobs); the others prepare their
    /// next search meanwhile
    /// ([`shogi_usi::FreshState::processes_per_search`]).
    pub searching: usize,
    pub name: String,
    pub mini_refused: Option<String>,
    pub cache: Option<Cache>,
    pub cache_notes: Vec<String>,
    /// How to start one more engine like the others (program, arguments, options, MultiPV):
    /// the pool grows when preparing a search takes longer than the searches hide.
    pub more: MoreEngines,
}

/// What starting one more engine of the pool takes.
pub(crate) struct MoreEngines {
    program: std::path::PathBuf,
    args: Vec<String>,
    start: StartOptions,
    multipv: u32,
}

impl MoreEngines {
    /// Starts engines until the pool has `wanted` (none when it has that many already), all
    /// at once ([`Pool::grow`]), with the MultiPV of the others.
    fn grow(&self, pool: &mut Pool, wanted: usize) -> Result<(), EngineError> {
        let had = pool.len();
        let mut result = pool.grow(wanted, &self.program, &self.args, &self.start);
        if self.multipv > 1 {
            // An engine that cannot be given the MultiPV would search other lines: dropped.
            let mut all = std::mem::replace(pool, Pool::from_engines(Vec::new())).into_engines();
            let new = all.split_off(had);
            for mut e in new {
                match e.set_multipv(self.multipv) {
                    Ok(()) => all.push(e),
                    Err(err) => result = result.and(Err(err)),
                }
            }
            *pool = Pool::from_engines(all);
        }
        result
    }
}

/// The most processes per search running at once that the pool grows to (each YaneuraOu
/// process holds its hash and its thread's tables: about 135 MB for the material edition with
/// `USI_Hash 16`).
const MOST_PROCESSES_PER_SEARCH: usize = 8;

/// How many processes per search running at once hide a fresh state that takes `prepare` on
/// average behind searches that take `search`: a process spends `prepare + search` per
/// search, so `(prepare + search) / search` of them keep one searching, one more for the
/// spread; at least `least`, at most [`MOST_PROCESSES_PER_SEARCH`].
fn processes_per_search(prepare: Duration, search: Duration, least: usize) -> usize {
    let search = search.as_secs_f64().max(1e-4);
    let needed = ((prepare.as_secs_f64() + search) / search).ceil() as usize + 1;
    needed.clamp(least, MOST_PROCESSES_PER_SEARCH.max(least))
}

/// Starts `min(jobs, positions)` engines with the settings' options and timeouts (in Mini
/// Shogi when every game is Mini Shogi), and opens the cache.
pub(crate) fn start_engines(
    settings: &Settings,
    e: &EngineSettings,
    games: &[GameIn],
    positions: usize,
) -> Result<Engines, AnalysisError> {
    let mut start = StartOptions {
        options: e.options.clone(),
        threads: Some(e.threads),
        fresh_state: true,
        ..StartOptions::default()
    };
    if let Some(t) = e.start_timeout {
        start.timeouts.usiok = t;
        start.timeouts.readyok = t;
    }
    if let Some(t) = e.search_timeout {
        start.timeouts.search_unbounded = t;
        start.timeouts.search_margin = t;
    }
    if games.iter().all(|g| {
        g.positions
            .first()
            .is_none_or(|p| p.variant() == Variant::Mini)
    }) && games.iter().any(|g| !g.positions.is_empty())
    {
        start.variant = Variant::Mini;
    }
    let engine_error = |error: EngineError| AnalysisError::Engine {
        program: e.program.clone(),
        error,
    };
    let searching = settings.jobs.min(positions.max(1));
    let mut pool = Pool::start(searching, &e.program, &e.args, &start).map_err(engine_error)?;
    if settings.multipv > 1 {
        for engine in pool.engines_mut() {
            engine.set_multipv(settings.multipv).map_err(engine_error)?;
        }
    }
    let more = MoreEngines {
        program: e.program.clone(),
        args: e.args.clone(),
        start,
        multipv: settings.multipv,
    };
    // Engines whose fresh state waits (YaneuraOu's `isready`) get more processes than jobs:
    // each prepares its next search while others search; `searching` of them search at once
    // (and more join once the first searches tell how long each part takes).
    let per_search = pool.engines()[0].fresh_state().processes_per_search();
    more.grow(&mut pool, (searching * per_search).min(positions.max(1)))
        .map_err(engine_error)?;
    let first = &pool.engines()[0];
    let name = first.name();
    let mini_refused = (!plays_mini(first)).then(|| {
        format!(
            "the engine {name} cannot play Mini Shogi (it offers no UCI_Variant option with minishogi)"
        )
    });
    let (cache, cache_notes) = match &settings.cache {
        Some(file) => {
            let key = CacheKey {
                engine: name.clone(),
                build: program_build(&e.program),
                options: option_key(first),
                limit: format!(
                    "{} multipv {} fresh {} mode {}",
                    e.limit.go_command(false),
                    settings.multipv,
                    first.fresh_state(),
                    settings.mode.name()
                ),
            };
            let (cache, notes) = Cache::open(file, &key).map_err(AnalysisError::Cache)?;
            (Some(cache), notes)
        }
        None => (None, Vec::new()),
    };
    Ok(Engines {
        pool,
        searching,
        name,
        mini_refused,
        cache,
        cache_notes,
        more,
    })
}

/// Whether game `g` is refused (a Mini Shogi game for an engine that cannot play it).
pub(crate) fn refused(g: &GameIn, mini_refused: Option<&str>) -> bool {
    mini_refused.is_some()
        && g.positions
            .first()
            .is_some_and(|p| p.variant() == Variant::Mini)
}

/// Marks every Mini Shogi game with the refusal `msg`, and says how many.
pub(crate) fn refuse_mini(games: &mut [GameIn], msg: &str, observer: &mut dyn Observer) {
    let mut count = 0;
    for g in games.iter_mut() {
        if refused(g, Some(msg)) {
            g.error = Some((None, msg.to_string()));
            count += 1;
        }
    }
    if count > 0 {
        observer.message(Message::Error(format!(
            "{msg}: {count} Mini Shogi game(s) not analysed"
        )));
    }
}

/// The slots to search: those of the games still to analyse that the cache does not hold
/// (the cache's results are put into `results`, and how many); a slot no game needs (all its
/// games refused) gets the refusal, so that its games complete.
pub(crate) fn plan_searches(
    games: &[GameIn],
    game_slots: &[Vec<usize>],
    slots: &[Slot],
    results: &mut [Option<PosResult>],
    mini_refused: Option<&str>,
    cache: Option<&Cache>,
) -> Result<(Vec<usize>, u64), AnalysisError> {
    let mut needed = vec![false; slots.len()];
    for (g, s) in games.iter().zip(game_slots) {
        if !refused(g, mini_refused) {
            for &i in s {
                needed[i] = true;
            }
        }
    }
    let mut from_cache = 0u64;
    if let Some(c) = cache {
        for (i, slot) in slots.iter().enumerate() {
            if needed[i] {
                if let Some(r) = c.get(&slot.key).map_err(AnalysisError::Cache)? {
                    results[i] = Some(r);
                    from_cache += 1;
                }
            }
        }
    }
    let mut todo: Vec<usize> = (0..slots.len())
        .filter(|&i| needed[i] && results[i].is_none())
        .collect();
    // Standard positions first, then Mini Shogi: a worker's engine restarts once when the
    // variant changes (a process plays one variant), not at every switch.
    todo.sort_by_key(|&i| slots[i].position.variant() == Variant::Mini);
    for (i, n) in needed.iter().enumerate() {
        if !n {
            results[i] = Some(PosResult {
                error: mini_refused.map(str::to_string),
                ..PosResult::default()
            });
        }
    }
    Ok((todo, from_cache))
}

/// With no engine and a cache ([`crate::Settings::cache`]): every slot's result from the
/// cache's one configuration of this multipv and mode, or the error that it is not there.
/// Returns that configuration's engine name and how many results the cache gave.
pub(crate) fn results_from_cache(
    path: &std::path::Path,
    settings: &Settings,
    slots: &[Slot],
    results: &mut [Option<PosResult>],
) -> Result<(String, u64), AnalysisError> {
    let cache = crate::cache::CacheOnly::open(path, settings.multipv, settings.mode.name())
        .map_err(|e| AnalysisError::Cache(e.to_string()))?;
    let mut found = 0;
    for (slot, result) in slots.iter().zip(results.iter_mut()) {
        if result.is_some() {
            continue;
        }
        *result = Some(match cache.get(&slot.key).map_err(AnalysisError::Cache)? {
            Some(r) => {
                found += 1;
                r
            }
            None => PosResult {
                error: Some(format!("not in the cache {}", path.display())),
                ..PosResult::default()
            },
        });
    }
    Ok((cache.key.engine.clone(), found))
}

/// What the searches did: how many ran, the first engine failures in full, and the first
/// error writing the cache.
#[derive(Default)]
pub(crate) struct Searched {
    pub count: u64,
    pub engine_errors: Vec<String>,
    pub cache_error: Option<String>,
}

/// Searches the slots `todo` of `slots` on the engine pool, each result into `results` (and
/// the cache); `after_each` is called with the results after each one and stops the searches
/// by breaking. When the engines prepare their searches ahead (a fresh state that waits), the
/// first searches are timed and the pool grows to as many processes as hide the preparing
/// ([`processes_per_search`]) before the rest: which process searches a position does not
/// change its result, each search starting from a fresh state.
pub(crate) fn search_positions(
    e: &mut Engines,
    limit: &Limit,
    todo: &[usize],
    slots: &[Slot],
    results: &mut [Option<PosResult>],
    mut after_each: impl FnMut(&[Option<PosResult>], u64, u64) -> ControlFlow<()>,
) -> Searched {
    let total = todo.len() as u64;
    let mut done = Searched::default();
    let least = e.pool.len().div_ceil(e.searching.max(1));
    let (first, rest) = if least > 1 {
        todo.split_at(todo.len().min(2 * e.pool.len()))
    } else {
        (todo, &[][..])
    };
    let timing = Mutex::new(Timing::default());
    let flow = search_part(
        e,
        limit,
        first,
        slots,
        results,
        &mut done,
        &timing,
        total,
        &mut after_each,
    );
    if flow.is_continue() && !rest.is_empty() {
        let t = timing.into_inner().unwrap_or_else(|p| p.into_inner());
        if t.searches > 0 {
            let n = t.searches as u32;
            let per_search = processes_per_search(t.prepare / n, t.search / n, least);
            let wanted = (e.searching * per_search).min(e.pool.len() + rest.len());
            // Fewer processes than wanted only cost time: the searches go on with those there.
            let _ = e.more.grow(&mut e.pool, wanted);
        }
        let timing = Mutex::new(Timing::default());
        let _ = search_part(
            e,
            limit,
            rest,
            slots,
            results,
            &mut done,
            &timing,
            total,
            &mut after_each,
        );
    }
    done
}

/// The time the engines spent preparing searches and searching, over `searches` searches.
#[derive(Default)]
struct Timing {
    prepare: Duration,
    search: Duration,
    searches: usize,
}

/// [`search_positions`] on the slots `todo`, timing each search and its preparing.
#[allow(clippy::too_many_arguments)]
fn search_part(
    e: &mut Engines,
    limit: &Limit,
    todo: &[usize],
    slots: &[Slot],
    results: &mut [Option<PosResult>],
    done: &mut Searched,
    timing: &Mutex<Timing>,
    total: u64,
    after_each: &mut impl FnMut(&[Option<PosResult>], u64, u64) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let cache = e.cache.as_ref();
    let permits = Permits::new(e.searching);
    let ahead = e.pool.len() > e.searching;
    e.pool.run(
        todo.iter().map(|&i| (i, &slots[i])),
        |engine, (i, slot)| {
            let (start, moves) = slot.sent();
            let begun = Instant::now();
            if ahead {
                // A failure here is met again, and reported, by the search itself.
                let _ = engine.prepare(start, moves);
            }
            let prepared = begun.elapsed();
            let _searching = permits.take();
            let begun = Instant::now();
            let (r, full) = analyse(engine, start, moves, limit);
            let searched = begun.elapsed();
            let mut t = timing.lock().unwrap_or_else(|p| p.into_inner());
            t.prepare += prepared;
            t.search += searched;
            t.searches += 1;
            (i, r, full)
        },
        |_, (i, r, full)| {
            done.count += 1;
            if let Some(full) = full {
                if done.engine_errors.len() < 5 {
                    done.engine_errors.push(full);
                }
            }
            if let Some(c) = cache {
                if let Err(e) = c.put(&slots[i].key, &r) {
                    done.cache_error.get_or_insert(e);
                }
            }
            results[i] = Some(r);
            after_each(results, done.count, total)
        },
    )
}

/// A counting semaphore: at most `n` searches at once, however many engines the pool has.
struct Permits {
    free: Mutex<usize>,
    freed: Condvar,
}

/// A taken permit, given back when dropped.
struct Permit<'a>(&'a Permits);

impl Permits {
    fn new(n: usize) -> Permits {
        Permits {
            free: Mutex::new(n.max(1)),
            freed: Condvar::new(),
        }
    }

    /// Waits for a free permit and takes it.
    fn take(&self) -> Permit<'_> {
        let mut free = self.free.lock().unwrap_or_else(|p| p.into_inner());
        while *free == 0 {
            free = self.freed.wait(free).unwrap_or_else(|p| p.into_inner());
        }
        *free -= 1;
        Permit(self)
    }
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        let mut free = self.0.free.lock().unwrap_or_else(|p| p.into_inner());
        *free += 1;
        self.0.freed.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn processes_per_search_hide_the_preparing() {
        let ms = Duration::from_millis;
        // YaneuraOu at 100,000 nodes: 130 ms of isready, 40 ms of search: 5 + 1.
        assert_eq!(processes_per_search(ms(130), ms(40), 4), 6);
        // Searches longer than the preparing: the least.
        assert_eq!(processes_per_search(ms(1), ms(40), 4), 4);
        // Short searches: capped.
        assert_eq!(
            processes_per_search(ms(130), ms(7), 4),
            MOST_PROCESSES_PER_SEARCH
        );
        // A search timed at zero does not divide by zero.
        assert_eq!(
            processes_per_search(ms(130), ms(0), 4),
            MOST_PROCESSES_PER_SEARCH
        );
    }

    #[test]
    fn permits_bound_the_searches_at_once() {
        let permits = Permits::new(2);
        let (now, most) = (AtomicUsize::new(0), AtomicUsize::new(0));
        std::thread::scope(|s| {
            for _ in 0..6 {
                s.spawn(|| {
                    for _ in 0..20 {
                        let _p = permits.take();
                        let n = now.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(n, Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_micros(200));
                        now.fetch_sub(1, Ordering::SeqCst);
                    }
                });
            }
        });
        assert_eq!(most.load(Ordering::SeqCst), 2);
    }
}
