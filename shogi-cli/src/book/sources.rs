//! Where `shogi book build` takes games and values from besides record files: the games of a
//! database (`shogi_db::Db::games`) and the results of an analysis cache
//! (`shogi_analysis::cache::CacheReader`), handed to shogi-book's builders.

use shogi_analysis::cache::CacheReader;
use shogi_batch::Selection;
use shogi_book::{Builder, EvalSort, Evals};
use shogi_db::GamesRead;
use std::path::Path;

/// Adds the games of the database at `db` (built by `shogi index`) kept by `selection` to
/// `builder`: each game's start and stored main line (up to its first error), and the result
/// of its row. Errors name the database.
pub fn add_db_games(
    builder: &mut Builder,
    db: &Path,
    selection: &Selection,
) -> Result<GamesRead, String> {
    let db = shogi_db::Db::open(db).map_err(|e| e.to_string())?;
    let mut games = db.games(selection).map_err(|e| e.to_string())?;
    for game in games.by_ref() {
        let g = game.map_err(|e| e.to_string())?;
        builder.add_game(&g.start, &g.moves, shogi_train::winner_result(g.row.winner));
    }
    Ok(games.read())
}

/// What [`analysis_book`] read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AnalysisRead {
    /// Results read.
    pub results: u64,
    /// Results not used (see [`shogi_book::EvalRead::unused`]).
    pub unused: u64,
    /// Results that do not read (bad JSON, a bad position or an illegal move), counted, not
    /// used.
    pub unreadable: u64,
}

/// The book of an analysis cache ([`EvalSort`]): every configuration's results (in either
/// mode; game mode's position is the one searched), the deepest search of a position (the
/// newest configuration's on a tie) giving its lines; sorted within about `memory` bytes,
/// beyond which it goes to temporary files in `temp_dir`.
pub fn analysis_book(
    path: &Path,
    max_ply: u32,
    memory: usize,
    temp_dir: &Path,
) -> Result<(Evals, AnalysisRead), String> {
    let reader = CacheReader::open(path)?;
    let mut evals = EvalSort::new(max_ply, memory, temp_dir);
    let mut unreadable = 0;
    for config in reader.configurations()? {
        let mut results = reader.results(config.id);
        for r in results.by_ref() {
            let r = r?;
            let lines = r.lines.iter().map(|l| (l.score, l.moves.first().copied()));
            evals.add(&r.position, r.depth, lines);
        }
        unreadable += results.unreadable();
    }
    let (book, read) = evals.finish().map_err(|e| e.to_string())?;
    let read = AnalysisRead {
        results: read.results + unreadable,
        unused: read.unused,
        unreadable,
    };
    Ok((book, read))
}
