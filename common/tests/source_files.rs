//! Conventions over every Rust file of the workspace: each starts with a `//!` header that says
//! what it is, and only `common/src/entry.rs`, the process entry point, allows `unsafe_code`
//! (the workspace denies it, Cargo.toml). And `common` is layered: the graph of its top-level
//! modules (which names which, in code outside tests) has no cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir)
        .expect("readable directory")
        .flatten()
    {
        let path = entry.path();
        let name = entry.file_name();
        let hidden_or_built =
            name.to_string_lossy().starts_with('.') || name == "target" || name == "node_modules";
        if path.is_dir() && !hidden_or_built {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            found.push(path);
        }
    }
}

/// Every Rust file of the workspace (not under `target/`, `node_modules/` or a hidden directory).
fn workspace_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    assert!(files.len() > 100, "{} Rust files only", files.len());
    files
}

#[test]
fn every_file_starts_with_a_module_header() {
    let headless: Vec<PathBuf> = workspace_files()
        .into_iter()
        .filter(|path| {
            !std::fs::read_to_string(path)
                .unwrap_or_default()
                .starts_with("//!")
        })
        .collect();
    assert!(headless.is_empty(), "no `//!` header: {headless:#?}");
}

#[test]
fn only_the_entry_point_allows_unsafe_code() {
    let files = workspace_files();
    let this = Path::new(file!()).file_name().expect("a file name");
    let allowed: Vec<&PathBuf> = files
        .iter()
        .filter(|path| path.file_name() != Some(this))
        .filter(|path| {
            std::fs::read_to_string(path)
                .unwrap_or_default()
                .contains("unsafe_code")
        })
        .collect();
    assert_eq!(allowed.len(), 1, "{allowed:#?}");
    assert!(allowed[0].ends_with("common/src/entry.rs"), "{allowed:#?}");
}

/// The top-level modules of a crate's `src` and, for each, the other modules its code names
/// (`crate::m…`, or `m` in `use crate::{m…, …}`). Comments, `#[cfg(test)] mod tests` and the
/// files of test modules do not count; nor do the crate root and `src/bin`.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut code: BTreeMap<String, String> = BTreeMap::new();
    for path in &files {
        let relative = path.strip_prefix(src).expect("under src");
        let parts: Vec<String> = relative
            .iter()
            .map(|part| part.to_string_lossy().trim_end_matches(".rs").to_string())
            .collect();
        let is_test = parts.iter().any(|part| part == "tests");
        if parts.len() == 1 && matches!(parts[0].as_str(), "lib" | "main") || parts[0] == "bin" {
            continue;
        }
        let text = std::fs::read_to_string(path).expect("readable source");
        let text = text
            .split("#[cfg(test)]\nmod tests")
            .next()
            .unwrap_or_default();
        let text: Vec<&str> = text
            .lines()
            .filter(|line| !line.trim_start().starts_with("//"))
            .collect();
        let entry = code.entry(parts[0].clone()).or_default();
        if !is_test {
            entry.push_str(&text.join("\n"));
            entry.push('\n');
        }
    }
    let modules: BTreeSet<String> = code.keys().cloned().collect();
    code.iter()
        .map(|(module, text)| {
            let named = named_modules(text)
                .into_iter()
                .filter(|name| name != module && modules.contains(name))
                .collect();
            (module.clone(), named)
        })
        .collect()
}

/// The first segments after `crate::` in `text`, and each top-level name of `use crate::{…}`.
fn named_modules(text: &str) -> BTreeSet<String> {
    let ident = |rest: &str| -> String {
        rest.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut names = BTreeSet::new();
    for (at, _) in text.match_indices("crate::") {
        let rest = &text[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let mut expect_name = true;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 1 => break,
                    '}' => depth -= 1,
                    ',' if depth == 1 => expect_name = true,
                    c if c.is_whitespace() => {}
                    _ if expect_name && depth == 1 => {
                        names.insert(ident(&group[i..]));
                        expect_name = false;
                    }
                    _ => {}
                }
            }
        } else {
            names.insert(ident(rest));
        }
    }
    names
}

/// A cycle of `graph` (its modules in order, the first repeated at the end), if it has one.
fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut found = path[at..].to_vec();
            found.push(node.to_string());
            return Some(found);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(found) = visit(next, graph, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

#[test]
fn the_modules_of_common_form_no_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = module_graph(&src);
    assert!(graph.len() > 30, "{} modules only", graph.len());
    // The reading sees what it must: plain paths and `use` groups.
    assert!(
        graph["context"].contains("globals"),
        "{:?}",
        graph["context"]
    );
    assert!(graph["app"].contains("context"), "{:?}", graph["app"]);
    assert_eq!(cycle(&graph), None, "a cycle among the modules of common");
}

#[test]
fn a_cycle_is_found_and_shown_in_order() {
    let text = "use crate::{b::X, c::{d, e}};\nfn f() { crate::d::g(); }";
    let named: Vec<String> = named_modules(text).into_iter().collect();
    assert_eq!(named, ["b", "c", "d"]);
    let graph: BTreeMap<String, BTreeSet<String>> = [("a", "b"), ("b", "c"), ("c", "a")]
        .into_iter()
        .map(|(from, to)| (from.to_string(), BTreeSet::from([to.to_string()])))
        .collect();
    assert_eq!(
        cycle(&graph),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
}
