//! One list of the family (issue 42.4): the family's programs are the workspace's `*-cli`
//! packages with a program, as `cargo metadata` describes them (`test_support::cli::programs`,
//! `dist/build.sh --list`). No test, script, default or help text keeps a list of its own, so a
//! fifth tool is picked up everywhere by being added to the workspace; the one exception is the
//! bridge's `DEFAULT_TOOLS`, a constant a test holds equal to the workspace's list.

use std::path::{Path, PathBuf};

/// The workspace root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Where a list of the family may stand, and why.
const HOMES: [(&str, &str); 6] = [
    (
        "Cargo.toml",
        "the workspace's members: what `cargo metadata` reads",
    ),
    (
        "overheid-mcp/src/catalog/discover.rs",
        "the bridge's DEFAULT_TOOLS, held equal to the family by its test",
    ),
    (
        "overheid-mcp/tests/tools_list_budget.rs",
        "how many tools each program serves, held equal to the family by the test",
    ),
    (
        "overheid-mcp/src/catalog/prompts.rs",
        "a prompt names the tools it uses, in order: no list of the family",
    ),
    (
        "common/src/call/tool.rs",
        "FAMILY_ROUTES, which program answers which question (DISC-26), held to the family and \
         its commands by overheid-mcp/tests/tools_list_budget.rs",
    ),
    (
        "dist/release.sh",
        "the Debian package's description, prose for people (the install's file)",
    ),
];

/// Files that are code or scripts (not prose, data or generated): what is read for lists.
fn is_code(path: &Path) -> bool {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default();
    matches!(
        ext,
        "rs" | "sh" | "py" | "mjs" | "js" | "toml" | "yml" | "yaml"
    ) || name == "run"
}

fn files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir)
        .expect("readable directory")
        .flatten()
    {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let skipped = name.starts_with('.') && name != ".ci"
            || matches!(
                name.as_str(),
                "target" | "node_modules" | "golden" | "fixtures" | "Cargo.lock"
            );
        if skipped {
            continue;
        }
        if path.is_dir() {
            files(&path, found);
        } else if is_code(&path) {
            found.push(path);
        }
    }
}

/// The lines of `text` without its comment lines (`//` in Rust and JavaScript, `#` elsewhere):
/// a comment that names tools is prose, not a list a program reads.
fn code_lines(path: &Path, text: &str) -> Vec<String> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default();
    let comment = if matches!(ext, "rs" | "mjs" | "js") {
        "//"
    } else {
        "#"
    };
    text.lines()
        .map(|line| {
            if line.trim_start().starts_with(comment) {
                String::new()
            } else {
                line.to_string()
            }
        })
        .collect()
}

/// Each place in `lines` where three or more of `family` are named within six lines: a list.
fn lists(lines: &[String], family: &[String]) -> Vec<usize> {
    let named = |line: &str| -> Vec<&str> {
        family
            .iter()
            .map(String::as_str)
            .filter(|tool| {
                line.match_indices(tool).any(|(at, _)| {
                    let before = line[..at].chars().next_back();
                    let after = line[at + tool.len()..].chars().next();
                    let word = |c: Option<char>| {
                        c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                    };
                    // A name followed by `/` is a directory (`kvk-cli/README.md`), no program.
                    !word(before) && !word(after) && after != Some('/')
                })
            })
            .collect()
    };
    let per_line: Vec<Vec<&str>> = lines.iter().map(|l| named(l)).collect();
    let mut found = Vec::new();
    for start in 0..per_line.len() {
        let mut window: Vec<&str> = per_line[start..(start + 6).min(per_line.len())]
            .iter()
            .flatten()
            .copied()
            .collect();
        window.sort_unstable();
        window.dedup();
        if window.len() >= 3
            && !per_line[start].is_empty()
            && found.last().is_none_or(|&last| start >= last + 6)
        {
            found.push(start);
        }
    }
    found
}

#[test]
fn no_list_of_the_family_but_the_workspace_and_the_bridge_default() {
    let family = test_support::cli::programs();
    assert!(family.len() >= 4, "{family:?}");
    let root = root();
    let mut found = Vec::new();
    files(&root, &mut found);
    assert!(found.len() > 100, "{} files only", found.len());
    let mut offenders = Vec::new();
    for path in found {
        let relative = path.strip_prefix(&root).unwrap_or(&path).to_path_buf();
        if HOMES.iter().any(|(home, _)| relative == Path::new(home)) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        for line in lists(&code_lines(&path, &text), family) {
            offenders.push(format!("{}:{}", relative.display(), line + 1));
        }
    }
    assert!(
        offenders.is_empty(),
        "a list of the family of its own (take it from test_support::cli::programs or \
         `dist/build.sh --list`):\n{offenders:#?}"
    );
}

#[test]
fn a_list_is_found_on_one_line_or_over_a_few_and_a_mention_is_not() {
    let family: Vec<String> = ["a-cli", "b-cli", "c-cli", "d-cli"]
        .map(String::from)
        .to_vec();
    let lines = |text: &str| text.lines().map(String::from).collect::<Vec<_>>();
    assert_eq!(
        lists(&lines(r#"const T = ["a-cli", "b-cli", "c-cli"];"#), &family),
        [0]
    );
    assert_eq!(
        lists(&lines("x\ntools=(\n  a-cli\n  b-cli\n  d-cli\n)"), &family),
        [2]
    );
    assert!(lists(&lines(r#"family_dir(&["a-cli", "b-cli"])"#), &family).is_empty());
    assert!(lists(&lines("a-cli-x b-cli_y c-cliz"), &family).is_empty());
    assert!(
        lists(
            &lines(r#"["a-cli/x.md", "b-cli/y.md", "c-cli/z.md"]"#),
            &family
        )
        .is_empty()
    );
    let rust = Path::new("x.rs");
    assert!(
        lists(
            &code_lines(rust, "// a-cli, b-cli and c-cli\nfn f() {}"),
            &family
        )
        .is_empty()
    );
    assert_eq!(
        lists(
            &code_lines(Path::new("x.sh"), "for t in a-cli b-cli c-cli; do"),
            &family
        ),
        [0]
    );
}
