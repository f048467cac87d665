//! One record in the output format: the text, its encoding, and what the format could not
//! keep of the record (named in a warning, an error with --strict, silent with --lossy).

use super::{ConvertArgs, ToFormat};
use shogi_kif::notation::Notation;
use shogi_kif::{Format, Loss, Record, UsiForm, WriteOptions};

/// The library's format for an output format (none for moves as text and training data).
pub(super) fn format_of(to: ToFormat) -> Option<Format> {
    Some(match to {
        ToFormat::Sfen => Format::Sfen,
        ToFormat::Usi => Format::Usi,
        ToFormat::Moves => return None,
        ToFormat::Kif => Format::Kif,
        ToFormat::Ki2 => Format::Ki2,
        ToFormat::Csa => Format::Csa,
        ToFormat::Jkf => Format::Jkf,
        ToFormat::Hcpe | ToFormat::Psv | ToFormat::Positions => return None,
    })
}

/// What the output of `args.to` does not keep of `record`. The extracts (a position, a USI
/// `position` line, a line of moves) are the main line's by what they are, and lose nothing;
/// the record formats lose what [`shogi_kif::losses`] names.
fn record_losses(record: &Record, to: ToFormat) -> Vec<Loss> {
    match format_of(to) {
        Some(format) if to.is_record() => shogi_kif::losses(record, format),
        _ => Vec::new(),
    }
}

fn list(losses: &[Loss]) -> String {
    losses
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The name of the output in messages.
fn target_name(to: ToFormat) -> &'static str {
    match to {
        ToFormat::Sfen => "an SFEN position",
        ToFormat::Usi => "a USI position line",
        ToFormat::Moves => "a line of moves",
        ToFormat::Kif => "KIF",
        ToFormat::Ki2 => "KI2",
        ToFormat::Csa => "CSA",
        ToFormat::Jkf => "JKF",
        ToFormat::Hcpe | ToFormat::Psv | ToFormat::Positions => "training data",
    }
}

/// One record converted: the bytes written or an error message, the warning (what was not
/// kept, what --mainline dropped, characters --lossy replaced), and the kinds of what the
/// output did not keep, for the closing total.
pub(super) struct Converted {
    pub(super) result: Result<Vec<u8>, String>,
    pub(super) warning: Option<String>,
    pub(super) lost: Vec<&'static str>,
}

/// Convert one record (see [`Converted`]). A loss is named in a warning, an error with
/// `--strict` (nothing is written for the record); `--lossy` silences the warning.
pub(super) fn convert_record(record: &Record, args: &ConvertArgs) -> Converted {
    let failed = |error: String| Converted {
        result: Err(error),
        warning: None,
        lost: Vec::new(),
    };
    let mut dropped = Vec::new();
    // Only --mainline on a record format needs a copy of the record (without its
    // variations); the extracts take the main line anyway.
    let stripped;
    let record = if args.mainline && args.to.is_record() {
        let mut copy = record.clone();
        let n = copy.drop_variations();
        if n > 0 {
            dropped.push(Loss::Variations(n));
        }
        stripped = copy;
        &stripped
    } else {
        record
    };
    let losses = record_losses(record, args.to);
    if !losses.is_empty() && args.strict {
        let error = format!(
            "{} cannot hold {}: not converted (--strict)",
            target_name(args.to),
            list(&losses)
        );
        return failed(error);
    }
    let text = match write_record(record, args) {
        Ok(t) => t,
        Err(e) => return failed(e),
    };
    let encoding = args.encoding();
    let (bytes, replaced) = if args.lossy {
        let (b, r) = shogi_kif::encode_lossy(&text, encoding);
        (b.into_owned(), r)
    } else {
        match shogi_kif::encode(&text, encoding) {
            Ok(b) => (b.into_owned(), Vec::new()),
            Err(e) => {
                let error = format!(
                    "{} has no form for {} (U+{:04X}), at line {}, column {} of the {} written \
                     (\"{}\"): not converted (--lossy writes ▲ for ☗, △ for ☖ and U+XXXX for \
                     any other)",
                    e.encoding.label(),
                    e.ch,
                    u32::from(e.ch),
                    e.line,
                    e.column,
                    target_name(args.to),
                    e.line_text
                );
                return failed(error);
            }
        }
    };
    let lost = losses.iter().map(Loss::kind_name).collect();
    let (dropped, losses) = if args.lossy {
        (&[][..], &[][..])
    } else {
        (&dropped[..], &losses[..])
    };
    let not_kept = (!losses.is_empty()).then(|| {
        format!(
            "{} cannot hold {}: not kept",
            target_name(args.to),
            list(losses)
        )
    });
    Converted {
        result: Ok(bytes),
        warning: warning(dropped, not_kept, &replaced),
        lost,
    }
}

/// The one warning of a record: what was dropped and which characters were replaced.
fn warning(dropped: &[Loss], not_kept: Option<String>, replaced: &[char]) -> Option<String> {
    let mut parts = Vec::new();
    if !dropped.is_empty() {
        parts.push(format!("dropped {}", list(dropped)));
    }
    parts.extend(not_kept);
    if !replaced.is_empty() {
        let subs: Vec<String> = replaced
            .iter()
            .map(|&c| format!("{c} by {}", shogi_kif::substitute(c)))
            .collect();
        parts.push(format!("replaced {}", subs.join(", ")));
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// The text of one record in the output format.
fn write_record(record: &Record, args: &ConvertArgs) -> Result<String, String> {
    let options = WriteOptions::encoding(args.encoding());
    Ok(match args.to {
        ToFormat::Sfen => {
            let moves = record.main_line().count();
            let pos = match args.ply {
                Some(n) if n > moves => {
                    return Err(format!("--ply {n}: the main line has only {moves} moves"));
                }
                Some(n) => record
                    .position_at(n)
                    .ok_or_else(|| format!("no legal position after {n} moves"))?,
                None => record
                    .final_position()
                    .ok_or_else(|| "the record has no playable start position".to_string())?,
            };
            pos.to_sfen()
        }
        ToFormat::Usi => {
            // The `position` command an engine takes: the moves before a foul move.
            let mut line = String::new();
            shogi_kif::write_usi(&mut line, record, UsiForm::Engine).map_err(|e| e.to_string())?;
            line
        }
        ToFormat::Moves => {
            let notation = args.notation.map_or(Notation::Usi, Notation::from);
            shogi_batch::main_line_text(record, notation)
        }
        to => match format_of(to) {
            Some(format) => shogi_kif::write_with(record, format, &options),
            // Written entry by entry by the training module, never as a record's text.
            None => return Err("training data is not a record format".to_string()),
        },
    })
}
