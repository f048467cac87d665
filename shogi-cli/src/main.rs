//! The `shogi` binary: [`shogi_cli::run_with`] on the process's arguments and real streams.

use std::io::{BufReader, IsTerminal, Write};
use std::process::ExitCode;

/// mimalloc rather than the system's malloc: each record read allocates and frees its text,
/// its nodes and its lists (several of them kilobytes large), and glibc serves blocks that
/// size from its slower paths. The binary only: the libraries and the Python module keep
/// whatever allocator their host has.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    #[allow(unused_mut)]
    let mut options = shogi_cli::Options {
        progress: std::io::stderr().is_terminal(),
        stdout_terminal: std::io::stdout().is_terminal(),
        match_trace: std::env::var_os("SHOGI_MATCH_TRACE").map(std::path::PathBuf::from),
        ..shogi_cli::Options::default()
    };
    // A test hook of debug builds only: an internal failure on the named input, to check from
    // outside that one failing input does not stop a batch.
    #[cfg(debug_assertions)]
    if let Some(name) = std::env::var_os("SHOGI_TEST_PANIC_ON") {
        let name = name.to_string_lossy().into_owned();
        options.on_record = Some(std::sync::Arc::new(move |input: &str, _record: usize| {
            if input.ends_with(&name) {
                panic!("test hook: SHOGI_TEST_PANIC_ON={name}");
            }
        }));
    }
    let mut stdin = BufReader::with_capacity(1 << 16, std::io::stdin());
    let mut stdout = std::io::stdout().lock();
    let mut stderr = std::io::stderr().lock();
    let code = shogi_cli::run_with(
        std::env::args_os(),
        &mut stdin,
        &mut stdout,
        &mut stderr,
        &options,
    );
    let _ = stdout.flush();
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}
