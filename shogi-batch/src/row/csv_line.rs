//! A row as a CSV record, written directly rather than through serde and the `csv` crate:
//! `shogi stats` writes one per game, and this is a visible share of its cost. The bytes
//! are those the `csv` crate writes for the row with its default settings (fields separated
//! by `,`; a field holding `,`, `"`, `\r` or `\n` quoted with `"`, its quotes doubled;
//! numbers as `itoa` and `ryu` spell them; `\n` at the end), which a test checks.

use super::{COLUMNS, ColumnWord, GameRow};
use std::io::Write as _;

/// The columns `--mate` adds (see [`GameRow::set_missed_mate`]), after `moves`.
pub const MATE_COLUMNS: &[&str] = &[
    "missed_mate_ply",
    "missed_mate_side",
    "missed_mate_length",
    "missed_mate_pv",
];

/// The CSV header of rows written by [`GameRow::write_csv`]: [`COLUMNS`], `moves` when the
/// rows carry it, then the [`MATE_COLUMNS`] when they carry those.
pub fn csv_header(with_moves: bool, with_mate: bool) -> String {
    let mut h = COLUMNS.join(",");
    if with_moves {
        h.push_str(",moves");
    }
    if with_mate {
        for c in MATE_COLUMNS {
            h.push(',');
            h.push_str(c);
        }
    }
    h.push('\n');
    h
}

/// Appends fields to a record.
struct Fields<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
}

impl Fields<'_> {
    fn start(&mut self) {
        if !self.first {
            self.out.push(b',');
        }
        self.first = false;
    }

    fn text(&mut self, s: &str) {
        self.start();
        let bytes = s.as_bytes();
        if !bytes
            .iter()
            .any(|&b| matches!(b, b',' | b'"' | b'\r' | b'\n'))
        {
            self.out.extend_from_slice(bytes);
            return;
        }
        self.out.push(b'"');
        for &b in bytes {
            if b == b'"' {
                self.out.push(b'"');
            }
            self.out.push(b);
        }
        self.out.push(b'"');
    }

    /// A field that cannot need quotes (a name this module's caller made: a format, a
    /// winner, a hex key, an SFEN it wrote), copied without looking.
    fn plain<S: AsRef<str>>(&mut self, s: &Option<S>) {
        self.start();
        if let Some(s) = s {
            let s = s.as_ref();
            debug_assert!(!s.bytes().any(|b| matches!(b, b',' | b'"' | b'\r' | b'\n')));
            self.out.extend_from_slice(s.as_bytes());
        }
    }

    /// A closed-set column's word (none needs quotes: a test checks).
    fn word<T: ColumnWord>(&mut self, w: Option<T>) {
        self.plain(&w.map(T::word));
    }

    /// Names joined by `, ` as one field (quoted when there are several: the `, ` is a
    /// comma), written without joining them first.
    fn list<S: AsRef<str>>(&mut self, names: &[S]) {
        let special = |s: &S| {
            s.as_ref()
                .bytes()
                .any(|b| matches!(b, b',' | b'"' | b'\r' | b'\n'))
        };
        if names.len() < 2 && !names.iter().any(special) {
            self.start();
            if let Some(s) = names.first() {
                self.out.extend_from_slice(s.as_ref().as_bytes());
            }
            return;
        }
        self.start();
        self.out.push(b'"');
        for (i, s) in names.iter().enumerate() {
            if i > 0 {
                self.out.extend_from_slice(b", ");
            }
            for &b in s.as_ref().as_bytes() {
                if b == b'"' {
                    self.out.push(b'"');
                }
                self.out.push(b);
            }
        }
        self.out.push(b'"');
    }

    fn opt_text<S: AsRef<str>>(&mut self, s: &Option<S>) {
        match s {
            Some(s) => self.text(s.as_ref()),
            None => self.start(),
        }
    }

    fn number(&mut self, n: u32) {
        self.start();
        // Writing to a Vec cannot fail.
        let _ = write!(self.out, "{n}");
    }

    fn opt_number(&mut self, n: Option<u32>) {
        match n {
            Some(n) => self.number(n),
            None => self.start(),
        }
    }

    /// A rating: as `ryu` spells it (`1500.0`), which serde_json uses too; a value JSON
    /// cannot hold (never made: ratings are finite) is left empty.
    fn opt_float(&mut self, x: Option<f64>) {
        self.start();
        if let Some(x) = x.filter(|x| x.is_finite()) {
            let _ = serde_json::to_writer(&mut *self.out, &x);
        }
    }
}

