//! Time controls and the clocks we keep from our side of the pipe.
//!
//! One rule per fact: the clock gives each move's [`Limit`] ([`Clock::limit`]); shogi-usi's
//! [`Limit`] writes it as `go` and reckons its time budget ([`Limit::time_budget`]), which is
//! both what the engine layer waits for and what a side may use here ([`Clock::allowed`]);
//! the clock charges the time used ([`Clock::spend`]).
//!
//! The time of a move is measured by us from writing `go` to reading `bestmove`. A side loses
//! on time when a move takes longer than what it had plus the margin (the allowance for pipes
//! and process scheduling). What a side has for one move:
//!
//! * byoyomi B, optionally after main time T: its remaining main time plus B; the main time
//!   is used first and never goes below 0 (byoyomi is not banked), as on shogi-server;
//! * Fischer (T with increment I): remaining + I, the USI convention that the increment for
//!   the current move is already granted (ENGINE-FACTS §1.3): the engine is sent the remaining
//!   time *before* the increment with `binc`/`winc`, and afterwards remaining = remaining + I −
//!   used;
//! * sudden death (T alone): the remaining time;
//! * movetime M: M for every move (`go movetime M`);
//! * nodes N: no clock (`go nodes N`); a move that takes longer than the hang timeout
//!   (`nodes_timeout_ms`) is treated as a hang.
//!
//! Engines with known quirks are the engine layer's: it writes fairy-stockfish 11's clocks
//! swapped, and refuses gpsusi the limits it aborts on ([`shogi_usi::Engine::check_limit`]).

use crate::error::{MatchError, Parameter};
use serde::Serialize;
use shogi_core::Color;
use shogi_usi::Limit;
use std::fmt;
use std::time::Duration;

/// A time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TimeControl {
    /// Main time then byoyomi per move (either may be 0, not both).
    Byoyomi {
        /// Main time, ms.
        main_ms: u64,
        /// Byoyomi, ms.
        byoyomi_ms: u64,
    },
    /// Main time plus an increment per move.
    Fischer {
        /// Main time, ms.
        main_ms: u64,
        /// Increment, ms.
        inc_ms: u64,
    },
    /// Main time only.
    SuddenDeath {
        /// Main time, ms.
        main_ms: u64,
    },
    /// A fixed time per move.
    MoveTime {
        /// Time per move, ms.
        ms: u64,
    },
    /// A node count per move, no clock.
    Nodes {
        /// Nodes per move.
        nodes: u64,
    },
}

impl TimeControl {
    /// The control that main time, byoyomi, increment, movetime and nodes (each in ms, or a
    /// count for nodes) describe together, or which of them do not go together. The values
    /// themselves are checked by [`TimeControl::validate`].
    pub fn from_parts(
        time: Option<u64>,
        byoyomi: Option<u64>,
        inc: Option<u64>,
        movetime: Option<u64>,
        nodes: Option<u64>,
    ) -> Result<TimeControl, MatchError> {
        let clocked = time.is_some() || byoyomi.is_some() || inc.is_some();
        let clock = vec![Parameter::Time, Parameter::Byoyomi, Parameter::Inc];
        let excludes = |parameter, with| {
            Err(MatchError::Conflict {
                parameter,
                with,
                why: None,
            })
        };
        let tc = match (movetime, nodes) {
            (Some(_), Some(_)) => return excludes(Parameter::Movetime, vec![Parameter::Nodes]),
            (Some(_), None) if clocked => return excludes(Parameter::Movetime, clock),
            (None, Some(_)) if clocked => return excludes(Parameter::Nodes, clock),
            (Some(ms), None) => TimeControl::MoveTime { ms },
            (None, Some(n)) => TimeControl::Nodes { nodes: n },
            (None, None) => match (time, byoyomi, inc) {
                (_, Some(_), Some(_)) => {
                    return Err(MatchError::Conflict {
                        parameter: Parameter::Byoyomi,
                        with: vec![Parameter::Inc],
                        why: Some("USI sends one or the other"),
                    });
                }
                (None, None, None) => {
                    return Err(MatchError::Missing {
                        what: "time control",
                        one_of: vec![
                            Parameter::Byoyomi,
                            Parameter::Time,
                            Parameter::Movetime,
                            Parameter::Nodes,
                        ],
                    });
                }
                (None, None, Some(_)) => {
                    return Err(MatchError::Needs {
                        parameter: Parameter::Inc,
                        needs: Parameter::Time,
                    });
                }
                (t, Some(b), None) => TimeControl::Byoyomi {
                    main_ms: t.unwrap_or(0),
                    byoyomi_ms: b,
                },
                (Some(t), None, Some(i)) => TimeControl::Fischer {
                    main_ms: t,
                    inc_ms: i,
                },
                (Some(t), None, None) => TimeControl::SuddenDeath { main_ms: t },
            },
        };
        tc.validate()?;
        Ok(tc)
    }

