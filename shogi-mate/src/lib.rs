//! A mate solver for shogi and Mini Shogi: df-pn (depth-first proof-number search) over
//! shogi-core's legal move generator, for tsume problems (詰将棋) and game positions.
//!
//! The side to move attacks: it may play checks only; the defender answers with any legal
//! move. A mate that needs a pawn-drop mate is no mate (shogi-core never generates that drop);
//! a line that repeats a position is a loss for the attacker (every attacker move is a check,
//! so a repetition is perpetual check). Every mate is replayed before it is reported.
//!
//! ```
//! use shogi_core::Position;
//! use shogi_mate::{MateResult, Options, Solver};
//!
//! let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1")?;
//! let mut solver = Solver::new(1 << 20);
//! let answer = solver.solve(&pos, &Options::default())?;
//! assert!(matches!(&answer.result, MateResult::Mate { pv } if pv[0].to_usi() == "G*5b"));
//! assert_eq!(answer.length, Some(1));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The table's memory is fixed when the [`Solver`] is made ([`Solver::new`]; the default
//! [`DEFAULT_MEMORY`] is 64 MiB, and a cache of evasion counts adds 512 KiB at most): it never grows. When a cluster of entries is full the entry
//! with the least work below it is written over (proofs and disproofs count as a million nodes
//! more, so they stay longest).

pub use stated::{StatedAnswer, check_stated_answer, counted_length, verify_tsume_answer};
pub mod brute;
mod dfpn;
mod futile;
mod key;
mod stated;
mod tt;

pub use dfpn::Limit;

use dfpn::{Search, path_step};
use key::{PackedHand, board_key};
use shogi_core::{Color, Move, Position};
use std::fmt;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The default table size, in bytes.
pub const DEFAULT_MEMORY: usize = 64 << 20;

/// The depth cap (plies from the root) when no depth is asked for: longer than any known
/// problem (ミクロコスモス, 1525 plies).
pub const DEPTH_CAP: u16 = 4000;

/// What to search for, and within which limits.
#[derive(Clone, Debug)]
pub struct Options {
    /// Node budget (positions expanded), shared by every search one problem needs.
    pub nodes: u64,
    /// Time budget.
    pub time: Option<Duration>,
    /// Only mates within this many plies count (a disproof then means "none that short").
    pub max_depth: Option<u16>,
    /// Prove the minimal length, and check uniqueness (別詰: another first move that mates
    /// within that length).
    pub shortest: bool,
    /// The composed-tsume conventions: futile interpositions (see [`futile_definition`]) and
    /// their captures are not counted in lengths, and the defender's line is the longest,
    /// among equal lengths the one leaving the attacker fewest pieces in hand. Used with
    /// `shortest` (alone it only changes how lengths are counted).
    pub tsume: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            nodes: 10_000_000,
            time: None,
            max_depth: None,
            shortest: false,
            tsume: false,
        }
    }
}

/// The definition of a futile interposition used with [`Options::tsume`].
pub fn futile_definition() -> &'static str {
    "a drop between the king and its only checker (a long-range piece) that the attacker can \
     take with check, either with the checker when no defender piece (the king included) \
     guards the square, or with any piece that the defender then cannot take back; moved \
     interpositions always count"
}

/// Whether the defender's reply `m` (legal in `pos`, the defender in check) is a futile
/// interposition by [`futile_definition`].
pub fn is_futile_interposition(pos: &Position, m: Move) -> bool {
    futile::is_futile(pos, m)
}

/// The answer's verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateResult {
    /// A mate, with its line (replayed: every attacker move a legal check, every defender move
    /// legal, ending in checkmate).
    Mate {
        /// The principal variation, attacker's move first.
        pv: Vec<Move>,
    },
    /// Proven: no mate (`within: None`: none at all; `Some(n)`: none within `n` plies).
    NoMate {
        /// The depth the proof holds for, when a depth was asked for.
        within: Option<u16>,
    },
    /// Not decided within a limit.
    Unknown {
        /// The limit that stopped the search.
        limit: Limit,
    },
}

