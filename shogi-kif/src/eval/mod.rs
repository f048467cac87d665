//! Engine evaluations in records' move comments: read the forms ShogiHome and Floodgate
//! write, and write an engine's judgement back in exactly those forms.
//!
//! * ShogiHome (KIF/KI2, and CSA through `'*`): a block of comment lines
//!   `#評価値=158`, `#読み筋=▲７六歩△３四歩`, `#深さ=8`, `#ノード数=123456`, `#エンジン=Name`,
//!   `#詰み=先手勝ち:15手` for a mate; `#` marks an analysis engine, `*` the engine that
//!   played. In a KIF file every comment line carries one more `*` (`*#評価値=158`); the
//!   record model keeps the comment text without it.
//! * Floodgate (CSA): `'** 113 -3334FU +2625FU`, i.e. the comment text `* 113 -3334FU …`.
//! * Other programs' forms, read only (ShogiGUI, ぴよ将棋 / K-Shogi, csa_client): see the
//!   `dialects` module's notes in [`Source`]'s variants and [`evaluations`].
//!
//! The writer is one for every user: [`annotate`] (analysis: the search of the position after
//! each move, `#` blocks) and [`annotate_by`] with [`Searcher::Player`] (match records: the
//! playing engine's search before its move, `*` blocks), each in the form of the format
//! written ([`Style::for_format`]).
//!
//! All give the score in **sente's view** (positive: good for sente) and describe the
//! position **after** the move whose comment holds them (ShogiHome's batch analysis writes
//! the search of the position after move N into move N; a Floodgate engine writes the score
//! of the move it just played and a PV starting with the reply). Comment text is never
//! changed by reading: an [`Evaluation`] is derived from it.
//!
//! ```
//! use shogi_kif::eval::{Score, evaluations};
//! let kif = "手数----指手--\n   1 ７六歩(77)\n*#評価値=120\n*#読み筋=△３四歩▲２六歩\n   2 ３四歩(33)\n";
//! let record = shogi_kif::read_str(kif, Default::default())?;
//! let evals = evaluations(&record);
//! assert_eq!(evals[0].ply, 1);
//! assert_eq!(evals[0].score, Some(Score::Cp(120)));
//! assert_eq!(evals[0].pv_usi, ["3c3d", "2g2f"]);
//! # Ok::<(), shogi_kif::ReadError>(())
//! ```

mod dialects;

use crate::japanese;
use crate::model::Record;
use crate::notation::{Notation, move_text};
use shogi_core::{Color, Move, Position, Role, Square};

/// The one score type (shogi-core's); in this module always in **sente's view** (positive:
/// good for sente; a mate's winner is sente when [`Score::mate_winner`] is `Some(true)`).
pub use shogi_core::Score;

/// Who wrote an evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// A ShogiHome analysis ("research") block: lines starting `#`.
    Research,
    /// A ShogiHome block of the engine that played the move: lines starting `*`.
    Player,
    /// A Floodgate / CSA-protocol comment `* <score> <pv>`.
    Floodgate,
    /// ShogiGUI's line of the engine that played (`*対局 … 評価値 N 読み筋 …`).
    ShogiGuiGame,
    /// ShogiGUI's analysis line (`*解析 …`), or 棋神アナリティクス's (`* … 評価値 N …`).
    ShogiGuiAnalysis,
    /// ぴよ将棋 / K-Shogi (`#指し手[N]…`, `#形勢[N]…`).
    Piyo,
    /// A csa_client-style `'* <score> <pv>` comment (one `*` fewer than Floodgate's).
    CsaClient,
}

impl Source {
    /// Which evaluation of a move is read when it holds several: lower first (analyses before
    /// the playing engine's, ShogiHome's before other programs').
    pub fn priority(self) -> u8 {
        match self {
            Source::Research => 0,
            Source::ShogiGuiAnalysis => 1,
            Source::Piyo => 2,
            Source::Player => 3,
            Source::ShogiGuiGame => 4,
            Source::Floodgate => 5,
            Source::CsaClient => 6,
        }
    }

