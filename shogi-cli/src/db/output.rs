//! How `find` and `explore` print their answers.

use super::{ExploreFormat, FindFormat};
use serde::Serialize;
use shogi_db::{Counts, Explore, Found, Hit, Openings};
use shogi_kif::Winner;
use std::io::{self, Write};

/// The columns of `find --format csv` and the fields of `--format jsonl`, in order.
pub const FIND_COLUMNS: &[&str] = &[
    "path",
    "game",
    "ply",
    "next_move",
    "winner",
    "ending",
    "sente",
    "gote",
    "sente_rating",
    "gote_rating",
    "start",
    "plies",
    "valid",
];

#[derive(Serialize)]
struct FindLine<'a> {
    path: &'a str,
    game: u32,
    ply: u32,
    next_move: Option<String>,
    winner: &'a str,
    ending: Option<&'a str>,
    sente: Option<&'a str>,
    gote: Option<&'a str>,
    sente_rating: Option<f64>,
    gote_rating: Option<f64>,
    start: Option<&'a str>,
    plies: u32,
    valid: bool,
}

fn line(h: &Hit) -> FindLine<'_> {
    FindLine {
        path: &h.row.path,
        game: h.row.game,
        ply: h.ply,
        next_move: h.next_move.map(|m| m.to_usi()),
        winner: h.row.winner.name(),
        ending: h.row.ending.map(|e| e.name()),
        sente: h.row.sente.as_deref(),
        gote: h.row.gote.as_deref(),
        sente_rating: h.row.sente_rating,
        gote_rating: h.row.gote_rating,
        start: h.row.start_iso.as_deref().or(h.row.start.as_deref()),
        plies: h.row.plies,
        valid: h.row.valid,
    }
}

fn io_err(e: impl std::fmt::Display) -> io::Error {
    io::Error::other(e.to_string())
}

/// Writes the hits of `find` as CSV (header row first), JSON lines (one object per hit) or
/// text (one line per hit and a count).
pub fn write_found(found: &Found, format: FindFormat, out: &mut dyn Write) -> io::Result<()> {
    let mut w = FoundWriter::new(format, out)?;
    for h in &found.hits {
        w.hit(h)?;
    }
    w.finish(found.counts())
}

/// Writes the hits of `find` one at a time as they come (see [`shogi_db::Db::find_each`]), in the
/// formats of [`write_found`].
pub struct FoundWriter<'a> {
    sink: Sink<'a>,
    shown: usize,
}