impl MateResult {
    /// The verdict's words, the same in every front end: `mate`, `nomate` (no mate at all),
    /// `nomate within N` (none within N plies), `unknown:nodes` (and the other limits).
    ///
    /// ```
    /// use shogi_mate::MateResult;
    /// assert_eq!(MateResult::NoMate { within: Some(5) }.verdict(), "nomate within 5");
    /// assert_eq!(MateResult::NoMate { within: None }.verdict(), "nomate");
    /// ```
    pub fn verdict(&self) -> String {
        match self {
            MateResult::Mate { .. } => "mate".into(),
            MateResult::NoMate { within: None } => "nomate".into(),
            MateResult::NoMate { within: Some(n) } => format!("nomate within {n}"),
            MateResult::Unknown { limit } => format!("unknown:{}", limit.name()),
        }
    }
}

/// A solved problem.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The verdict.
    pub result: MateResult,
    /// The mate's length in plies (with [`Options::tsume`], futile interpositions and their
    /// captures not counted; the line in `pv` still shows them).
    pub length: Option<u16>,
    /// Whether `length` is proven minimal (with [`Options::shortest`]).
    pub minimal: bool,
    /// Whether no other first move mates within `length` (checked with `shortest`; `None`
    /// when not checked or not decided).
    pub unique: Option<bool>,
    /// Another first move that mates within `length`, if one was found.
    pub other_first_move: Option<Move>,
    /// Nodes expanded.
    pub nodes: u64,
    /// Wall time.
    pub time: Duration,
}

/// A position that is not a problem the solver can take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProblemError {
    /// The defender (the side not to move) has no king.
    NoDefenderKing,
    /// The defender is in check with the attacker to move.
    DefenderInCheck,
    /// More than 127 pieces of a kind (on the board and in hands together).
    HandTooLarge,
    /// A found line failed its replay (a bug in the solver: please report). Never reported as
    /// a mate.
    Unverified(String),
    /// The search failed inside (a bug: please report).
    Internal(String),
}

impl fmt::Display for ProblemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProblemError::NoDefenderKing => {
                f.write_str("not a mate problem: the side not to move has no king")
            }
            ProblemError::DefenderInCheck => f.write_str(
                "not a mate problem: the side not to move is in check (its king could be taken)",
            ),
            ProblemError::HandTooLarge => {
                f.write_str("a hand holds more than 127 pieces of a kind")
            }
            ProblemError::Unverified(why) => {
                write!(
                    f,
                    "internal error: a found mate failed its replay ({why}); please report"
                )
            }
            ProblemError::Internal(why) => {
                write!(f, "internal error in the solver ({why}); please report")
            }
        }
    }
}

impl std::error::Error for ProblemError {}

/// A solver: its table (fixed size) is reused from problem to problem, and so is the thread
/// the searches run on.
pub struct Solver {
    /// The memory asked for.
    memory: usize,
    /// The search thread, started by the first solve (and again after a panic).
    worker: Option<Worker>,
}

/// A problem for the search thread.
type Job = (Position, Options);

/// The search thread: it owns the table and solves the problems sent to it, one at a time.
/// Lines of thousands of plies recurse deeply, hence its large stack; it lives as long as the
/// solver, so that the stack's pages and the table are set up once, not once per problem.
struct Worker {
    jobs: Option<mpsc::Sender<Job>>,
    answers: mpsc::Receiver<Result<Answer, ProblemError>>,
    handle: Option<std::thread::JoinHandle<()>>,
}

