//! KIF and KI2 syntax: header, 手合割, BOD diagrams, move lines, comments, bookmarks,
//! variations and the closing line. No legality here: see `replay`.
//!
//! [`parse`] reads line by line with one `Parser`, whose methods live by subject: header
//! lines (`header`), board diagrams (`bod`), KIF move lines and variations (`read`), KI2
//! move lines (`ki2`), and the byte-level reading of the usual KIF move and time (`moves`).

mod bod;
mod fast;
mod header;
mod ki2;
mod moves;
mod read;
pub(crate) mod write;

pub(crate) use read::kif_word_reads_back as word_reads_back;

use crate::error::{ErrorKind, Location, ReadError};
use crate::holds::{EndingHolds, HeaderHolds, Holds};
use crate::japanese::MARKS;
use crate::raw::*;
use crate::text::{Lines, TextLine, trim};

struct Parser<'a> {
    src: &'a str,
    rec: RawRecord,
    /// Node indices of the current line: `path[0]` is the root, `path[k]` the node at ply k.
    path: Vec<u32>,
    /// Where comments and bookmarks go.
    last: u32,
    /// Ply numbers in the file minus this = index in the path.
    offset: Option<u32>,
    board: Option<RawBoard>,
    board_rows: u32,
    board_loc: Location,
    board_open: bool,
    handicap: Option<(String, Location)>,
    in_variation: bool,
    pending: Option<(u32, Location)>,
}

/// Parse KIF or KI2 text into a raw record.
pub(crate) fn parse(src: &str) -> Parsed {
    parse_with(src, true)
}

/// Whether the header line `key：value` reads back as a header entry with that key and
/// nothing else: a key that starts like a move, a comment, a variation or a closing line, or
/// that names a hand, the handicap or a diagram field, does not (the KIF and KI2 writers
/// keep such an entry as a comment on the start, and `losses` names it).
pub(crate) fn header_reads_back(key: &str, value: &str) -> bool {
    let line = format!("{key}：{value}\n");
    match parse_with(&line, false) {
        Ok(rec) => {
            rec.nodes.len() == 1
                && matches!(rec.start, RawStart::Default)
                && rec.closing.is_none()
                && rec.diagnostics.is_empty()
                && rec.header.len() == 1
                && rec.header[0].0 == key
        }
        Err(_) => false,
    }
}

/// [`parse`], with or without [`Parser::fast_line`] (the tests compare the two).
fn parse_with(src: &str, fast: bool) -> Parsed {
    let mut p = Parser {
        src,
        rec: RawRecord::new(),
        path: vec![0],
        last: 0,
        offset: None,
        board: None,
        board_rows: 0,
        board_loc: Location::default(),
        board_open: false,
        handicap: None,
        in_variation: false,
        pending: None,
    };
    // About one node a line, and a move line takes some 16 bytes: make room once.
    let lines = src.len() / 16 + 8;
    p.rec.nodes.reserve(lines);
    p.path.reserve(lines);
    if !fast {
        return parse_lines(p, Lines::new(src));
    }
    // As `parse_lines` does, but the usual move line is read where it stands: only the
    // others are split off as lines first.
    let mut pos = 0;
    let mut no: u32 = 0;
    while pos < src.len() {
        no = no.saturating_add(1);
        if let Some(next) = p.fast_line(pos, no) {
            pos = next;
            continue;
        }
        let mut lines = Lines::starting_at(src, pos, no);
        let Some(line) = lines.next() else {
            break;
        };
        pos = lines.position();
        if let Err(error) = p.read_line(line) {
            let read = p.finish_record().ok();
            return Err(Box::new(Partial { error, read }));
        }
    }
    Ok(p.finish_record()?)
}

