//! One USI engine as a child process: a reader thread per pipe, channels, a timeout on every wait.

use crate::error::{EngineError, EngineErrorKind, ErrorContext, Illegality, OutputLine};
use crate::fresh::FreshState;
use crate::limit::Limit;
use crate::options::{OptionKind, OptionSpec, find_option};
use crate::protocol::{BestMoveText, CheckmateText, EngineLine, Info};
use shogi_core::score::PovScore;
use shogi_core::{ImpasseRule, Move, Position, Variant};
use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

mod io;
mod search;
mod types;
use io::{CHANNEL, MAX_MULTIPV, Msg, Tail, spawn_stderr_reader, spawn_stdout_reader};
pub use types::{BestMove, GameResult, MateAnswer, PvCut, Search, SearchLine};

/// How long each wait may take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// From spawning to `usiok` (default 10 s, ShogiHome's default).
    pub usiok: Duration,
    /// From `isready` to `readyok` (default 30 s: some engines load tables then).
    pub readyok: Duration,
    /// Added to a limit's time budget (movetime, clock + byoyomi) before a search is called
    /// hung (default 5 s).
    pub search_margin: Duration,
    /// The wait for `bestmove` when the limit has no clock (nodes, depth; default 120 s).
    pub search_unbounded: Duration,
    /// From `stop` to `bestmove` (default 5 s).
    pub stop: Duration,
    /// From `quit` to the process's exit before it is killed (default 2 s).
    pub quit_grace: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            usiok: Duration::from_secs(10),
            readyok: Duration::from_secs(30),
            search_margin: Duration::from_secs(5),
            search_unbounded: Duration::from_secs(120),
            stop: Duration::from_secs(5),
            quit_grace: Duration::from_secs(2),
        }
    }
}

/// How to start an engine.
#[derive(Clone, Debug)]
pub struct StartOptions {
    /// Every wait's limit.
    pub timeouts: Timeouts,
    /// `setoption`s sent after `usiok` (checked against what the engine offers), in order;
    /// `USI_Hash` and `USI_Ponder`, which a GUI sends whether or not the engine lists them,
    /// go unchecked to an engine that does not list them. A button takes an empty value.
    pub options: Vec<(String, String)>,
    /// `Threads` is set to this when the engine offers an option of that name (default 1).
    /// gpsusi's `Thread` is left alone: gpsusi saves every set option as its new default.
    pub threads: Option<u32>,
    /// Fresh state per search: before every search, the commands that make its result equal
    /// to a fresh process's, chosen per engine ([`FreshState`], measured), so that a result
    /// depends on the position, the engine, its options and the limit alone.
    pub fresh_state: bool,
    /// The rule `bestmove win` is judged by (default the CSA 27-point rule).
    pub impasse_rule: ImpasseRule,
    /// Swap the clocks in `go` (`btime`↔`wtime`, `binc`↔`winc`); `None` (default) swaps for
    /// fairy-stockfish 11 (`id name Fairy-Stockfish 11.…`), which reads them swapped in USI.
    pub swap_clocks: Option<bool>,
    /// The variant the process is started in. A process plays one variant all its life:
    /// searching a position of the other variant restarts it ([`Engine::set_variant`]).
    pub variant: Variant,
    /// How many of the engine's last output lines errors carry (default 32).
    pub last_lines: usize,
    /// Start the engine under the Linux `SCHED_BATCH` policy (through util-linux's `chrt
    /// --batch 0`, when a `chrt` is on the `PATH`; default false). Its share of the CPU is
    /// unchanged (the same nice level), but its threads, when they wake (on `go`), no longer
    /// preempt the thread that woke them: the caller finishes writing `position` and `go` and
    /// goes back to waiting before the engine runs. Measured with 2 games at once on 2 cores
    /// (`shogi match`): the time to write `position` + `go` falls from a p99 of about 2 ms to
    /// about 0.1 ms. [`Engine::batch`] says whether it was applied.
    pub batch: bool,
}