    /// Whether the score is the playing engine's search of the position before the move,
    /// which it chose: the engine's own line (ShogiHome's `*` block, ShogiGUI's `対局`, a
    /// Floodgate or csa_client comment). Otherwise the score is an analysis of the position
    /// after the move (ShogiHome's `#` block, ShogiGUI's `解析`, ぴよ将棋's `指し手[N]`).
    /// Both value the position after the move when the engine's choice was best; only a
    /// root search values the position before it exactly.
    pub fn is_root_search(self) -> bool {
        match self {
            Source::Player | Source::Floodgate | Source::ShogiGuiGame | Source::CsaClient => true,
            Source::Research | Source::ShogiGuiAnalysis | Source::Piyo => false,
        }
    }

    /// Whether PVs of this source are CSA moves (else Japanese).
    fn csa_moves(self) -> bool {
        matches!(self, Source::Floodgate | Source::CsaClient)
    }
}

/// One evaluation read from a move's comments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// The main-line move (1 = the first) whose comment holds it; it describes the position
    /// after that move.
    pub ply: u32,
    /// Who wrote it.
    pub source: Source,
    /// The score in sente's view, when one was written.
    pub score: Option<Score>,
    /// The PV as written (KI2-style Japanese for ShogiHome, CSA moves for Floodgate).
    pub pv: Option<String>,
    /// The PV's moves in USI, each checked legal; a PV that starts with the move itself (a
    /// player's block) is taken from the position before it. Stops at the first move that
    /// cannot be read or is illegal.
    pub pv_usi: Vec<String>,
    /// Search depth.
    pub depth: Option<u32>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// The engine's name.
    pub engine: Option<String>,
}

impl Evaluation {
    fn new(ply: u32, source: Source) -> Evaluation {
        Evaluation {
            ply,
            source,
            score: None,
            pv: None,
            pv_usi: Vec::new(),
            depth: None,
            nodes: None,
            engine: None,
        }
    }

    fn is_empty(&self) -> bool {
        self.score.is_none() && self.pv.is_none() && self.depth.is_none() && self.nodes.is_none()
    }
}

/// A number as ShogiHome writes it (signed, perhaps decimal), rounded to an integer.
fn number(s: &str) -> Option<i64> {
    let s = s.trim();
    if let Ok(v) = s.parse::<i64>() {
        return Some(v);
    }
    let f: f64 = s.parse().ok()?;
    (f.is_finite() && f.abs() < 1e15).then(|| f.round() as i64)
}

/// `先手勝ち:15手` / `後手勝ち`, sente's view.
fn mate(s: &str) -> Option<Score> {
    let s = s.trim();
    let (side, rest) = if let Some(r) = s.strip_prefix("先手勝ち") {
        (Color::Black, r)
    } else if let Some(r) = s.strip_prefix("後手勝ち") {
        (Color::White, r)
    } else {
        return None;
    };
    let plies = match rest.strip_prefix(':') {
        None if rest.is_empty() => None,
        None => return None,
        Some(n) => Some(n.strip_suffix('手')?.trim().parse().ok()?),
    };
    Some(Score::mate_for(side == Color::Black, plies))
}

/// The evaluations in one move's comment lines (`comments` as the model keeps them; a
/// comment holding several lines is split). At most one per source; the first value of
/// each key wins, except PVs, where the first is kept in `pv` too.
pub fn parse_comments(ply: u32, comments: &[String]) -> Vec<Evaluation> {
    let mut e: Vec<Evaluation> = [
        Source::Research,
        Source::Player,
        Source::Floodgate,
        Source::ShogiGuiGame,
        Source::ShogiGuiAnalysis,
        Source::Piyo,
        Source::CsaClient,
    ]
    .into_iter()
    .map(|s| Evaluation::new(ply, s))
    .collect();
    for line in comments.iter().flat_map(|c| c.lines()) {
        let line = line.trim_end();
        let [
            research,
            player,
            floodgate,
            gui_game,
            gui_analysis,
            piyo,
            client,
        ] = &mut e[..]
        else {
            unreachable!("seven sources")
        };
        let (e, body) = if let Some(b) = line.strip_prefix('#') {
            if dialects::piyo_line(piyo, b) {
                continue;
            }
            (research, b)
        } else if let Some(b) = line.strip_prefix('*') {
            if dialects::shogigui_line(gui_game, gui_analysis, b) {
                continue;
            }
            if b.starts_with(' ') {
                floodgate_line(floodgate, b);
                continue;
            }
            (player, b)
        } else {
            dialects::csa_client_line(client, line);
            continue;
        };
        let Some((key, value)) = body.split_once('=') else {
            continue;
        };
        match key {
            "評価値" if e.score.is_none() => {
                e.score = number(value).map(|v| Score::Cp(clamp_i32(v)));
            }
            "詰み" if e.score.is_none() => e.score = mate(value),
            "読み筋" if e.pv.is_none() => e.pv = Some(value.to_string()),
            "深さ" if e.depth.is_none() => e.depth = value.trim().parse().ok(),
            "ノード数" if e.nodes.is_none() => e.nodes = value.trim().parse().ok(),
            "エンジン" if e.engine.is_none() => e.engine = Some(value.to_string()),
            _ => {}
        }
    }
    e.retain(|e| !e.is_empty());
    e.sort_by_key(|e| e.source.priority());
    e
}

