//! What a tool declares about itself beyond its clap definitions.
//!
//! clap knows the commands, arguments, help texts and value sets. What clap
//! cannot express lives in one static side table per tool: titles, MCP
//! annotations, output schemas, examples, argument patterns, resources.
//! Each command module declares its own entries (`SPECS`), and
//! [`crate::commands!`] joins them in the order of the tool's command enum, so
//! a command is registered once. Discovery joins clap and the side table, and
//! [`crate::run::consistency`] checks in every tool's tests that they agree.

use std::borrow::Cow;

use serde_json::Value;

use crate::process::env::{EnvKind, EnvVar};

/// The four MCP tool annotations, always explicit (rule DISC-5), and whether the command
/// records a proposal (MUT-18).
#[derive(Clone, Copy, Debug)]
pub struct Annotations {
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
    pub open_world: bool,
    /// The command records a proposal that a person approves later (MUT-18): it is not
    /// read-only, but that approval, not `--confirm`, is its confirmation, so the gate does not
    /// ask for one. Discovery says so in `_meta.proposes`.
    pub proposes: bool,
}

impl Annotations {
    /// A read from an external source.
    pub const READ_REMOTE: Self = Self {
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: true,
        proposes: false,
    };
    /// A read of local or embedded data.
    pub const READ_LOCAL: Self = Self {
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: false,
        proposes: false,
    };
    /// An additive, idempotent mutation (e.g. filing a report keyed by its digest).
    pub const MUTATE_IDEMPOTENT: Self = Self {
        read_only: false,
        destructive: false,
        idempotent: true,
        open_world: true,
        proposes: false,
    };
    /// Recording a proposal (MUT-18): not read-only (a record is made), idempotent (the same
    /// input gives back the same proposal), local, and not gated by `--confirm`.
    pub const PROPOSE: Self = Self {
        read_only: false,
        destructive: false,
        idempotent: true,
        open_world: false,
        proposes: true,
    };
}

/// A property schema override for one argument (JSON text of a schema object).
/// An argument may have several; discovery applies them in order.
#[derive(Clone, Copy, Debug)]
pub struct ArgSchema {
    pub name: &'static str,
    pub schema: &'static str,
}

/// The JSON Schema `format` of an argument that names a local file or directory (DISC-21).
pub const PATH_FORMAT: &str = "path";

/// The profile's schema keyword on a path argument whose value `-` reads the argument's
/// content from stdin instead of a file (DISC-21); `contentMediaType` gives that content's type.
pub const STDIN_KEYWORD: &str = "x-stdin";

/// The only stdin content type the profile defines (DISC-21).
pub const STDIN_JSON: &str = "application/json";

impl ArgSchema {
    /// Declares that the argument names a local file or directory: `"format": "path"` on the
    /// property (on its `items` when it is repeatable), so a bridge can withhold it (DISC-21).
    pub const fn path(name: &'static str) -> Self {
        Self {
            name,
            schema: r#"{"format": "path"}"#,
        }
    }

    /// Declares a single-valued path argument whose file holds JSON and which also takes that
    /// JSON on stdin as `-`: `"format": "path"`, `"contentMediaType": "application/json"`,
    /// `"x-stdin": true`. A bridge may then offer the content as a JSON value and pass it on
    /// stdin (DISC-21). The JSON's own schema may follow as a second override (`contentSchema`).
    pub const fn path_or_stdin_json(name: &'static str) -> Self {
        Self {
            name,
            schema: r#"{"format": "path", "contentMediaType": "application/json", "x-stdin": true}"#,
        }
    }

    /// [`ArgSchema::path_or_stdin_json`] whose JSON is one object (`"contentSchema": {"type":
    /// "object"}`), so a bridge that offers the content as a value offers a typed one.
    pub const fn path_or_stdin_json_object(name: &'static str) -> Self {
        Self {
            name,
            schema: r#"{"format": "path", "contentMediaType": "application/json", "x-stdin": true, "contentSchema": {"type": "object"}}"#,
        }
    }
}

