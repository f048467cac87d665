//! KIF and KI2 writing, with BOD board diagrams for starts other than a named handicap.

use crate::encoding::Encoding;
use crate::ending::EndingKind;
use crate::format::Format;
use crate::japanese::{self, Style, side_mark};
use crate::model::{Ending, HeaderKey, Line, MoveNode, MoveTime, Record};
use crate::text::{one_line, write_comments};
use shogi_core::{Color, Handicap, Position, Role, Square, Variant};
use std::borrow::Cow;
use std::fmt::{self, Write};

/// Which of the two Japanese formats to write (KIF or KI2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum JapaneseFormat {
    /// Numbered move lines with source squares and times (`   1 ７六歩(77)   ( 0:01/)`).
    Kif,
    /// Moves without sources, disambiguated with 右左直上引寄 (`▲７六歩    △３四歩`).
    Ki2,
}

impl JapaneseFormat {
    /// How this notation writes a move.
    fn style(self) -> Style {
        match self {
            JapaneseFormat::Kif => Style::Kif,
            JapaneseFormat::Ki2 => Style::Ki2,
        }
    }

    /// The declaration line Kakinoki's programs write first, for text in `encoding`
    /// (`#KIF version=2.0 encoding=Shift_JIS`).
    fn write_declaration<W: Write + ?Sized>(self, out: &mut W, encoding: Encoding) -> fmt::Result {
        let name = match self {
            JapaneseFormat::Kif => "KIF",
            JapaneseFormat::Ki2 => "KI2",
        };
        writeln!(out, "#{name} version=2.0 encoding={}", encoding.label())
    }
}

/// The KIF move-list heading.
const KIF_MOVES_HEADING: &str = "手数----指手---------消費時間--";

/// The full-width digit naming a file, as in square names (`９`).
fn file_label(file: u8) -> char {
    Square::new(file, 1)
        .and_then(|sq| sq.japanese().chars().next())
        .unwrap_or('？')
}

/// The kanji numeral 1-9, as in square names' ranks (`九`); diagrams and hand counts use it.
pub(crate) fn kanji_numeral(n: u8) -> char {
    Square::new(1, n)
        .and_then(|sq| sq.japanese().chars().nth(1))
        .unwrap_or('？')
}

/// A hand count in kanji, 1 to 18 (`十八`).
fn write_kanji_count<W: Write + ?Sized>(out: &mut W, n: u8) -> fmt::Result {
    if n >= 10 {
        out.write_char('十')?;
    }
    if n % 10 != 0 {
        out.write_char(kanji_numeral(n % 10))?;
    }
    Ok(())
}

/// The one-character name of a role in a board diagram (全, 圭, 杏 for the promoted minors).
pub(crate) fn bod_char(role: Role) -> char {
    role.kanji_short().chars().next().unwrap_or('？')
}

/// Whether readers commonly know the handicap by its name alone. Kakinoki's list has five
/// more (三枚落ち, 五枚落ち, 左五枚落ち, 左七枚落ち, 右七枚落ち), which tsshogi does not
/// know and reads as 平手; for those the writers add the position itself.
pub(crate) fn widely_known(h: Handicap) -> bool {
    !matches!(
        h,
        Handicap::ThreePieces
            | Handicap::FivePieces
            | Handicap::LeftFivePieces
            | Handicap::LeftSevenPieces
            | Handicap::RightSevenPieces
    )
}

fn is_handicap_game(record: &Record) -> bool {
    record.start.variant() == Variant::Standard
        && matches!(record.start.handicap, Some(h) if h != Handicap::Even)
}

/// A diagram's hand line after its label: `飛　角　歩十八　`, or `なし`.
fn write_bod_hand<W: Write + ?Sized>(out: &mut W, pos: &Position, color: Color) -> fmt::Result {
    let hand = pos.hand(color);
    let mut any = false;
    for role in Role::HAND {
        let n = hand.count(role);
        if n == 0 {
            continue;
        }
        any = true;
        // Readers take at most 18 of a kind in one entry (the pawns of a game): a puzzle's
        // larger count is written as several entries, which they add up.
        let mut left = n;
        while left > 0 {
            let part = left.min(18);
            out.write_char(bod_char(role))?;
            if part > 1 {
                write_kanji_count(out, part)?;
            }
            out.write_char('　')?;
            left -= part;
        }
    }
    if !any {
        out.write_str("なし")?;
    }
    out.write_char('\n')
}

