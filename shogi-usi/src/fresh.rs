//! What gives an engine, between two searches, the state of a process just started: decided
//! once per engine here, from measurements, and applied by [`crate::Engine`] before every
//! search when [`crate::StartOptions::fresh_state`] is set.
//!
//! Each method below was compared with a fresh process per position on 120 positions of real
//! games (`scripts/fresh-state-check.py`: bestmove, score, PV and node count all equal):
//!
//! | engine | nothing | `usinewgame` (+ `isready`) | chosen | its cost |
//! |---|---|---|---|---|
//! | fairy-stockfish 11.1, `go nodes 10000` | 1/120 | 91/120 | `setoption Threads` + `isready`: 120/120 | 3.0 ms |
//! | YaneuraOu 9.70 (material), `go nodes 20000` | 1/120 | `usinewgame` alone 1/120, with `isready` 120/120 | `isready`: 120/120 | 120-150 ms |
//! | gpsusi r3033, `-N 1 --node-count-hard-limit 20000`, 40 positions | 39/40 | 39/40 (ignored by gpsusi) | nothing | 0 |
//!
//! - fairy-stockfish: `usinewgame` clears the hash and histories but not the per-thread pawn
//!   and material tables; setting `Threads` (even to its value) rebuilds the threads and
//!   clears the hash, which is all of it, so `usinewgame` is not sent as well (it would clear
//!   the hash a second time: 4.4 ms instead of 3.0).
//! - YaneuraOu: `usinewgame` clears the histories but not the hash table; `isready` clears
//!   both. Most of its cost is sleeping inside the engine (it waits 100 ms for a helper thread
//!   to start, and up to 100 ms more for it to end): more engine processes than searches hide
//!   it, on cores the searches leave free; its CPU, about 25 ms a time with `Threads 1` (it
//!   clears the hash and the thread's tables; 192 ms wall, measured under load), is the
//!   engine's work for the fresh state and no process count hides it on busy cores.
//!   `setoption name Threads` alone (no `isready`) rebuilds its threads and hash on the
//!   setoption line itself, but is not a fresh state: 3/120 equal (106/120 same move, most
//!   differing in the node count), and it costs about 40 ms of CPU (measured under load,
//!   `scripts/fresh-state-check.py --method threads-only`).
//! - gpsusi builds a new searcher for every `go` on a position sent without moves, so nothing
//!   is needed for the search; the one difference in 40 is its resignation (a fresh process
//!   resigned a lost position, one that had searched before played its PV's move), which no
//!   command resets (only a restart, 1-4 s); a position sent with moves that continue the last one reuses the searcher,
//!   and the only way to a fresh one is a restart.
//! - Any other engine gets all of them (`Threads` when offered, `usinewgame`, `isready`).

use std::fmt;

/// The commands sent before a search so that its result equals a fresh process's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FreshState {
    /// Nothing before a position sent without moves; a restart before one sent with moves
    /// once the process has searched (gpsusi).
    NewSearcher,
    /// `isready` (YaneuraOu).
    IsReady,
    /// `setoption name Threads value N` (the value it has) and `isready` (fairy-stockfish).
    Threads,
    /// `setoption name Threads` (when offered), `usinewgame` and `isready`: an engine not
    /// measured here.
    All,
}

impl FreshState {
    /// The method for the engine named `id_name` (its `id name` line), which offers a
    /// `Threads` option or not.
    pub fn for_engine(id_name: &str) -> FreshState {
        if id_name.starts_with("gpsshogi") {
            FreshState::NewSearcher
        } else if id_name.starts_with("Fairy-Stockfish 11.") {
            FreshState::Threads
        } else if id_name.starts_with("YaneuraOu") {
            FreshState::IsReady
        } else {
            FreshState::All
        }
    }

    /// Options set at start (unless the caller sets them) so that what the engine prints does
    /// not depend on time: YaneuraOu prints its PV at most every `PvInterval` ms (300 by
    /// default), and which lines it printed changes the depth of its last one, so on a loaded
    /// machine the same search reported another depth (move, score, PV and nodes equal);
    /// `PvInterval 0` prints every PV (2 vs 8 jobs under a load of 15: equal tables).
    pub fn quiet_options(self) -> &'static [(&'static str, &'static str)] {
        match self {
            FreshState::IsReady => &[("PvInterval", "0")],
            _ => &[],
        }
    }

    /// How many processes to start per search running at once, so that preparing the next
    /// search ([`crate::Engine::prepare`]) hides behind another process's search: 4 for
    /// `isready` (YaneuraOu's sleeps at least 100 ms, measured 120-150 ms with a 16 MiB
    /// hash, against about 35 ms of search at 100,000 nodes: a process spends about a
    /// quarter of its time searching), 1 for the others (their fresh state costs a few ms or
    /// nothing). A caller that times the searches may start more (the analysis does, up to
    /// 8 when the searches are short).
    pub fn processes_per_search(self) -> usize {
        match self {
            FreshState::IsReady => 4,
            FreshState::NewSearcher | FreshState::Threads | FreshState::All => 1,
        }
    }

    /// A short stable name (part of the analysis cache's key).
    pub fn name(self) -> &'static str {
        match self {
            FreshState::NewSearcher => "new-searcher",
            FreshState::IsReady => "isready",
            FreshState::Threads => "threads",
            FreshState::All => "threads-usinewgame-isready",
        }
    }
}

impl fmt::Display for FreshState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measured_engines_get_their_method_and_others_everything() {
        assert_eq!(
            FreshState::for_engine("Fairy-Stockfish 11.1 LB 64"),
            FreshState::Threads
        );
        assert_eq!(
            FreshState::for_engine("YaneuraOu MaterialLv1 9.70git 64AVX2"),
            FreshState::IsReady
        );
        assert_eq!(
            FreshState::for_engine("gpsshogi (smp) vm r3033"),
            FreshState::NewSearcher
        );
        // A later fairy-stockfish was not measured: it gets every command.
        assert_eq!(
            FreshState::for_engine("Fairy-Stockfish 14"),
            FreshState::All
        );
        assert_eq!(FreshState::for_engine("fake-usi"), FreshState::All);
        assert_eq!(FreshState::IsReady.quiet_options(), [("PvInterval", "0")]);
        assert_eq!(FreshState::IsReady.processes_per_search(), 4);
        assert_eq!(FreshState::Threads.processes_per_search(), 1);
        assert!(FreshState::Threads.quiet_options().is_empty());
    }
}