fn clamp_i32(v: i64) -> i32 {
    v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

/// ` 113 -3334FU +2625FU` (the text after `*`).
fn floodgate_line(e: &mut Evaluation, body: &str) {
    if e.score.is_some() {
        return;
    }
    let mut words = body.split_whitespace();
    let Some(v) = words.next().and_then(|w| w.parse::<i64>().ok()) else {
        return;
    };
    e.score = Some(Score::Cp(clamp_i32(v)));
    let pv: Vec<&str> = words.collect();
    if !pv.is_empty() {
        e.pv = Some(pv.join(" "));
    }
}

/// Every main-line move's evaluation, one per move at most: by [`Source::priority`] (an
/// analysis block (`#`) when there is one, else the player's (`*`), else a Floodgate
/// comment, …). PVs are resolved against the record's positions (see
/// [`Evaluation::pv_usi`]). A csa_client-style line (written before the move it belongs to,
/// so held by the move before or by the start) goes to the next move when its PV continues
/// from the position after that move and not from the position after the move holding it.
pub fn evaluations(record: &Record) -> Vec<Evaluation> {
    select(record, true)
}

/// The score of each main-line position as the record's comments give it: index `k` is the
/// position after `k` moves (0: the start), `None` where no comment values it. The
/// evaluation of each move is the one [`evaluations`] picks; it values the position before
/// the move when it is the playing engine's own search ([`Source::is_root_search`]: the
/// score of the move it chose) and the position after the move when it is an analysis of
/// it. Where two moves' evaluations value the same position, the one of lower
/// [`Source::priority`] wins, the earlier move on a tie. Scores are in sente's view. Cheaper
/// than [`evaluations`] (PVs are not resolved) and free for a record without comments.
pub fn position_scores(record: &Record) -> Vec<Option<Score>> {
    let main_line = record.moves.moves.iter().take_while(|n| n.foul.is_none());
    let mut scores = vec![None; main_line.clone().count() + 1];
    let has_comments =
        !record.start_comments.is_empty() || main_line.clone().any(|n| !n.comments.is_empty());
    if !has_comments {
        return scores;
    }
    let mut held: Vec<Option<u8>> = vec![None; scores.len()];
    for e in select(record, false) {
        let (Some(score), Some(k)) = (e.score, e.ply.checked_sub(e.source.is_root_search() as u32))
        else {
            continue;
        };
        let k = k as usize;
        if k < scores.len() && held[k].is_none_or(|p| e.source.priority() < p) {
            scores[k] = Some(score);
            held[k] = Some(e.source.priority());
        }
    }
    scores
}

/// [`evaluations`], with the PVs resolved into USI moves when `resolve`.
fn select(record: &Record, resolve: bool) -> Vec<Evaluation> {
    let mut out = Vec::new();
    let mut pos = record.start_position().clone();
    let moves = &record.moves.moves;
    let mut carried = parse_comments(0, &record.start_comments)
        .into_iter()
        .find(|e| e.source == Source::CsaClient);
    for (i, node) in moves.iter().enumerate() {
        let before = pos.clone();
        if node.foul.is_some() || pos.play(node.mv).is_err() {
            break;
        }
        let ply = i as u32 + 1;
        let mut found = parse_comments(ply, &node.comments);
        if let Some(mut c) = carried.take().filter(|c| continues(c, &pos)) {
            c.ply = ply;
            // Before this move's own lines of its kind (which belong to the next move).
            found.insert(0, c);
            found.sort_by_key(|e| e.source.priority());
        }
        if let Some(k) = found
            .iter()
            .position(|e| e.source == Source::CsaClient && e.ply == ply && !continues(e, &pos))
        {
            let next = moves.get(i + 1).filter(|n| n.foul.is_none());
            let mut after_next = pos.clone();
            if next.is_some_and(|n| after_next.play(n.mv).is_ok())
                && continues(&found[k], &after_next)
            {
                carried = Some(found.remove(k));
            }
        }
        if let Some(mut e) = found.into_iter().next() {
            if let Some(pv) = e.pv.as_ref().filter(|_| resolve) {
                e.pv_usi = resolve_pv(pv, e.source, &before, &pos, node.mv)
                    .iter()
                    .map(|m| m.to_usi())
                    .collect();
            }
            out.push(e);
        }
    }
    out
}

/// Whether a CSA-move PV's first move is legal in `pos`.
fn continues(e: &Evaluation, pos: &Position) -> bool {
    e.pv.as_deref()
        .and_then(|pv| pv.split_whitespace().next())
        .is_some_and(|w| csa_move(pos, w).is_some())
}

/// The PV's moves: from the position after the move, or, when the PV starts with the move
/// just played (the mark or sign says so), from the position before it.
fn resolve_pv(
    pv: &str,
    source: Source,
    before: &Position,
    after: &Position,
    mv: Move,
) -> Vec<Move> {
    let stripped;
    let pv = match source {
        Source::ShogiGuiGame | Source::ShogiGuiAnalysis => {
            stripped = dialects::strip_sources(pv);
            stripped.as_str()
        }
        _ => pv,
    };
    let parse = |pv: &str, pos: &Position, prev: Option<Square>| {
        if source.csa_moves() {
            csa_pv(pv, pos)
        } else {
            japanese_pv(pv, pos, prev)
        }
    };
    let first_side = match source.csa_moves() {
        true => pv.chars().next().and_then(|c| match c {
            '+' => Some(Color::Black),
            '-' => Some(Color::White),
            _ => None,
        }),
        false => pv.chars().next().and_then(japanese::mark_side),
    };
    if first_side == Some(before.side_to_move()) {
        let moves = parse(pv, before, None);
        if moves.first() == Some(&mv) {
            return moves[1..].to_vec();
        }
        return Vec::new();
    }
    // A first move written 同 goes to the square of the move just played.
    parse(pv, after, Some(mv.to()))
}

/// `▲７六歩△３四歩…` from `pos` (`prev_to`: where the move before went, for 同), as far
/// as each move reads and is legal.
fn japanese_pv(pv: &str, pos: &Position, mut prev_to: Option<Square>) -> Vec<Move> {
    let mut pos = pos.clone();
    let mut out = Vec::new();
    let mut rest = pv.trim();
    while !rest.is_empty() {
        let Ok((m, used)) = japanese::parse(rest) else {
            break;
        };
        let Ok(mv) = japanese::resolve(&m, &pos, prev_to) else {
            break;
        };
        if pos.play(mv).is_err() {
            break;
        }
        out.push(mv);
        prev_to = Some(mv.to());
        rest = rest[used..].trim_start();
    }
    out
}

/// `-3334FU +2625FU …` from `pos`, as far as each move reads and is legal.
fn csa_pv(pv: &str, pos: &Position) -> Vec<Move> {
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for w in pv.split_whitespace() {
        let Some(mv) = csa_move(&pos, w) else {
            break;
        };
        if pos.play(mv).is_err() {
            break;
        }
        out.push(mv);
    }
    out
}

/// A CSA move (`+7776FU`, `-0055KA`) of the side to move in `pos`, when legal.
pub fn csa_move(pos: &Position, s: &str) -> Option<Move> {
    let b = s.as_bytes();
    if b.len() != 7 || !b[1..5].iter().all(u8::is_ascii_digit) {
        return None;
    }
    let side = match b[0] {
        b'+' => Color::Black,
        b'-' => Color::White,
        _ => return None,
    };
    if side != pos.side_to_move() {
        return None;
    }
    let role = Role::from_csa(s.get(5..7)?)?;
    let to = Square::new(b[3] - b'0', b[4] - b'0')?;
    let mv = if b[1] == b'0' && b[2] == b'0' {
        Move::Drop { role, to }
    } else {
        let from = Square::new(b[1] - b'0', b[2] - b'0')?;
        let piece = pos.piece_at(from)?;
        let promote = piece.role != role;
        if promote && piece.role.promote() != Some(role) {
            return None;
        }
        Move::Normal { from, to, promote }
    };
    pos.is_legal(mv).then_some(mv)
}

/// The CSA text of `mv` (`+7776FU`), a move of the side to move in `pos`.
pub fn csa_move_text(pos: &Position, mv: Move) -> String {
    let (from, role) = match mv {
        Move::Normal { from, promote, .. } => {
            let r = pos.piece_at(from).map_or(Role::Pawn, |p| p.role);
            let role = if promote { r.promote().unwrap_or(r) } else { r };
            (from.csa(), role)
        }
        Move::Drop { role, .. } => ("00".to_string(), role),
    };
    format!(
        "{}{from}{}{}",
        pos.side_to_move().csa_char(),
        mv.to().csa(),
        role.csa()
    )
}

/// ShogiHome's situation word for a centipawn score in sente's view (`互角`, `先手有望`, …).
pub fn situation(v: i32) -> &'static str {
    match v {
        v if v >= 1500 => "先手勝勢",
        v if v >= 600 => "先手優勢",
        v if v >= 400 => "先手有利",
        v if v >= 200 => "先手有望",
        v if v > -200 => "互角",
        v if v > -400 => "後手有望",
        v if v > -600 => "後手有利",
        v if v > -1500 => "後手優勢",
        _ => "後手勝勢",
    }
}

