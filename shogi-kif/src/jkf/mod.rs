//! JKF (JSON Kifu Format): one set of serde types ([`schema`]) read and written.

mod read;
mod schema;
pub(crate) mod write;

pub(crate) use read::parse;
