//! Golden files: checked-in expected output that a test compares with what a program prints
//! now, so every change to a contract shows up in review. The one bless mechanism of the
//! workspace: with `GOLDEN_BLESS` set (`GOLDEN_BLESS=1 cargo test -p <package> golden`), a
//! test writes what it got instead of failing, and `git diff` shows the change.
//!
//! [`assert_discovery`] keeps a tool's discovery in `<dir>/help.json` (`--help --json`,
//! pretty-printed), `<dir>/help.txt` (the human `--help`) and `<dir>/<command words>.txt`
//! for each subcommand's `--help`.

use std::path::Path;

use serde_json::Value;

use crate::cli::Sandbox;

/// The variable that turns comparing into writing.
pub const BLESS: &str = "GOLDEN_BLESS";

/// Whether this run writes golden files instead of comparing them.
pub fn blessing() -> bool {
    std::env::var_os(BLESS).is_some_and(|value| !value.is_empty())
}

/// Asserts that the file at `path` holds exactly `actual`; with [`BLESS`] set, writes
/// `actual` there instead (creating directories). A failure names the first line that
/// differs and the command that refreshes the file.
pub fn assert_golden(path: &Path, actual: &str) {
    if blessing() {
        if std::fs::read_to_string(path).ok().as_deref() != Some(actual) {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).expect("golden directory creatable");
            }
            std::fs::write(path, actual).expect("golden file writable");
        }
        return;
    }
    let refresh =
        format!("refresh with `{BLESS}=1 cargo test -p <package> golden` and review the diff");
    let expected = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("golden file {} unreadable ({e}); {refresh}", path.display()));
    if expected == actual {
        return;
    }
    let (line, want, got) = first_difference(&expected, actual);
    panic!(
        "{} is out of date at line {line}:\n  golden: {want:?}\n  now:    {got:?}\n{refresh}",
        path.display()
    );
}

/// `value` pretty-printed with a final newline, compared as [`assert_golden`] does.
pub fn assert_golden_json(path: &Path, value: &Value) {
    let text = serde_json::to_string_pretty(value).expect("JSON serialises");
    assert_golden(path, &format!("{text}\n"));
}

/// A tool's discovery as golden files in `dir`: `help.json` (`--help --json`), `help.txt`
/// (`--help`) and, for each entry of `subcommands`, `<words joined by '-'>.txt` (`<words>
/// --help`). Runs in `sandbox` (a clean environment); the sandbox's own path, should a help
/// text mention it, is written as `<sandbox>`.
pub fn assert_discovery(sandbox: &Sandbox, dir: &Path, subcommands: &[&[&str]]) {
    assert_golden_json(&dir.join("help.json"), &sandbox.discovery());
    let help = |words: &[&str]| {
        let mut args: Vec<&str> = words.to_vec();
        args.push("--help");
        let run = sandbox.run(&args);
        assert_eq!(run.code, 0, "{args:?}: {run:#?}");
        assert_eq!(run.stderr, "", "{args:?}: help goes to stdout");
        run.stdout
            .replace(&sandbox.path().display().to_string(), "<sandbox>")
    };
    assert_golden(&dir.join("help.txt"), &help(&[]));
    for words in subcommands {
        assert!(!words.is_empty(), "the top level is help.txt");
        assert_golden(&dir.join(format!("{}.txt", words.join("-"))), &help(words));
    }
}

/// The 1-based number of the first line where `a` and `b` differ, with both lines.
fn first_difference<'a>(a: &'a str, b: &'a str) -> (usize, &'a str, &'a str) {
    let (mut left, mut right) = (a.lines(), b.lines());
    let mut number = 1;
    loop {
        match (left.next(), right.next()) {
            (Some(x), Some(y)) if x == y => number += 1,
            (x, y) => return (number, x.unwrap_or("<end>"), y.unwrap_or("<end>")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_difference_names_the_line() {
        assert_eq!(first_difference("a\nb\nc", "a\nx\nc"), (2, "b", "x"));
        assert_eq!(first_difference("a\n", "a\nb\n"), (2, "<end>", "b"));
    }

    #[test]
    fn a_drifted_golden_file_fails() {
        if blessing() {
            return;
        }
        let dir = tempfile::tempdir().expect("temporary directory");
        let path = dir.path().join("golden.txt");
        std::fs::write(&path, "eins\nzwei\n").expect("writable");
        assert_golden(&path, "eins\nzwei\n");
        let drift = std::panic::catch_unwind(|| assert_golden(&path, "eins\ndrei\n"));
        let message = *drift
            .expect_err("drift fails")
            .downcast::<String>()
            .expect("a message");
        assert!(
            message.contains("line 2") && message.contains(BLESS),
            "{message}"
        );
    }
}
