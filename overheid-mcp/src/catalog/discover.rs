//! Finding the CLIs and reading their discovery documents (`<cli> --help --json`), once at start.
//!
//! A name without `/` is looked up next to the bridge's own executable first, then on
//! `PATH`. All discovery runs start together, so start-up costs one CLI start, not four.

use std::env;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

use common::child::{self, Ending, Environment, Spawn};

use crate::env::EnvPolicy;

/// The CLIs served when no `--tool` is given.
pub(crate) const DEFAULT_TOOLS: &[&str] = &["kvk-cli", "koop-cli", "rvo-cli", "regelrecht-cli"];

/// How long one discovery run may take.
const DISCOVERY_TIMEOUT: Duration = Duration::from_secs(10);

/// Where `name` lives: a path as given, else next to `overheid-mcp`, else on `PATH`.
pub(crate) fn locate(name: &OsStr) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt;

    if name.as_bytes().contains(&b'/') {
        let path = PathBuf::from(name);
        return is_executable(&path).then_some(path);
    }
    let beside = env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join(name)));
    let on_path = crate::env::search_path()
        .into_iter()
        .map(|dir| dir.join(name));
    beside
        .into_iter()
        .chain(on_path)
        .find(|path| is_executable(path))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .map(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

/// Run `--help --json` of every program at once; one result per program, in order.
pub(crate) fn read_all(programs: &[PathBuf]) -> Vec<Result<Value, String>> {
    let handles: Vec<_> = programs
        .iter()
        .cloned()
        .map(|program| std::thread::spawn(move || read(&program)))
        .collect();
    handles
        .into_iter()
        .map(|handle| {
            handle
                .join()
                .unwrap_or_else(|_| Err("discovery-thread faalde".to_string()))
        })
        .collect()
}

/// The discovery document of one program. It runs with the process basics only (DISC-2).
fn read(program: &Path) -> Result<Value, String> {
    let env = Environment::Only(EnvPolicy::default().pick(crate::env::own_vars()));
    let args = vec!["--help".to_string(), "--json".to_string()];
    let finished = child::run(Spawn::new(program, args, env), DISCOVERY_TIMEOUT)
        .map_err(|e| format!("kan {} niet starten: {e}", program.display()))?;
    match finished.ending {
        Ending::Exited(0) => {}
        Ending::TimedOut => {
            return Err(format!(
                "{} --help --json duurde te lang",
                program.display()
            ));
        }
        other => {
            return Err(format!(
                "{} --help --json eindigde met {other:?}: {}",
                program.display(),
                String::from_utf8_lossy(&finished.stderr).trim()
            ));
        }
    }
    let document: Value = serde_json::from_slice(&finished.stdout)
        .map_err(|e| format!("{} --help --json gaf geen JSON: {e}", program.display()))?;
    let valid = document["name"].is_string() && document["tools"].is_array();
    if valid {
        Ok(document)
    } else {
        Err(format!(
            "{} --help --json is geen discovery-document (name, tools ontbreken)",
            program.display()
        ))
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    #[test]
    fn one_list_of_tools_the_workspace_and_the_bridge_agree() {
        // The family as `cargo metadata` has it (`test_support::cli::programs`): adding a tool
        // is adding a `*-cli` member, and this test then names the bridge's default list, the
        // one other place that must say so (`.ci/run` and `dist/build.sh` derive theirs).
        let tools = test_support::cli::programs().to_vec();
        assert!(tools.len() >= 4, "{tools:?}");
        let mut bridge: Vec<String> = super::DEFAULT_TOOLS.iter().map(|t| t.to_string()).collect();
        let mut expected = tools.clone();
        bridge.sort();
        expected.sort();
        assert_eq!(
            bridge, expected,
            "overheid-mcp/src/catalog/discover.rs DEFAULT_TOOLS"
        );
        // `.ci/run` and `dist/build.sh` keep no list of their own: the script asks `cargo
        // metadata` for the same packages, and `.ci/run` asks the script.
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let ci = std::fs::read_to_string(root.join(".ci/run")).expect(".ci/run");
        let loops: Vec<&str> = ci
            .lines()
            .map(str::trim)
            .filter(|line| line.starts_with("for tool in "))
            .collect();
        assert!(!loops.is_empty(), "the profile-check loops of .ci/run");
        for line in loops {
            assert_eq!(line, "for tool in $tools; do", ".ci/run: a list of its own");
        }
        assert!(
            ci.contains("\ntools=$(bash dist/build.sh --list)\n"),
            ".ci/run"
        );
        let dist = std::fs::read_to_string(root.join("dist/build.sh")).expect("dist/build.sh");
        assert!(
            dist.contains("cargo metadata --no-deps")
                && dist.contains(r#"p["name"].endswith("-cli") and any("bin" in t["kind"]"#),
            "dist/build.sh: the family by the rule above"
        );
    }
}