impl Worker {
    fn start(memory: usize) -> Result<Worker, ProblemError> {
        let (jobs, inbox) = mpsc::channel::<Job>();
        let (outbox, answers) = mpsc::channel();
        let handle = std::thread::Builder::new()
            .name("shogi-mate".into())
            .stack_size(512 << 20)
            .spawn(move || {
                let mut tt = tt::Table::new(memory);
                for (pos, options) in inbox {
                    if outbox.send(solve_inner(&mut tt, &pos, &options)).is_err() {
                        break;
                    }
                }
            })
            .map_err(|e| ProblemError::Internal(format!("cannot start the search thread: {e}")))?;
        Ok(Worker {
            jobs: Some(jobs),
            answers,
            handle: Some(handle),
        })
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        // Closing the job channel ends the thread's loop.
        self.jobs = None;
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

impl Solver {
    /// A solver whose table's entries use at most `memory` bytes (rounded down to a power of
    /// two of clusters; at least one cluster), beside a cache of evasion counts of
    /// `memory / 16` bytes at most and 512 KiB at most ([`Solver::table_bytes`] is the sum).
    pub fn new(memory: usize) -> Solver {
        Solver {
            memory,
            worker: None,
        }
    }

    /// The bytes the table takes: its entries and its evasion-count cache.
    pub fn table_bytes(&self) -> usize {
        tt::Table::bytes_for(self.memory)
    }

    /// Solves `pos` for the side to move. The search runs on the solver's own thread, which
    /// has a large stack; a panic in it is reported as [`ProblemError::Internal`] (the next
    /// problem gets a new thread and an empty table).
    pub fn solve(&mut self, pos: &Position, options: &Options) -> Result<Answer, ProblemError> {
        validate(pos)?;
        if self.worker.is_none() {
            self.worker = Some(Worker::start(self.memory)?);
        }
        let answer = self.worker.as_ref().and_then(|w| {
            let sent = w.jobs.as_ref()?.send((pos.clone(), options.clone()));
            sent.ok()?;
            w.answers.recv().ok()
        });
        answer.unwrap_or_else(|| {
            self.worker = None;
            Err(ProblemError::Internal("the search panicked".into()))
        })
    }
}

/// Solves `pos` with a table of [`DEFAULT_MEMORY`] bytes, made for this call (setting up a
/// table and its thread takes tens of milliseconds): for many problems keep one [`Solver`],
/// or use [`solve_on_this_thread`].
pub fn solve(pos: &Position, options: &Options) -> Result<Answer, ProblemError> {
    Solver::new(DEFAULT_MEMORY).solve(pos, options)
}

thread_local! {
    /// The solver of [`solve_on_this_thread`], one per calling thread.
    static THREAD_SOLVER: std::cell::RefCell<Option<Solver>> =
        const { std::cell::RefCell::new(None) };
}

/// Solves `pos` with the calling thread's own solver of `memory` bytes, made on the first
/// call and kept (with its table and search thread) while `memory` stays the same: for
/// callers that solve problems one at a time from many threads, such as a batch's workers or
/// Python, without a [`Solver`] of their own. A new solver costs about 35 ms at 64 MiB, a
/// kept one's setup a tenth of a millisecond; answers do not depend on earlier calls.
pub fn solve_on_this_thread(
    memory: usize,
    pos: &Position,
    options: &Options,
) -> Result<Answer, ProblemError> {
    THREAD_SOLVER.with_borrow_mut(|cell| {
        let solver = match cell {
            Some(solver) if solver.memory == memory => solver,
            _ => cell.insert(Solver::new(memory)),
        };
        solver.solve(pos, options)
    })
}

fn validate(pos: &Position) -> Result<(), ProblemError> {
    let defender = !pos.side_to_move();
    if pos.king_square(defender).is_none() {
        return Err(ProblemError::NoDefenderKing);
    }
    let mut p = pos.clone();
    p.swap_turn();
    if p.is_check() {
        return Err(ProblemError::DefenderInCheck);
    }
    // Every piece of a kind may end in the attacker's hand: the total must fit a hand's count.
    for role in shogi_core::Role::HAND {
        let on_board = shogi_core::Square::all()
            .filter_map(|sq| pos.piece_at(sq))
            .filter(|p| p.role.unpromote() == role)
            .count();
        let total = on_board
            + usize::from(pos.hand(Color::Black).count(role))
            + usize::from(pos.hand(Color::White).count(role));
        if total > 127 {
            return Err(ProblemError::HandTooLarge);
        }
    }
    Ok(())
}

/// A failure to go on: a limit, or a bug found by a consistency check.
enum Halt {
    Limit(Limit),
    Broken(String),
}

impl From<Limit> for Halt {
    fn from(l: Limit) -> Halt {
        Halt::Limit(l)
    }
}

// About 140 lines: a solve's steps in order (the first proof, the shortest length, the line,
// its replay, the counted length, uniqueness), each reading the answer the last one built.
fn solve_inner(
    tt: &mut tt::Table,
    pos: &Position,
    options: &Options,
) -> Result<Answer, ProblemError> {
    let started = Instant::now();
    tt.clear();
    let mut s = Search::new(tt, pos.side_to_move(), options.nodes, options.time);
    s.futile = options.tsume;
    let rem = options.max_depth.unwrap_or(DEPTH_CAP).min(DEPTH_CAP);
    let mut answer = Answer {
        result: MateResult::Unknown {
            limit: Limit::Nodes,
        },
        length: None,
        minimal: false,
        unique: None,
        other_first_move: None,
        nodes: 0,
        time: Duration::ZERO,
    };
    let finish = |mut a: Answer, s: &Search| {
        a.nodes = s.nodes;
        a.time = started.elapsed();
        a
    };
    let first = match s.prove_full(pos, true, rem, 0) {
        Ok(x) => x,
        Err(limit) => {
            answer.result = MateResult::Unknown { limit };
            return Ok(finish(answer, &s));
        }
    };
    let mut len = match first {
        Proof::Mate(len) => len,
        Proof::NoMate(depth) => {
            answer.result = if options.max_depth.is_some() {
                MateResult::NoMate { within: Some(rem) }
            } else if depth == tt::NO_DEPTH_LIMIT {
                MateResult::NoMate { within: None }
            } else {
                MateResult::Unknown {
                    limit: Limit::Depth,
                }
            };
            return Ok(finish(answer, &s));
        }
    };
    let pv = if options.shortest {
        // Lower the bound until no mate fits: the last length found is the minimum.
        let mut minimal = true;
        while len >= 3 {
            match s.prove(pos, true, len - 2, 0) {
                Ok(Some(l)) => len = l,
                Ok(None) => break,
                Err(_) => {
                    minimal = false;
                    break;
                }
            }
        }
        let line = if minimal {
            s.exact_line(pos, len, options.tsume)
        } else {
            Err(Halt::Limit(Limit::Nodes))
        };
        match line {
            Ok(pv) => {
                answer.minimal = true;
                pv
            }
            Err(Halt::Broken(why)) => return Err(ProblemError::Unverified(why)),
            Err(Halt::Limit(_)) => match s.any_line(pos, len) {
                Ok(pv) => pv,
                Err(Halt::Limit(limit)) => {
                    answer.result = MateResult::Unknown { limit };
                    return Ok(finish(answer, &s));
                }
                Err(Halt::Broken(why)) => return Err(ProblemError::Unverified(why)),
            },
        }
    } else {
        match s.any_line(pos, len) {
            Ok(pv) => pv,
            Err(Halt::Limit(limit)) => {
                answer.result = MateResult::Unknown { limit };
                return Ok(finish(answer, &s));
            }
            Err(Halt::Broken(why)) => return Err(ProblemError::Unverified(why)),
        }
    };
    if let Err(why) = verify_mate(pos, &pv) {
        return Err(ProblemError::Unverified(why));
    }
    let length = if options.tsume {
        counted_length(pos, &pv)
    } else {
        pv.len() as u16
    };
    // The search counts a futile drop as uncounted whatever the attacker answers, the line
    // only when the next move takes it: the search's minimum is then a lower bound only, and
    // a line counted longer is not proven minimal.
    if length > len {
        answer.minimal = false;
    }
    if answer.minimal {
        len = length;
        // Uniqueness: another first move mating within the length.
        let mut unique = Some(true);
        if let Some(first) = pv.first().copied() {
            let key = board_key(pos);
            let full = dfpn::full_key(key, s.hand_of(pos));
            let cpath = path_step(0, full);
            s.path.insert(full);
            for m in checks(pos) {
                if m == first {
                    continue;
                }
                let mut p = pos.clone();
                p.play_unchecked(m);
                match s.prove(&p, false, len - 1, cpath) {
                    Ok(Some(_)) => {
                        unique = Some(false);
                        answer.other_first_move = Some(m);
                        break;
                    }
                    Ok(None) => {}
                    Err(_) => {
                        unique = None;
                        break;
                    }
                }
            }
            s.path.remove(&full);
        }
        answer.unique = unique;
    }
    answer.length = Some(length);
    answer.result = MateResult::Mate { pv };
    Ok(finish(answer, &s))
}

/// The checks of the side to move.
fn checks(pos: &Position) -> Vec<Move> {
    let mut v = Vec::new();
    pos.for_each_legal_move(|m| {
        let mut p = pos.clone();
        p.play_unchecked(m);
        if p.is_check() {
            v.push(m);
        }
    });
    v
}

/// Replays a mating line from `pos`: every move legal, the attacker's (even indices) checks,
/// and the last position checkmate. The error says where it fails.
pub fn verify_mate(pos: &Position, pv: &[Move]) -> Result<(), String> {
    if pv.is_empty() || pv.len() % 2 == 0 {
        return Err(format!(
            "a mating line has an odd number of moves, this one {}",
            pv.len()
        ));
    }
    let mut p = pos.clone();
    for (i, m) in pv.iter().enumerate() {
        if let Err(e) = p.play(*m) {
            return Err(format!("move {} ({}) is illegal: {e}", i + 1, m.to_usi()));
        }
        if i % 2 == 0 && !p.is_check() {
            return Err(format!("move {} ({}) is not a check", i + 1, m.to_usi()));
        }
    }
    if !p.is_checkmate() {
        return Err("the line does not end in checkmate".into());
    }
    Ok(())
}

/// What a bounded search proved.
enum Proof {
    /// Mate, with the length of the proof found (an upper bound of the shortest).
    Mate(u16),
    /// No mate within the depth searched (`NO_DEPTH_LIMIT`: none at all).
    NoMate(u16),
}

impl Search<'_> {
    /// Searches `pos` (an OR node when `or`) with `rem` plies left until it is proven or
    /// disproven, or a limit stops it.
    fn prove_full(
        &mut self,
        pos: &Position,
        or: bool,
        rem: u16,
        path: u64,
    ) -> Result<Proof, Limit> {
        let key = board_key(pos);
        let hand = self.hand_of(pos);
        if let Some(f) = self.tt.lookup(key, hand, rem, path) {
            if f.pn == 0 {
                return Ok(Proof::Mate(f.len));
            }
            if f.dn == 0 {
                return Ok(Proof::NoMate(f.len));
            }
        }
        loop {
            let v = self.mid(pos, key, hand, or, tt::INF, tt::INF, rem, path);
            if let Some(l) = self.stopped {
                return Err(l);
            }
            if v.pn == 0 {
                return Ok(Proof::Mate(v.len));
            }
            if v.dn == 0 {
                return Ok(Proof::NoMate(v.len));
            }
        }
    }

    /// Whether there is a mate within `rem` plies: its proof's length, or `None`.
    fn prove(
        &mut self,
        pos: &Position,
        or: bool,
        rem: u16,
        path: u64,
    ) -> Result<Option<u16>, Limit> {
        Ok(match self.prove_full(pos, or, rem, path)? {
            Proof::Mate(l) => Some(l),
            Proof::NoMate(_) => None,
        })
    }

    /// A mating line within `rem` plies from the OR node `pos` (proven mate within `rem`):
    /// at each attacker move a check whose proof is shortest, at each defender move the
    /// reply whose proof is longest. Every defender reply along the line is proven again if
    /// the table lost it.
    fn any_line(&mut self, pos: &Position, rem: u16) -> Result<Vec<Move>, Halt> {
        let mut line = Vec::new();
        let mut p = pos.clone();
        let mut path = 0u64;
        let mut rem = rem;
        let mut pushed = Vec::new();
        let result = (|| -> Result<(), Halt> {
            loop {
                let or = line.len() % 2 == 0;
                let full = dfpn::full_key(board_key(&p), self.hand_of(&p));
                let cpath = path_step(path, full);
                let mut best: Option<(Move, u16)> = None;
                let moves = if or {
                    checks(&p)
                } else {
                    p.legal_moves().iter().copied().collect()
                };
                if !or && moves.is_empty() {
                    return Ok(());
                }
                if rem == 0 {
                    return Err(Halt::Broken("the proof ran out of plies".into()));
                }
                self.path.insert(full);
                pushed.push(full);
                for m in moves {
                    let mut c = p.clone();
                    c.play_unchecked(m);
                    let crem = if !or && self.futile && futile::is_futile(&p, m) {
                        rem + 1
                    } else {
                        rem - 1
                    };
                    if self
                        .path
                        .contains(&dfpn::full_key(board_key(&c), self.hand_of(&c)))
                    {
                        if or {
                            continue;
                        }
                        return Err(Halt::Broken("a defender reply repeats the line".into()));
                    }
                    let proof = if or {
                        // Known proofs only first: a fresh search for each check is wasteful.
                        match self.tt.lookup(board_key(&c), self.hand_of(&c), crem, cpath) {
                            Some(f) if f.pn == 0 => Some(f.len),
                            _ if !c.has_legal_moves() => Some(0),
                            _ => None,
                        }
                    } else {
                        match self.prove(&c, true, crem, cpath)? {
                            Some(l) => Some(l),
                            None => {
                                return Err(Halt::Broken(format!(
                                    "defender reply {} is not refuted",
                                    m.to_usi()
                                )));
                            }
                        }
                    };
                    if let Some(l) = proof {
                        let better = match best {
                            None => true,
                            Some((_, b)) => {
                                if or {
                                    l < b
                                } else {
                                    l > b
                                }
                            }
                        };
                        if better {
                            best = Some((m, l));
                        }
                    }
                }
                if best.is_none() && or {
                    // The table lost the proof of every check: prove them one by one.
                    best = self
                        .first_mating_check(&p, rem - 1, cpath, None)?
                        .map(|(m, _, l)| (m, l));
                }
                let Some((m, _)) = best else {
                    return Err(Halt::Limit(Limit::Memory));
                };
                let crem = if !or && self.futile && futile::is_futile(&p, m) {
                    rem + 1
                } else {
                    rem - 1
                };
                p.play_unchecked(m);
                line.push(m);
                rem = crem;
                path = cpath;
            }
        })();
        for full in pushed {
            self.path.remove(&full);
        }
        result.map(|()| line)
    }

    /// The line of a problem whose exact (minimal) length `len` is known: the attacker plays a
    /// move that keeps the mate within the length, the defender the longest defence; with
    /// `tsume`, among equally long defences a real one before a futile interposition, then the
    /// one leaving the attacker fewest pieces in hand at the end.
    fn exact_line(&mut self, pos: &Position, len: u16, tsume: bool) -> Result<Vec<Move>, Halt> {
        let mut out = Vec::new();
        self.exact_from(pos, true, len, 0, tsume, &mut out)?;
        Ok(out)
    }

    fn exact_from(
        &mut self,
        p: &Position,
        or: bool,
        v: u16,
        path: u64,
        tsume: bool,
        out: &mut Vec<Move>,
    ) -> Result<(), Halt> {
        let full = dfpn::full_key(board_key(p), self.hand_of(p));
        let cpath = path_step(path, full);
        self.path.insert(full);
        let r = self.exact_step(p, or, v, cpath, tsume, out);
        self.path.remove(&full);
        r
    }

    fn exact_step(
        &mut self,
        p: &Position,
        or: bool,
        v: u16,
        cpath: u64,
        tsume: bool,
        out: &mut Vec<Move>,
    ) -> Result<(), Halt> {
        if or {
            if v == 0 {
                return Err(Halt::Broken("an attacker node of length 0".into()));
            }
            // After an interposing drop, its capture first: a futile drop's capture is what
            // makes the pair uncounted.
            let prefer = out.last().filter(|m| m.is_drop()).map(|m| m.to());
            if let Some((m, c, _)) = self.first_mating_check(p, v - 1, cpath, prefer)? {
                out.push(m);
                return self.exact_from(&c, false, v - 1, cpath, tsume, out);
            }
            Err(Halt::Broken(
                "no check keeps the mate within its length".into(),
            ))
        } else {
            let moves: Vec<Move> = p.legal_moves().iter().copied().collect();
            if moves.is_empty() {
                return Ok(());
            }
            // The longest defences: proven within their share of `v`, not within two less.
            let mut longest: Vec<(Move, bool, Position, u16)> = Vec::new();
            for m in moves {
                let mut c = p.clone();
                c.play_unchecked(m);
                let futile = self.futile && futile::is_futile(p, m);
                let cv = if futile {
                    v + 1
                } else if v == 0 {
                    return Err(Halt::Broken(
                        "a defender node of length 0 with a real reply".into(),
                    ));
                } else {
                    v - 1
                };
                if self
                    .path
                    .contains(&dfpn::full_key(board_key(&c), self.hand_of(&c)))
                {
                    return Err(Halt::Broken("a defender reply repeats the line".into()));
                }
                if self.prove(&c, true, cv, cpath)?.is_none() {
                    return Err(Halt::Broken(format!(
                        "defender reply {} escapes the length",
                        m.to_usi()
                    )));
                }
                let shorter = cv >= 3 && self.prove(&c, true, cv - 2, cpath)?.is_some();
                if !shorter {
                    longest.push((m, futile, c, cv));
                }
            }
            if longest.is_empty() {
                return Err(Halt::Broken("no defence is as long as the length".into()));
            }
            if tsume && longest.iter().any(|x| !x.1) {
                longest.retain(|x| !x.1);
            }
            if !tsume || longest.len() == 1 {
                let (m, _, c, cv) = longest.swap_remove(0);
                out.push(m);
                return self.exact_from(&c, true, cv, cpath, tsume, out);
            }
            // Fewest attacker pieces in hand at the end (a few candidates at most).
            let mut best: Option<(u32, Vec<Move>)> = None;
            for (m, _, c, cv) in longest.into_iter().take(8) {
                let mut line = vec![m];
                self.exact_from(&c, true, cv, cpath, tsume, &mut line)?;
                let left = self.hand_left(p, &line);
                if best.as_ref().is_none_or(|b| left < b.0) {
                    best = Some((left, line));
                }
            }
            if let Some((_, line)) = best {
                out.extend(line);
            }
            Ok(())
        }
    }

    /// The attacker's pieces in hand at the end of `line` (played from `p`, the defender to
    /// move), not counting those it took from futile interpositions: composed answers leave
    /// the interpositions out, so those pieces are never in the attacker's hand there.
    fn hand_left(&self, p: &Position, line: &[Move]) -> u32 {
        let mut end = p.clone();
        let mut gained = 0u32;
        for (i, mv) in line.iter().enumerate() {
            let taken_back = line.get(i + 1).is_some_and(|r| r.to() == mv.to());
            if i % 2 == 0 && self.futile && taken_back && futile::is_futile(&end, *mv) {
                gained += 1;
            }
            end.play_unchecked(*mv);
        }
        PackedHand::new(end.hand(self.attacker))
            .map_or(u32::MAX, |h| h.total().saturating_sub(gained))
    }

    /// The first check of `p` (not back on the path) after which a mate within `rem` plies
    /// is proven: the move, the position after it and the proof's length.
    fn first_mating_check(
        &mut self,
        p: &Position,
        rem: u16,
        cpath: u64,
        prefer: Option<shogi_core::Square>,
    ) -> Result<Option<(Move, Position, u16)>, Limit> {
        let mut moves = checks(p);
        if let Some(sq) = prefer {
            moves.sort_by_key(|m| m.to() != sq);
        }
        for m in moves {
            let mut c = p.clone();
            c.play_unchecked(m);
            if self
                .path
                .contains(&dfpn::full_key(board_key(&c), self.hand_of(&c)))
            {
                continue;
            }
            if let Some(l) = self.prove(&c, false, rem, cpath)? {
                return Ok(Some((m, c, l)));
            }
        }
        Ok(None)
    }
}
