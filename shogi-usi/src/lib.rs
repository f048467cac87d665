//! USI engines as child processes, for analysis and matches.
//!
//! - [`parse_line`]: the protocol as a pure function of lines (every engine→GUI line typed,
//!   garbage kept, never a panic).
//! - [`Engine`]: one process; `usi`/`setoption` (checked against the engine's options)/
//!   `isready`/`usinewgame`/`position`/`go`/`stop`/`go mate`/`gameover`/`quit`, a reader
//!   thread per pipe, a timeout on every wait, and every answer checked on our
//!   [`shogi_core::Position`]: an illegal PV is cut and the cut reported, an illegal `bestmove`
//!   is an error, `bestmove win` is judged by our declaration rule.
//! - [`EngineError`]: crash, hang, closed pipe, garbage, illegal move, refused option, each
//!   with the engine's last lines; [`Engine::restart`] and [`Engine::search_with_retry`].
//! - [`Score`] / [`PovScore`] (shogi-core's, re-exported): mate is its own kind; both views at hand.
//! - [`Pool`]: N engines, results in input order.
//! - [`testing`]: the scripted fake engine (`fake-usi`) for tests of any package.
//!
//! ```
//! use shogi_core::{Position, Variant};
//! use shogi_usi::{BestMove, Engine, Limit, Score, StartOptions};
//!
//! let fake = shogi_usi::testing::fake_engine_path();
//! let mut engine = Engine::start(&fake, &["--score", "cp 42"], StartOptions::default())?;
//! let start = Position::startpos(Variant::Standard);
//! let search = engine.search(&start, &[], &Limit::nodes(1))?;
//! assert!(matches!(search.bestmove, BestMove::Move(_)));
//! assert_eq!(search.score().map(|s| s.sente()), Some(Score::Cp(42)));
//! engine.quit();
//! # Ok::<(), shogi_usi::EngineError>(())
//! ```

mod engine;
mod error;
mod fresh;
mod limit;
mod options;
mod pool;
mod protocol;
mod quirks;
pub mod testing;

pub use engine::{
    BestMove, Engine, GameResult, MateAnswer, PvCut, Search, SearchLine, StartOptions, Timeouts,
    check_pv,
};
pub use error::{EngineError, EngineErrorKind, ErrorContext, Illegality, OutputLine, Stream};
pub use fresh::FreshState;
pub use limit::Limit;
pub use options::{OptionKind, OptionSpec, find_option};
pub use pool::Pool;
pub use protocol::{BestMoveText, CheckmateText, EngineLine, Info, parse_line};
/// The score vocabulary is shogi-core's (one type for engines, analysis, records, matches).
pub use shogi_core::score::{Bound, PovScore, Score};