impl<'a> LineParser<'a> for Parser<'a> {
    fn read_line(&mut self, line: TextLine<'a>) -> Result<(), ReadError> {
        let raw = line.text;
        // The common case first: a KIF move line, `   1 ７六歩(77)   ( 0:01/00:00:01)`.
        let lead = raw.bytes().take_while(|&b| b == b' ' || b == b'\t').count();
        if raw.as_bytes().get(lead).is_some_and(u8::is_ascii_digit) {
            if let Some(done) = self.simple_kif_move_line(line, lead) {
                return done;
            }
            return self.kif_move_line(line, &raw[lead..]);
        }
        let t = raw.trim_start_matches([' ', '\t', '\u{3000}', '\u{feff}']);
        let tt = trim(t);
        if tt.is_empty() {
            return Ok(());
        }
        let first = t.chars().next().unwrap_or(' ');
        match first {
            '#' => return Ok(()),
            '*' => {
                let body = &t[1..];
                self.rec
                    .notes_mut(self.last)
                    .comments
                    .push(body.trim_end_matches(['\r']).to_string());
                return Ok(());
            }
            '&' => {
                let body = trim(&t[1..]);
                self.rec
                    .notes_mut(self.last)
                    .bookmarks
                    .push(body.to_string());
                return Ok(());
            }
            '|' => return self.board_row(line, t),
            '+' if tt.trim_matches(['+', '-']).is_empty() => {
                self.board_open = !self.board_open;
                if self.board.is_none() {
                    self.board = Some(RawBoard::default());
                    self.board_loc = line.loc_of(tt);
                }
                return Ok(());
            }
            _ => {}
        }
        if first.is_ascii_digit() {
            return self.kif_move_line(line, t);
        }
        if MARKS.contains(&first) {
            return self.ki2_line(line, t);
        }
        self.other_line(line, tt)
    }

    fn finish_record(mut self) -> Result<RawRecord, ReadError> {
        if let Some(b) = self.board.take() {
            if self.board_rows == 0 {
                // Hands or a turn line without a diagram: apply them to the named position.
                let name = self.handicap.as_ref().map(|h| h.0.clone());
                self.rec.start = RawStart::Board {
                    board: Box::new(b),
                    name,
                    loc: self.board_loc,
                };
                if let RawStart::Board { board, .. } = &mut self.rec.start {
                    board.size = 0; // marks "no diagram"
                }
            } else {
                if self.board_rows != u32::from(b.size) {
                    return Err(self.err(
                        ErrorKind::Position,
                        format!(
                            "board diagram has {} rows, expected {}",
                            self.board_rows, b.size
                        ),
                        self.board_loc,
                    ));
                }
                let name = self.handicap.as_ref().map(|h| h.0.clone());
                self.rec.start = RawStart::Board {
                    board: Box::new(b),
                    name,
                    loc: self.board_loc,
                };
            }
        } else if let Some((name, loc)) = self.handicap.take() {
            self.rec.start = RawStart::Named { name, loc };
        }
        Ok(self.rec)
    }
}

impl<'a> Parser<'a> {
    fn err(&self, kind: ErrorKind, msg: impl Into<String>, loc: Location) -> ReadError {
        ReadError::at(kind, msg, self.src, loc)
    }
}

/// What KIF holds ([`crate::losses`] asks): everything but fractions of a second, header
/// entries whose line would read as something else, and endings that would not read back.
pub(crate) const KIF_HOLDS: Holds = Holds {
    variations: true,
    comments: true,
    times: true,
    subsecond_times: false,
    bookmarks: true,
    header: HeaderHolds::KifLines,
    endings: EndingHolds::ReadsBack,
    foul_moves: true,
};

/// What KI2 holds: as KIF, without times.
pub(crate) const KI2_HOLDS: Holds = Holds {
    times: false,
    ..KIF_HOLDS
};

#[cfg(test)]
mod tests {
    use super::moves::{parse_kif_common, parse_kif_time};
    use super::*;
    use crate::japanese::{self, Motion, Relative};
    use shogi_core::{Role, Square};

    #[test]
    fn move_text() {
        let (m, n) = japanese::parse("７六歩(77)").unwrap();
        assert_eq!(m.to, Square::new(7, 6));
        assert_eq!(m.from, Square::new(7, 7));
        assert_eq!(n, "７六歩(77)".len());
        let (m, _) = japanese::parse("同　銀(79)").unwrap();
        assert_eq!(m.to, None);
        assert_eq!(m.kind, Role::Silver);
        let (m, _) = japanese::parse("同銀　(79)").unwrap();
        assert_eq!(m.from, Square::new(7, 9));
        let (m, _) = japanese::parse("３三成銀(34)").unwrap();
        assert_eq!((m.kind, m.promote), (Role::PromotedSilver, None));
        let (m, _) = japanese::parse("３三銀成(34)").unwrap();
        assert_eq!((m.kind, m.promote), (Role::Silver, Some(true)));
        let (m, _) = japanese::parse("▲５八金右上不成").unwrap();
        assert_eq!(
            (m.relative, m.motion, m.promote),
            (Some(Relative::Right), Some(Motion::Up), Some(false))
        );
        let (m, _) = japanese::parse("26歩").unwrap();
        assert_eq!(m.to, Square::new(2, 6));
        assert!(japanese::parse("投了").is_err());
    }