impl Default for StartOptions {
    fn default() -> Self {
        StartOptions {
            timeouts: Timeouts::default(),
            options: Vec::new(),
            threads: Some(1),
            fresh_state: false,
            impasse_rule: ImpasseRule::Points27,
            swap_clocks: None,
            variant: Variant::Standard,
            last_lines: 32,
            batch: false,
        }
    }
}

impl StartOptions {
    /// Adds a `setoption` to send at start.
    pub fn option(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.options.push((name.into(), value.into()));
        self
    }
}

/// util-linux's `chrt` on the `PATH`, if there is one (for [`StartOptions::batch`]).
fn chrt() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("chrt"))
        .find(|p| p.is_file())
}

/// Why a gpsusi is restarted after a `go mate` that found a mate ([`Engine::stale`]).
const GPSUSI_AFTER_GO_MATE: &str =
    "gpsusi answers no search after a `go mate` that found a mate (ENGINE-FACTS §2.7)";

/// Why a gpsusi is restarted before a position that does not continue the last one.
const GPSUSI_NEW_LINE: &str = "gpsusi, once it has searched, answers no `position … moves …` \
    that does not continue the last position it was sent, not even `isready` afterwards";

/// Whether an `id name` (if read) is gpsusi's.
fn is_gpsusi(name: Option<&str>) -> bool {
    name.is_some_and(crate::quirks::is_gpsusi)
}

/// Checks a PV on `pos`: the legal prefix and where it was cut. A final `resign` or `win`
/// (gpsusi writes `pv resign` on a mated side) ends the PV without a cut.
pub fn check_pv(pos: &Position, pv: &[String]) -> (Vec<Move>, Option<PvCut>) {
    let mut p = pos.clone();
    let mut moves = Vec::with_capacity(pv.len());
    for (i, t) in pv.iter().enumerate() {
        if i + 1 == pv.len() && (t == "resign" || t == "win") {
            break;
        }
        let cut = |reason: String, why: Illegality| PvCut {
            index: i,
            text: t.clone(),
            reason,
            why,
        };
        match Move::from_usi(t) {
            Err(e) => {
                return (
                    moves,
                    Some(cut(e.message.to_owned(), Illegality::NotUsi(e))),
                );
            }
            Ok(m) => match p.play(m) {
                Ok(()) => moves.push(m),
                Err(e) => return (moves, Some(cut(e.to_string(), Illegality::Rule(e)))),
            },
        }
    }
    (moves, None)
}

#[derive(Debug)]
#[allow(clippy::large_enum_variant)]
enum State {
    Idle,
    Searching {
        position: Position,
        deadline: Option<Instant>,
        started: Instant,
        mate: bool,
    },
    Dead(String),
}

/// One USI engine process.
///
/// ```no_run
/// use shogi_core::{Position, Variant};
/// use shogi_usi::{Engine, Limit, StartOptions};
///
/// let mut engine = Engine::start("/usr/games/fairy-stockfish", &[] as &[&str], StartOptions::default())?;
/// engine.set_option("Hash", "32")?;
/// let start = Position::startpos(Variant::Standard);
/// let search = engine.search(&start, &[], &Limit::nodes(10_000))?;
/// println!("{:?} {:?}", search.bestmove, search.score().map(|s| s.sente()));
/// engine.quit();
/// # Ok::<(), shogi_usi::EngineError>(())
/// ```
pub struct Engine {
    path: PathBuf,
    args: Vec<OsString>,
    start_options: StartOptions,
    child: Option<Child>,
    stdin: Option<ChildStdin>,
    /// In a Mutex only so that Engine is Sync (always reached through `&mut self`: no locking).
    rx: Mutex<Receiver<Msg>>,
    tail: Tail,
    name: Option<String>,
    author: Option<String>,
    options: Vec<OptionSpec>,
    /// Options set so far, replayed after a restart.
    applied: Vec<(String, Option<String>)>,
    variant: Variant,
    swap_clocks: bool,
    /// Whether the process runs under `SCHED_BATCH` ([`StartOptions::batch`]).
    batch: bool,
    /// Set when the engine is known not to answer its next search (gpsusi after a `go mate`
    /// that found a mate); the next search restarts it first.
    stale: Option<&'static str>,
    /// Whether a search of this process sent a scored `info` (a real search, not a book move).
    searched: bool,
    /// The last position sent with `go`: its start and moves.
    last_sent: Option<(Position, Vec<Move>)>,
    /// Whether this process has been sent a `go` (a search or a `go mate`).
    used: bool,
    /// How this engine is given a fresh state (from its name, after `usiok`).
    fresh: FreshState,
    /// Whether [`Engine::prepare`] gave the process its fresh state for the next search.
    prepared: bool,
    state: State,
    last_command: Option<String>,
    /// Malformed lines seen during `usi` (an option we could not read).
    start_warnings: Vec<String>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("path", &self.path)
            .field("name", &self.name)
            .field("state", &self.state)
            .finish()
    }
}