    /// Whether the control can be met: some time per move, at least one node.
    pub fn validate(&self) -> Result<(), MatchError> {
        let bad = |p: Parameter, m: &str| Err(MatchError::setting(p, m));
        match *self {
            TimeControl::MoveTime { ms: 0 } => {
                bad(Parameter::Movetime, "0 cannot be met: give at least 1 ms")
            }
            TimeControl::Nodes { nodes: 0 } => {
                bad(Parameter::Nodes, "0 cannot be searched: give at least 1")
            }
            TimeControl::Byoyomi {
                main_ms: 0,
                byoyomi_ms: 0,
            } => bad(
                Parameter::Byoyomi,
                "0 with no main time cannot be met (no time at all)",
            ),
            TimeControl::Fischer {
                main_ms: 0,
                inc_ms: 0,
            } => bad(
                Parameter::Inc,
                "0 with main time 0 cannot be met (no time at all)",
            ),
            TimeControl::SuddenDeath { main_ms: 0 } => bad(
                Parameter::Time,
                "0 with no byoyomi or increment cannot be met",
            ),
            _ => Ok(()),
        }
    }

    /// The CSA V3 `$TIME` value: main+byoyomi+increment, in seconds.
    pub fn csa_time(&self) -> Option<String> {
        let s = |ms: u64| {
            if ms % 1000 == 0 {
                format!("{}", ms / 1000)
            } else {
                format!("{}.{:03}", ms / 1000, ms % 1000)
            }
        };
        match *self {
            TimeControl::Byoyomi {
                main_ms,
                byoyomi_ms,
            } => Some(format!("{}+{}+0", s(main_ms), s(byoyomi_ms))),
            TimeControl::Fischer { main_ms, inc_ms } => {
                Some(format!("{}+0+{}", s(main_ms), s(inc_ms)))
            }
            TimeControl::SuddenDeath { main_ms } => Some(format!("{}+0+0", s(main_ms))),
            _ => None,
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::Byoyomi {
                main_ms,
                byoyomi_ms,
            } => write!(f, "{main_ms} ms + byoyomi {byoyomi_ms} ms"),
            TimeControl::Fischer { main_ms, inc_ms } => {
                write!(f, "{main_ms} ms + {inc_ms} ms per move")
            }
            TimeControl::SuddenDeath { main_ms } => write!(f, "{main_ms} ms sudden death"),
            TimeControl::MoveTime { ms } => write!(f, "{ms} ms per move"),
            TimeControl::Nodes { nodes } => write!(f, "{nodes} nodes per move"),
        }
    }
}

/// The result of a move on the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flagged {
    /// Time used, ms.
    pub elapsed_ms: u64,
    /// Time it had, ms (margin excluded).
    pub allowed_ms: u64,
}

/// Both sides' clocks under a time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    margin_ms: u64,
    nodes_timeout_ms: u64,
    remaining: [u64; 2],
}

impl Clock {
    /// Fresh clocks.
    pub fn new(control: TimeControl, margin_ms: u64, nodes_timeout_ms: u64) -> Clock {
        let main = match control {
            TimeControl::Byoyomi { main_ms, .. }
            | TimeControl::Fischer { main_ms, .. }
            | TimeControl::SuddenDeath { main_ms } => main_ms,
            _ => 0,
        };
        Clock {
            control,
            margin_ms,
            nodes_timeout_ms,
            remaining: [main; 2],
        }
    }

    /// The remaining main time of a side, ms.
    pub fn remaining(&self, side: Color) -> u64 {
        self.remaining[side.index()]
    }

    /// What `side` may use on this move, ms: the budget of [`Clock::limit`] as the engine
    /// layer reckons it ([`Limit::time_budget`]: main time left plus byoyomi or increment, or
    /// the movetime), or for a node count, which has no clock, the hang timeout.
    pub fn allowed(&self, side: Color) -> u64 {
        self.limit()
            .time_budget(side == Color::Black)
            .map_or(self.nodes_timeout_ms, |d| d.as_millis() as u64)
    }