/// A PV in ShogiHome's notation from `pos`: `▲７六歩△３四歩▲同　角`, moves with no
/// separator, 同 followed by U+3000 from the second move on. Stops at an illegal move.
pub fn shogihome_pv(pos: &Position, pv: &[Move]) -> String {
    let mut pos = pos.clone();
    let mut s = String::new();
    let mut prev: Option<Square> = None;
    for &mv in pv {
        if !pos.is_legal(mv) {
            break;
        }
        let text = move_text(&pos, mv, prev, Notation::Japanese);
        let mut chars = text.chars();
        match (chars.next(), chars.as_str().strip_prefix('同')) {
            (Some(mark), Some(rest)) => {
                s.push(mark);
                s.push_str("同\u{3000}");
                s.push_str(rest);
            }
            _ => s.push_str(&text),
        }
        prev = Some(mv.to());
        let _ = pos.play(mv);
    }
    s
}

/// An engine's judgement of one position, to be written into a record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Judgement {
    /// The score in sente's view (none: only the other lines are written).
    pub score: Option<Score>,
    /// The PV from the position judged.
    pub pv: Vec<Move>,
    /// Search depth.
    pub depth: Option<u32>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// The engine's name.
    pub engine: Option<String>,
    /// ShogiHome's move-quality header (`緩手`, `疑問手`, `悪手`, `大悪手`), written
    /// `【…】` on the block's first line.
    pub label: Option<String>,
}