enum Sink<'a> {
    Csv(Box<csv::Writer<&'a mut dyn Write>>),
    Jsonl(&'a mut dyn Write),
    Text(&'a mut dyn Write),
}

impl<'a> FoundWriter<'a> {
    /// A writer of `format`; the CSV header is written at once.
    pub fn new(format: FindFormat, out: &'a mut dyn Write) -> io::Result<FoundWriter<'a>> {
        let sink = match format {
            FindFormat::Csv => {
                let mut w = csv::WriterBuilder::new()
                    .has_headers(false)
                    .from_writer(out);
                w.write_record(FIND_COLUMNS).map_err(io_err)?;
                Sink::Csv(Box::new(w))
            }
            FindFormat::Jsonl => Sink::Jsonl(out),
            FindFormat::Text => Sink::Text(out),
        };
        Ok(FoundWriter { sink, shown: 0 })
    }

    /// Writes one hit.
    pub fn hit(&mut self, h: &Hit) -> io::Result<()> {
        self.shown += 1;
        match &mut self.sink {
            Sink::Csv(w) => w.serialize(line(h)).map_err(io_err),
            Sink::Jsonl(out) => {
                serde_json::to_writer(&mut **out, &line(h)).map_err(io_err)?;
                out.write_all(b"\n")
            }
            Sink::Text(out) => text_line(out, h),
        }
    }

    /// Ends the output: the count line of `text` (with how many were shown), a flush.
    pub fn finish(self, counts: Counts) -> io::Result<()> {
        match self.sink {
            Sink::Csv(mut w) => w.flush(),
            Sink::Jsonl(out) => out.flush(),
            Sink::Text(out) => {
                let shown = if self.shown < counts.total {
                    format!(" (first {} shown)", self.shown)
                } else {
                    String::new()
                };
                writeln!(
                    out,
                    "{} occurrence{} in {} game{}{shown}",
                    counts.total,
                    if counts.total == 1 { "" } else { "s" },
                    counts.games,
                    if counts.games == 1 { "" } else { "s" }
                )
            }
        }
    }
}

/// One hit as a line of text.
fn text_line(out: &mut dyn Write, h: &Hit) -> io::Result<()> {
    write!(out, "{}#{}  ply {}", h.row.path, h.row.game, h.ply)?;
    match &h.next_move {
        Some(m) => write!(out, "  next {m}")?,
        None => write!(out, "  (end of the line)")?,
    }
    if let Some(d) = h.row.start_iso.as_deref().or(h.row.start.as_deref()) {
        write!(out, "  {d}")?;
    }
    let name = |n: &Option<String>| n.as_deref().unwrap_or("?").to_string();
    write!(out, "  {} vs {}", name(&h.row.sente), name(&h.row.gote))?;
    match h.row.winner {
        Winner::Sente | Winner::Gote => write!(out, "  {} won", h.row.winner.name())?,
        Winner::Draw => write!(out, "  draw")?,
        Winner::None => write!(out, "  no result")?,
    }
    if let Some(e) = h.row.ending {
        write!(out, " ({})", e.name())?;
    }
    if !h.row.valid {
        write!(out, "  [invalid]")?;
    }
    writeln!(out)
}

/// Writes the explorer table as JSON (one object), CSV (one row per move) or text.
/// With `book` (`--book`), each move also gets the book's entry for it (`null`/empty/`-`
/// when the book does not have it): a `book` object in JSON, `book_value`, `book_depth` and
/// `book_count` as the first columns of the CSV, a `book` column (`value/depth/count`) in the table.
pub fn write_explore(
    e: &Explore,
    book: Option<&BookMarks>,
    top: usize,
    format: ExploreFormat,
    out: &mut dyn Write,
) -> io::Result<()> {
    match format {
        ExploreFormat::Json if book.is_none() => {
            serde_json::to_writer_pretty(&mut *out, e).map_err(io_err)?;
            out.write_all(b"\n")
        }
        ExploreFormat::Json => {
            let mut v = serde_json::to_value(e).map_err(io_err)?;
            if let (Some(book), Some(moves)) = (book, v["moves"].as_array_mut()) {
                for m in moves {
                    let mark = m["usi"].as_str().and_then(|u| book.get(u));
                    m["book"] = mark.map_or(serde_json::Value::Null, |b| {
                        serde_json::json!({"value": b.value, "depth": b.depth, "count": b.count})
                    });
                }
            }
            serde_json::to_writer_pretty(&mut *out, &v).map_err(io_err)?;
            out.write_all(b"\n")
        }
        ExploreFormat::Csv => write_explore_csv(e, book, top, out),
        ExploreFormat::Text => write_explore_text(e, book, out),
    }
}

/// The book's moves of the explored position, by USI (`shogi explore --book`).
pub type BookMarks = std::collections::HashMap<String, shogi_book::BookMove>;

/// The explorer table as CSV: a header, then one row per move (with `book`, its three
/// columns first; with `top`, `top1_path`, `top1_game`, `top1_rating`, `top1_date`, … last).
fn write_explore_csv(
    e: &Explore,
    book: Option<&BookMarks>,
    top: usize,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    if book.is_some() {
        for f in ["book_value", "book_depth", "book_count"] {
            w.write_field(f).map_err(io_err)?;
        }
    }
    let mut head: Vec<String> = [
        "usi",
        "move",
        "games",
        "sente_wins",
        "gote_wins",
        "draws",
        "unfinished",
        "win_rate",
        "avg_rating",
        "recent_path",
        "recent_game",
        "recent_date",
    ]
    .map(String::from)
    .to_vec();
    for i in 1..=top {
        for f in ["path", "game", "rating", "date"] {
            head.push(format!("top{i}_{f}"));
        }
    }
    w.write_record(&head).map_err(io_err)?;
    for m in &e.moves {
        let recent = m.recent.as_ref();
        for f in book.map(|b| book_fields(b, &m.usi)).into_iter().flatten() {
            w.write_field(f).map_err(io_err)?;
        }
        let mut row = vec![
            m.usi.clone(),
            m.text.clone(),
            m.games.to_string(),
            m.sente_wins.to_string(),
            m.gote_wins.to_string(),
            m.draws.to_string(),
            m.unfinished.to_string(),
            format!("{:.4}", m.win_rate),
            m.avg_rating.map(|r| format!("{r:.1}")).unwrap_or_default(),
            recent.map(|r| r.path.clone()).unwrap_or_default(),
            recent.map(|r| r.game.to_string()).unwrap_or_default(),
            recent.and_then(|r| r.date.clone()).unwrap_or_default(),
        ];
        for i in 0..top {
            let g = m.top.get(i);
            row.push(g.map(|g| g.path.clone()).unwrap_or_default());
            row.push(g.map(|g| g.game.to_string()).unwrap_or_default());
            row.push(
                g.and_then(|g| g.rating)
                    .map(|r| format!("{r:.1}"))
                    .unwrap_or_default(),
            );
            row.push(g.and_then(|g| g.date.clone()).unwrap_or_default());
        }
        w.write_record(&row).map_err(io_err)?;
    }
    w.flush()
}

/// The explorer table as text: the position, its game count, one aligned line per move.
fn write_explore_text(
    e: &Explore,
    book: Option<&BookMarks>,
    out: &mut dyn Write,
) -> io::Result<()> {
    writeln!(out, "position: {} ({} to move)", e.sfen, e.side_to_move)?;
    writeln!(
        out,
        "games: {}{}",
        e.games,
        if e.ended_here > 0 {
            format!(" ({} ended here)", e.ended_here)
        } else {
            String::new()
        }
    )?;
    if e.moves.is_empty() {
        return writeln!(out, "no move was played from this position");
    }
    let width = e
        .moves
        .iter()
        .map(|m| shown_width(&m.text))
        .max()
        .unwrap_or(0)
        .max(7);
    let book_head = if book.is_some() { "  book" } else { "" };
    writeln!(
        out,
        "{} {:>7} {:>7} {:>7} {:>6} {:>6} {:>7}{book_head}  most recent",
        pad("move", width),
        "games",
        "sente",
        "gote",
        "draws",
        "win%",
        "rating"
    )?;
    for m in &e.moves {
        let recent = m
            .recent
            .as_ref()
            .map(|r| {
                format!(
                    "{} {}#{}",
                    r.date
                        .as_deref()
                        .map_or(String::new(), |d| d.chars().take(10).collect()),
                    r.path,
                    r.game
                )
            })
            .unwrap_or_default();
        let mark = book.map_or(String::new(), |b| {
            let f = book_fields(b, &m.usi);
            if f[0].is_empty() {
                "  -".to_string()
            } else {
                format!("  {}/{}/{}", f[0], f[1], f[2])
            }
        });
        writeln!(
            out,
            "{} {:>7} {:>7} {:>7} {:>6} {:>6.1} {:>7}{mark}  {}",
            pad(&m.text, width),
            m.games,
            m.sente_wins,
            m.gote_wins,
            m.draws,
            m.win_rate * 100.0,
            m.avg_rating
                .map(|r| format!("{r:.0}"))
                .unwrap_or_else(|| "-".into()),
            recent
        )?;
        for g in &m.top {
            let rating = g.rating.map_or_else(|| "-".into(), |r| format!("{r:.0}"));
            let date: String = g.date.as_deref().unwrap_or("-").chars().take(10).collect();
            writeln!(
                out,
                "{}   top {rating:>6}  {date}  {}#{}",
                " ".repeat(width),
                g.path,
                g.game
            )?;
        }
    }
    Ok(())
}

/// The book's value, depth and count of the move `usi` (empty when the book lacks it).
fn book_fields(book: &BookMarks, usi: &str) -> [String; 3] {
    book.get(usi).map_or_else(Default::default, |b| {
        [
            b.value.to_string(),
            b.depth.to_string(),
            b.count.to_string(),
        ]
    })
}

/// The columns `text` takes on a terminal: two for a full-width (CJK) character or mark.
fn shown_width(text: &str) -> usize {
    text.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}

/// `text` padded with spaces to `width` columns.
fn pad(text: &str, width: usize) -> String {
    let mut s = text.to_string();
    s.push_str(&" ".repeat(width.saturating_sub(shown_width(text))));
    s
}

/// Writes `explore --by opening` as JSON (one object), CSV (one row per 戦型) or text.
pub fn write_openings(t: &Openings, format: ExploreFormat, out: &mut dyn Write) -> io::Result<()> {
    match format {
        ExploreFormat::Json => {
            serde_json::to_writer_pretty(&mut *out, t).map_err(io_err)?;
            out.write_all(b"\n")
        }
        ExploreFormat::Csv => {
            let mut w = csv::Writer::from_writer(out);
            for line in &t.openings {
                w.serialize(line).map_err(io_err)?;
            }
            if t.openings.is_empty() {
                w.write_record([
                    "opening",
                    "games",
                    "sente_wins",
                    "gote_wins",
                    "draws",
                    "unfinished",
                ])
                .map_err(io_err)?;
            }
            w.flush()
        }
        ExploreFormat::Text => {
            writeln!(out, "position: {} ({} to move)", t.sfen, t.side_to_move)?;
            writeln!(out, "games: {}", t.games)?;
            if t.openings.is_empty() {
                return writeln!(out, "no game passes through this position");
            }
            let width = t
                .openings
                .iter()
                .map(|o| shown_width(&o.opening))
                .max()
                .unwrap_or(0)
                .max(7);
            writeln!(
                out,
                "{} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7}",
                pad("opening", width),
                "games",
                "sente",
                "draws",
                "gote",
                "sente%",
                "draw%",
                "gote%"
            )?;
            for o in &t.openings {
                let pct = |n: u32| 100.0 * f64::from(n) / f64::from(o.games.max(1));
                writeln!(
                    out,
                    "{} {:>7} {:>7} {:>7} {:>7} {:>7.1} {:>7.1} {:>7.1}",
                    pad(&o.opening, width),
                    o.games,
                    o.sente_wins,
                    o.draws,
                    o.gote_wins,
                    pct(o.sente_wins),
                    pct(o.draws),
                    pct(o.gote_wins)
                )?;
            }
            Ok(())
        }
    }
}
