//! `shogi moves`: the legal moves of a position.

use crate::cli::{VariantArg, parse_position};
use crate::{Ctx, Failure};

/// Arguments of `shogi moves`.
#[derive(clap::Args)]
pub struct MovesArgs {
    /// The position: `startpos` or an SFEN as one argument (quote it in the shell).
    #[arg(default_value = "startpos")]
    pub position: String,
    /// The variant for `startpos` (default: standard; an SFEN's board shape decides on its own).
    #[arg(long, value_enum)]
    pub variant: Option<VariantArg>,
}

/// Runs `shogi moves`: every legal move in USI, one a line, sorted.
pub fn run(args: &MovesArgs, ctx: &mut Ctx) -> Result<(), Failure> {
    let pos = parse_position(&args.position, args.variant)?;
    let mut list: Vec<String> = pos.legal_moves().iter().map(|m| m.to_usi()).collect();
    list.sort();
    let mut out = String::with_capacity(list.len() * 6);
    for m in list {
        out.push_str(&m);
        out.push('\n');
    }
    crate::emit(ctx.stdout, &out)
}
