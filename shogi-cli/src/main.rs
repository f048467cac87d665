//! The `shogi` command: perft, legal moves, and (as they land) record checking and conversion.
//!
//! Exit codes: 0 success, 1 a check or suite found failures, 2 usage, input or I/O error.

mod perft;
mod records;

use clap::{Parser, Subcommand};
use shogi_core::{Position, Variant};
use std::process::ExitCode;

/// Shogi toolkit: rules, perft, and game records.
#[derive(Parser)]
#[command(name = "shogi", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree (perft).
    Perft(perft::PerftArgs),
    /// List every legal move of a position in USI, one per line, sorted.
    #[command(
        after_help = "Examples:\n  shogi moves startpos\n  shogi moves 'rbsgk/4p/5/P4/KGSBR b - 1'\n  shogi moves startpos --variant mini"
    )]
    Moves(MovesArgs),
    /// Check game records: every move replayed against the rules; problems located.
    Check(records::CheckArgs),
    /// Convert a game record: to SFEN (the final position, or `--ply N`), USI, KIF, KI2, CSA, JKF.
    Convert(records::ConvertArgs),
}

#[derive(clap::Args)]
struct MovesArgs {
    /// The position: `startpos` or an SFEN as one argument (quote it in the shell).
    #[arg(default_value = "startpos")]
    position: String,
    /// The variant for `startpos` (an SFEN's board shape decides on its own).
    #[arg(long, value_enum, default_value_t = VariantArg::Standard)]
    variant: VariantArg,
}

/// Variant names on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum VariantArg {
    /// Standard 9x9 shogi.
    Standard,
    /// Mini Shogi (5x5).
    Mini,
}

impl From<VariantArg> for Variant {
    fn from(v: VariantArg) -> Variant {
        match v {
            VariantArg::Standard => Variant::Standard,
            VariantArg::Mini => Variant::Mini,
        }
    }
}

/// A failure that ends the command: a message for stderr and the exit code.
#[derive(Debug)]
pub struct Failure {
    /// Exit code (1: something checked failed, 2: usage, input or I/O error).
    pub code: u8,
    /// One-line message.
    pub message: String,
}

impl Failure {
    /// A usage, input or I/O error (exit 2).
    pub fn usage(message: impl Into<String>) -> Failure {
        Failure {
            code: 2,
            message: message.into(),
        }
    }
}

/// Reads `startpos` or an SFEN into a position, checking a given variant against the SFEN.
pub fn parse_position(
    text: &str,
    variant: VariantArg,
    explicit_variant: bool,
) -> Result<Position, Failure> {
    let text = text.trim();
    if text == "startpos" {
        return Ok(Position::startpos(variant.into()));
    }
    let pos = Position::from_sfen(text).map_err(|e| Failure::usage(format!("error: {e}")))?;
    if explicit_variant && pos.variant() != Variant::from(variant) {
        return Err(Failure::usage(format!(
            "error: the SFEN is a {} position but --variant {} was given",
            pos.variant().name(),
            Variant::from(variant).name()
        )));
    }
    Ok(pos)
}

fn moves(args: &MovesArgs, explicit_variant: bool) -> Result<(), Failure> {
    let pos = parse_position(&args.position, args.variant, explicit_variant)?;
    let mut list: Vec<String> = pos.legal_moves().iter().map(|m| m.to_usi()).collect();
    list.sort();
    let mut out = String::with_capacity(list.len() * 6);
    for m in list {
        out.push_str(&m);
        out.push('\n');
    }
    print!("{out}");
    Ok(())
}

/// Whether `--variant` was written on the command line.
fn variant_given() -> bool {
    std::env::args().any(|a| a == "--variant" || a.starts_with("--variant="))
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            if !e.use_stderr() {
                // --help and --version.
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            // One line naming the problem: clap's message without its usage block.
            let text = e.to_string();
            let message: Vec<&str> = text
                .lines()
                .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect();
            let mut line = message.join(" ");
            if line.is_empty() {
                line = "error: bad arguments".into();
            }
            eprintln!("{line} (see 'shogi --help')");
            return ExitCode::from(2);
        }
    };
    let explicit = variant_given();
    let result = match &cli.command {
        Command::Perft(a) => perft::run(a, explicit),
        Command::Moves(a) => moves(a, explicit),
        Command::Check(a) => records::check(a),
        Command::Convert(a) => records::convert(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            if !f.message.is_empty() {
                eprintln!("{}", f.message);
            }
            ExitCode::from(f.code)
        }
    }
}
