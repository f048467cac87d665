//! The server's JSON API as functions: each takes the query's parameters and the open
//! database and gives a value to serialise, or an [`ApiError`] (a 4xx with a message).
//! `explore` gives exactly what `shogi explore --format json` prints.

use crate::analysis::Analysis;
use crate::board::{Board, move_cells};
use crate::game::GameView;
use serde::Serialize;
use shogi_batch::{GameRow, Selection};
use shogi_core::{SetupOptions, UsiError, UsiPosition, Variant};
use shogi_db::Db;
use shogi_kif::notation::{Notation, kif_move_text, move_text};

/// The most games one page of `games` or `search` gives.
pub const MAX_PAGE: usize = 100;
/// The furthest `games` and `search` page (offset) served: deeper pages of a million hits
/// would mean reading them all.
pub const MAX_OFFSET: usize = 10_000;

/// A request the API refuses: the HTTP status and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ApiError {
    /// 400 (bad parameter), 404 (no such game or endpoint), 405, 414, 500.
    #[serde(skip)]
    pub status: u16,
    /// What was wrong, for people.
    pub error: String,
}

impl ApiError {
    /// A bad parameter (400).
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError {
            status: 400,
            error: message.into(),
        }
    }

    /// Nothing there (404).
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError {
            status: 404,
            error: message.into(),
        }
    }

    /// The database failed (500).
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError {
            status: 500,
            error: message.into(),
        }
    }
}

/// The parameters of a request (`name=value` pairs, decoded).
pub struct Params(pub Vec<(String, String)>);

impl Params {
    /// The first value of `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The position parameter `pos` (default `startpos`; see [`parse_position`]).
    pub fn position(&self) -> Result<UsiPosition, ApiError> {
        parse_position(self.get("pos").unwrap_or("startpos"))
    }

    /// A count parameter: absent is `default`; not a whole number, or above `max`, is an
    /// error naming it.
    pub fn count(&self, name: &str, default: usize, max: usize) -> Result<usize, ApiError> {
        let Some(v) = self.get(name) else {
            return Ok(default);
        };
        let n: i64 = v
            .trim()
            .parse()
            .map_err(|_| ApiError::bad(format!("{name}={v}: not a whole number")))?;
        if n < 0 {
            return Err(ApiError::bad(format!("{name}={v}: must not be negative")));
        }
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        if n > max {
            return Err(ApiError::bad(format!("{name}={v}: at most {max}")));
        }
        Ok(n)
    }

    /// The notation parameter (default USI, as `shogi explore`).
    pub fn notation(&self) -> Result<Notation, ApiError> {
        match self.get("notation") {
            None => Ok(Notation::Usi),
            Some(n) => n
                .parse()
                .map_err(|e| ApiError::bad(format!("notation: {e}"))),
        }
    }
}

/// A position as `shogi explore` takes it: `startpos`, an SFEN (the move number may be left
/// out), either followed by `moves` and USI moves, or a USI `position` line.
pub fn parse_position(spec: &str) -> Result<UsiPosition, ApiError> {
    UsiPosition::parse_with(spec, Variant::Standard, SetupOptions::PERMISSIVE).map_err(|e| {
        let why = match e {
            UsiError::Move { text, message, .. } => format!("move '{text}': {message}"),
            UsiError::Sfen { error, .. } => format!("not a position: {error}"),
            UsiError::Syntax { message, .. } => format!("not a position: {message}"),
        };
        ApiError::bad(format!("pos={spec}: {why}"))
    })
}

/// A legal move as the board's clicks need it.
#[derive(Serialize)]
pub struct LegalMove {
    /// USI.
    pub usi: String,
    /// The cell it leaves (none for a drop).
    pub from: Option<usize>,
    /// The cell it reaches.
    pub to: usize,
    /// For a drop: the piece's kanji, as the hands name it.
    pub drop: Option<&'static str>,
    /// Whether it promotes.
    pub promote: bool,
    /// Japanese (`▲７六歩`).
    pub ja: String,
}

