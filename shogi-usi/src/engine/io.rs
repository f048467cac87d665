//! The engine's pipes: a reader thread per pipe with a bounded line length, the channel to the
//! engine's owner, and the tail of its last lines kept for error reports.

use crate::error::{OutputLine, Stream};
use crate::protocol::{EngineLine, parse_line};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};
use std::sync::mpsc::SyncSender;
use std::sync::{Arc, Mutex};
use std::time::Instant;

// Lines are the common message; boxing them would cost an allocation per line.
#[allow(clippy::large_enum_variant)]
pub(super) enum Msg {
    Line(EngineLine, Instant),
    Eof,
}

pub(super) type Tail = Arc<Mutex<VecDeque<OutputLine>>>;

/// The longest line kept whole; the rest of a longer line is dropped (bounded memory).
pub(super) const MAX_LINE: usize = 64 * 1024;
/// Messages buffered between the reader thread and us (the engine blocks when it is full).
pub(super) const CHANNEL: usize = 4096;
/// The most multipv lines kept.
pub(super) const MAX_MULTIPV: u32 = 1000;

pub(super) fn push_tail(tail: &Tail, cap: usize, stream: Stream, text: String) {
    if let Ok(mut t) = tail.lock() {
        if t.len() >= cap.max(1) {
            t.pop_front();
        }
        t.push_back(OutputLine { stream, text });
    }
}

/// Reads one line of at most MAX_LINE bytes (the rest of a longer line is skipped).
/// Returns None at end of file.
pub(super) fn read_line_bounded(r: &mut impl BufRead, buf: &mut Vec<u8>) -> Option<()> {
    buf.clear();
    let n = r
        .by_ref()
        .take(MAX_LINE as u64)
        .read_until(b'\n', buf)
        .ok()?;
    if n == 0 {
        return None;
    }
    if buf.last() != Some(&b'\n') && n == MAX_LINE {
        // Skip to the end of the overlong line.
        let mut skip = Vec::new();
        loop {
            skip.clear();
            let m = r
                .by_ref()
                .take(MAX_LINE as u64)
                .read_until(b'\n', &mut skip)
                .ok()?;
            if m == 0 || skip.last() == Some(&b'\n') {
                break;
            }
        }
    }
    Some(())
}

pub(super) fn spawn_stdout_reader(
    out: impl Read + Send + 'static,
    tx: SyncSender<Msg>,
    tail: Tail,
    cap: usize,
) {
    std::thread::spawn(move || {
        let mut r = BufReader::new(out);
        let mut buf = Vec::new();
        while read_line_bounded(&mut r, &mut buf).is_some() {
            let text = String::from_utf8_lossy(&buf);
            let text = text.trim_end_matches(['\n', '\r']);
            let at = Instant::now();
            let parsed = parse_line(text);
            push_tail(&tail, cap, Stream::Stdout, text.to_owned());
            if tx.send(Msg::Line(parsed, at)).is_err() {
                return;
            }
        }
        let _ = tx.send(Msg::Eof);
    });
}

pub(super) fn spawn_stderr_reader(err: impl Read + Send + 'static, tail: Tail, cap: usize) {
    std::thread::spawn(move || {
        let mut r = BufReader::new(err);
        let mut buf = Vec::new();
        while read_line_bounded(&mut r, &mut buf).is_some() {
            let text = String::from_utf8_lossy(&buf);
            push_tail(
                &tail,
                cap,
                Stream::Stderr,
                text.trim_end_matches(['\n', '\r']).to_owned(),
            );
        }
    });
}