    #[test]
    fn common_kif_moves_read_as_parse_ja_reads_them() {
        let heads = [
            "７六",
            "１一",
            "９九",
            "０六",
            "７〇",
            "76",
            "同",
            "同　",
            "同　　",
            "同 ",
            "７六同",
        ];
        let pieces = [
            "歩", "香", "桂", "銀", "金", "角", "飛", "玉", "王", "と", "杏", "圭", "全", "馬",
            "龍", "竜", "成香", "成桂", "成銀", "成金", "成と", "成", "x", "",
        ];
        let mids = ["", "成", "打", "不成", "生", "成打", "右", "上", "　"];
        let tails = [
            "",
            "(77)",
            "(00)",
            "(07)",
            "(70)",
            "(7)",
            "(ab)",
            " ",
            "\t(1:00/)",
            "+",
            "(11) ",
            "(99)x",
        ];
        let mut fast = 0;
        for h in heads {
            for p in pieces {
                for m in mids {
                    for t in tails {
                        let s = format!("{h}{p}{m}{t}");
                        if let Some(got) = parse_kif_common(s.as_bytes()) {
                            assert_eq!(Ok(got), japanese::parse(&s), "{s}");
                            fast += 1;
                        }
                    }
                }
            }
        }
        assert!(fast > 500, "{fast}");
    }