/// A move of the line that led to a position, in the notations the pages offer.
#[derive(Serialize)]
pub struct LineMove {
    /// USI (`7g7f`).
    pub usi: String,
    /// As the KIF writer writes it (`７六歩(77)`, `同　歩(34)`).
    pub kif: String,
    /// Western (`P-7f`).
    pub west: String,
}

/// `/api/position`: the position drawn, its legal moves, and the line that led there.
#[derive(Serialize)]
pub struct PositionAnswer {
    /// The position.
    pub board: Board,
    /// Every legal move.
    pub legal: Vec<LegalMove>,
    /// The moves from the start, in Japanese (with 同).
    pub line: Vec<String>,
    /// The same moves in each notation the pages offer.
    pub moves: Vec<LineMove>,
    /// The cells of the last move.
    pub from: Option<usize>,
    /// The cell the last move reached.
    pub to: Option<usize>,
}

/// `/api/position`.
pub fn position(p: &Params) -> Result<PositionAnswer, ApiError> {
    let usi = p.position()?;
    let end = &usi.end;
    let size = end.variant().size();
    let legal = end
        .legal_moves()
        .iter()
        .map(|&mv| {
            let (from, to) = move_cells(mv, size);
            LegalMove {
                usi: mv.to_usi(),
                from,
                to,
                drop: match mv {
                    shogi_core::Move::Drop { role, .. } => Some(role.kanji()),
                    _ => None,
                },
                promote: mv.is_promotion(),
                ja: move_text(end, mv, None, Notation::Japanese),
            }
        })
        .collect();
    let mut pos = usi.start.clone();
    let mut last = None;
    let mut line = Vec::with_capacity(usi.moves.len());
    let mut moves = Vec::with_capacity(usi.moves.len());
    for &mv in &usi.moves {
        line.push(move_text(&pos, mv, last, Notation::Japanese));
        moves.push(LineMove {
            usi: mv.to_usi(),
            kif: kif_move_text(&pos, mv, last),
            west: move_text(&pos, mv, last, Notation::Western),
        });
        pos.play_unchecked(mv);
        last = Some(mv.to());
    }
    let (from, to) = match usi.moves.last() {
        Some(&mv) => {
            let (f, t) = move_cells(mv, size);
            (f, Some(t))
        }
        None => (None, None),
    };
    Ok(PositionAnswer {
        board: Board::of(end),
        legal,
        line,
        moves,
        from,
        to,
    })
}

fn db_error(e: shogi_db::DbError) -> ApiError {
    ApiError::internal(e.to_string())
}

/// The filter parameters of `explore` and `games`, as `shogi explore` takes the flags of the
/// same names: `since`, `until` (a day or a month), `min_rating`, `max_rating`, `rating_of`
/// (`both`, `average`, `mover`), `time_control` (`300+10F` or `floodgate-300-10F`), `event`.
pub const FILTERS: &[&str] = &[
    "since",
    "until",
    "min_rating",
    "max_rating",
    "rating_of",
    "time_control",
    "event",
];

/// The selection of the filter parameters ([`FILTERS`]; an empty value is no filter); a bad
/// value is a 400 naming the parameter.
pub fn selection(p: &Params) -> Result<Selection, ApiError> {
    use shogi_batch::filter_text as text;
    let mut s = Selection::new();
    for name in FILTERS {
        let Some(v) = p.get(name).map(str::trim).filter(|v| !v.is_empty()) else {
            continue;
        };
        if v.chars().count() > 100 {
            return Err(ApiError::bad(format!("{name}: at most 100 characters")));
        }
        let bad = |e: String| ApiError::bad(format!("{name}={v}: {e}"));
        s = match *name {
            "since" => s.since(text::since(v).map_err(bad)?),
            "until" => s.until(text::until(v).map_err(bad)?),
            "min_rating" => s.min_rating(text::rating(v).map_err(bad)?),
            "max_rating" => s.max_rating(text::rating(v).map_err(bad)?),
            "rating_of" => s.rating_of(text::rating_of(v).map_err(bad)?),
            "time_control" => s.time_control(text::time_control(v).map_err(bad)?),
            _ => s.event(v),
        };
    }
    Ok(s)
}

