//! Search limits and the `go` command they become.

use std::time::Duration;

/// What bounds a search: the fields become `go` tokens. Several may be combined (the engine
/// stops at the first reached). `Limit::default()` is an empty `go` (engine-defined).
///
/// ```
/// use shogi_usi::Limit;
/// use std::time::Duration;
///
/// assert_eq!(Limit::nodes(10_000).go_command(false), "go nodes 10000");
/// let clock = Limit {
///     btime: Some(Duration::from_secs(60)),
///     wtime: Some(Duration::from_secs(50)),
///     byoyomi: Some(Duration::from_secs(3)),
///     ..Limit::default()
/// };
/// assert_eq!(clock.go_command(false), "go btime 60000 wtime 50000 byoyomi 3000");
/// // fairy-stockfish 11.1 reads the clocks swapped: the engine layer can swap them back.
/// assert_eq!(clock.go_command(true), "go btime 50000 wtime 60000 byoyomi 3000");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Limit {
    /// `go nodes N`.
    pub nodes: Option<u64>,
    /// `go depth N`.
    pub depth: Option<u32>,
    /// `go movetime MS`.
    pub movetime: Option<Duration>,
    /// `go byoyomi MS`.
    pub byoyomi: Option<Duration>,
    /// `go btime MS`: sente's remaining time.
    pub btime: Option<Duration>,
    /// `go wtime MS`: gote's remaining time.
    pub wtime: Option<Duration>,
    /// `go binc MS`: sente's increment.
    pub binc: Option<Duration>,
    /// `go winc MS`: gote's increment.
    pub winc: Option<Duration>,
    /// `go infinite`: searches until `stop` (use [`crate::Engine::start_search`] and
    /// [`crate::Engine::stop`]).
    pub infinite: bool,
}

fn ms(d: Duration) -> u128 {
    d.as_millis()
}

impl Limit {
    /// `go nodes n`.
    pub fn nodes(n: u64) -> Limit {
        Limit {
            nodes: Some(n),
            ..Limit::default()
        }
    }

    /// `go depth d`.
    pub fn depth(d: u32) -> Limit {
        Limit {
            depth: Some(d),
            ..Limit::default()
        }
    }

    /// `go movetime ms`.
    pub fn movetime(ms: u64) -> Limit {
        Limit {
            movetime: Some(Duration::from_millis(ms)),
            ..Limit::default()
        }
    }

    /// `go btime 0 wtime 0 byoyomi ms` (the form gpsusi accepts).
    pub fn byoyomi(ms: u64) -> Limit {
        Limit {
            btime: Some(Duration::ZERO),
            wtime: Some(Duration::ZERO),
            byoyomi: Some(Duration::from_millis(ms)),
            ..Limit::default()
        }
    }

    /// `go infinite`.
    pub fn infinite() -> Limit {
        Limit {
            infinite: true,
            ..Limit::default()
        }
    }

    /// The `go` line. With `swap_clocks` the sente and gote clocks (and increments) trade
    /// places, for engines that read them swapped (fairy-stockfish 11.1 in USI mode).
    pub fn go_command(&self, swap_clocks: bool) -> String {
        let mut s = String::from("go");
        let (bt, wt, bi, wi) = if swap_clocks {
            (self.wtime, self.btime, self.winc, self.binc)
        } else {
            (self.btime, self.wtime, self.binc, self.winc)
        };
        if let Some(t) = bt {
            s += &format!(" btime {}", ms(t));
        }
        if let Some(t) = wt {
            s += &format!(" wtime {}", ms(t));
        }
        if let Some(t) = self.byoyomi {
            s += &format!(" byoyomi {}", ms(t));
        }
        if let Some(t) = bi {
            s += &format!(" binc {}", ms(t));
        }
        if let Some(t) = wi {
            s += &format!(" winc {}", ms(t));
        }
        if let Some(n) = self.depth {
            s += &format!(" depth {n}");
        }
        if let Some(n) = self.nodes {
            s += &format!(" nodes {n}");
        }
        if let Some(t) = self.movetime {
            s += &format!(" movetime {}", ms(t));
        }
        if self.infinite {
            s += " infinite";
        }
        s
    }

    /// The longest the search may take by its clock fields, for the side to move (`black`:
    /// sente to move): movetime, or the mover's remaining time + increment + byoyomi.
    /// `None` when only nodes/depth (or nothing, or `infinite`) bound it.
    pub fn time_budget(&self, black: bool) -> Option<Duration> {
        if self.infinite {
            return None;
        }
        let (time, inc) = if black {
            (self.btime, self.binc)
        } else {
            (self.wtime, self.winc)
        };
        let clock = match (time, inc, self.byoyomi) {
            (None, None, None) => None,
            (t, i, b) => {
                Some(t.unwrap_or_default() + i.unwrap_or_default() + b.unwrap_or_default())
            }
        };
        match (self.movetime, clock) {
            (Some(m), Some(c)) => Some(m.min(c)),
            (Some(m), None) => Some(m),
            (None, c) => c,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Black 40 s + 10 s a move, White 50 s + 5 s.
    fn fischer() -> Limit {
        Limit {
            btime: Some(Duration::from_secs(40)),
            wtime: Some(Duration::from_secs(50)),
            binc: Some(Duration::from_secs(10)),
            winc: Some(Duration::from_secs(5)),
            ..Limit::default()
        }
    }

    #[test]
    fn go_lines() {
        assert_eq!(Limit::default().go_command(false), "go");
        assert_eq!(Limit::depth(6).go_command(false), "go depth 6");
        assert_eq!(Limit::movetime(1500).go_command(false), "go movetime 1500");
        assert_eq!(
            Limit::byoyomi(2000).go_command(false),
            "go btime 0 wtime 0 byoyomi 2000"
        );
        assert_eq!(Limit::infinite().go_command(false), "go infinite");
        let inc = fischer();
        assert_eq!(
            inc.go_command(false),
            "go btime 40000 wtime 50000 binc 10000 winc 5000"
        );
        assert_eq!(
            inc.go_command(true),
            "go btime 50000 wtime 40000 binc 5000 winc 10000"
        );
    }

    #[test]
    fn budgets() {
        assert_eq!(Limit::nodes(5).time_budget(true), None);
        assert_eq!(Limit::infinite().time_budget(true), None);
        assert_eq!(
            Limit::movetime(300).time_budget(false),
            Some(Duration::from_millis(300))
        );
        assert_eq!(
            Limit::byoyomi(2000).time_budget(true),
            Some(Duration::from_secs(2))
        );
        let inc = fischer();
        assert_eq!(inc.time_budget(true), Some(Duration::from_secs(50)));
        assert_eq!(inc.time_budget(false), Some(Duration::from_secs(55)));
    }
}
