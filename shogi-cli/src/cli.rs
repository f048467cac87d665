//! The top-level parser: `shogi` and its commands, each command's arguments from its module.

use crate::{
    analyze, book, check, completions, convert, db, match_cmd, mate, moves, perft, serve, show,
    stats, view,
};

/// Shogi toolkit: rules, perft, and game records.
#[derive(clap::Parser)]
#[command(name = "shogi", version, about, long_about = None)]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands of `shogi`.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Count the leaf nodes of the legal move tree (perft).
    Perft(perft::PerftArgs),
    /// List every legal move of a position, one per line, sorted: USI, or `--notation japanese`
    /// or `western`.
    #[command(
        after_help = "Examples:\n  shogi moves startpos\n  shogi moves 'rbsgk/4p/5/P4/KGSBR b - 1'\n  shogi moves startpos --variant mini\n  \
shogi moves startpos --notation western\n  shogi moves 'lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2' --notation japanese"
    )]
    Moves(moves::MovesArgs),
    /// Check game records: every move replayed against the rules; problems located.
    Check(check::CheckArgs),
    /// Convert a game record: to SFEN (the final position, or `--ply N`), USI, KIF, KI2, CSA, JKF,
    /// or to training data (hcpe, psv, a line per position).
    Convert(convert::ConvertArgs),
    /// One row per game (CSV or JSON lines) for pandas, DuckDB, R or a spreadsheet; or totals.
    Stats(stats::StatsArgs),
    /// Build or update a game database (SQLite) of records: games, positions, files.
    Index(db::IndexArgs),
    /// The games that reach a position, from a database or by scanning records.
    Find(db::FindArgs),
    /// The moves played from a position, with results: the opening explorer.
    Explore(db::ExploreArgs),
    /// Show a position of a record (or an SFEN): the board, hands, side to move, check, the
    /// SFEN and the moves so far in Japanese, Western or USI notation.
    Show(show::ShowArgs),
    /// A USI engine's judgement of every move: a per-ply table, summaries, annotated records
    /// and evaluation graphs, with a cache; or the table from the evaluations records carry.
    Analyze(Box<analyze::AnalyzeArgs>),
    /// Print the shell completion script for bash, zsh, fish or PowerShell.
    Completions(completions::CompletionsArgs),
    /// Play games between USI engines with our rules as referee: time controls, openings,
    /// records as games end, Elo, LOS and SPRT.
    Match(match_cmd::MatchArgs),
    /// Solve mate problems (df-pn): SFENs or tsume records; a record's stated answer checked.
    Mate(mate::MateArgs),
    /// Self-contained HTML pages of records: board, moves, comments, evaluation graph.
    View(view::ViewArgs),
    /// A local web explorer and game viewer over a game database, with a JSON API.
    Serve(serve::ServeArgs),
    /// Opening books (YaneuraOu .db/.ybb, Apery book.bin): probe, convert, stats, check, merge,
    /// build from records, back up values (peta_shock).
    Book(book::BookArgs),
}