    /// How long to wait for `bestmove` before calling the move lost on time, ms.
    pub fn deadline(&self, side: Color) -> u64 {
        self.allowed(side) + self.margin_ms
    }

    /// The search limit of the next move: both clocks and the byoyomi or increments, or the
    /// movetime, or the node count (the engine layer writes it as `go`, swapping the clocks
    /// for an engine that reads them swapped).
    pub fn limit(&self) -> Limit {
        let ms = Duration::from_millis;
        let (b, w) = (ms(self.remaining[0]), ms(self.remaining[1]));
        let clocks = Limit {
            btime: Some(b),
            wtime: Some(w),
            ..Limit::default()
        };
        match self.control {
            TimeControl::Byoyomi { byoyomi_ms, .. } => Limit {
                byoyomi: Some(ms(byoyomi_ms)),
                ..clocks
            },
            TimeControl::Fischer { inc_ms, .. } => Limit {
                binc: Some(ms(inc_ms)),
                winc: Some(ms(inc_ms)),
                ..clocks
            },
            TimeControl::SuddenDeath { .. } => clocks,
            TimeControl::MoveTime { ms: m } => Limit::movetime(m),
            TimeControl::Nodes { nodes } => Limit::nodes(nodes),
        }
    }

    /// Charges `elapsed_ms` to `side`: an error when that is more than it had plus the margin.
    pub fn spend(&mut self, side: Color, elapsed_ms: u64) -> Result<(), Flagged> {
        let allowed = self.allowed(side);
        if elapsed_ms > allowed + self.margin_ms {
            return Err(Flagged {
                elapsed_ms,
                allowed_ms: allowed,
            });
        }
        let r = &mut self.remaining[side.index()];
        *r = match self.control {
            TimeControl::Byoyomi { .. } | TimeControl::SuddenDeath { .. } => {
                r.saturating_sub(elapsed_ms)
            }
            TimeControl::Fischer { inc_ms, .. } => (*r + inc_ms).saturating_sub(elapsed_ms),
            _ => 0,
        };
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_make_controls_or_clear_errors() {
        let tc = |t, b, i, m, n| TimeControl::from_parts(t, b, i, m, n);
        assert_eq!(
            tc(None, Some(100), None, None, None).unwrap(),
            (TimeControl::Byoyomi {
                main_ms: 0,
                byoyomi_ms: 100
            })
        );
        assert_eq!(
            tc(Some(60000), None, Some(1000), None, None).unwrap(),
            (TimeControl::Fischer {
                main_ms: 60000,
                inc_ms: 1000
            })
        );
        assert_eq!(
            tc(Some(1000), None, None, None, None).unwrap(),
            (TimeControl::SuddenDeath { main_ms: 1000 })
        );
        for bad in [
            tc(None, None, None, None, None),
            tc(None, Some(0), None, None, None),
            tc(Some(0), None, None, None, None),
            tc(None, Some(100), Some(100), None, None),
            tc(None, None, Some(100), None, None),
            tc(Some(100), None, None, Some(100), None),
            tc(None, None, None, Some(0), None),
            tc(None, None, None, Some(10), Some(10)),
        ] {
            assert!(bad.is_err(), "{bad:?}");
        }
    }

    #[test]
    fn byoyomi_is_not_banked_and_main_time_is_used_first() {
        let tc = TimeControl::Byoyomi {
            main_ms: 1000,
            byoyomi_ms: 500,
        };
        let mut c = Clock::new(tc, 50, 0);
        assert_eq!(c.allowed(Color::Black), 1500);
        assert_eq!(
            c.limit().go_command(false),
            "go btime 1000 wtime 1000 byoyomi 500"
        );
        c.spend(Color::Black, 1200).unwrap();
        assert_eq!(c.remaining(Color::Black), 0);
        assert_eq!(c.allowed(Color::Black), 500);
        // 550 ms is inside the margin, 551 is not.
        c.spend(Color::Black, 550).unwrap();
        assert_eq!(
            c.spend(Color::Black, 551),
            Err(Flagged {
                elapsed_ms: 551,
                allowed_ms: 500
            })
        );
        assert_eq!(c.remaining(Color::White), 1000);
    }

    #[test]
    fn fischer_grants_the_increment_of_the_current_move() {
        let tc = TimeControl::Fischer {
            main_ms: 40000,
            inc_ms: 10000,
        };
        let mut c = Clock::new(tc, 0, 0);
        assert_eq!(c.allowed(Color::Black), 50000);
        c.spend(Color::Black, 45000).unwrap();
        assert_eq!(c.remaining(Color::Black), 5000);
        c.spend(Color::White, 1000).unwrap();
        assert_eq!(c.remaining(Color::White), 49000);
        assert_eq!(
            c.limit().go_command(false),
            "go btime 5000 wtime 49000 binc 10000 winc 10000"
        );
        assert!(c.spend(Color::Black, 15001).is_err());
    }

    #[test]
    fn fairy_11_gets_its_clock_swapped() {
        // Which engines read the clocks swapped is shogi-usi's (its quirks); the swap is the
        // Limit's.
        let tc = TimeControl::SuddenDeath { main_ms: 3000 };
        let mut c = Clock::new(tc, 0, 0);
        c.spend(Color::Black, 1000).unwrap();
        assert_eq!(c.limit().go_command(false), "go btime 2000 wtime 3000");
        assert_eq!(c.limit().go_command(true), "go btime 3000 wtime 2000");
    }

    #[test]
    fn movetime_and_nodes() {
        let mut c = Clock::new(TimeControl::MoveTime { ms: 100 }, 20, 0);
        assert_eq!(c.limit().go_command(false), "go movetime 100");
        assert_eq!(c.deadline(Color::White), 120);
        assert!(c.spend(Color::White, 120).is_ok());
        assert!(c.spend(Color::White, 121).is_err());
        let c = Clock::new(TimeControl::Nodes { nodes: 5000 }, 20, 30000);
        assert_eq!(c.limit().go_command(false), "go nodes 5000");
        assert_eq!(c.deadline(Color::Black), 30020);
    }

    #[test]
    fn sudden_death_charges_the_time_used_and_flags_past_the_margin() {
        let mut c = Clock::new(TimeControl::SuddenDeath { main_ms: 3000 }, 100, 0);
        assert_eq!(c.limit().go_command(false), "go btime 3000 wtime 3000");
        assert_eq!(c.deadline(Color::Black), 3100);
        c.spend(Color::Black, 2500).unwrap();
        assert_eq!(c.remaining(Color::Black), 500);
        assert_eq!(c.allowed(Color::Black), 500);
        assert_eq!(c.limit().go_command(false), "go btime 500 wtime 3000");
        // Within the margin the move stands and the clock stays at 0; past it, time is up.
        c.spend(Color::Black, 600).unwrap();
        assert_eq!(c.remaining(Color::Black), 0);
        assert_eq!(
            c.spend(Color::Black, 101),
            Err(Flagged {
                elapsed_ms: 101,
                allowed_ms: 0
            })
        );
    }

    #[test]
    fn the_deadline_is_the_engine_layers_budget_plus_the_margin() {
        // The clock and the engine layer's wait for `bestmove` agree: the budget is decided by
        // `Limit::time_budget` alone, for both sides of every control.
        let controls = [
            TimeControl::Byoyomi {
                main_ms: 1000,
                byoyomi_ms: 300,
            },
            TimeControl::Fischer {
                main_ms: 1000,
                inc_ms: 300,
            },
            TimeControl::SuddenDeath { main_ms: 1000 },
            TimeControl::MoveTime { ms: 300 },
        ];
        for tc in controls {
            let mut c = Clock::new(tc, 50, 9999);
            c.spend(Color::Black, 200).unwrap();
            for side in [Color::Black, Color::White] {
                let budget = c.limit().time_budget(side == Color::Black).unwrap();
                assert_eq!(c.deadline(side), budget.as_millis() as u64 + 50, "{tc:?}");
            }
        }
        let c = Clock::new(TimeControl::Nodes { nodes: 10 }, 50, 9999);
        assert_eq!(c.limit().time_budget(true), None);
        assert_eq!(c.deadline(Color::Black), 9999 + 50);
    }

    #[test]
    fn csa_time_field() {
        let tc = TimeControl::Byoyomi {
            main_ms: 0,
            byoyomi_ms: 100,
        };
        assert_eq!(tc.csa_time().as_deref(), Some("0+0.100+0"));
        let tc = TimeControl::Fischer {
            main_ms: 900_000,
            inc_ms: 5000,
        };
        assert_eq!(tc.csa_time().as_deref(), Some("900+0+5"));
    }
}
