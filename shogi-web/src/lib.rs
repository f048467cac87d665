//! Shogi records and the game database as web pages: a self-contained HTML viewer for any
//! record (`shogi view`) and a local web application over a game database (`shogi serve`).
//!
//! What a page shows is computed here, in Rust, over shogi-core, shogi-kif and shogi-db:
//! every position of a game ([`Board`]), each move in Japanese, Western and USI notation,
//! comments, tags and evaluations ([`GameView`]). The pages' scripts (files of this crate,
//! built in with `include_str!`) only draw that data; no page loads anything from elsewhere.
//!
//! ```
//! use shogi_web::{GameView, game_page};
//!
//! let kif = "手数----指手--\n   1 ７六歩(77)\n*#評価値=80\n   2 ３四歩(33)\n";
//! let record = shogi_kif::read_str(kif, Default::default())?;
//! let view = GameView::of(&record, "game.kif");
//! assert_eq!(view.plies[1].ja.as_deref(), Some("▲７六歩"));
//! let html = game_page(&view);
//! assert!(html.starts_with("<!DOCTYPE html>") && html.contains("▲７六歩"));
//! # Ok::<(), shogi_kif::ReadError>(())
//! ```
//!
//! Layout (each module uses only those above it): `board` (a position as drawn), `game`
//! (a game's view), `analysis` (evaluations from `shogi analyze`'s cache), `page` (the HTML),
//! `api` (the server's answers, as data), `book` (an opening book's marks on the explorer's
//! answer), `serve` (the HTTP server).

mod analysis;
pub mod api;
mod board;
mod book;
mod game;
mod page;
mod serve;

pub use analysis::{Analysis, cache_eval};
pub use board::{Board, cell, move_cells, side_name};
pub use book::{BookLookup, explore_marked};
pub use game::{Eval, GRAPH_CAP, GameView, Ply, mate_text, record_evals};
pub use page::{IndexEntry, escape_html, game_page, index_page, page, script_json};
pub use serve::{MAX_URL, ServeOptions, Server, Stopper, app_page, split_url};
