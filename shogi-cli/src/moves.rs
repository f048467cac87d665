//! `shogi moves`: the legal moves of a position.

use crate::args::{NotationArg, VariantArg, parse_position};
use crate::ctx::{Ctx, Failure};
use shogi_kif::notation::{Notation, move_text};

/// Arguments of `shogi moves`.
#[derive(clap::Args)]
pub struct MovesArgs {
    /// The position: `startpos` or an SFEN as one argument (quote it in the shell).
    #[arg(default_value = "startpos")]
    pub position: String,
    /// The variant for `startpos` (default: standard; an SFEN's board shape decides on its own).
    #[arg(long, value_enum)]
    pub variant: Option<VariantArg>,
    /// How the moves are written (default USI); the order is that of their USI text either way.
    #[arg(long, value_enum, default_value_t = NotationArg::Usi)]
    pub notation: NotationArg,
}

/// Runs `shogi moves`: every legal move, one a line, sorted by its USI text.
pub fn run(args: &MovesArgs, ctx: &mut Ctx) -> Result<(), Failure> {
    let pos = parse_position(&args.position, args.variant)?;
    let mut list: Vec<(String, shogi_core::Move)> =
        pos.legal_moves().iter().map(|&m| (m.to_usi(), m)).collect();
    list.sort();
    let notation = Notation::from(args.notation);
    let mut out = String::with_capacity(list.len() * 8);
    for (usi, m) in list {
        if notation == Notation::Usi {
            out.push_str(&usi);
        } else {
            out.push_str(&move_text(&pos, m, None, notation));
        }
        out.push('\n');
    }
    crate::ctx::emit(ctx.stdout, &out)
}