impl<S: AsRef<str>> GameRow<S> {
    /// Appends the row to `out` as one CSV record, the columns in [`COLUMNS`] order and
    /// `moves` last when set, as the `csv` crate would write it (see [`csv_header`]).
    pub fn write_csv(&self, out: &mut Vec<u8>) {
        let mut f = Fields { out, first: true };
        f.text(self.path.as_ref());
        f.number(self.game);
        f.opt_number(self.line);
        f.word(self.format);
        f.word(self.encoding);
        f.word(self.variant);
        for s in [
            &self.handicap,
            &self.sente,
            &self.gote,
            &self.start,
            &self.start_iso,
            &self.event,
            &self.site,
            &self.time_control,
        ] {
            f.opt_text(s);
        }
        f.opt_float(self.sente_rating);
        f.opt_float(self.gote_rating);
        f.opt_text(&self.sente_rank);
        f.opt_text(&self.gote_rank);
        f.number(self.plies);
        f.word(self.ending);
        f.word(Some(self.winner));
        f.start();
        f.out
            .extend_from_slice(if self.valid { b"true" } else { b"false" });
        f.opt_text(&self.first_error);
        f.opt_number(self.error_ply);
        f.opt_number(self.error_line);
        f.number(self.warnings);
        f.opt_number(self.repetition_ply);
        f.plain(&self.final_sfen);
        f.opt_text(&self.start_sfen);
        f.plain(&self.key);
        f.opt_text(&self.duplicate_of);
        if let Some(moves) = &self.moves {
            f.text(moves.as_ref());
        }
        if let Some(ply) = self.missed_mate_ply {
            f.opt_number(ply);
            f.word(self.missed_mate_side.flatten());
            f.opt_number(self.missed_mate_length.flatten().map(u32::from));
            f.plain(&self.missed_mate_pv.as_ref().and_then(Option::as_ref));
        }
        if let Some(opening) = &self.opening {
            f.opt_text(opening);
            for s in [&self.game_class, &self.sente_class, &self.gote_class] {
                f.opt_text(&s.as_ref().and_then(Option::as_ref));
            }
            for list in [
                &self.sente_openings,
                &self.gote_openings,
                &self.sente_castles,
                &self.gote_castles,
            ] {
                f.list(list.as_deref().unwrap_or_default());
            }
            f.opt_text(&self.opening_header.as_ref().and_then(Option::as_ref));
        }
        f.out.push(b'\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the `csv` crate writes for `row` (no header).
    fn by_csv(row: &GameRow) -> String {
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        w.serialize(row).unwrap();
        String::from_utf8(w.into_inner().unwrap()).unwrap()
    }

    fn ours(row: &GameRow) -> String {
        let mut out = Vec::new();
        row.write_csv(&mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_list_is_its_names_joined_as_one_field() {
        let cases: [&[&str]; 6] = [
            &[],
            &["矢倉"],
            &["四間飛車", "美濃囲い"],
            &["a,b"],
            &["say \"x\"", "y"],
            &["", "", "z"],
        ];
        for names in cases {
            let (mut listed, mut joined) = (Vec::new(), Vec::new());
            Fields {
                out: &mut listed,
                first: false,
            }
            .list(names);
            Fields {
                out: &mut joined,
                first: false,
            }
            .text(&names.join(", "));
            assert_eq!(
                String::from_utf8(listed),
                String::from_utf8(joined),
                "{names:?}"
            );
        }
    }

    #[test]
    fn the_bytes_the_csv_crate_writes() {
        let mut row = GameRow {
            path: "a,b/\"c\".kif".into(),
            game: 4_000_000_000,
            line: Some(0),
            format: Some(shogi_kif::Format::Kif),
            sente: Some("name with\nnewline".into()),
            gote: Some("cr\rhere".into()),
            start: Some(String::new()),
            event: Some("\"quoted\"".into()),
            sente_rating: Some(1500.0),
            gote_rating: Some(2345.678),
            plies: 7,
            valid: true,
            first_error: Some("illegal-move: move 3, \"x\"".into()),
            error_ply: Some(3),
            warnings: 12,
            final_sfen: Some(
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".into(),
            ),
            key: Some("0123456789abcdef".into()),
            ..GameRow::default()
        };
        assert_eq!(ours(&row), by_csv(&row));
        assert!(ours(&row).contains(",1500.0,2345.678,"));
        row.moves = Some("7g7f 3c3d".into());
        row.valid = false;
        row.sente_rating = Some(0.5);
        assert_eq!(ours(&row), by_csv(&row));
        assert!(ours(&row).ends_with(",7g7f 3c3d\n"));
        let empty: GameRow = GameRow::default();
        assert_eq!(ours(&empty), by_csv(&empty));
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(&row).unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        assert_eq!(
            text.lines().next().map(|l| format!("{l}\n")),
            Some(csv_header(true, false))
        );
    }
}
