//! Conventions over every Rust file of the workspace: each starts with a `//!` header that says
//! what it is, and no file allows `unsafe_code` (the workspace forbids it, Cargo.toml). And every
//! crate is layered: at each level of its module tree, the graph of the submodules (which names
//! which through `crate::` and `super::`, in code outside tests) has no cycle; inside `common` code names items by their module path, never
//! through the re-exports of its root, so the floors' arrows are all seen, and ARCHITECTURE.md
//! names every floor. And a tool declares an argument's schema on its field, never in a list of
//! its own.

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

/// No code is unsafe: the workspace forbids it (so no `allow` can lift it), and no file asks.
/// The C entry point that once needed it is gone (issue 42.7): every tool starts from Rust's
/// own `main` (`common::entry!`).
#[test]
fn no_file_allows_unsafe_code() {
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.toml"))
            .expect("the workspace's Cargo.toml");
    assert!(
        manifest.contains("unsafe_code = \"forbid\""),
        "the workspace forbids unsafe code"
    );
    let this = Path::new(file!()).file_name().expect("a file name");
    let asking: Vec<PathBuf> = workspace_files()
        .into_iter()
        .filter(|path| path.file_name() != Some(this))
        .filter(|path| {
            std::fs::read_to_string(path)
                .unwrap_or_default()
                .contains("unsafe_code")
        })
        .collect();
    assert!(asking.is_empty(), "{asking:#?}");
}