impl Engine {
    /// Spawns `path` with `args`, sends `usi`, reads `id`/`option` lines until `usiok`, applies
    /// `Threads`, the start options and the variant, and waits for `readyok`.
    pub fn start<S: AsRef<std::ffi::OsStr>>(
        path: impl AsRef<Path>,
        args: &[S],
        options: StartOptions,
    ) -> Result<Engine, EngineError> {
        let path = path.as_ref().to_path_buf();
        let args: Vec<OsString> = args.iter().map(|a| a.as_ref().to_owned()).collect();
        let mut engine = Engine::spawn(path, args, options)?;
        engine.handshake()?;
        let opts = engine.start_options.options.clone();
        for (name, value) in &opts {
            // A GUI's own options go to an engine that does not list them, unchecked.
            if crate::quirks::is_gui_reserved(name) && find_option(&engine.options, name).is_none()
            {
                engine.set_option_unchecked(name, Some(value))?;
            } else {
                engine.set_option(name, value)?;
            }
        }
        if engine.start_options.fresh_state {
            for (name, value) in engine.fresh.quiet_options() {
                let offered = find_option(&engine.options, name).is_some();
                if offered && !opts.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)) {
                    engine.set_option(name, value)?;
                }
            }
        }
        engine.apply_variant(engine.start_options.variant)?;
        engine.is_ready()?;
        Ok(engine)
    }

    fn spawn(
        path: PathBuf,
        args: Vec<OsString>,
        start_options: StartOptions,
    ) -> Result<Engine, EngineError> {
        let cap = start_options.last_lines;
        let tail: Tail = Arc::new(Mutex::new(VecDeque::new()));
        let (tx, rx) = sync_channel(CHANNEL);
        let mut engine = Engine {
            path,
            args,
            start_options,
            child: None,
            stdin: None,
            rx: Mutex::new(rx),
            tail: tail.clone(),
            name: None,
            author: None,
            options: Vec::new(),
            applied: Vec::new(),
            variant: Variant::Standard,
            swap_clocks: false,
            batch: false,
            stale: None,
            searched: false,
            last_sent: None,
            used: false,
            fresh: FreshState::All,
            prepared: false,
            state: State::Idle,
            last_command: None,
            start_warnings: Vec::new(),
        };
        // Only for a program that is a file: a missing one is then a spawn error, as without.
        let batch = engine.start_options.batch && engine.path.is_file();
        let mut command = match batch.then(chrt).flatten() {
            Some(chrt) => {
                let mut c = Command::new(chrt);
                c.args(["--batch", "0"]).arg(&engine.path);
                engine.batch = true;
                c
            }
            None => Command::new(&engine.path),
        };
        let mut child = match command
            .args(&engine.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
        {
            Ok(c) => c,
            Err(e) => {
                let what = format!("{}: {e}", engine.path.display());
                engine.state = State::Dead(what.clone());
                return Err(engine.error(EngineErrorKind::Spawn(what)));
            }
        };
        engine.stdin = child.stdin.take();
        if let Some(out) = child.stdout.take() {
            spawn_stdout_reader(out, tx, tail.clone(), cap);
        }
        if let Some(err) = child.stderr.take() {
            spawn_stderr_reader(err, tail, cap);
        }
        engine.child = Some(child);
        Ok(engine)
    }

    fn handshake(&mut self) -> Result<(), EngineError> {
        self.send("usi")?;
        let deadline = Instant::now() + self.start_options.timeouts.usiok;
        loop {
            match self.recv_until(deadline, "usiok")? {
                (EngineLine::IdName(n), _) => self.name = Some(n),
                (EngineLine::IdAuthor(a), _) => self.author = Some(a),
                (EngineLine::Option(o), _) => {
                    if let Some(i) = self.options.iter().position(|x| x.name == o.name) {
                        self.options[i] = o;
                    } else {
                        self.options.push(o);
                    }
                }
                (EngineLine::Malformed { line, reason }, _) => {
                    self.start_warnings.push(format!("{reason}: {line}"));
                }
                (EngineLine::UsiOk, _) => break,
                _ => {}
            }
        }
        self.fresh = FreshState::for_engine(self.name.as_deref().unwrap_or(""));
        self.swap_clocks = match self.start_options.swap_clocks {
            Some(b) => b,
            None => self
                .name
                .as_deref()
                .is_some_and(crate::quirks::swaps_clocks),
        };
        if let Some(t) = self.start_options.threads {
            if self.options.iter().any(|o| o.name == "Threads") {
                self.set_option("Threads", &t.to_string())?;
            }
        }
        Ok(())
    }

    /// The engine's `id name` (or the program path when it sent none).
    pub fn name(&self) -> String {
        self.name
            .clone()
            .unwrap_or_else(|| self.path.display().to_string())
    }

    /// Whether the engine can search under `limit`: an [`EngineErrorKind::Unsupported`] error
    /// for a limit it is known to abort on (gpsusi: increments, `nodes`, `movetime`), so that
    /// a caller can refuse it before the first search.
    pub fn check_limit(&self, limit: &Limit) -> Result<(), EngineError> {
        match crate::quirks::refusal(&self.name(), limit) {
            Some(why) => Err(self.error(EngineErrorKind::Unsupported(why))),
            None => Ok(()),
        }
    }

    /// The engine's `id author`, if it sent one.
    pub fn author(&self) -> Option<&str> {
        self.author.as_deref()
    }

    /// The options the engine offered, in its order.
    pub fn options(&self) -> &[OptionSpec] {
        &self.options
    }

    /// The options set so far (name as the engine spells it, value sent; `None` for buttons).
    pub fn applied_options(&self) -> &[(String, Option<String>)] {
        &self.applied
    }

    /// The program's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The variant the engine is set up for.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Whether the engine was started under `SCHED_BATCH` ([`StartOptions::batch`] was asked
    /// for and a `chrt` was found).
    pub fn batch(&self) -> bool {
        self.batch
    }

    /// Whether `go` clocks are swapped for this engine (see [`StartOptions::swap_clocks`]).
    pub fn swaps_clocks(&self) -> bool {
        self.swap_clocks
    }

    /// Lines during start-up that could not be read (malformed `option` lines).
    pub fn start_warnings(&self) -> &[String] {
        &self.start_warnings
    }

    /// Why the engine is known not to answer a search of `start` after `moves`, if it is
    /// (measured on gpsusi r3033, whose `id name` starts with `gpsshogi`):
    ///
    /// * once it has really searched (not answered from its book), a `position … moves …` that
    ///   does not continue the last position it was sent (the same start, the earlier moves a
    ///   prefix of the new ones) gets no `bestmove`, and then not even `readyok`, whatever is
    ///   sent in between (`usinewgame`, `gameover`, `stop`); a position without moves, or one
    ///   that continues, is answered. In a match this is the first `go` of a new game.
    /// * after a `go mate` that found a mate it answers no further search (ENGINE-FACTS §2.7).
    ///
    /// Searches restart such an engine first ([`Engine::restart_if_stale`]); callers that keep
    /// clocks call that themselves, before the clock starts, to keep the restart off it.
    pub fn stale(&self, start: &Position, moves: &[Move]) -> Option<&'static str> {
        if let Some(why) = self.stale {
            return Some(why);
        }
        if !self.searched || moves.is_empty() || !is_gpsusi(self.name.as_deref()) {
            return None;
        }
        let continues = self
            .last_sent
            .as_ref()
            .is_some_and(|(s, m)| s.same_position(start) && moves.starts_with(m));
        (!continues).then_some(GPSUSI_NEW_LINE)
    }

    /// Restarts the engine when [`Engine::stale`] says it will not answer a search of `start`
    /// after `moves`; `Ok(true)` when it did.
    pub fn restart_if_stale(
        &mut self,
        start: &Position,
        moves: &[Move],
    ) -> Result<bool, EngineError> {
        if self.stale(start, moves).is_none() {
            return Ok(false);
        }
        self.restart()?;
        Ok(true)
    }

    /// Whether an earlier error left the engine unusable ([`Engine::restart`] it).
    pub fn is_dead(&self) -> bool {
        matches!(self.state, State::Dead(_))
    }

    /// The engine's last output lines (stdout and stderr), oldest first.
    pub fn last_lines(&self) -> Vec<OutputLine> {
        self.tail
            .lock()
            .map(|t| t.iter().cloned().collect())
            .unwrap_or_default()
    }

    fn error(&self, kind: EngineErrorKind) -> EngineError {
        EngineError {
            kind,
            context: Box::new(ErrorContext {
                engine: self.name(),
                last_lines: self.last_lines(),
                last_command: self.last_command.clone(),
            }),
        }
    }

    /// Builds the error, and when it is fatal marks the engine dead and kills the process.
    fn fail(&mut self, kind: EngineErrorKind) -> EngineError {
        // Let the stderr reader catch up with a dying process's last words.
        if matches!(kind, EngineErrorKind::Crashed { .. }) {
            std::thread::sleep(Duration::from_millis(20));
        }
        let err = self.error(kind);
        if err.needs_restart() {
            self.state = State::Dead(err.kind.to_string());
            self.kill();
        }
        err
    }

    fn kill(&mut self) {
        self.stdin = None;
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    fn exit_status(&mut self) -> Option<String> {
        let c = self.child.as_mut()?;
        // The pipe closes just before the process is reaped: give it a moment.
        let until = Instant::now() + Duration::from_millis(500);
        loop {
            match c.try_wait() {
                Ok(Some(s)) => return Some(s.to_string()),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
                _ => return None,
            }
        }
    }

    fn check_alive(&self) -> Result<(), EngineError> {
        match &self.state {
            State::Dead(why) => Err(self.error(EngineErrorKind::Dead(why.clone()))),
            _ => Ok(()),
        }
    }

    fn check_idle(&self) -> Result<(), EngineError> {
        self.check_alive()?;
        match self.state {
            State::Searching { .. } => Err(self.error(EngineErrorKind::InvalidRequest(
                "the engine is searching (wait or stop first)".into(),
            ))),
            _ => Ok(()),
        }
    }

    /// Writes one command line.
    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        self.send_lines(&[line])
    }

    /// Writes command lines with one `write` (the pipe is unbuffered: a line and its `\n`
    /// written apart are two system calls and can wake the engine twice).
    fn send_lines(&mut self, lines: &[&str]) -> Result<(), EngineError> {
        let mut buf = Vec::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
        for l in lines {
            buf.extend_from_slice(l.as_bytes());
            buf.push(b'\n');
        }
        self.last_command = lines.last().map(|l| (*l).to_owned());
        let res = match self.stdin.as_mut() {
            Some(w) => w.write_all(&buf).and_then(|()| w.flush()),
            None => Err(std::io::Error::new(
                std::io::ErrorKind::BrokenPipe,
                "no input pipe",
            )),
        };
        match res {
            Ok(()) => Ok(()),
            Err(e) => {
                // An engine that exited has crashed; one that closed its input is a closed pipe.
                let kind = match self.exit_status() {
                    Some(status) => EngineErrorKind::Crashed {
                        waiting_for: "its next command to be read",
                        status: Some(status),
                    },
                    None => EngineErrorKind::PipeClosed(e.to_string()),
                };
                Err(self.fail(kind))
            }
        }
    }

    /// The next line before `deadline`, or a timeout / crash error.
    fn recv_until(
        &mut self,
        deadline: Instant,
        waiting_for: &'static str,
    ) -> Result<(EngineLine, Instant), EngineError> {
        let now = Instant::now();
        let wait = deadline.saturating_duration_since(now);
        let rx = self.rx.get_mut().unwrap_or_else(|p| p.into_inner());
        match rx.recv_timeout(wait) {
            Ok(Msg::Line(l, at)) => Ok((l, at)),
            Ok(Msg::Eof) | Err(RecvTimeoutError::Disconnected) => {
                let status = self.exit_status();
                Err(self.fail(EngineErrorKind::Crashed {
                    waiting_for,
                    status,
                }))
            }
            Err(RecvTimeoutError::Timeout) => {
                let after = self.timeout_base(deadline);
                Err(self.fail(EngineErrorKind::Timeout { waiting_for, after }))
            }
        }
    }

    fn timeout_base(&self, deadline: Instant) -> Duration {
        match &self.state {
            State::Searching { started, .. } => deadline.saturating_duration_since(*started),
            _ => Duration::ZERO,
        }
    }

    /// Drops lines already read (stale output between commands); reports a crash.
    fn drain(&mut self) -> Result<(), EngineError> {
        loop {
            let rx = self.rx.get_mut().unwrap_or_else(|p| p.into_inner());
            match rx.try_recv() {
                Ok(Msg::Line(..)) => {}
                Err(TryRecvError::Empty) => return Ok(()),
                Ok(Msg::Eof) | Err(TryRecvError::Disconnected) => {
                    let status = self.exit_status();
                    return Err(self.fail(EngineErrorKind::Crashed {
                        waiting_for: "the next command",
                        status,
                    }));
                }
            }
        }
    }

    /// `isready`, waiting for `readyok`.
    pub fn is_ready(&mut self) -> Result<(), EngineError> {
        self.check_idle()?;
        self.drain()?;
        self.send("isready")?;
        self.read_ready(Instant::now() + self.start_options.timeouts.readyok)?;
        Ok(())
    }

    /// Reads lines up to `readyok` (the others are dropped) and returns when it was read.
    fn read_ready(&mut self, deadline: Instant) -> Result<Instant, EngineError> {
        loop {
            if let (EngineLine::ReadyOk, at) = self.recv_until(deadline, "readyok")? {
                return Ok(at);
            }
        }
    }

    /// `setoption`, checked against the options the engine offered: an unknown name or a
    /// value of the wrong type or range is an error listing what the engine has.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        self.check_idle()?;
        let Some(spec) = find_option(&self.options, name).cloned() else {
            let available = self.options.iter().map(|o| o.to_string()).collect();
            return Err(self.error(EngineErrorKind::UnknownOption {
                name: name.to_owned(),
                available,
            }));
        };
        let v = spec.check_value(value).map_err(|reason| {
            self.error(EngineErrorKind::BadOptionValue {
                name: spec.name.clone(),
                value: value.to_owned(),
                reason,
            })
        })?;
        self.write_option(&spec.name, v)
    }

    /// `setoption` without checking the name or value (for options an engine accepts without
    /// advertising them, such as gpsusi's `USI_Hash`).
    pub fn set_option_unchecked(
        &mut self,
        name: &str,
        value: Option<&str>,
    ) -> Result<(), EngineError> {
        self.check_idle()?;
        if name.contains(['\n', '\r']) || value.is_some_and(|v| v.contains(['\n', '\r'])) {
            return Err(self.error(EngineErrorKind::InvalidRequest(
                "an option name or value cannot hold a line break".into(),
            )));
        }
        self.write_option(name, value.map(str::to_owned))
    }

    fn write_option(&mut self, name: &str, value: Option<String>) -> Result<(), EngineError> {
        let line = match &value {
            Some(v) => format!("setoption name {name} value {v}"),
            None => format!("setoption name {name}"),
        };
        self.send(&line)?;
        self.note_applied(name, value);
        Ok(())
    }

    /// Records that option `name` was set to `value` (the last setting of a name counts).
    fn note_applied(&mut self, name: &str, value: Option<String>) {
        if let Some(i) = self.applied.iter().position(|(n, _)| n == name) {
            self.applied.remove(i);
        }
        self.applied.push((name.to_owned(), value));
    }

    /// Sets the engine up for `variant`: nothing when the process already plays it, else a
    /// restart into it. A process never switches variant: fairy-stockfish 11.1 searches
    /// standard shogi differently once `UCI_Variant` has been set, even to `shogi`, its USI
    /// default (ENGINE-FACTS §2.6), so a process that had played Mini Shogi would give other
    /// results than a fresh one. Mini Shogi needs a `UCI_Variant` combo offering `minishogi`
    /// (fairy-stockfish); any other engine is refused with a message, and keeps running.
    pub fn set_variant(&mut self, variant: Variant) -> Result<(), EngineError> {
        self.check_idle()?;
        if variant == self.variant {
            return Ok(());
        }
        self.check_variant(variant)?;
        self.variant = variant;
        self.restart()
    }

    /// The variant's `UCI_Variant` value, when it must be sent: Mini Shogi always, standard
    /// shogi only to an engine whose `UCI_Variant` does not default to `shogi` (the engine's
    /// own default is left alone: see [`Engine::set_variant`]).
    fn check_variant(&self, variant: Variant) -> Result<Option<&'static str>, EngineError> {
        let option = find_option(&self.options, "UCI_Variant").and_then(|o| match &o.kind {
            OptionKind::Combo { vars, default } => Some((vars, default)),
            _ => None,
        });
        match (variant, option) {
            (Variant::Mini, Some((vars, _))) if vars.iter().any(|v| v == "minishogi") => {
                Ok(Some("minishogi"))
            }
            (Variant::Mini, _) => Err(self.error(EngineErrorKind::Unsupported(format!(
                "{} cannot play Mini Shogi: it offers no UCI_Variant option with the value minishogi",
                self.name()
            )))),
            (Variant::Standard, Some((vars, default)))
                if default.as_deref() != Some("shogi") && vars.iter().any(|v| v == "shogi") =>
            {
                Ok(Some("shogi"))
            }
            (Variant::Standard, _) => Ok(None),
        }
    }

    /// Sets a process just started up for `variant` (before its `isready`). The
    /// `setoption` is not one of [`Engine::applied_options`]: the variant is the process's.
    fn apply_variant(&mut self, variant: Variant) -> Result<(), EngineError> {
        if let Some(value) = self.check_variant(variant)? {
            self.send(&format!("setoption name UCI_Variant value {value}"))?;
        }
        self.variant = variant;
        Ok(())
    }

    /// How this engine is given a fresh state before each search when
    /// [`StartOptions::fresh_state`] is set.
    pub fn fresh_state(&self) -> FreshState {
        self.fresh
    }

    /// Makes the next search's result equal to a fresh process's ([`FreshState`]): `moves`
    /// are those the search sends after its start position.
    fn make_fresh(&mut self, moves: &[Move]) -> Result<(), EngineError> {
        match self.fresh {
            FreshState::NewSearcher => {
                if self.used && !moves.is_empty() {
                    self.restart()?;
                }
                Ok(())
            }
            FreshState::IsReady => self.is_ready(),
            FreshState::Threads => {
                self.reset_threads()?;
                self.is_ready()
            }
            FreshState::All => {
                self.reset_threads()?;
                self.send("usinewgame")?;
                self.is_ready()
            }
        }
    }

    /// Sets `Threads` again to the value it has (when the engine offers it).
    fn reset_threads(&mut self) -> Result<(), EngineError> {
        match self.threads_value() {
            Some(v) => self.write_option("Threads", Some(v)),
            None => Ok(()),
        }
    }

    /// The `setoption` line that sets `Threads` again to the value it has (recorded as
    /// applied, as [`Engine::reset_threads`] does), when the engine offers the option; the
    /// caller writes it.
    fn threads_line(&mut self) -> Option<String> {
        let v = self.threads_value()?;
        let line = format!("setoption name Threads value {v}");
        self.note_applied("Threads", Some(v));
        Some(line)
    }

    /// The value `Threads` has (the one applied, else the engine's default), when offered.
    fn threads_value(&self) -> Option<String> {
        let set = self.applied.iter().find(|(n, _)| n == "Threads");
        let value = match set {
            Some((_, v)) => v.clone(),
            None => find_option(&self.options, "Threads").and_then(|o| match &o.kind {
                OptionKind::Spin { default, .. } => default.map(|d| d.to_string()),
                _ => None,
            }),
        };
        match value {
            Some(v) if find_option(&self.options, "Threads").is_some() => Some(v),
            _ => None,
        }
    }

    /// Sets the number of lines searched (`MultiPV` or `USI_MultiPV`, whichever the engine
    /// offers). `1` is accepted by engines with neither.
    pub fn set_multipv(&mut self, k: u32) -> Result<(), EngineError> {
        let name = ["MultiPV", "USI_MultiPV"]
            .into_iter()
            .find(|n| find_option(&self.options, n).is_some());
        match name {
            Some(n) => self.set_option(n, &k.to_string()),
            None if k == 1 => Ok(()),
            None => Err(self.error(EngineErrorKind::Unsupported(format!(
                "multipv {k}: {} has no MultiPV option",
                self.name()
            )))),
        }
    }

    /// `usinewgame` then `isready`.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        self.check_idle()?;
        self.send("usinewgame")?;
        self.is_ready()
    }
}