/// One command (a leaf of the clap tree) as a tool entry.
#[derive(Clone, Copy, Debug)]
pub struct CommandSpec {
    /// The command path, e.g. `["basisprofiel", "toon"]`.
    pub path: &'static [&'static str],
    pub title: &'static str,
    pub annotations: Annotations,
    /// The JSON Schema (object root) of the data the command prints.
    pub output_schema: &'static str,
    /// Example argument vectors (after the tool name); at least one.
    pub examples: &'static [&'static [&'static str]],
    /// Schema details clap cannot express (patterns, ranges, formats): the `SCHEMAS` of the
    /// command's arguments, declared on their fields with [`crate::arguments!`].
    pub args: &'static [ArgSchema],
}

impl CommandSpec {
    /// The MCP tool name: the path joined with `_`.
    pub fn tool_name(&self) -> String {
        self.path.join("_").replace('-', "_")
    }

    /// Mutating commands are gated by `--confirm`, except one that records a proposal
    /// ([`Annotations::proposes`]).
    pub fn is_mutating(&self) -> bool {
        !self.annotations.read_only
    }

    /// The output schema, parsed (where it is needed: the `--fields` check and
    /// discovery, each at most once per command and process).
    pub fn output_schema(&self) -> Value {
        serde_json::from_str(self.output_schema)
            .unwrap_or_else(|e| panic!("output schema of {:?} is not JSON: {e}", self.path))
    }
}

/// A placeholder that [`concat`] overwrites.
const UNSET: CommandSpec = CommandSpec {
    path: &[],
    title: "",
    annotations: Annotations::READ_LOCAL,
    output_schema: "",
    examples: &[],
    args: &[],
};

/// The entries of several command modules as one table, in order: what
/// [`crate::commands!`] builds from the modules' `SPECS`. `N` is their total.
pub const fn concat<const N: usize>(groups: &[&[CommandSpec]]) -> [CommandSpec; N] {
    join(groups, UNSET)
}

/// Several constant tables as one, in order (`N` is their total; `unset` fills the array
/// before it is overwritten): [`concat`] of command entries, and of argument schemas
/// ([`crate::call::arguments::join_schemas`]).
pub(crate) const fn join<T: Copy, const N: usize>(groups: &[&[T]], unset: T) -> [T; N] {
    let mut out = [unset; N];
    let (mut group, mut k) = (0, 0);
    while group < groups.len() {
        let mut i = 0;
        while i < groups[group].len() {
            out[k] = groups[group][i];
            k += 1;
            i += 1;
        }
        group += 1;
    }
    assert!(k == N, "join: N is not the number of entries");
    out
}

/// Whether `name` is the command name clap derives for the enum variant `ident`: its
/// kebab case (`VoorstelToon` is `voorstel-toon`). [`crate::commands!`] uses it at compile
/// time, so that an entry's path cannot drift from the command it describes.
pub(crate) const fn is_clap_name(ident: &str, name: &str) -> bool {
    let (ident, name) = (ident.as_bytes(), name.as_bytes());
    let (mut i, mut j) = (0, 0);
    while i < ident.len() {
        let c = ident[i];
        if c.is_ascii_uppercase() && i > 0 {
            if j >= name.len() || name[j] != b'-' {
                return false;
            }
            j += 1;
        }
        if j >= name.len() || name[j] != c.to_ascii_lowercase() {
            return false;
        }
        i += 1;
        j += 1;
    }
    j == name.len()
}

/// The one position at which every entry of `specs` has the segment clap names `variant`
/// by ([`is_clap_name`]), or `None` when some entry lacks it there (or `specs` is empty).
pub(crate) const fn level_of(specs: &[CommandSpec], variant: &str) -> Option<usize> {
    if specs.is_empty() {
        return None;
    }
    let mut level = 0;
    while level < specs[0].path.len() {
        let mut k = 0;
        while k < specs.len()
            && level < specs[k].path.len()
            && is_clap_name(variant, specs[k].path[level])
        {
            k += 1;
        }
        if k == specs.len() {
            return Some(level);
        }
        level += 1;
    }
    None
}

