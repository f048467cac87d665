//! One record in the output format: what the format cannot hold (refused, or dropped with
//! --mainline or --lossy and named in a warning), the text, and its encoding.

use super::{ConvertArgs, ToFormat};
use shogi_kif::notation::Notation;
use shogi_kif::{EndingKind, Format, Loss, Record, UsiForm, WriteOptions};

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

/// What the output of `args.to` cannot hold of `record`. `--to sfen` writes a position, which
/// is the main line's: only variations are lost there. `--to usi` writes an engine's
/// `position` command, without the ending word the library's USI form adds.
fn record_losses(record: &Record, to: ToFormat) -> Vec<Loss> {
    // A line of moves is an extract of the main line, as an SFEN position is.
    let as_format = if to == ToFormat::Moves {
        Some(Format::Sfen)
    } else {
        format_of(to)
    };
    let Some(format) = as_format else {
        return Vec::new();
    };
    let mut losses = shogi_kif::losses(record, format);
    match to {
        ToFormat::Sfen | ToFormat::Moves => losses.retain(Loss::is_variations),
        ToFormat::Usi => {
            let fouled = record.main_line().any(|n| n.foul.is_some());
            if let Some(e) = record.ending() {
                if !fouled && matches!(e.kind, EndingKind::Resign | EndingKind::Declaration) {
                    losses.push(Loss::Ending(e.kind.clone()));
                }
            }
        }
        _ => {}
    }
    losses
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

/// Convert one record: the bytes written or an error message, and the warning naming what
/// was dropped (with --mainline or --lossy).
pub(super) fn convert_record(
    record: &Record,
    args: &ConvertArgs,
) -> (Result<Vec<u8>, String>, Option<String>) {
    let mut dropped = Vec::new();
    // Only --mainline needs a copy of the record (without its variations).
    let stripped;
    let record = if args.mainline {
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
    if !losses.is_empty() && !args.lossy {
        let what = list(&losses);
        let hint = if losses.iter().all(Loss::is_variations) {
            "--mainline or --lossy drops them"
        } else if losses.iter().any(Loss::is_variations) {
            "--mainline drops the variations, --lossy all of it"
        } else {
            "--lossy drops them"
        };
        let error = format!(
            "{} cannot hold {what}: not converted ({hint})",
            target_name(args.to)
        );
        return (Err(error), None);
    }
    dropped.extend(losses);
    let text = match write_record(record, args) {
        Ok(t) => t,
        Err(e) => return (Err(e), None),
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
                return (Err(error), None);
            }
        }
    };
    (Ok(bytes), warning(&dropped, &replaced))
}

/// The one warning of a record: what was dropped and which characters were replaced.
fn warning(dropped: &[Loss], replaced: &[char]) -> Option<String> {
    let mut parts = Vec::new();
    if !dropped.is_empty() {
        parts.push(format!("dropped {}", list(dropped)));
    }
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
            if record.start_position().is_none() {
                return Err("the record has no playable start position".to_string());
            }
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