/// One declaration per argument set (issue 42.2): an argument's schema stands on its field
/// (`common::arguments!`), and a command's entry takes them all as `Args::SCHEMAS`. Outside
/// `common` no file writes an `ArgSchema`, and no file that declares commands lists schemas in a
/// `CommandSpec` (`args: &[…]`).
#[test]
fn argument_schemas_are_declared_on_their_fields() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let common_src = root.join("common").join("src");
    let this = Path::new(file!()).file_name().expect("a file name");
    let by_hand: Vec<String> = workspace_files()
        .into_iter()
        .filter(|path| !path.starts_with(&common_src) && path.file_name() != Some(this))
        .flat_map(|path| {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let declares_commands = text.contains("CommandSpec {");
            text.lines()
                .enumerate()
                .filter(|(_, line)| {
                    line.contains("ArgSchema")
                        || (declares_commands && line.trim_start().starts_with("args: &["))
                })
                .map(|(number, line)| format!("{}:{}: {}", path.display(), number + 1, line.trim()))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(by_hand.is_empty(), "schemas written by hand: {by_hand:#?}");
}

/// ARCHITECTURE.md's tables of floors name every folder of `common/src` (but `bin/`) and of
/// `overheid-mcp/src` (issue 42.1), so a floor added or renamed is described where one looks.
#[test]
fn the_architecture_names_every_floor() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let mut missing = Vec::new();
    for krate in ["common", "overheid-mcp"] {
        let heading = format!("`{krate}/src/`, from the ground up");
        let from = text
            .find(&heading)
            .unwrap_or_else(|| panic!("no {heading}"));
        let rest = &text[from..];
        let table = &rest[rest.find("\n|").expect("a table")..];
        let table = &table[..table.find("\n\n").unwrap_or(table.len())];
        for entry in std::fs::read_dir(root.join(krate).join("src"))
            .expect("src")
            .flatten()
        {
            let name = entry.file_name().to_string_lossy().into_owned();
            let floor = format!("| `{name}/` |");
            if entry.path().is_dir() && name != "bin" && !table.contains(&floor) {
                missing.push(format!("{krate}/src/{name}/"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "floors ARCHITECTURE.md does not name: {missing:?}"
    );
}

/// The `src/` directories of the workspace's crates: each that holds a `lib.rs` or `main.rs`.
fn crate_sources() -> Vec<PathBuf> {
    let roots: BTreeSet<PathBuf> = workspace_files()
        .into_iter()
        .filter(|path| path.ends_with("src/lib.rs") || path.ends_with("src/main.rs"))
        .filter_map(|path| path.parent().map(Path::to_path_buf))
        .collect();
    roots.into_iter().collect()
}

/// A module's path in its crate (`cli::commands::evalueer`; the crate root is empty).
type ModPath = Vec<String>;

/// The modules of a crate's `src/` by file (`a/b.rs` and `a/b/mod.rs` are `a::b`, `lib.rs` and
/// `main.rs` the root; `src/bin/` and test modules are left out), each with its code outside
/// comments and `#[cfg(test)] mod tests`.
fn module_files(src: &Path) -> BTreeMap<ModPath, String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut modules: BTreeMap<ModPath, String> = BTreeMap::new();
    for path in &files {
        let relative = path.strip_prefix(src).expect("under src");
        let mut parts: Vec<String> = relative
            .iter()
            .map(|part| part.to_string_lossy().trim_end_matches(".rs").to_string())
            .collect();
        if parts[0] == "bin" || parts.iter().any(|part| part == "tests") {
            continue;
        }
        if parts.len() == 1 && matches!(parts[0].as_str(), "lib" | "main") {
            parts.clear();
        } else if parts.last().is_some_and(|last| last == "mod") {
            parts.pop();
        }
        let text = std::fs::read_to_string(path).expect("readable source");
        let text = text
            .split("#[cfg(test)]\nmod tests")
            .next()
            .unwrap_or_default();
        let code: Vec<&str> = text
            .lines()
            .filter(|line| !line.trim_start().starts_with("//"))
            .collect();
        let entry = modules.entry(parts).or_default();
        entry.push_str(&code.join("\n"));
        entry.push('\n');
    }
    modules
}

/// The paths `text` names through `crate::` and `super::` (`super::super::` too), as written
/// after that prefix, with each `{…}` group of a `use` expanded: `crate::{a::X, b::{c, d}}` is
/// `a::X`, `b::c` and `b::d`. Each comes with how many `super`s lead it (`None`: `crate`).
fn named_paths(text: &str) -> Vec<(Option<usize>, Vec<String>)> {
    fn ident(rest: &str) -> &str {
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        &rest[..end]
    }
    /// The paths of a use tree starting at `rest` (after a `::`), with the prefix `head`.
    fn tree(rest: &str, head: &[String], out: &mut Vec<Vec<String>>) {
        let rest = rest.trim_start();
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut start = 0;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        tree(&group[start..i], head, out);
                        return;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        tree(&group[start..i], head, out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            return;
        }
        let name = ident(rest);
        if name.is_empty() || name == "self" {
            out.push(head.to_vec());
            return;
        }
        let mut path = head.to_vec();
        path.push(name.to_string());
        match rest[name.len()..].trim_start().strip_prefix("::") {
            Some(next) => tree(next, &path, out),
            None => out.push(path),
        }
    }
    let mut named = Vec::new();
    for prefix in ["crate::", "super::"] {
        for (at, _) in text.match_indices(prefix) {
            let before = text[..at].chars().next_back();
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | ':')) {
                continue;
            }
            let mut rest = &text[at + prefix.len()..];
            let supers = if prefix == "super::" {
                let mut n = 1;
                while let Some(next) = rest.strip_prefix("super::") {
                    rest = next;
                    n += 1;
                }
                Some(n)
            } else {
                None
            };
            let mut paths = Vec::new();
            tree(rest, &[], &mut paths);
            named.extend(paths.into_iter().map(|path| (supers, path)));
        }
    }
    named
}

/// For every module with submodules, the graph of its submodules: which one's code (with the
/// code of the modules below it) names which other (or a module below that). A module naming
/// its own parent or an ancestor's items is not an edge: the parent is the interface its
/// submodules share, and what the parent's own file names is checked one level up.
fn sibling_graphs(
    modules: &BTreeMap<ModPath, String>,
) -> BTreeMap<ModPath, BTreeMap<String, BTreeSet<String>>> {
    let known: BTreeSet<&ModPath> = modules.keys().collect();
    let mut graphs: BTreeMap<ModPath, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for module in modules.keys().filter(|m| !m.is_empty()) {
        let parent = module[..module.len() - 1].to_vec();
        graphs
            .entry(parent)
            .or_default()
            .entry(module[module.len() - 1].clone())
            .or_default();
    }
    for (from, text) in modules {
        for (supers, path) in named_paths(text) {
            let mut full: ModPath = match supers {
                None => Vec::new(),
                Some(n) if n <= from.len() => from[..from.len() - n].to_vec(),
                Some(_) => continue,
            };
            full.extend(path);
            // The module named: the longest prefix of the path that is a module.
            let Some(to) = (0..=full.len())
                .rev()
                .map(|n| full[..n].to_vec())
                .find(|prefix| known.contains(prefix))
            else {
                continue;
            };
            let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
            if common < from.len() && common < to.len() {
                graphs
                    .entry(from[..common].to_vec())
                    .or_default()
                    .entry(from[common].clone())
                    .or_default()
                    .insert(to[common].clone());
            }
        }
    }
    graphs
}

/// The strongly connected components of `graph` with more than one node: each a set of
/// modules that all reach each other.
fn strongly_connected(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(node) = stack.pop() {
            for next in graph.get(&node).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&String, BTreeSet<String>> =
        graph.keys().map(|node| (node, reach(node))).collect();
    let mut components: Vec<BTreeSet<String>> = Vec::new();
    for node in graph.keys() {
        if components.iter().any(|c| c.contains(node)) {
            continue;
        }
        let component: BTreeSet<String> = reached[node]
            .iter()
            .filter(|other| *other != node && reached[*other].contains(node))
            .cloned()
            .chain(std::iter::once(node.clone()))
            .collect();
        if component.len() > 1 {
            components.push(component);
        }
    }
    components
}

/// Every strongly connected component of every crate's module levels, with one cycle through
/// it, as `crate: in level: a, b, c (a -> b -> a)`.
fn workspace_cycles() -> Vec<String> {
    let mut found = Vec::new();
    for src in crate_sources() {
        let name = src
            .parent()
            .and_then(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        for (level, graph) in sibling_graphs(&module_files(&src)) {
            let level = if level.is_empty() {
                "crate".to_string()
            } else {
                level.join("::")
            };
            for component in strongly_connected(&graph) {
                let inside: BTreeMap<String, BTreeSet<String>> = component
                    .iter()
                    .map(|node| {
                        let next = graph[node].intersection(&component).cloned().collect();
                        (node.clone(), next)
                    })
                    .collect();
                let shown = cycle(&inside).unwrap_or_default().join(" -> ");
                let members: Vec<&str> = component.iter().map(String::as_str).collect();
                found.push(format!(
                    "{name}: in {level}: {} ({shown})",
                    members.join(", ")
                ));
            }
        }
    }
    found
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
fn the_modules_of_every_crate_form_no_cycle() {
    let sources = crate_sources();
    assert!(sources.len() >= 10, "{sources:?}");
    let common = sibling_graphs(&module_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
    ));
    let level = |path: &[&str]| &common[&path.iter().map(|p| p.to_string()).collect::<ModPath>()];
    let root = level(&[]);
    assert!(root.len() >= 7, "{} floors only", root.len());
    // The reading sees what it must: plain paths, `use` groups, and `super::` below the root.
    assert!(root["run"].contains("call"), "{:?}", root["run"]);
    let call = level(&["call"]);
    assert!(call["context"].contains("globals"), "{:?}", call["context"]);
    let http = level(&["net", "http"]);
    assert!(http["client"].contains("policy"), "{http:?}");
    let cycles = workspace_cycles();
    assert!(cycles.is_empty(), "module cycles:\n{cycles:#?}");
}

/// Secrets are masked at the sinks only (SEC-2, issue 32): the printer (`output`), the audit
/// records (`audit`) and the response cache (`cache`, which refuses an answer holding one).
/// Everything before a sink passes values as they are, so no other module of `common` names
/// the masking functions of `secrets` in its code.
#[test]
fn secrets_are_scrubbed_at_the_sinks_only() {
    let modules = module_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let sinks = [
        ["print", "output"],
        ["call", "audit"],
        ["net", "cache"],
        ["process", "secrets"],
    ];
    let scrubbing: Vec<String> = modules
        .iter()
        // The root re-exports `secrets::{hold, scrub}` for other crates; it scrubs nothing.
        .filter(|(module, _)| !module.is_empty())
        .filter(|(module, _)| {
            !sinks
                .iter()
                .any(|sink| module.starts_with(&sink.map(String::from)))
        })
        .filter(|(_, code)| {
            ["scrub", "occurs_in"]
                .iter()
                .any(|name| code.contains(name))
        })
        .map(|(module, _)| module.join("::"))
        .collect();
    assert!(
        scrubbing.is_empty(),
        "secrets scrubbed outside a sink: {scrubbing:?}"
    );
    assert!(modules[&vec!["print".to_string(), "output".to_string()]].contains("secrets::scrub"));
}

/// `common`'s root only declares its floors and re-exports what other crates use: code inside
/// `common` names an item by its module path (`crate::call::context::Context`), not as
/// `crate::Context`, so every arrow between floors is one the cycle check above sees.
#[test]
fn common_names_nothing_through_its_root() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let modules = module_files(&src);
    let floors: BTreeSet<&str> = modules
        .keys()
        .filter(|module| module.len() == 1)
        .map(|module| module[0].as_str())
        .collect();
    assert!(
        floors.contains("call") && floors.contains("problem"),
        "{floors:?}"
    );
    let through_root: Vec<String> = modules
        .iter()
        .filter(|(module, _)| !module.is_empty())
        .flat_map(|(module, code)| {
            named_paths(code)
                .into_iter()
                .filter(|(supers, path)| {
                    let to_root = supers.is_none() || *supers == Some(module.len());
                    let first = path.first().map(String::as_str).unwrap_or_default();
                    to_root && !floors.contains(first) && first != "PROFILE_VERSION"
                })
                .map(|(_, path)| format!("{}: crate::{}", module.join("::"), path.join("::")))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(
        through_root.is_empty(),
        "named through the root: {through_root:#?}"
    );
    // The root itself holds declarations and re-exports only (and the allocator, the version).
    let root = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    let code_lines = root
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with("//"));
    let foreign: Vec<&str> = code_lines
        .filter(|line| {
            ![
                "mod ",
                "pub mod ",
                "pub use ",
                "pub const PROFILE_VERSION",
                "#[",
                "static ALLOCATOR",
                "}",
                "{",
            ]
            .iter()
            .any(|start| line.starts_with(start))
        })
        .filter(|line| {
            !line
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_,: {}".contains(c))
        })
        .collect();
    assert!(
        foreign.is_empty(),
        "lib.rs holds more than declarations: {foreign:#?}"
    );
}

#[test]
fn a_cycle_is_found_and_shown_in_order() {
    let text =
        "use crate::{b::X, c::{d, e::{self, F}}};\nfn f() { super::super::g::h(); $crate::no(); }";
    let named = named_paths(text);
    let shown: Vec<String> = named
        .iter()
        .map(|(supers, path)| format!("{supers:?} {}", path.join("::")))
        .collect();
    assert_eq!(
        shown,
        [
            "None b::X",
            "None c::d",
            "None c::e",
            "None c::e::F",
            "Some(2) g::h"
        ]
    );
    let modules: BTreeMap<ModPath, String> = [
        ("a", "use crate::b::B;"),
        ("b", "use crate::c::x::C;"),
        ("c", ""),
        ("c::x", "use super::super::a::A; use super::Y;"),
    ]
    .into_iter()
    .map(|(path, text)| {
        (
            path.split("::").map(String::from).collect(),
            text.to_string(),
        )
    })
    .collect();
    let graphs = sibling_graphs(&modules);
    // `c::x` naming its parent `c` is no edge of `c`'s submodules.
    assert!(graphs[&vec!["c".to_string()]]["x"].is_empty(), "{graphs:?}");
    assert_eq!(
        cycle(&graphs[&Vec::new()]),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
}
