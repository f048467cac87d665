//! `shogi completions`: the shell completion script, made by clap_complete from the same
//! command-line definition the parser uses, so it never falls behind a new flag.

use crate::ctx::{Ctx, Failure, emit};
use clap_complete::Shell;

/// Arguments of `shogi completions`.
#[derive(clap::Args)]
#[command(
    after_help = "Load it for this session, or save it where the shell looks for completions.\n\n\
Examples:\n  shogi completions bash > shogi.bash\n  shogi completions zsh > _shogi\n  \
shogi completions fish > shogi.fish\n  shogi completions powershell > shogi.ps1\n\n\
bash: `source shogi.bash` (or copy it to ~/.local/share/bash-completion/completions/shogi); \
zsh: put _shogi in a folder of $fpath; fish: copy it to ~/.config/fish/completions/; \
PowerShell: dot-source shogi.ps1 from your $PROFILE."
)]
pub struct CompletionsArgs {
    /// The shell to write the script for.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// Runs `shogi completions`: the script for `cli` (the whole command line) on stdout.
pub fn run(args: &CompletionsArgs, cli: &mut clap::Command, ctx: &mut Ctx) -> Result<(), Failure> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, cli, "shogi", &mut script);
    emit(ctx.stdout, &String::from_utf8_lossy(&script))
}
