//! Engine matches: our rules as the referee, clocks kept from our side of the pipe, openings,
//! records written as games end, and the statistics (Elo, LOS, SPRT) of the results.

pub mod clock;
pub mod openings;
pub mod output;
pub mod record;
pub mod referee;
pub mod runner;
pub mod stats;