    #[test]
    fn a_move_read_from_its_first_16_bytes_is_the_move_the_text_gives() {
        use super::moves::kif_move;
        let heads = [
            "７六",
            "１一",
            "同",
            "同　",
            "同　　",
            "同　　　",
            "同 ",
            "76",
        ];
        let pieces = ["歩", "成香", "成銀", "成金", "と", "龍", "x", ""];
        let mids = ["", "成", "打", "不成", "成成", "　"];
        let tails = [
            "", "(77)", "(00)", "(7", "(77", " ", "\t", "\n", "\r\n", "\r", "x",
        ];
        let after = [
            "",
            "\n",
            "   ( 0:01/00:00:01)\n   2 ３四歩(33)\n",
            "(11)(22)",
            "        ",
        ];
        let mut found = 0;
        for h in heads {
            for p in pieces {
                for m in mids {
                    for t in tails {
                        for a in after {
                            let s = format!("{h}{p}{m}{t}{a}");
                            let b = s.as_bytes();
                            let whole = kif_move::<true>(b);
                            if let Some(w) = b.get(..16) {
                                let mut window = [0u8; 16];
                                window.copy_from_slice(w);
                                if let Some(got) = kif_move::<true>(&window) {
                                    assert_eq!(Some(got), whole, "{s:?}");
                                    found += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(found > 1000, "{found}");
    }

    #[test]
    fn fast_move_lines_read_as_the_general_path_reads_them() {
        let texts = [
            "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　銀(31)\n   5 ４五角打\n",
            "手合割：平手\r\n   1 ７六歩(77)   ( 0:01/00:00:01)\r\n   2 ３四歩(33)   ( 0:02/00:00:02)\r\n",
            "   1 ７六歩(77)\n   3 ３四歩(33)\n",
            "   1 ７六歩(77)\n   1 ２六歩(27)\n   2 ３四歩(33)\n",
            "   0 ７六歩(77)\n",
            "   1\t７六歩(77)\t\n\t2 ３四歩(33) x\n   3 ２六歩(27)(\n   4 ８四歩(83)(1:00/)\n",
            "   1 ７六歩(77)\n   2 投了\n   3 ２六歩(27)\n",
            "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n\n変化：2手\n   2 ８四歩(83)\n   3 ２六歩(27)\n\n変化：3手\n   3 ６八銀(79)\n",
            "   1 ７六歩(77)\n変化：1手\n   1 ２六歩(27)\n   2 ３四歩(33)\n",
            "手数＝30\n  31 ７六歩(77)\n  32 ３四歩(33)\n",
            "12345678 ７六歩(77)\n",
            "   1 ７六歩(77)\r\r\n   2 ３四歩(33)\n",
            "   1 ７六歩(77)\n*comment\n   2 ３四歩(33)\n&mark\n",
        ];
        for t in texts {
            let fast = parse_with(t, true);
            let slow = parse_with(t, false);
            assert_eq!(format!("{fast:?}"), format!("{slow:?}"), "{t}");
        }
    }

    /// Pieces of move lines: each is changed, cut and repeated by the tests below.
    const LINE_POOL: [&str; 30] = [
        "   1 ７六歩(77)",
        "   2 ３四歩(33)   ( 0:01/00:00:01)",
        "   3 ２二角成(88)",
        "   4 同　銀(31)",
        "   5 ４五角打",
        "   6 ５二成銀(61)\t",
        "   7 ６八玉(59) ( 1:02/ 0:01:03) ",
        "   8 ８八飛(28)\t(0:1/)",
        "   9 投了",
        "  10 ７六歩(77)x",
        "11 ７六歩(77)",
        "\t12\t１一香(12)",
        "*comment",
        "&mark",
        "変化：3手",
        "まで9手で先手の勝ち",
        "手合割：平手",
        "手数----指手---------消費時間--",
        "",
        "   3 ２二角不成(88)",
        "   3 ２二角(88)(",
        "   3 ２二角(88) ( 0:01",
        "１２３ ７六歩(77)",
        "   3 ７六歩(77)　",
        " 100 ７六歩(77)",
        "1000 ７六歩(77)",
        "  99\t７六歩(77)",
        " 1 2 ７六歩(77)",
        "  1  同　　歩成(77)",
        "   1 同　　　歩成(77)",
    ];

    fn same_either_way(text: &str) {
        let fast = parse_with(text, true);
        let slow = parse_with(text, false);
        assert_eq!(format!("{fast:?}"), format!("{slow:?}"), "{text:?}");
    }

    #[test]
    fn changed_move_lines_read_as_the_general_path_reads_them() {
        // Every character of a few records changed, dropped, doubled, and every cut.
        let swaps = [
            ' ', '\t', '\r', '\n', '(', ')', '0', '1', '9', '７', '同', '\u{3000}', '歩', '成',
            '打', 'x', '/', ':', '+', '*',
        ];
        let records = [
            "   1 ７六歩(77)\n   2 ３四歩(33)   ( 0:01/00:00:01)\n   3 同　角成(88)\n",
            "   1 ７六歩(77)\r\n   2 ４五角打\r\n   3 ２六歩(27)\t\r\n",
            "   1 ７六歩(77)\n変化：1手\n   1 ２六歩(27)\n   2 ８四歩(83) ( 0:1/)",
        ];
        for rec in records {
            let chars: Vec<(usize, char)> = rec.char_indices().collect();
            for &(at, c) in &chars {
                let rest = &rec[at + c.len_utf8()..];
                same_either_way(&rec[..at]);
                same_either_way(&format!("{}{rest}", &rec[..at]));
                same_either_way(&format!("{}{c}{c}{rest}", &rec[..at]));
                for s in swaps {
                    same_either_way(&format!("{}{s}{rest}", &rec[..at]));
                    same_either_way(&format!("{}{s}{c}{rest}", &rec[..at]));
                }
            }
        }
    }

    #[test]
    fn random_records_read_as_the_general_path_reads_them() {
        // Lines from the pool, renumbered or not, with every kind of line end.
        let ends = ["\n", "\r\n", "\r\r\n", "\n\n"];
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..20_000 {
            let mut text = String::new();
            let lines = next(12);
            // The first move number fixes the numbering: numbers of one to five digits.
            let base = [0, 5, 95, 990, 9995][next(5)];
            for k in 0..lines {
                let line = LINE_POOL[next(LINE_POOL.len())];
                if next(2) == 0 {
                    // Renumbered to follow on, the usual case.
                    let body = line
                        .trim_start()
                        .trim_start_matches(|c: char| c.is_ascii_digit());
                    if line.trim_start().starts_with(|c: char| c.is_ascii_digit()) {
                        text.push_str(&format!("{:4}{body}", base + k + 1));
                    } else {
                        text.push_str(line);
                    }
                } else {
                    text.push_str(line);
                }
                if k + 1 < lines || next(3) > 0 {
                    text.push_str(ends[next(ends.len())]);
                }
            }
            same_either_way(&text);
        }
    }

    #[test]
    fn times() {
        assert_eq!(
            parse_kif_time(" 0:16/00:00:16"),
            Some(RawTime {
                spent_ms: Some(16_000),
                total_ms: Some(16_000)
            })
        );
        assert_eq!(
            parse_kif_time("00:01 / 00:01:10"),
            Some(RawTime {
                spent_ms: Some(1000),
                total_ms: Some(70_000)
            })
        );
        assert_eq!(
            parse_kif_time(" 0:7/"),
            Some(RawTime {
                spent_ms: Some(7000),
                total_ms: None
            })
        );
        assert_eq!(
            parse_kif_time("90:00/1:30:00"),
            Some(RawTime {
                spent_ms: Some(5_400_000),
                total_ms: Some(5_400_000)
            })
        );
        assert_eq!(parse_kif_time("x"), None);
    }
}