/// A BOD board diagram as KIF and KI2 write it: gote's hand (`後手の持駒：…`), the column
/// numbers, the board between `+---+` borders with `v` before gote's pieces and the rank in
/// kanji after each row, sente's hand and whose turn it is (`先手番`). With `handicap` the
/// sides are named 上手 (gote) and 下手 (sente). Mini Shogi positions get a 5x5 board.
///
/// ```
/// let pos = shogi_core::Position::startpos(shogi_core::Variant::Mini);
/// let mut text = String::new();
/// shogi_kif::write_diagram(&mut text, &pos, false).unwrap();
/// assert!(text.starts_with("後手の持駒：なし\n  ５ ４ ３ ２ １\n+---------------+\n|v飛v角v銀v金v玉|一\n"));
/// assert!(text.ends_with("先手の持駒：なし\n先手番\n"));
/// ```
pub fn write_bod<W: Write + ?Sized>(out: &mut W, pos: &Position, handicap: bool) -> fmt::Result {
    let size = pos.variant().size();
    let (top, bottom) = if handicap {
        ("上手", "下手")
    } else {
        ("後手", "先手")
    };
    write!(out, "{top}の持駒：")?;
    write_bod_hand(out, pos, Color::White)?;
    out.write_str(" ")?;
    for file in (1..=size).rev() {
        write!(out, " {}", file_label(file))?;
    }
    out.write_char('\n')?;
    let border = format!("+{}+\n", "-".repeat(usize::from(size) * 3));
    out.write_str(&border)?;
    for rank in 1..=size {
        out.write_char('|')?;
        for file in (1..=size).rev() {
            match Square::new(file, rank).and_then(|sq| pos.piece_at(sq)) {
                Some(p) => {
                    out.write_char(if p.color == Color::White { 'v' } else { ' ' })?;
                    out.write_char(bod_char(p.role))?;
                }
                None => out.write_str(" ・")?,
            }
        }
        writeln!(out, "|{}", kanji_numeral(rank))?;
    }
    out.write_str(&border)?;
    write!(out, "{bottom}の持駒：")?;
    write_bod_hand(out, pos, Color::Black)?;
    // Always say whose turn it is: readers guess 上手 for handicap-looking diagrams.
    let turn = if pos.side_to_move() == Color::White {
        top
    } else {
        bottom
    };
    writeln!(out, "{turn}番")
}

/// A KIF time field: `( 0:12/00:03:40)`, or `( 0:12/)` without the running total.
fn write_kif_time<W: Write + ?Sized>(out: &mut W, t: &MoveTime) -> fmt::Result {
    let s = t.spent_ms.unwrap_or(0) / 1000;
    write!(out, "({:>2}:{:02}/", s / 60, s % 60)?;
    if let Some(total) = t.total_ms {
        let tt = total / 1000;
        write!(out, "{:02}:{:02}:{:02}", tt / 3600, (tt / 60) % 60, tt % 60)?;
    }
    out.write_char(')')
}

/// Columns taken in a fixed-width font: full-width characters count two.
fn display_width(s: &str) -> usize {
    s.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}

/// The result part of a closing line (`先手の勝ち` in `まで47手で先手の勝ち`), for `stm`, the side
/// to move when the line ended (a foul move counts as made). `None` for endings without a
/// usual phrase: an unknown word, 不戦勝, 不戦敗.
fn closing_result(kind: &EndingKind, stm: Color, handicap: bool) -> Option<Cow<'static, str>> {
    let name = |c: Color| match (c, handicap) {
        (Color::Black, false) => "先手",
        (Color::White, false) => "後手",
        (Color::Black, true) => "下手",
        (Color::White, true) => "上手",
    };
    Some(match kind {
        EndingKind::Resign => Cow::Owned(format!("{}の勝ち", name(!stm))),
        EndingKind::TimeUp => Cow::Owned(format!("時間切れにより{}の勝ち", name(!stm))),
        EndingKind::FoulWin => Cow::Owned(format!("{}の反則勝ち", name(stm))),
        EndingKind::FoulLoss => Cow::Owned(format!("{}の反則負け", name(stm))),
        EndingKind::Declaration => Cow::Owned(format!("{}の入玉勝ち", name(stm))),
        EndingKind::Mate => Cow::Borrowed("詰み"),
        EndingKind::Interrupt => Cow::Borrowed("中断"),
        EndingKind::Repetition => Cow::Borrowed("千日手"),
        EndingKind::Impasse | EndingKind::MaxMoves | EndingKind::Draw => Cow::Borrowed("持将棋"),
        EndingKind::NoMate => Cow::Borrowed("不詰"),
        EndingKind::SealedMove => Cow::Borrowed("封じ手"),
        _ => return None,
    })
}