/// `/api/explore`: `shogi explore --format json`'s table of the position, with the filter
/// parameters ([`selection`]) and `top=N` (`--top N`: each move's N highest-rated games, at
/// most [`shogi_db::TOP_KEPT`], the number kept at index time; 0 by default).
pub fn explore(db: &Db, p: &Params) -> Result<shogi_db::Explore, ApiError> {
    let target = p.position()?.end;
    let notation = p.notation()?;
    let selection = selection(p)?;
    let top = p.count("top", 0, shogi_db::TOP_KEPT)?;
    let mut table = db.explore_top(&target, &selection, top).map_err(db_error)?;
    shogi_db::name_moves(&mut table, &target, notation);
    Ok(table)
}

/// A game in a list: where it is and what came of it.
#[derive(Serialize)]
pub struct GameLine {
    /// The input it was read from (as `shogi find` names it).
    pub path: String,
    /// Its number in the input.
    pub game: u32,
    /// The ply at which it reached the position (`games`), 0 otherwise.
    pub ply: u32,
    /// The move it played from there (USI), if any.
    pub next_move: Option<String>,
    /// Sente's name.
    pub sente: Option<String>,
    /// Gote's name.
    pub gote: Option<String>,
    /// The start date (ISO 8601), or the start as written.
    pub date: Option<String>,
    /// `sente`, `gote`, `draw` or `none`.
    pub winner: &'static str,
    /// The ending's name.
    pub ending: Option<String>,
    /// Moves in the main line.
    pub plies: u32,
    /// Players' ratings.
    pub ratings: [Option<f64>; 2],
}

impl GameLine {
    fn of(row: &GameRow, ply: u32, next_move: Option<String>) -> GameLine {
        GameLine {
            path: row.path.clone(),
            game: row.game,
            ply,
            next_move,
            sente: row.sente.clone(),
            gote: row.gote.clone(),
            date: row.start_iso.clone().or_else(|| row.start.clone()),
            winner: row.winner.name(),
            ending: row.ending.map(|e| e.name().to_string()),
            plies: row.plies,
            ratings: [row.sente_rating, row.gote_rating],
        }
    }
}

/// A page of games.
#[derive(Serialize)]
pub struct GamesPage {
    /// Occurrences of the position in all (`games`); games of the player in all (`search`).
    pub total: usize,
    /// Distinct games reaching the position (`games`); as `total` (`search`).
    pub games: usize,
    /// The first shown.
    pub offset: usize,
    /// Whether more follow.
    pub more: bool,
    /// The games of the page.
    pub items: Vec<GameLine>,
}

/// `/api/games`: the occurrences of the position in (path, game, ply) order, `limit` (at most
/// [`MAX_PAGE`], default 20) after `offset` (at most [`MAX_OFFSET`]).
pub fn games(db: &Db, p: &Params) -> Result<GamesPage, ApiError> {
    let target = p.position()?.end;
    let limit = p.count("limit", 20, MAX_PAGE)?;
    let offset = p.count("offset", 0, MAX_OFFSET)?;
    let found = db
        .find(&target, &selection(p)?, Some(offset + limit))
        .map_err(db_error)?;
    let items: Vec<GameLine> = found
        .hits
        .iter()
        .skip(offset)
        .map(|h| GameLine::of(&h.row, h.ply, h.next_move.map(|m| m.to_usi())))
        .collect();
    Ok(GamesPage {
        total: found.total,
        games: found.games,
        offset,
        more: offset + items.len() < found.total,
        items,
    })
}