impl Engine {
    /// Kills the process (whatever its state) and starts it again with the same program,
    /// arguments and start options, then sets again every option set so far and the variant.
    pub fn restart(&mut self) -> Result<(), EngineError> {
        self.shutdown();
        let mut fresh = Engine::spawn(
            self.path.clone(),
            self.args.clone(),
            self.start_options.clone(),
        )?;
        fresh.handshake()?;
        for (name, value) in self.applied.clone() {
            // `Threads` was set again by the handshake.
            if fresh.applied.iter().any(|(n, v)| *n == name && *v == value) {
                continue;
            }
            fresh.write_option(&name, value)?;
        }
        fresh.apply_variant(self.variant)?;
        fresh.is_ready()?;
        std::mem::swap(self, &mut fresh);
        // `fresh` now holds the old, already shut down process.
        Ok(())
    }

    fn shutdown(&mut self) {
        if self.child.is_none() {
            return;
        }
        if !self.is_dead() {
            let _ = self.send("quit");
        }
        self.stdin = None;
        let grace = self.start_options.timeouts.quit_grace;
        if let Some(c) = self.child.as_mut() {
            let until = Instant::now() + grace;
            while Instant::now() < until {
                match c.try_wait() {
                    Ok(Some(_)) | Err(_) => break,
                    Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        }
        self.kill();
        self.state = State::Dead("the engine was shut down".into());
    }

    /// `quit`, then a kill after [`Timeouts::quit_grace`] if the process has not exited.
    pub fn quit(mut self) {
        self.shutdown();
    }
}

impl Drop for Engine {
    /// Quits and kills after the grace period; never waits longer than that.
    fn drop(&mut self) {
        self.shutdown();
    }
}
