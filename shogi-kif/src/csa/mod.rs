//! CSA standard record format V2.2 / V3.0: reading (one game at a time; the reader splits
//! games at `/`) and writing.

mod read;
pub(crate) mod write;

pub(crate) use read::parse;