/// The comment lines ShogiHome writes for `j`, the search of `pos` (the position after the
/// move they are attached to), with `prefix` `'#'` (analysis) or `'*'` (the engine that
/// played): header, mate or situation word and `評価値`, `読み筋`, `深さ`, `ノード数`, `エンジン`.
pub fn shogihome_lines(pos: &Position, j: &Judgement, prefix: char) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(label) = &j.label {
        out.push(format!("【{label}】"));
    }
    match j.score {
        Some(Score::Cp(v)) => {
            out.push(situation(v).to_string());
            out.push(format!("{prefix}評価値={v}"));
        }
        Some(s) => {
            let who = if s.mate_winner() == Some(true) {
                "先手勝ち"
            } else {
                "後手勝ち"
            };
            match s.mate_distance() {
                Some(n) => out.push(format!("{prefix}詰み={who}:{n}手")),
                None => out.push(format!("{prefix}詰み={who}")),
            }
        }
        None => {}
    }
    let pv = shogihome_pv(pos, &j.pv);
    if !pv.is_empty() {
        out.push(format!("{prefix}読み筋={pv}"));
    }
    if let Some(d) = j.depth {
        out.push(format!("{prefix}深さ={d}"));
    }
    if let Some(n) = j.nodes {
        out.push(format!("{prefix}ノード数={n}"));
    }
    if let Some(e) = &j.engine {
        out.push(format!("{prefix}エンジン={e}"));
    }
    out
}