/// The level of a [`crate::commands!`] enum: where each variant's name sits in its entries'
/// paths, the same for all. In a constant, an entry that does not name its command is a
/// compile error:
///
/// ```
/// use common::tool::commands_level;
/// use common::{Annotations, CommandSpec};
/// const fn spec(path: &'static [&'static str]) -> CommandSpec {
///     CommandSpec { path, title: "", annotations: Annotations::READ_LOCAL, output_schema: "",
///                   examples: &[], args: &[] }
/// }
/// const ZOEK: &[CommandSpec] = &[spec(&["zoek"])];
/// const TOON: &[CommandSpec] = &[spec(&["voorstel", "toon"])];
/// const LIJST: &[CommandSpec] = &[spec(&["voorstel", "lijst"])];
/// const _: () = assert!(commands_level(&[("Zoek", ZOEK)]) == 0);
/// const _: () = assert!(commands_level(&[("Toon", TOON), ("Lijst", LIJST)]) == 1);
/// ```
///
/// ```compile_fail,E0080
/// use common::tool::commands_level;
/// use common::{Annotations, CommandSpec};
/// const fn spec(path: &'static [&'static str]) -> CommandSpec {
///     CommandSpec { path, title: "", annotations: Annotations::READ_LOCAL, output_schema: "",
///                   examples: &[], args: &[] }
/// }
/// const ZOEK: &[CommandSpec] = &[spec(&["zoeken"])];
/// const _: usize = commands_level(&[("Zoek", ZOEK)]);
/// ```
pub const fn commands_level(modules: &[(&str, &[CommandSpec])]) -> usize {
    let mut level = None;
    let mut m = 0;
    while m < modules.len() {
        let (variant, specs) = modules[m];
        match (level_of(specs, variant), level) {
            (None, _) => panic!("a command's entries do not name it in their path"),
            (Some(l), None) => level = Some(l),
            (Some(l), Some(expected)) => {
                assert!(
                    l == expected,
                    "the commands of one enum sit at different levels of their paths"
                );
            }
        }
        m += 1;
    }
    match level {
        Some(level) => level,
        None => panic!("an enum of commands without commands"),
    }
}

/// The entry with this command path.
pub(crate) fn find_spec(
    specs: &'static [CommandSpec],
    path: &[String],
) -> Option<&'static CommandSpec> {
    specs
        .iter()
        .find(|c| c.path.iter().copied().eq(path.iter().map(String::as_str)))
}

/// A resource template mapped to a command (rule RES-1).
#[derive(Clone, Copy, Debug)]
pub struct ResourceSpec {
    pub uri_template: &'static str,
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    pub mime_type: &'static str,
    /// The tool name of the command that reads it; template variables are its arguments.
    pub tool: &'static str,
}

