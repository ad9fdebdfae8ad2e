//! What the command-line tests share: running the binary.

use std::process::Command;

/// Runs `firststrike` with these arguments: (exit code, stdout, stderr), with miette's
/// wrapped lines joined back for matching.
pub fn firststrike(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_firststrike"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).replace("\n  │ ", " "),
    )
}