/// The Floodgate comment text for `j` (`* 113 -3334FU +2625FU`; a CSA writer puts `'*` in
/// front): the score in sente's view (a mate as ±[`Score::MATE_CP`], as ShogiHome writes it;
/// none as 0), then the
/// PV from `pos` in CSA moves.
pub fn floodgate_line_text(pos: &Position, j: &Judgement) -> String {
    let v = j.score.map_or(0, |s| s.centipawns(Score::MATE_CP));
    let mut s = format!("* {v}");
    let mut p = pos.clone();
    for &mv in &j.pv {
        if !p.is_legal(mv) {
            break;
        }
        s.push(' ');
        s.push_str(&csa_move_text(&p, mv));
        let _ = p.play(mv);
    }
    s
}

/// The comment form [`annotate`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// ShogiHome's analysis block (`#` lines), for KIF and KI2 (and read by ShogiHome in CSA).
    ShogiHome,
    /// Floodgate's `'** score pv`, for CSA.
    Floodgate,
}

impl Style {
    /// The form each format's users read: Floodgate's in CSA, ShogiHome's in KIF, KI2 and
    /// JKF (and for USI/SFEN, which hold no comments).
    pub fn for_format(format: crate::Format) -> Style {
        match format {
            crate::Format::Csa => Style::Floodgate,
            _ => Style::ShogiHome,
        }
    }
}

/// Who searched: an analysis of the position after the move, or the engine that played the
/// move, searching the position before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Searcher {
    /// An analysis engine: judgement `i` is the search of the position after main-line move
    /// `i + 1`; ShogiHome's `#` block.
    Analysis,
    /// The engine that played: judgement `i` is its search before main-line move `i + 1`, its
    /// PV starting with that move; ShogiHome's `*` block (the PV as sent, the move included,
    /// as ShogiHome writes a player's), Floodgate's line from the reply on (the move dropped).
    Player,
}

/// The comment lines of `j` in `style`, attached to `mv` played on `before`.
fn block(before: &Position, mv: Move, j: &Judgement, style: Style, by: Searcher) -> Vec<String> {
    let mut after = before.clone();
    after.play_unchecked(mv);
    match (style, by) {
        (Style::ShogiHome, Searcher::Analysis) => shogihome_lines(&after, j, '#'),
        (Style::ShogiHome, Searcher::Player) => shogihome_lines(before, j, '*'),
        (Style::Floodgate, Searcher::Analysis) => vec![floodgate_line_text(&after, j)],
        // A player's Floodgate line always has the player's score (no score: no line).
        (Style::Floodgate, Searcher::Player) if j.score.is_none() => Vec::new(),
        (Style::Floodgate, Searcher::Player) => {
            let reply = match j.pv.split_first() {
                Some((first, rest)) if *first == mv => rest,
                _ => &j.pv[..],
            };
            let j = Judgement {
                pv: reply.to_vec(),
                ..j.clone()
            };
            vec![floodgate_line_text(&after, &j)]
        }
    }
}

/// Adds `judgements[i]` (the search of the position after main-line move `i + 1`) to that
/// move's comments, after the comments already there (ShogiHome's "append"); a ShogiHome
/// block is separated from earlier comments by an empty line, as ShogiHome does. Moves
/// past the end of `judgements`, and `None`s, are left alone; so is everything from an
/// illegal move on. Returns how many moves were annotated.
pub fn annotate(record: &mut Record, judgements: &[Option<Judgement>], style: Style) -> usize {
    annotate_by(record, judgements, style, Searcher::Analysis)
}

