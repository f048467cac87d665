//! Writers.

use crate::Format;
use crate::model::Record;

/// Write a record in a format.
pub fn write(_record: &Record, _format: Format) -> String {
    String::new()
}