/// KIF time fields hold each side's running total too; records read from CSA have only the
/// time spent. Fill the totals in (running sums per side, variations continuing from the
/// position they branch at) so the written `( 0:12/00:03:40)` fields are complete.
fn with_time_totals(record: &Record) -> Cow<'_, Record> {
    fn missing(line: &Line) -> bool {
        line.moves.iter().any(|n| {
            n.time
                .is_some_and(|t| t.spent_ms.is_some() && t.total_ms.is_none())
                || n.variations.iter().any(missing)
        }) || line.ending.as_ref().is_some_and(|e| {
            e.time
                .is_some_and(|t| t.spent_ms.is_some() && t.total_ms.is_none())
                || e.variations.iter().any(missing)
        })
    }
    fn fill(line: &mut Line, mut totals: [u64; 2], mut mover: usize) {
        let add = |t: &mut Option<MoveTime>, totals: &mut [u64; 2], mover: usize| {
            if let Some(t) = t {
                match (t.spent_ms, t.total_ms) {
                    (Some(spent), None) => {
                        totals[mover] += spent;
                        t.total_ms = Some(totals[mover]);
                    }
                    (_, Some(total)) => totals[mover] = total,
                    (None, None) => {}
                }
            }
        };
        for node in &mut line.moves {
            for v in &mut node.variations {
                fill(v, totals, mover);
            }
            add(&mut node.time, &mut totals, mover);
            mover ^= 1;
        }
        if let Some(e) = &mut line.ending {
            for v in &mut e.variations {
                fill(v, totals, mover);
            }
            add(&mut e.time, &mut totals, mover);
        }
    }
    if !missing(&record.moves) {
        return Cow::Borrowed(record);
    }
    let mut r = record.clone();
    let first = r.start_position().side_to_move().index();
    fill(&mut r.moves, [0, 0], first);
    Cow::Owned(r)
}

/// Write a record as KIF or KI2, declaring `encoding` in the first line.
pub(crate) fn write<W: Write + ?Sized>(
    out: &mut W,
    record: &Record,
    notation: JapaneseFormat,
    encoding: Encoding,
) -> fmt::Result {
    let record = &*with_time_totals(record);
    notation.write_declaration(out, encoding)?;
    let first_ply = write_head(out, record)?;
    if notation == JapaneseFormat::Kif {
        writeln!(out, "{KIF_MOVES_HEADING}")?;
    }
    let pos = record.start_position().clone();
    let mut w = LineWriter {
        out,
        notation,
        text: String::new(),
        first_ply,
        handicap: is_handicap_game(record),
    };
    let mut blocks = Vec::new();
    let main = Branch {
        ply: first_ply,
        line: &record.moves,
        pos,
        prev: None,
        main: true,
    };
    w.write_line(main, &mut blocks)?;
    // Variations, depth-first, latest branch first (as Kifu for Windows writes them).
    while let Some(branch) = blocks.pop() {
        writeln!(w.out, "\n変化：{}手", branch.ply)?;
        let mut sub = Vec::new();
        w.write_line(branch, &mut sub)?;
        // Sub-variations come right after their line, latest first.
        blocks.extend(sub);
    }
    Ok(())
}