/// [`annotate`] for either searcher: the one writer of evaluation comments, used by analysis
/// annotations and by match records alike.
pub fn annotate_by(
    record: &mut Record,
    judgements: &[Option<Judgement>],
    style: Style,
    by: Searcher,
) -> usize {
    let mut pos = record.start_position().clone();
    let mut n = 0;
    for (node, j) in record.moves.moves.iter_mut().zip(judgements) {
        let before = pos.clone();
        if node.foul.is_some() || pos.play(node.mv).is_err() {
            break;
        }
        let Some(j) = j else { continue };
        let lines = block(&before, node.mv, j, style, by);
        if lines.is_empty() {
            continue;
        }
        if style == Style::ShogiHome && !node.comments.is_empty() {
            node.comments.push(String::new());
        }
        node.comments.extend(lines);
        n += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ReadOptions, read_str};

    fn mv(s: &str) -> Move {
        Move::from_usi(s).unwrap()
    }

    #[test]
    fn reads_shogihome_blocks_of_both_kinds() {
        let lines: Vec<String> = [
            "先手有望",
            "*評価値=210",
            "*読み筋=▲２六歩△３四歩",
            "*深さ=10",
            "*ノード数=12345678",
            "",
            "互角",
            "#評価値=158",
            "#読み筋=▲７六歩△３四歩",
            "#深さ=8",
            "#ノード数=123456",
            "#エンジン=Engine01",
        ]
        .map(String::from)
        .to_vec();
        let e = parse_comments(4, &lines);
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].source, Source::Research);
        assert_eq!(e[0].score, Some(Score::Cp(158)));
        assert_eq!(e[0].pv.as_deref(), Some("▲７六歩△３四歩"));
        assert_eq!(
            (e[0].depth, e[0].nodes, e[0].engine.as_deref()),
            (Some(8), Some(123456), Some("Engine01"))
        );
        assert_eq!(e[1].source, Source::Player);
        assert_eq!(e[1].score, Some(Score::Cp(210)));
        assert_eq!(e[1].nodes, Some(12345678));
        assert_eq!(e[1].engine, None);
    }

    #[test]
    fn reads_mates_signed_and_decimal_scores() {
        let one = |s: &str| parse_comments(1, &[s.to_string()]).remove(0).score;
        assert_eq!(one("*詰み=先手勝ち:15手"), Some(Score::Mate { plies: 15 }));
        assert_eq!(
            one("#詰み=後手勝ち"),
            Some(Score::MateUnknown { winning: false })
        );
        assert_eq!(one("#評価値=-60"), Some(Score::Cp(-60)));
        assert_eq!(one("#評価値=+12.6"), Some(Score::Cp(13)));
        assert_eq!(one("* -250 +7776FU"), Some(Score::Cp(-250)));
        // Not evaluations: plain text, a bad value.
        assert!(parse_comments(1, &["評価値=3".into(), "#評価値=abc".into()]).is_empty());
    }

    const KIF: &str = "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n*人の感想\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　銀(31)\n   5 投了\n";

    #[test]
    fn writes_shogihome_form_and_reads_it_back() {
        let mut rec = read_str(KIF, ReadOptions::default()).unwrap();
        let js = vec![
            Some(Judgement {
                score: Some(Score::Cp(-10)),
                pv: vec![mv("3c3d"), mv("2g2f")],
                depth: Some(8),
                nodes: Some(1000),
                engine: Some("Fake".into()),
                label: None,
            }),
            None,
            Some(Judgement {
                score: Some(Score::Cp(250)),
                pv: vec![mv("3a2b"), mv("B*4e"), mv("2b3a")],
                depth: None,
                nodes: None,
                engine: None,
                label: Some("緩手".into()),
            }),
            Some(Judgement {
                score: Some(Score::Mate { plies: -3 }),
                ..Judgement::default()
            }),
        ];
        assert_eq!(annotate(&mut rec, &js, Style::ShogiHome), 3);
        assert_eq!(
            rec.moves.moves[0].comments,
            [
                "人の感想",
                "",
                "互角",
                "#評価値=-10",
                "#読み筋=△３四歩▲２六歩",
                "#深さ=8",
                "#ノード数=1000",
                "#エンジン=Fake"
            ]
        );
        assert_eq!(
            rec.moves.moves[2].comments,
            [
                "【緩手】",
                "先手有望",
                "#評価値=250",
                "#読み筋=△２二銀▲４五角△３一銀"
            ]
        );
        assert_eq!(rec.moves.moves[3].comments, ["#詰み=後手勝ち:3手"]);
        // Written as KIF and read again: each evaluation at its move.
        let text = crate::write(&rec, crate::Format::Kif);
        assert!(text.contains("\n*#評価値=-10\n"), "{text}");
        let back = read_str(&text, ReadOptions::default()).unwrap();
        let evals = evaluations(&back);
        let plies: Vec<u32> = evals.iter().map(|e| e.ply).collect();
        assert_eq!(plies, [1, 3, 4]);
        assert_eq!(evals[0].pv_usi, ["3c3d", "2g2f"]);
        assert_eq!(evals[1].score, Some(Score::Cp(250)));
        assert_eq!(evals[2].score, js[3].as_ref().unwrap().score);
        assert_eq!(back.moves.moves[0].comments[0], "人の感想");
    }

    #[test]
    fn pv_notation_is_shogihomes() {
        let pos = Position::startpos(shogi_core::Variant::Standard);
        let pv = [mv("7g7f"), mv("3c3d"), mv("8h2b+"), mv("3a2b"), mv("B*4e")];
        assert_eq!(
            shogihome_pv(&pos, &pv),
            "▲７六歩△３四歩▲２二角成△同\u{3000}銀▲４五角"
        );
        // An illegal move ends the PV.
        assert_eq!(shogihome_pv(&pos, &[mv("7g7f"), mv("7g7f")]), "▲７六歩");
    }

    #[test]
    fn floodgate_form_round_trips_through_csa() {
        let csa = "PI\n+\n+7776FU\n-3334FU\n+2726FU\n%TORYO\n";
        let mut rec = read_str(csa, ReadOptions::default()).unwrap();
        let js = vec![
            Some(Judgement {
                score: Some(Score::Cp(-35)),
                pv: vec![mv("3c3d"), mv("2g2f")],
                ..Judgement::default()
            }),
            Some(Judgement {
                score: Some(Score::Mate { plies: 9 }),
                pv: vec![mv("8h2b+")],
                ..Judgement::default()
            }),
        ];
        annotate(&mut rec, &js, Style::Floodgate);
        let text = crate::write(&rec, crate::Format::Csa);
        assert!(
            text.contains("+7776FU\n'** -35 -3334FU +2726FU\n"),
            "{text}"
        );
        assert!(text.contains("-3334FU\n'** 30000 +8822UM\n"), "{text}");
        let back = read_str(&text, ReadOptions::default()).unwrap();
        let e = evaluations(&back);
        assert_eq!(e.len(), 2);
        assert_eq!(
            (e[0].source, e[0].score),
            (Source::Floodgate, Some(Score::Cp(-35)))
        );
        assert_eq!(e[0].pv_usi, ["3c3d", "2g2f"]);
        assert_eq!(e[1].pv_usi, ["8h2b+"]);
    }

    #[test]
    fn csa_moves_are_checked() {
        let pos = Position::startpos(shogi_core::Variant::Standard);
        assert_eq!(csa_move(&pos, "+7776FU"), Some(mv("7g7f")));
        assert_eq!(csa_move(&pos, "-3334FU"), None);
        assert_eq!(csa_move(&pos, "+7775FU"), None);
        assert_eq!(csa_move(&pos, "+7776TO"), None);
        assert_eq!(csa_move(&pos, "garbage"), None);
        assert_eq!(csa_move_text(&pos, mv("7g7f")), "+7776FU");
    }

    #[test]
    fn situation_words_at_the_boundaries() {
        let cases = [
            (1500, "先手勝勢"),
            (1499, "先手優勢"),
            (600, "先手優勢"),
            (400, "先手有利"),
            (200, "先手有望"),
            (199, "互角"),
            (-199, "互角"),
            (-200, "後手有望"),
            (-400, "後手有利"),
            (-600, "後手優勢"),
            (-1499, "後手優勢"),
            (-1500, "後手勝勢"),
        ];
        for (v, w) in cases {
            assert_eq!(situation(v), w, "{v}");
        }
    }
}
