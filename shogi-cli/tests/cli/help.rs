//! Every command's `--help` ends with examples, and every example runs: each line is run by
//! `sh` with the real binary first on PATH, in a fresh folder holding a copy of `samples/` (so
//! examples that write files write them there, not into the repository), and must exit 0 or 1,
//! never 2 (a usage error). Also: `shogi completions` writes a script for every shell.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_shogi");

fn shogi(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("shogi runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The commands, as argument lists (`["perft", "split"]`), read from the top-level help.
fn commands() -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for name in subcommand_names(&[]) {
        let nested = subcommand_names(&[name.as_str()]);
        out.push(vec![name.clone()]);
        for sub in nested {
            out.push(vec![name.clone(), sub]);
        }
    }
    out
}

/// The names listed under `Commands:` in the help of `path` (without `help`).
fn subcommand_names(path: &[&str]) -> Vec<String> {
    let mut args: Vec<&str> = path.to_vec();
    args.push("--help");
    let help = text(&shogi(&args).stdout);
    let Some(start) = help.find("Commands:\n") else {
        return Vec::new();
    };
    help[start + "Commands:\n".len()..]
        .lines()
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

/// The example lines (`  shogi ...`) of a help text.
fn examples(help: &str) -> Vec<String> {
    let Some(at) = help.find("Examples:\n") else {
        return Vec::new();
    };
    help[at..]
        .lines()
        .filter_map(|l| l.strip_prefix("  "))
        .filter(|l| l.starts_with("shogi "))
        .map(str::to_string)
        .collect()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

/// A fresh folder holding `samples/`.
fn workdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shogi-help-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples");
    copy_dir(&samples, &dir.join("samples"));
    dir
}

#[test]
fn every_command_has_examples_and_every_example_runs() {
    let bin_dir = Path::new(BIN).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let commands = commands();
    for expected in ["check", "convert", "stats", "show", "completions", "perft"] {
        assert!(
            commands.iter().any(|c| c == &[expected]),
            "{expected} missing from {commands:?}"
        );
    }
    assert!(commands.iter().any(|c| c == &["perft", "merge"]));
    let mut ran = 0;
    for command in &commands {
        let mut args: Vec<&str> = command.iter().map(String::as_str).collect();
        args.push("--help");
        let help = text(&shogi(&args).stdout);
        let lines = examples(&help);
        assert!(
            !lines.is_empty(),
            "`shogi {}` has no examples in its help:\n{help}",
            command.join(" ")
        );
        let dir = workdir(&command.join("-"));
        for line in &lines {
            let out = Command::new("sh")
                .arg("-c")
                .arg(line)
                .current_dir(&dir)
                .env("PATH", &path)
                .output()
                .expect("sh runs");
            let code = out.status.code();
            assert!(
                matches!(code, Some(0 | 1)),
                "`{line}` (from `shogi {} --help`) exited {code:?}:\n{}",
                command.join(" "),
                text(&out.stderr)
            );
            ran += 1;
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(ran >= 40, "only {ran} examples ran");
}

#[test]
fn completions_name_every_command_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let out = shogi(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}: {}", text(&out.stderr));
        let script = text(&out.stdout);
        assert!(script.len() > 1000, "{shell}: a short script:\n{script}");
        for name in [
            "perft",
            "moves",
            "check",
            "convert",
            "stats",
            "index",
            "find",
            "explore",
            "show",
            "completions",
        ] {
            assert!(script.contains(name), "{shell}: {name} missing");
        }
        // A flag of a subcommand, so the script is more than the command list.
        assert!(script.contains("notation"), "{shell}: --notation missing");
    }
    let out = shogi(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
}
