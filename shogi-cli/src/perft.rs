//! `shogi perft`.

use crate::{Failure, VariantArg, parse_position};
use std::time::Instant;

/// Arguments of `shogi perft`.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  shogi perft startpos --depth 5\n  shogi perft 'rbsgk/4p/5/P4/KGSBR b - 1' --depth 6"
)]
pub struct PerftArgs {
    /// The position: `startpos` or an SFEN as one argument (quote it in the shell).
    #[arg(default_value = "startpos")]
    pub position: String,
    /// Depth in plies (1 to 20).
    #[arg(long, short, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub depth: u32,
    /// The variant for `startpos` (an SFEN's board shape decides on its own).
    #[arg(long, value_enum, default_value_t = VariantArg::Standard)]
    pub variant: VariantArg,
}

/// Runs `shogi perft`.
pub fn run(args: &PerftArgs, explicit_variant: bool) -> Result<(), Failure> {
    let pos = parse_position(&args.position, args.variant, explicit_variant)?;
    let start = Instant::now();
    let nodes = shogi_perft::perft(&pos, args.depth);
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "time {secs:.3}s, {:.0} nodes/s",
        nodes as f64 / secs.max(1e-9)
    );
    println!("nodes {nodes}");
    Ok(())
}
