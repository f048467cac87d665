//! Readers: reading, errors located inside the text, format detection, and streaming in
//! small pieces.

use super::*;

/// The KIF reader (format forced); see [`check_read`].
pub fn check_read_kif(data: &[u8]) {
    check_read(data, Format::Kif);
}

/// The KI2 reader (format forced); see [`check_read`].
pub fn check_read_ki2(data: &[u8]) {
    check_read(data, Format::Ki2);
}

/// The CSA reader (format forced); see [`check_read`].
pub fn check_read_csa(data: &[u8]) {
    check_read(data, Format::Csa);
}

/// The JKF reader (format forced); see [`check_read`].
pub fn check_read_jkf(data: &[u8]) {
    check_read(data, Format::Jkf);
}

/// The USI reader (format forced; the first byte chooses USI or SFEN); see [`check_read`].
pub fn check_read_usi(data: &[u8]) {
    match data.split_first() {
        Some((b, rest)) if b & 1 == 1 => check_read(rest, Format::Sfen),
        Some((_, rest)) => check_read(rest, Format::Usi),
        None => check_read(data, Format::Usi),
    }
}

/// One reader with the format forced: it never panics; every game's error is located
/// inside the decoded input, on character boundaries; every record it hands out (read to
/// its end or not) replays: its start is playable, every move of every line is legal where
/// it stands, and nothing follows a recorded foul.
pub fn check_read(data: &[u8], format: Format) {
    let Ok(reader) = Reader::new(data, ReadOptions::with_format(format)) else {
        return;
    };
    assert_eq!(reader.format(), format, "forced format");
    let decoded = if data.len() < STREAM_MIN {
        decode(data, Some(reader.encoding())).ok().map(|t| t.0)
    } else {
        None
    };
    for game in reader.take(MAX_GAMES) {
        if let (Some(e), Some(text)) = (&game.error, &decoded) {
            check_error_location(e, text);
        }
        check_record(&game.record, &game);
    }
}

/// An error's location lies inside the decoded text, on character boundaries.
fn check_error_location(e: &ReadError, text: &str) {
    let _ = e.to_string();
    let loc = e.location;
    if loc.line == 0 {
        return;
    }
    // LF, CRLF and a bare CR each end a line (the reader's rule).
    let line_ends =
        |t: &str| t.matches('\n').count() + t.matches('\r').count() - t.matches("\r\n").count();
    let lines = line_ends(text) + 1;
    assert!(
        (loc.line as usize) <= lines + 1,
        "error on line {} of {lines}: {e}",
        loc.line
    );
    assert!(
        loc.start <= loc.end && loc.end <= text.len(),
        "error span {}..{} outside 0..{}: {e}",
        loc.start,
        loc.end,
        text.len()
    );
    assert!(
        text.is_char_boundary(loc.start) && text.is_char_boundary(loc.end),
        "error span {}..{} not on character boundaries: {e}",
        loc.start,
        loc.end
    );
    assert!(loc.column >= 1, "column 0 on line {}: {e}", loc.line);
    // The line and column (in characters) are those of the span's start.
    let before = &text[..loc.start];
    let line_start = before.rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let line = line_ends(before) + 1;
    let column = before[line_start..].chars().count() + 1;
    assert_eq!(
        (loc.line as usize, loc.column as usize),
        (line, column),
        "line and column of an error starting at byte {}: {e}",
        loc.start
    );
}

/// Every line of the record replays from its start (see [`check_read`]).
fn check_record(record: &Record, game: &ReadRecord) {
    let start = record.start.position().clone();
    // An explicit stack: variations nest as deep as the input says.
    let mut todo: Vec<(Position, &Line)> = vec![(start, &record.moves)];
    while let Some((mut pos, line)) = todo.pop() {
        for (i, node) in line.moves.iter().enumerate() {
            for v in &node.variations {
                todo.push((pos.clone(), v));
            }
            if node.foul.is_some() {
                assert_eq!(
                    i + 1,
                    line.moves.len(),
                    "game {}: moves follow the foul {}",
                    game.index,
                    node.mv.to_usi()
                );
                break;
            }
            if let Err(e) = pos.play(node.mv) {
                panic!(
                    "game {} (line {}): move {} at {} is illegal ({e}) but was read",
                    game.index,
                    node.source_line,
                    node.mv.to_usi(),
                    pos.to_sfen()
                );
            }
        }
        if let Some(end) = &line.ending {
            for v in &end.variations {
                todo.push((pos.clone(), v));
            }
        }
    }
}