/// Write the header, the start (handicap name or diagram) and the start's notes; give the
/// number of the start's first move.
fn write_head<W: Write + ?Sized>(out: &mut W, record: &Record) -> Result<u32, fmt::Error> {
    let handicap = is_handicap_game(record);
    let pos = record.start_position();
    // Entries whose line would read back as something else: comments on the start.
    let mut as_comments = Vec::new();
    for e in &record.header.entries {
        let key = match (&e.key, handicap) {
            (HeaderKey::Black, true) => "下手",
            (HeaderKey::White, true) => "上手",
            (k, _) => k.kif(),
        };
        let value = one_line(&e.value);
        if header_kept(&e.key, &value) {
            writeln!(out, "{key}：{value}")?;
        } else {
            as_comments.push(format!("{key}：{value}"));
        }
    }
    let first_number = pos.move_number().max(1);
    match &record.start {
        s if s.variant() == Variant::Mini && s.sfen() == Variant::Mini.start_sfen() => {
            writeln!(out, "手合割：5五将棋")?;
        }
        s if s.variant() == Variant::Mini => {
            writeln!(out, "手合割：5五将棋")?;
            write_bod(out, pos, false)?;
        }
        s if s.handicap.is_some_and(|h| h != Handicap::Other) && first_number == 1 => {
            let h = s.handicap.unwrap_or(Handicap::Even);
            writeln!(out, "手合割：{}", h.japanese())?;
            if !widely_known(h) {
                // tsshogi 2.2.0 reads these names as 平手: the diagram says what they are.
                write_bod(out, pos, true)?;
            }
        }
        s => {
            if let Some(name) = &s.name {
                writeln!(out, "手合割：{name}")?;
            }
            if first_number > 1 {
                writeln!(out, "手数＝{}", first_number - 1)?;
            }
            write_bod(out, pos, handicap)?;
        }
    }
    write_notes(out, &as_comments, &[])?;
    write_notes(out, &record.start_comments, &record.start_bookmarks)?;
    Ok(first_number)
}

/// Whether the KIF and KI2 writers write a header entry as a header line (its value on one
/// line): the usual keys always, any other key when its line reads back as itself.
pub(crate) fn header_kept(key: &HeaderKey, value: &str) -> bool {
    match key {
        HeaderKey::Other(k) => crate::kif::header_reads_back(k, value),
        _ => true,
    }
}

/// A line of moves to write, from the position it starts at.
struct Branch<'r> {
    /// The number of its first move.
    ply: u32,
    line: &'r Line,
    pos: Position,
    /// The destination of the move before it (for 同).
    prev: Option<Square>,
    /// Whether this is the main line (which KIF closes with a `まで…` line).
    main: bool,
}

/// Writes lines of moves in one notation, reusing one buffer for the text of each move.
struct LineWriter<'w, W: ?Sized> {
    out: &'w mut W,
    notation: JapaneseFormat,
    text: String,
    /// The number of the record's first move.
    first_ply: u32,
    /// Whether sides are named 下手/上手.
    handicap: bool,
}