/// `/api/search`: games by a player's name (`player`, at least one character).
pub fn search(db: &Db, p: &Params) -> Result<GamesPage, ApiError> {
    let name = p.get("player").map(str::trim).unwrap_or_default();
    if name.is_empty() {
        return Err(ApiError::bad("player: give a name (or part of one)"));
    }
    if name.chars().count() > 100 {
        return Err(ApiError::bad("player: at most 100 characters"));
    }
    let limit = p.count("limit", 20, MAX_PAGE)?;
    let offset = p.count("offset", 0, MAX_OFFSET)?;
    let (rows, more) = db.games_by_player(name, limit, offset).map_err(db_error)?;
    let total = db.count_by_player(name).map_err(db_error)?;
    let items: Vec<GameLine> = rows.iter().map(|r| GameLine::of(r, 0, None)).collect();
    Ok(GamesPage {
        total,
        games: total,
        offset,
        more,
        items,
    })
}

/// `/api/game`: game `game` of input `path` as the viewer shows it (from the database's
/// start and main line: the record file itself is never opened), with the evaluations of
/// the analysis cache where one is given.
pub fn game(db: &Db, analysis: Option<&Analysis>, p: &Params) -> Result<GameView, ApiError> {
    let path = p
        .get("path")
        .ok_or_else(|| ApiError::bad("path: which input (as the games list names it)"))?;
    let number = p.count("game", 1, u32::MAX as usize)?;
    let number = u32::try_from(number).unwrap_or(u32::MAX);
    let stored = db.game(path, number).map_err(db_error)?.ok_or_else(|| {
        ApiError::not_found(format!("no game {number} of '{path}' in the database"))
    })?;
    let row = &stored.row;
    let title = match (&row.sente, &row.gote) {
        (Some(b), Some(w)) => format!("☗{b} ☖{w}"),
        _ => format!("{path} #{number}"),
    };
    if let Some(record) = indexed_record(&stored, path, number) {
        let mut view = GameView::of(&record, &title);
        view.tags.insert(0, ("path".to_string(), path.to_string()));
        if let Some(a) = analysis {
            a.annotate(&mut view).map_err(ApiError::internal)?;
        }
        return Ok(view);
    }
    let mut view = GameView::of_line(&stored.start, &stored.moves, &title);
    let mut tags = vec![("path".to_string(), path.to_string())];
    for (k, v) in [
        ("先手", &row.sente),
        ("後手", &row.gote),
        ("開始日時", &row.start),
    ] {
        if let Some(v) = v {
            tags.push((k.to_string(), v.clone()));
        }
    }
    view.tags = tags;
    view.players = [row.sente.clone(), row.gote.clone()];
    view.result = format!(
        "{} moves; {}, winner: {}",
        row.plies,
        row.ending.map_or("no ending", |e| e.name()),
        row.winner.name()
    );
    if let Some(a) = analysis {
        a.annotate(&mut view).map_err(ApiError::internal)?;
    }
    Ok(view)
}

/// Game `number` of the record file `path` that the database indexed, when the file still
/// holds that game: the same start position and the same main line as the database (which
/// keeps the line up to its first error). `None` when the file is gone, unreadable or changed.
fn indexed_record(
    stored: &shogi_db::StoredGame,
    path: &str,
    number: u32,
) -> Option<shogi_kif::Record> {
    let reader = shogi_kif::Reader::open(path, shogi_kif::ReadOptions::default()).ok()?;
    let game = reader
        .into_iter()
        .nth(usize::try_from(number).ok()?.checked_sub(1)?)?;
    let record = game.record;
    let same_start = record.start_position().same_position(&stored.start);
    let line: Vec<shogi_core::Move> = record
        .main_line()
        .take_while(|n| n.foul.is_none())
        .map(|n| n.mv)
        .collect();
    (same_start && line == stored.moves).then_some(record)
}