/// Encoding and format detection: decoding with the encoding found gives the same text;
/// the format detected is kept when it is also the hint; a reader made without a format
/// reports the format and encoding that detection gives, and fails exactly when decoding
/// or detection does.
pub fn check_detect(data: &[u8]) {
    let decoded = decode(data, None);
    if let Ok((text, enc)) = &decoded {
        let (again, enc2) = decode(data, Some(*enc))
            .unwrap_or_else(|e| panic!("decoded as {enc:?}, but not when {enc:?} is forced: {e}"));
        assert_eq!(
            &again, text,
            "decoding with {enc:?} forced gives another text"
        );
        assert_eq!(enc2, *enc);
        if let Some(f) = Format::detect(text, None) {
            assert_eq!(
                Format::detect(text, Some(f)),
                Some(f),
                "hint {f:?} changes it"
            );
        }
    }
    let _ = shogi_kif::declared_encoding(data);
    if data.len() >= STREAM_MIN {
        return;
    }
    for hint in [None].into_iter().chain(FORMATS.map(Some)) {
        let reader = Reader::new(data, ReadOptions::with_hint(hint));
        match (&decoded, reader) {
            (Ok((text, enc)), Ok(r)) => {
                assert_eq!(
                    Some(r.format()),
                    Format::detect(text, hint),
                    "hint {hint:?}"
                );
                assert_eq!(r.encoding(), *enc);
            }
            (Ok((text, _)), Err(e)) => {
                assert_eq!(
                    Format::detect(text, hint),
                    None,
                    "hint {hint:?}: the reader fails ({e}) on a detected format"
                );
            }
            (Err(_), Ok(r)) => panic!("the reader reads {:?} from undecodable bytes", r.format()),
            (Err(_), Err(_)) => {}
        }
    }
}

/// A [`BufRead`] that hands out at most `step` bytes at a time.
struct Trickle<'a> {
    data: &'a [u8],
    step: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.step).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

impl BufRead for Trickle<'_> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        let n = self.step.min(self.data.len());
        Ok(&self.data[..n])
    }
    fn consume(&mut self, amt: usize) {
        self.data = &self.data[amt..];
    }
}

/// The streaming reader: an input of at least 64 KiB (the fuzz bytes after the first two,
/// repeated until it is that long) read through a [`BufRead`] that gives a few bytes at a
/// time, with a small chunk size (both chosen by the first two bytes), gives the same
/// games, errors and diagnostics as the same input read whole.
pub fn check_streaming(data: &[u8]) {
    let [a, b, unit @ ..] = data else { return };
    if unit.is_empty() {
        return;
    }
    let mut input = Vec::with_capacity(STREAM_MIN + unit.len());
    while input.len() < STREAM_MIN {
        input.extend_from_slice(unit);
    }
    let format = match a % 8 {
        0 => Some(Format::Csa),
        1 => Some(Format::Usi),
        2 => Some(Format::Sfen),
        _ => None,
    };
    let whole_opts = ReadOptions {
        format,
        chunk_size: 1 << 20,
        ..ReadOptions::default()
    };
    let chunk_opts = ReadOptions {
        chunk_size: 1 + usize::from(*b) * 16,
        ..whole_opts
    };
    let step = 1 + usize::from(a / 8);
    let whole = Reader::new(&input[..], whole_opts);
    let streamed = Reader::new(Trickle { data: &input, step }, chunk_opts);
    let (whole, streamed) = match (whole, streamed) {
        (Ok(w), Ok(s)) => (w, s),
        (Err(_), Err(_)) => return,
        (Ok(w), Err(e)) => panic!("read whole as {:?}; streamed: {e}", w.format()),
        // Undecodable bytes fail a whole read at once; read in chunks they fail line by line.
        (Err(_), Ok(_)) if decode(&input, None).is_err() => return,
        (Err(e), Ok(s)) => panic!("streamed as {:?}; read whole: {e}", s.format()),
    };
    assert_eq!(whole.format(), streamed.format(), "format");
    let encoding = whole.encoding();
    let mut streamed = streamed;
    let streamed_games: Vec<ReadRecord> = streamed.by_ref().take(MAX_GAMES).collect();
    // The streamed encoding is judged on the first 64 KiB: when bytes after them fit only
    // another encoding, a whole read (which sees them) rightly decodes otherwise.
    if streamed.encoding() != encoding {
        return;
    }
    let whole_games: Vec<ReadRecord> = whole.take(MAX_GAMES).collect();
    assert_eq!(whole_games.len(), streamed_games.len(), "number of games");
    for (w, s) in whole_games.iter().zip(&streamed_games) {
        assert_eq!(
            w, s,
            "game read whole, then streamed (chunk {}, step {step})",
            chunk_opts.chunk_size
        );
    }
}