/// What `--version` says after the program's name: its version and, in a release build
/// (`dist/release.sh` builds with `OVERHEID_COMMIT`), the commit it was built from:
/// `0.1.0 (commit 1a2b3c4d5e6f)`. A build without it names no commit rather than a stale one.
pub fn shown_version(version: &'static str) -> &'static str {
    static SHOWN: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    match option_env!("OVERHEID_COMMIT").filter(|c| !c.is_empty()) {
        Some(commit) => SHOWN.get_or_init(|| format!("{version} (commit {commit})")),
        None => version,
    }
}

/// Which program of the family answers which kind of question, in one line: every program's
/// root help and discovery end their description with it (issue 40 item 2), so an agent that
/// reads one program's discovery knows where the others' questions go.
pub(crate) const FAMILY_ROUTES: &str = "Familie: een bedrijf (profiel, vestigingen) → kvk-cli; de tekst \
     van een artikel → koop-cli regeling artikel; of de energiebesparingsplicht geldt en welk \
     artikel → regelrecht-cli check energiebesparing; welke regelingen kunnen gelden → \
     regelrecht-cli regelingen; een rapportage voorbereiden → regelrecht-cli concept; voorstellen \
     en indienen → rvo-cli rapportage voorstel.";

/// Everything a tool declares.
#[derive(Clone, Copy, Debug)]
pub struct ToolInfo {
    pub name: &'static str,
    pub version: &'static str,
    /// One line: what the tool is (discovery's `description`, the short help).
    pub description: &'static str,
    /// A paragraph for plain `--help`.
    pub help: &'static str,
    /// Every environment variable the tool reads, except the profile's own
    /// and its audit variable (both added, see [`ToolInfo::env_vars`]).
    pub env: &'static [EnvVar],
    /// The tool's own audit-destination variable, e.g. `KVK_AUDIT_LOG`; its
    /// declaration is derived from this name.
    pub audit_env: &'static str,
    /// Default `--timeout` in seconds.
    pub default_timeout_secs: u64,
    pub resources: &'static [ResourceSpec],
    /// The command paths whose upstream answers may come from the response cache
    /// ([`crate::net::cache`], rule CACHE-1): only they show `--geen-cache`, and only a tool that
    /// has one declares the cache's variables and offers `cache leeg`. Empty: nothing is cached.
    pub cached: &'static [&'static [&'static str]],
    /// The programs of the family this tool runs as children ([`crate::call::child`], §12.2),
    /// by the plain names it looks them up by: discovery's `children` (DISC-25), so a host that
    /// passes each program only its declared variables passes the children's too.
    pub children: &'static [&'static str],
}

impl ToolInfo {
    /// Whether the command of `spec` may answer from the cache.
    pub fn caches(&self, spec: &CommandSpec) -> bool {
        self.cached.contains(&spec.path)
    }

    /// Every variable the tool reads beyond the profile's own: `env`, then
    /// the audit variable (rule AUDIT-2), declared from `audit_env`.
    pub fn env_vars(&self) -> Vec<EnvVar> {
        let audit = EnvVar {
            meaning: Cow::Owned(format!("auditlog van {} (JSON Lines)", self.name)),
            ..EnvVar::new(self.audit_env, EnvKind::Path, "")
        };
        let cache: &[EnvVar] = if self.cached.is_empty() {
            &[]
        } else {
            &crate::net::cache::ENV
        };
        self.env
            .iter()
            .cloned()
            .chain(cache.iter().cloned())
            .chain([audit])
            .collect()
    }
}

/// A tool of nothing, for tests of the profile's machinery: `..PROBE_TOOL` fills what a test
/// does not set.
#[cfg(test)]
pub(crate) const PROBE_TOOL: ToolInfo = ToolInfo {
    name: "t",
    version: "0",
    description: "",
    help: "",
    env: &[],
    audit_env: "T_AUDIT_LOG",
    default_timeout_secs: 1,
    resources: &[],
    cached: &[],
    children: &[],
};

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;

    #[test]
    fn clap_names_are_the_kebab_case_of_the_variant() {
        assert!(is_clap_name("Zoek", "zoek"));
        assert!(is_clap_name("VoorstelToon", "voorstel-toon"));
        assert!(!is_clap_name("VoorstelToon", "voorsteltoon"));
        assert!(!is_clap_name("Zoek", "zoeken"));
        assert!(!is_clap_name("Zoeken", "zoek"));
        assert!(!is_clap_name("Zoek", "Zoek"));
    }

    #[test]
    fn a_stdin_json_path_is_a_path_with_the_stdin_keyword_and_json_content() {
        let schema: Value =
            serde_json::from_str(ArgSchema::path_or_stdin_json("x").schema).unwrap();
        assert_eq!(schema["format"], PATH_FORMAT);
        assert_eq!(schema["contentMediaType"], STDIN_JSON);
        assert_eq!(schema[STDIN_KEYWORD], true);
    }
}