impl<W: Write + ?Sized> LineWriter<'_, W> {
    /// Write the moves of a line, then its ending; collect its variations into `blocks` (in
    /// reverse ply order, so that popping them gives record order).
    // About 110 lines: one pass over a line's moves, each written with its time, comments,
    // bookmark and the variations that branch from it, in the order KIF puts them.
    fn write_line<'r>(&mut self, branch: Branch<'r>, blocks: &mut Vec<Branch<'r>>) -> fmt::Result {
        let Branch {
            mut ply,
            line,
            mut pos,
            mut prev,
            main,
        } = branch;
        let ki2 = self.notation == JapaneseFormat::Ki2;
        let mut ki2_row = 0;
        // Set when the line stops at a recorded foul move: the position was not advanced past it.
        let mut fouled = false;
        for node in &line.moves {
            // Pushed in reverse: the stack pops them back in record order.
            for v in node.variations.iter().rev() {
                blocks.push(Branch {
                    ply,
                    line: v,
                    pos: pos.clone(),
                    prev,
                    main: false,
                });
            }
            self.move_text(&pos, node, prev);
            if ki2 {
                self.write_ki2_move(node, &mut ki2_row)?;
            } else {
                self.write_kif_move(node, ply)?;
            }
            write_notes(self.out, &node.comments, &node.bookmarks)?;
            if node.foul.is_some() {
                // The position stops at a foul: nothing can follow it.
                ply += 1;
                fouled = true;
                break;
            }
            if pos.play(node.mv).is_err() {
                break;
            }
            prev = Some(node.mv.to());
            ply += 1;
        }
        if ki2 && ki2_row > 0 {
            self.out.write_char('\n')?;
        }
        // A line that stops at a foul with no ending stated is won by the other side, as
        // the readers take it when something declares the foul: say so, as nothing else in
        // the text may (the record's closing line, say, was not understood).
        let implied;
        let e = match &line.ending {
            Some(e) => e,
            None if fouled => {
                implied = Ending::new(EndingKind::FoulWin);
                &implied
            }
            None => return Ok(()),
        };
        let variations = line.ending.iter().flat_map(|e| &e.variations);
        for v in variations.rev() {
            blocks.push(Branch {
                ply,
                line: v,
                pos: pos.clone(),
                prev,
                main: false,
            });
        }
        // The side to move after the last move (a foul move counts as made).
        let stm = if fouled {
            !pos.side_to_move()
        } else {
            pos.side_to_move()
        };
        let moves = ply - self.first_ply;
        // An unknown word that would not read back as itself (a line break in it, or text
        // read as a move) is written as 不明 with the word as the ending's first comment: the
        // line keeps an ending, and the ending its variations.
        let format = if ki2 { Format::Ki2 } else { Format::Kif };
        let kind = e.kind.as_written(format);
        let mut comments = Cow::Borrowed(&e.comments);
        if *kind != e.kind {
            let mut all = vec![e.kind.japanese().to_string()];
            all.extend(e.comments.iter().cloned());
            comments = Cow::Owned(all);
        }
        let result = closing_result(&kind, stm, self.handicap);
        if ki2 {
            // KI2 has no numbered special lines: every line's ending is its `まで…` line, as
            // Kifu for Windows writes the main line's and tsshogi every line's. An ending
            // without a usual phrase is named by its word.
            let result = result.unwrap_or(Cow::Borrowed(kind.japanese()));
            writeln!(self.out, "まで{moves}手で{result}")?;
            return write_notes(self.out, &comments, &e.bookmarks);
        }
        let word = kind.japanese();
        write!(self.out, "{ply:>4} {word}")?;
        if let Some(t) = &e.time {
            let pad = 14usize.saturating_sub(display_width(word));
            write!(self.out, "{:pad$}", "")?;
            write_kif_time(self.out, t)?;
        }
        self.out.write_char('\n')?;
        write_notes(self.out, &comments, &e.bookmarks)?;
        match result {
            Some(r) if main => writeln!(self.out, "まで{moves}手で{r}"),
            _ => Ok(()),
        }
    }

    /// Put the text of a node's move into the buffer.
    fn move_text(&mut self, pos: &Position, node: &MoveNode, prev: Option<Square>) {
        self.text.clear();
        if self.notation == JapaneseFormat::Ki2 && node.foul.is_some() {
            // An illegal move cannot be resolved from the position the way KI2 moves are:
            // write its source square too, as KIF does (`▲１七玉(28)`), which KI2 readers accept.
            self.text.push(side_mark(pos.side_to_move()));
            japanese::write_move(&mut self.text, pos, node.mv, prev, Style::Kif);
        } else {
            japanese::write_move(&mut self.text, pos, node.mv, prev, self.notation.style());
        }
    }

    /// A numbered KIF move line with its time, `+` marking a move with variations.
    fn write_kif_move(&mut self, node: &MoveNode, ply: u32) -> fmt::Result {
        write!(self.out, "{ply:>4} {}", self.text)?;
        if let Some(t) = &node.time {
            let pad = 14usize.saturating_sub(display_width(&self.text));
            write!(self.out, "{:pad$}", "")?;
            write_kif_time(self.out, t)?;
        }
        if !node.variations.is_empty() {
            self.out.write_char('+')?;
        }
        self.out.write_char('\n')
    }

    /// A KI2 move: up to six a row, a row ending before and after a commented move.
    fn write_ki2_move(&mut self, node: &MoveNode, row: &mut usize) -> fmt::Result {
        if *row > 0 && (*row >= 6 || !node.comments.is_empty()) {
            self.out.write_char('\n')?;
            *row = 0;
        }
        if *row > 0 {
            self.out.write_str("    ")?;
        }
        self.out.write_str(&self.text)?;
        *row += 1;
        if !node.comments.is_empty() || !node.bookmarks.is_empty() {
            self.out.write_char('\n')?;
            *row = 0;
        }
        Ok(())
    }
}

/// Comments (`*…`) and bookmarks (`&…`) of a move or of the start.
fn write_notes<W: Write + ?Sized>(
    out: &mut W,
    comments: &[String],
    bookmarks: &[String],
) -> fmt::Result {
    write_comments(out, "*", comments)?;
    for b in bookmarks {
        writeln!(out, "&{}", one_line(b))?;
    }
    Ok(())
}
