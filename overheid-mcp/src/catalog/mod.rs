//! The bridge's catalogue: every tool entry and resource template of every CLI, as MCP lists them.
//!
//! Built once from the discovery documents. Tool names become `<source>__<tool>`; the
//! schemas, annotations and descriptions are passed on as the CLI wrote them, with two
//! additions: an optional `fields` argument (data minimisation) and, for a mutating tool, the
//! "nothing was done" shape (a proposal waiting for a person, or the reason) in its `outputSchema`; two changes: a
//! path argument that also takes its JSON content on stdin is offered as that JSON value, and a
//! mutating tool that applies a proposal is offered with only its proposal id
//! ([`crate::proposals`]); and one removal: arguments that name local paths, unless the operator
//! allows them. Every listed schema is made portable ([`crate::catalog::portable`]: no type arrays). A `confirm` argument is never offered: a model cannot approve.

pub(crate) mod argv;
pub(crate) mod discover;
pub(crate) mod local_paths;
pub(crate) mod portable;
pub(crate) mod prompts;
pub(crate) mod stdin_value;
pub(crate) mod template;
pub(crate) mod views;

use std::collections::HashMap;
use std::path::PathBuf;

use serde_json::{Map, Value, json};

use common::discovery;

use crate::catalog::portable::NullIsAbsent;
use crate::catalog::template::UriTemplate;
use crate::env::EnvPolicy;
use crate::proposals;

/// Namespace of the bridge's own `_meta` keys.
pub(crate) const META_PREFIX: &str = "nl.overheid";

/// One CLI the bridge serves.
#[derive(Debug)]
pub(crate) struct Source {
    /// Discovery `name` (`kvk-cli`).
    pub program_name: String,
    /// Where it runs from.
    pub program: PathBuf,
    /// Which variables it may see: its own declared ones and those of the family programs it
    /// runs as children ([`Catalog::pass_children_variables`]).
    pub env: EnvPolicy,
    /// The variables its discovery declares (`env`, `profile_env`).
    pub declared: Vec<String>,
    /// The family programs it runs as children (its discovery's `children`, DISC-25).
    pub children: Vec<String>,
    /// Session variables its tools declare (`_meta.session`: argument → variable, e.g.
    /// `kvk_nummer` → `KVK_SESSIE_NUMMER`): set from the identity on every call of this CLI,
    /// never from the bridge's own environment when the identity comes per request.
    pub session_vars: Vec<(String, String)>,
}

/// One MCP tool.
#[derive(Debug)]
pub(crate) struct Tool {
    /// `kvk__basisprofiel_toon`.
    pub name: String,
    /// Index into [`Catalog::sources`].
    pub source: usize,
    /// The command line it runs, without arguments (`kvk-cli basisprofiel get`).
    pub command: String,
    /// The tool entry exactly as discovery has it.
    pub entry: Value,
    /// The `inputSchema` a call is checked against: the listed one, still closed
    /// (`additionalProperties: false`) where discovery closes it.
    pub input: Value,
    /// The tool as `tools/list` shows it.
    pub listed: Value,
    /// `readOnlyHint: false`.
    pub mutating: bool,
    /// Whether the bridge added the `fields` argument.
    pub takes_fields: bool,
    /// It applies an approved proposal: offered with only
    /// [`crate::proposals::PROPOSAL_ARGUMENT`]; the program's own name for that argument.
    pub proposal_argument: Option<String>,
    /// Path arguments left out of the listed `inputSchema` (refused when a call sends them).
    pub hidden_paths: Vec<String>,
    /// The argument offered as a JSON value and passed on stdin as `-` (DISC-21).
    pub stdin_argument: Option<String>,
    /// Session-bound arguments (`_meta.session`: argument → session variable), left out of the
    /// listed `inputSchema` when the catalogue hides them, and filled from the identity.
    pub session_args: Vec<(String, String)>,
    /// Members of its result listed without their `null` type, whose `null` is left out.
    pub null_is_absent: NullIsAbsent,
}

/// One resource template.
#[derive(Debug)]
pub(crate) struct Resource {
    pub template: UriTemplate,
    /// Index into [`Catalog::tools`].
    pub tool: usize,
    /// The template as `resources/templates/list` shows it (or, without variables, as
    /// `resources/list` shows the one resource).
    pub listed: Value,
    /// About the session's own company (the bridge's views, [`crate::catalog::views`]): read only with an
    /// identity, and never cached for anyone else.
    pub private: bool,
}

/// Everything the bridge serves.
#[derive(Debug, Default)]
pub(crate) struct Catalog {
    pub sources: Vec<Source>,
    pub tools: Vec<Tool>,
    pub resources: Vec<Resource>,
    /// `--allow-local-paths`: list and pass arguments of `"format": "path"`.
    pub allow_local_paths: bool,
    /// Leave session-bound arguments out of the listed schemas (identity comes from the session).
    pub hide_session_args: bool,
    /// `--read-only`: no tool that is not read-only is listed or callable.
    pub read_only: bool,
    by_name: HashMap<String, usize>,
}

impl Catalog {
    /// An empty catalogue; path arguments are hidden unless `allow_local_paths`.
    pub(crate) fn new(allow_local_paths: bool, hide_session_args: bool) -> Self {
        Self {
            allow_local_paths,
            hide_session_args,
            ..Self::default()
        }
    }

    /// Add one CLI from its discovery document. Returns warnings about what was skipped.
    pub(crate) fn add(&mut self, program: PathBuf, discovery: &Value) -> Vec<String> {
        let mut warnings = Vec::new();
        let program_name = discovery["name"].as_str().unwrap_or_default().to_string();
        if self.sources.iter().any(|s| s.program_name == program_name) {
            return vec![format!(
                "{program_name} staat er al in; {} overgeslagen",
                program.display()
            )];
        }
        let prefix = source_prefix(&program_name);
        let declared = declared_env(discovery);
        let source = self.sources.len();
        self.sources.push(Source {
            program_name: program_name.clone(),
            program,
            env: EnvPolicy::new(declared.clone()),
            declared,
            children: children_of(discovery),
            session_vars: Vec::new(),
        });
        // A tool that is bound without taking the company as an argument (rvo's
        // `rapportage_status`) names the variable too: every session variable of the CLI.
        let session_variables: Vec<String> = discovery["tools"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|entry| entry["_meta"]["session"].as_object())
            .flat_map(|session| session.values())
            .filter_map(|variable| variable.as_str().map(str::to_string))
            .collect();
        let mut own_tools = HashMap::new();
        let mut left_out = Vec::new();
        for entry in discovery["tools"].as_array().into_iter().flatten() {
            let Some(tool_name) = entry["name"].as_str() else {
                warnings.push(format!("{program_name}: tool zonder naam overgeslagen"));
                continue;
            };
            let name = format!("{prefix}__{tool_name}");
            if self.by_name.contains_key(&name) {
                warnings.push(format!(
                    "{program_name}: dubbele toolnaam {name} overgeslagen"
                ));
                continue;
            }
            let words = (program_name.as_str(), session_variables.as_slice());
            let tool = match make_tool(name.clone(), source, entry, words, self) {
                Ok(Some(tool)) => tool,
                // Left out by the operator's choice (a local path, `--read-only`): nothing wrong.
                Ok(None) => {
                    left_out.push(tool_name);
                    continue;
                }
                Err(why) => {
                    warnings.push(format!("{program_name}: {name} overgeslagen: {why}"));
                    continue;
                }
            };
            for pair in &tool.session_args {
                if !self.sources[source].session_vars.contains(pair) {
                    self.sources[source].session_vars.push(pair.clone());
                }
            }
            own_tools.insert(tool_name.to_string(), self.tools.len());
            self.by_name.insert(name, self.tools.len());
            self.tools.push(tool);
        }
        for resource in discovery["resources"].as_array().into_iter().flatten() {
            // A resource of a tool left out by choice goes with it, as silently.
            if resource["_meta"]["tool"]
                .as_str()
                .is_some_and(|tool| left_out.contains(&tool))
            {
                continue;
            }
            match make_resource(resource, &own_tools, &self.tools) {
                Ok(resource) => self.resources.push(resource),
                Err(why) => warnings.push(format!("{program_name}: resource overgeslagen: {why}")),
            }
        }
        warnings
    }

    /// Give each source the variables of the family programs it runs as children, and of theirs
    /// in turn (issue 40 item 1): regelrecht-cli's `concept` runs kvk-cli, which reads
    /// `KVK_API_BASE` and `KVK_API_KEY`; without them the child asked the public KvK without a
    /// key. Each program declares its children by name in its discovery (DISC-25) and each child
    /// declares its own variables, so every variable keeps one declaration and no program sees
    /// another's unless it runs it. A child is taken from `family` (the documents read), else
    /// its discovery is read where its parent finds it: `OVERHEID_CLI_DIR`, else beside the
    /// parent (§12.2). Returns a warning for a child that cannot be found (its calls will fail).
    pub(crate) fn pass_children_variables(&mut self, family: &[(PathBuf, Value)]) -> Vec<String> {
        let mut warnings = Vec::new();
        let mut read: HashMap<String, Option<Value>> = family
            .iter()
            .filter_map(|(_, d)| Some((d["name"].as_str()?.to_string(), Some(d.clone()))))
            .collect();
        for source in &mut self.sources {
            let mut names = source.declared.clone();
            let mut queue = source.children.clone();
            let mut seen = vec![source.program_name.clone()];
            while let Some(child) = queue.pop() {
                if seen.contains(&child) {
                    continue;
                }
                seen.push(child.clone());
                let document = read
                    .entry(child.clone())
                    .or_insert_with(|| {
                        let dir = crate::env::cli_dir()
                            .or_else(|| source.program.parent().map(PathBuf::from))?;
                        let program = dir.join(&child);
                        discover::read_all(std::slice::from_ref(&program))
                            .pop()?
                            .ok()
                    })
                    .clone();
                match document {
                    Some(document) => {
                        names.extend(declared_env(&document));
                        queue.extend(children_of(&document));
                    }
                    None => warnings.push(format!(
                        "{}: kind {child} niet gevonden; wat het nodig heeft, krijgt het niet",
                        source.program_name
                    )),
                }
            }
            source.env = EnvPolicy::new(names);
        }
        warnings
    }

    /// Make what a host shows unique across the family (issue 40 item 6): a tool title two tools
    /// share gets its source in front (`KOOP: Regelingen zoeken`, `RVO: Regelingen zoeken`), and
    /// a resource name two resources share gets its source's prefix (`koop-regeling`,
    /// `rvo-regeling`). Call it once every CLI and view is in.
    pub(crate) fn disambiguate(&mut self) {
        let labels: Vec<String> = self
            .sources
            .iter()
            .map(|s| source_prefix(&s.program_name))
            .collect();
        let shared = |names: Vec<Option<String>>| -> Vec<bool> {
            names
                .iter()
                .map(|name| {
                    name.is_some() && names.iter().filter(|other| *other == name).count() > 1
                })
                .collect()
        };
        let titles = shared(
            self.tools
                .iter()
                .map(|t| t.listed["title"].as_str().map(str::to_string))
                .collect(),
        );
        for (tool, shared) in self.tools.iter_mut().zip(titles) {
            if shared && let Some(title) = tool.listed["title"].as_str() {
                let label = labels[tool.source].to_uppercase();
                tool.listed["title"] = format!("{label}: {title}").into();
            }
        }
        let names = shared(
            self.resources
                .iter()
                .map(|r| r.listed["name"].as_str().map(str::to_string))
                .collect(),
        );
        for (resource, shared) in self.resources.iter_mut().zip(names) {
            if shared && let Some(name) = resource.listed["name"].as_str() {
                let label = &labels[self.tools[resource.tool].source];
                resource.listed["name"] = format!("{label}-{name}").into();
            }
        }
    }

    /// The index of tool entry `tool` of the CLI named `program` (`rvo-cli`, `regeling_lijst`).
    pub(crate) fn find(&self, program: &str, tool: &str) -> Option<usize> {
        self.tools
            .iter()
            .position(|t| t.entry["name"] == tool && self.sources[t.source].program_name == program)
    }

    /// Add a resource of the bridge's own ([`crate::catalog::views`]), in the shape of a discovery
    /// resource, read by tool `tool`; `Err` when the template does not fit the tool.
    pub(crate) fn add_view(
        &mut self,
        resource: &Value,
        tool: usize,
        private: bool,
    ) -> Result<(), String> {
        let name = self.tools[tool].entry["name"].as_str().unwrap_or_default();
        let own = HashMap::from([(name.to_string(), tool)]);
        let mut resource = make_resource(resource, &own, &self.tools)?;
        resource.private = private;
        if resource.template.variables().is_empty()
            && let Some(listed) = resource.listed.as_object_mut()
            && let Some(uri) = listed.remove("uriTemplate")
        {
            listed.insert("uri".into(), uri);
        }
        self.resources.push(resource);
        Ok(())
    }

    /// The tool called `name`.
    #[cfg(test)]
    pub(crate) fn tool(&self, name: &str) -> Option<&Tool> {
        self.index(name).map(|index| &self.tools[index])
    }

    /// Read-only tools of the same CLI that take every required argument of `tool` and more
    /// (koop's `regeling_artikel` next to `regeling_toon`): the narrower questions a result too
    /// large to send points to. Nothing for a tool without required arguments.
    pub(crate) fn narrower(&self, tool: &Tool) -> Vec<&str> {
        let required = |t: &Tool| -> Vec<String> {
            t.input["required"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        };
        let own = required(tool);
        if own.is_empty() {
            return Vec::new();
        }
        self.tools
            .iter()
            .filter(|other| other.source == tool.source && !other.mutating)
            .filter(|other| {
                let theirs = required(other);
                theirs.len() > own.len() && own.iter().all(|name| theirs.contains(name))
            })
            .map(|other| other.name.as_str())
            .collect()
    }

    /// The index in [`Catalog::tools`] of the tool called `name`.
    pub(crate) fn index(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }
}

/// The family programs a discovery document says its program runs as children (DISC-25), each a
/// plain program name as the program looks it up (§12.2).
fn children_of(discovery: &Value) -> Vec<String> {
    discovery["children"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .filter(|name| {
            !name.is_empty()
                && name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        })
        .map(str::to_string)
        .collect()
}

/// The variables a discovery document declares: its own (`env`) and the profile's it names
/// (`profile_env`, by kind; DISC-19).
fn declared_env(discovery: &Value) -> Vec<String> {
    let own = discovery["env"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|entry| entry["name"].as_str());
    let profile = discovery["profile_env"]
        .as_object()
        .into_iter()
        .flat_map(Map::values)
        .filter_map(Value::as_array)
        .flatten()
        .filter_map(Value::as_str);
    own.chain(profile).map(str::to_string).collect()
}

/// `kvk-cli` → `kvk`, `regelrecht-cli` → `regelrecht`; other characters outside `[A-Za-z0-9_]` become `_`.
pub(crate) fn source_prefix(program_name: &str) -> String {
    let base = program_name.strip_suffix("-cli").unwrap_or(program_name);
    base.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The command line a tool runs, for people: the program and the entry's `argv`.
fn command_line(program_name: &str, entry: &Value) -> String {
    std::iter::once(program_name.to_string())
        .chain(
            entry["_meta"]["argv"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|w| w.as_str().map(str::to_string)),
        )
        .collect::<Vec<_>>()
        .join(" ")
}

/// The `outputSchema` as listed: safe to project when the tool takes `fields`, portable (with
/// the members where null means absent), and for a mutating tool with the "nothing was done"
/// shape.
fn listed_output(output: &Value, mutating: bool, takes_fields: bool) -> (Value, NullIsAbsent) {
    let mut output = output.clone();
    if takes_fields {
        projection_safe(&mut output);
    }
    let null_is_absent = portable::output(&mut output);
    let mut output = if mutating {
        proposals::output_schema(&output)
    } else {
        output
    };
    portable::any_schema(&mut output);
    (output, null_is_absent)
}

/// One tool of `program_name` (whose session variables are `session_variables`) from its entry.
fn make_tool(
    name: String,
    source: usize,
    entry: &Value,
    (program_name, session_variables): (&str, &[String]),
    catalog: &Catalog,
) -> Result<Option<Tool>, String> {
    let mutating = entry["annotations"]["readOnlyHint"].as_bool() != Some(true);
    if mutating && catalog.read_only {
        return Ok(None);
    }
    let mut input = entry["inputSchema"].clone();
    if !input.is_object() {
        input = json!({"type": "object"});
    }
    let stdin_argument = input.as_object_mut().and_then(stdin_value::offer_as_value);
    let mut hidden_paths = Vec::new();
    if !catalog.allow_local_paths
        && let Some(schema) = input.as_object_mut()
    {
        for hidden in local_paths::hide(schema) {
            // A tool that needs a local path is left out unless the operator allows them
            // (`--allow-local-paths`): by design, so no warning at every start.
            if hidden.required {
                return Ok(None);
            }
            hidden_paths.push(hidden.name);
        }
    }
    let session_args: Vec<(String, String)> = entry["_meta"]["session"]
        .as_object()
        .into_iter()
        .flatten()
        .filter_map(|(argument, variable)| Some((argument.clone(), variable.as_str()?.to_string())))
        .collect();
    if catalog.hide_session_args
        && let Some(schema) = input.as_object_mut()
    {
        hide_arguments(schema, session_args.iter().map(|(name, _)| name.as_str()));
    }
    let proposal_argument = input
        .as_object_mut()
        .filter(|_| mutating)
        .and_then(proposals::only_the_proposal_argument);
    let properties = input
        .as_object_mut()
        .map(|schema| schema.entry("properties").or_insert_with(|| json!({})))
        .and_then(Value::as_object_mut);
    let mut takes_fields = false;
    if let Some(properties) = properties
        && !properties.contains_key("fields")
    {
        properties.insert("fields".into(), fields_schema(&entry["outputSchema"]));
        takes_fields = true;
    }
    let command = command_line(program_name, entry);
    let mut listed = Map::new();
    listed.insert("name".into(), name.clone().into());
    let words = ModelWords::new(
        entry,
        &input,
        session_variables,
        proposal_argument.as_deref(),
    );
    if let Some(title) = entry.get("title") {
        listed.insert("title".into(), title.clone());
    }
    if let Some(description) = entry["description"].as_str() {
        listed.insert("description".into(), words.apply(description).into());
    }
    let mut shown_input = listed_input(&input);
    words.apply_to_descriptions(&mut shown_input);
    portable::any_schema(&mut shown_input);
    listed.insert("inputSchema".into(), shown_input);
    let mut null_is_absent = NullIsAbsent::default();
    if let Some(output) = entry.get("outputSchema").filter(|o| o.is_object()) {
        let listed_schema;
        (listed_schema, null_is_absent) = listed_output(output, mutating, takes_fields);
        listed.insert("outputSchema".into(), listed_schema);
    }
    if let Some(annotations) = entry["annotations"].as_object() {
        listed.insert(
            "annotations".into(),
            discovery::mcp_annotations(annotations),
        );
    }
    Ok(Some(Tool {
        name,
        source,
        command,
        entry: entry.clone(),
        input,
        listed: Value::Object(listed),
        mutating,
        takes_fields,
        proposal_argument,
        hidden_paths,
        stdin_argument,
        session_args,
        null_is_absent,
    }))
}

/// Remove `names` from a schema's `properties` and `required`.
fn hide_arguments<'a>(
    schema: &mut Map<String, Value>,
    names: impl Iterator<Item = &'a str> + Clone,
) {
    if let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) {
        for name in names.clone() {
            properties.remove(name);
        }
    }
    if let Some(required) = schema.get_mut("required").and_then(Value::as_array_mut) {
        required.retain(|r| !names.clone().any(|name| r == name));
    }
}

/// Keywords a `fields` projection can violate: it leaves members and array items out. A listed
/// `outputSchema` without them accepts every projection of a valid result, and still checks
/// the type and form of every value that is there.
const PROJECTION_BREAKS: &[&str] = &[
    "required",
    "minItems",
    "minProperties",
    "dependentRequired",
    "dependentSchemas",
    "minContains",
    "contains",
    "prefixItems",
    "if",
    "then",
    "else",
    "not",
];

/// Make `schema` accept every `fields` projection of a value it accepts (in place).
/// `oneOf` becomes `anyOf`: two branches may both accept a projection.
pub(crate) fn projection_safe(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            for keyword in PROJECTION_BREAKS {
                map.remove(*keyword);
            }
            if let Some(branches) = map.remove("oneOf") {
                map.insert("anyOf".into(), branches);
            }
            for (key, value) in map.iter_mut() {
                match (key.as_str(), value) {
                    ("const" | "enum" | "default" | "examples", _) => {}
                    // Maps from a name to a schema: a member may be called `required`.
                    (
                        "properties" | "patternProperties" | "$defs" | "definitions",
                        Value::Object(members),
                    ) => members.values_mut().for_each(projection_safe),
                    (_, value) => projection_safe(value),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(projection_safe),
        _ => {}
    }
}

/// The `fields` argument every tool gets, with its syntax and an example from the tool's own
/// output members in its description: many hosts do not pass the server's `instructions` on.
/// An empty list or path reaches the CLI as an empty `--fields`, which it refuses (exit 2).
fn fields_schema(output: &Value) -> Value {
    let members: Vec<&String> = output["properties"]
        .as_object()
        .into_iter()
        .flat_map(|m| m.keys())
        .take(1)
        .collect();
    let example = serde_json::to_string(&members).unwrap_or_default();
    json!({
        "type": "array",
        "items": {"type": "string"},
        "description": format!(
            "Velden, bijv. {example}, a.b, a[].b of één JSONPath"
        ),
    })
}

/// What a model reads instead of the CLI's own words: a tool's descriptions name its options as
/// flags (`--postcode`) and its session by its variable (`KVK_SESSIE_NUMMER`), which a model
/// cannot use. Only the exact tokens of the tool's own `_meta` are replaced: a flag by the
/// argument it sets (`postcode`), a global option the bridge offers as an argument (`--fields`)
/// by that argument, a session variable by "het bedrijf van de sessie".
struct ModelWords {
    /// (token, replacement), longest token first so `--per-pagina` is not read as `--per`.
    pairs: Vec<(String, String)>,
}

/// The phrase a session variable becomes.
const SESSION_WORDS: &str = "het bedrijf van de sessie";

impl ModelWords {
    /// `renamed`: the program's name of the argument the bridge offers as
    /// [`proposals::PROPOSAL_ARGUMENT`] (its flag becomes that argument).
    fn new(
        entry: &Value,
        input: &Value,
        session_variables: &[String],
        renamed: Option<&str>,
    ) -> Self {
        let mut pairs: Vec<(String, String)> = entry["_meta"]["flags"]
            .as_object()
            .into_iter()
            .flatten()
            .filter_map(|(property, flag)| {
                let argument = if Some(property.as_str()) == renamed {
                    proposals::PROPOSAL_ARGUMENT
                } else {
                    property
                };
                Some((flag.as_str()?.to_string(), argument.to_string()))
            })
            .collect();
        for property in input["properties"]
            .as_object()
            .into_iter()
            .flat_map(|p| p.keys())
        {
            let flag = format!("--{}", property.replace('_', "-"));
            if !pairs.iter().any(|(token, _)| *token == flag) {
                pairs.push((flag, property.clone()));
            }
        }
        for variable in session_variables {
            if !pairs.iter().any(|(token, _)| token == variable) {
                pairs.push((variable.clone(), SESSION_WORDS.to_string()));
            }
        }
        pairs.sort_by_key(|(token, _)| std::cmp::Reverse(token.len()));
        Self { pairs }
    }

    /// `text` with every whole token replaced (a token ends where no name character follows).
    fn apply(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        'scan: while !rest.is_empty() {
            for (token, replacement) in &self.pairs {
                if let Some(after) = rest.strip_prefix(token.as_str())
                    && !after.starts_with(|c: char| c.is_alphanumeric() || c == '-' || c == '_')
                    && !out.ends_with(|c: char| c.is_alphanumeric() || c == '-' || c == '_')
                {
                    out.push_str(replacement);
                    rest = after;
                    continue 'scan;
                }
            }
            let mut chars = rest.chars();
            if let Some(c) = chars.next() {
                out.push(c);
            }
            rest = chars.as_str();
        }
        out
    }

    /// Apply to the `description` of every property of an `inputSchema`.
    fn apply_to_descriptions(&self, schema: &mut Value) {
        let Some(properties) = schema["properties"].as_object_mut() else {
            return;
        };
        for property in properties.values_mut() {
            let array = property["type"] == "array";
            if let Some(Value::String(text)) = property.get_mut("description") {
                *text = self.apply(text);
                if array {
                    *text = without_repeatable(text);
                }
            }
        }
    }
}

/// The description of an array property without the CLI's "herhaalbaar" (the option may be
/// given more than once): a model sees the array.
fn without_repeatable(text: &str) -> String {
    text.replace("; herhaalbaar,", ";")
        .replace("; herhaalbaar", "")
}

/// The pattern a peildatum carries next to `"format": "date"` (DISC-23).
const DATE_PATTERN: &str = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$";

/// The `inputSchema` as `tools/list` shows it, without what every caller would pay for in
/// every tool while the bridge checks it itself against [`Tool::input`]: the closing
/// `additionalProperties: false` (an unknown argument is refused, 65) and the pattern of a
/// `"format": "date"` property, which says the same as the format; and a description that only
/// repeats the property's name (`plaats`: "Plaats"). Everything else is as checked.
fn listed_input(input: &Value) -> Value {
    let mut listed = input.clone();
    let Some(schema) = listed.as_object_mut() else {
        return listed;
    };
    if schema.get("additionalProperties") == Some(&Value::Bool(false)) {
        schema.remove("additionalProperties");
    }
    for property in schema
        .get_mut("properties")
        .and_then(Value::as_object_mut)
        .into_iter()
        .flat_map(|p| p.values_mut())
        .filter_map(Value::as_object_mut)
    {
        if property.get("format") == Some(&json!("date"))
            && property.get("pattern") == Some(&json!(DATE_PATTERN))
        {
            property.remove("pattern");
        }
    }
    for (name, property) in schema
        .get_mut("properties")
        .and_then(Value::as_object_mut)
        .into_iter()
        .flat_map(|p| p.iter_mut())
        .filter_map(|(name, p)| Some((name, p.as_object_mut()?)))
    {
        let says_only_the_name = property
            .get("description")
            .and_then(Value::as_str)
            .is_some_and(|text| text.to_lowercase() == name.replace('_', " "));
        if says_only_the_name {
            property.remove("description");
        }
    }
    listed
}

fn make_resource(
    resource: &Value,
    own_tools: &HashMap<String, usize>,
    tools: &[Tool],
) -> Result<Resource, String> {
    let uri_template = resource["uriTemplate"]
        .as_str()
        .ok_or("uriTemplate ontbreekt")?;
    let template = UriTemplate::parse(uri_template)
        .ok_or_else(|| format!("{uri_template} is geen RFC 6570-sjabloon van niveau 1"))?;
    let tool_name = resource["_meta"]["tool"]
        .as_str()
        .ok_or("_meta.tool ontbreekt")?;
    let &tool = own_tools
        .get(tool_name)
        .ok_or_else(|| format!("tool {tool_name} bestaat niet"))?;
    if tools[tool].mutating {
        return Err(format!("tool {tool_name} is muterend"));
    }
    let properties = &tools[tool].listed["inputSchema"]["properties"];
    if let Some(unknown) = template
        .variables()
        .into_iter()
        .find(|v| properties.get(*v).is_none())
    {
        return Err(format!("{{{unknown}}} is geen argument van {tool_name}"));
    }
    let mut listed = Map::new();
    listed.insert("uriTemplate".into(), uri_template.into());
    for key in ["name", "title", "description", "mimeType"] {
        if let Some(value) = resource.get(key) {
            listed.insert(key.into(), value.clone());
        }
    }
    listed.insert(
        "_meta".into(),
        json!({ format!("{META_PREFIX}/tool"): tools[tool].name }),
    );
    Ok(Resource {
        template,
        tool,
        listed: Value::Object(listed),
        private: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn discovery() -> Value {
        json!({
            "name": "demo-cli",
            "env": [{"name": "DEMO_KEY"}],
            "tools": [
                {"name": "ding_get", "title": "Ding", "description": "Een ding.",
                 "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
                 "outputSchema": {"type": "object"},
                 "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
                 "_meta": {"argv": ["ding", "get"], "positional": ["id"], "flags": {}}},
                {"name": "ding_maak", "description": "Maak een ding.",
                 "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}},
                 "outputSchema": {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                                  "$defs": {"x": {"type": "string"}}, "properties": {"id": {"$ref": "#/$defs/x"}}},
                 "annotations": {"readOnlyHint": false, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
                 "_meta": {"argv": ["ding", "maak"], "positional": ["id"], "flags": {}}}
            ],
            "resources": [
                {"uriTemplate": "demo://ding/{id}", "name": "ding", "mimeType": "application/json", "_meta": {"tool": "ding_get"}},
                {"uriTemplate": "demo://maak/{id}", "name": "fout", "_meta": {"tool": "ding_maak"}}
            ]
        })
    }

    #[test]
    fn prefixes_names_adds_fields_and_never_confirm() {
        let mut catalog = Catalog::default();
        let warnings = catalog.add(PathBuf::from("/x/demo-cli"), &discovery());
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("muterend"));
        let names: Vec<&str> = catalog.tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["demo__ding_get", "demo__ding_maak"]);
        let get = catalog.tool("demo__ding_get").unwrap();
        assert!(get.takes_fields && get.proposal_argument.is_none());
        assert_eq!(get.listed["inputSchema"]["required"], json!(["id"]));
        assert_eq!(get.listed["outputSchema"], json!({"type": "object"}));
        assert_eq!(get.command, "demo-cli ding get");
        assert!(get.listed.get("_meta").is_none());
        assert_eq!(
            get.listed["annotations"],
            json!({"readOnlyHint": true, "openWorldHint": false})
        );
        let maak = catalog.tool("demo__ding_maak").unwrap();
        assert!(maak.mutating && maak.proposal_argument.is_none());
        assert!(
            maak.listed["inputSchema"]["properties"]
                .get("confirm")
                .is_none()
        );
        let output = &maak.listed["outputSchema"];
        assert_eq!(output["$defs"]["x"]["type"], "string");
        assert!(output["anyOf"][0].get("$schema").is_none());
        let validator = jsonschema::validator_for(output).unwrap();
        assert!(validator.is_valid(&json!({"id": "a"})));
        assert!(!validator.is_valid(&json!({"id": 1})));
        assert!(validator.is_valid(&json!({"uitgevoerd": false, "reden": "x"})));
        assert!(validator.is_valid(
            &json!({"uitgevoerd": false, "voorstel_id": "a", "status": "open", "instructie": "x"})
        ));
        assert_eq!(catalog.resources.len(), 1);
        assert_eq!(
            catalog.resources[0].listed["_meta"]["nl.overheid/tool"],
            "demo__ding_get"
        );
    }

    #[test]
    fn descriptions_name_arguments_and_the_session_not_flags_or_variables() {
        let mut discovery = discovery();
        discovery["tools"][0] = json!({"name": "ding_zoek", "title": "Dingen zoeken",
            "description": "Zoek met --per-pagina of --fields, voor DEMO_SESSIE (niet --per of DEMO_SESSIE_X)",
            "inputSchema": {"type": "object", "properties": {
                "per_pagina": {"type": "integer", "description": "Aantal (alleen met --q)"},
                "q": {"type": "string", "description": "Standaard DEMO_SESSIE; --quiet blijft"},
                "tag": {"type": "array", "items": {"type": "string"}, "description": "Tag; herhaalbaar, met --q"},
                "soort": {"type": "array", "items": {"type": "string"}, "description": "Soort; herhaalbaar"},
                "straat_naam": {"type": "string", "description": "Straat naam"}}},
            "outputSchema": {"type": "object", "properties": {"treffers": {"type": "array"}}},
            "annotations": {"readOnlyHint": true},
            "_meta": {"argv": ["ding", "zoek"], "positional": [], "flags": {"per_pagina": "--per-pagina", "q": "--q", "tag": "--tag", "soort": "--soort"},
                      "session": {"kvk_nummer": "DEMO_SESSIE"}}});
        let mut catalog = Catalog::default();
        catalog.add(PathBuf::from("/x/demo-cli"), &discovery);
        let zoek = &catalog.tool("demo__ding_zoek").unwrap().listed;
        assert_eq!(zoek["title"], "Dingen zoeken");
        assert_eq!(
            zoek["description"],
            "Zoek met per_pagina of fields, voor het bedrijf van de sessie (niet --per of DEMO_SESSIE_X)"
        );
        let properties = &zoek["inputSchema"]["properties"];
        assert_eq!(
            properties["per_pagina"]["description"],
            "Aantal (alleen met q)"
        );
        assert_eq!(
            properties["q"]["description"],
            "Standaard het bedrijf van de sessie; --quiet blijft"
        );
        // An array is repeatable by its type: the CLI's word for it is left out.
        assert_eq!(properties["tag"]["description"], "Tag; met q");
        assert_eq!(properties["soort"]["description"], "Soort");
        // A description that only says the name is left out; the type stays.
        assert_eq!(properties["straat_naam"], json!({"type": "string"}));
        let fields = properties["fields"]["description"].as_str().unwrap();
        assert!(fields.contains(r#"bijv. ["treffers"]"#), "{fields}");
    }

    #[test]
    fn a_proposal_flag_in_a_description_becomes_the_proposal_argument() {
        let mut document = discovery();
        document["tools"][1]["description"] =
            json!("Maak een ding (of voer een goedgekeurd --voorstel uit)");
        document["tools"][1]["inputSchema"]["properties"]["voorstel"] =
            json!({"type": "string", "description": "Voer dit --voorstel uit"});
        document["tools"][1]["_meta"]["flags"] = json!({"voorstel": "--voorstel"});
        let mut catalog = Catalog::default();
        catalog.add(PathBuf::from("/x/demo-cli"), &document);
        let maak = catalog.tool("demo__ding_maak").unwrap();
        assert_eq!(maak.proposal_argument.as_deref(), Some("voorstel"));
        assert_eq!(
            maak.listed["description"],
            "Maak een ding (of voer een goedgekeurd voorstel_id uit)"
        );
        assert_eq!(
            maak.listed["inputSchema"]["properties"]["voorstel_id"]["description"],
            "Voer dit voorstel_id uit"
        );
    }

    #[test]
    fn lists_an_open_input_schema_but_checks_the_closed_one() {
        let mut document = discovery();
        document["tools"][0]["inputSchema"]["additionalProperties"] = json!(false);
        document["tools"][0]["inputSchema"]["properties"]["peildatum"] =
            json!({"type": "string", "format": "date", "pattern": DATE_PATTERN});
        let mut catalog = Catalog::default();
        catalog.add(PathBuf::from("/x/demo-cli"), &document);
        let get = catalog.tool("demo__ding_get").unwrap();
        assert!(
            get.listed["inputSchema"]
                .get("additionalProperties")
                .is_none()
        );
        assert_eq!(get.input["additionalProperties"], json!(false));
        let listed = get.listed["inputSchema"].clone();
        assert_eq!(
            listed["properties"]["peildatum"],
            json!({"type": "string", "format": "date"})
        );
        let mut relaxed = get.input.clone();
        relaxed
            .as_object_mut()
            .unwrap()
            .remove("additionalProperties");
        relaxed["properties"]["peildatum"]
            .as_object_mut()
            .unwrap()
            .remove("pattern");
        assert_eq!(listed, relaxed, "nothing else differs");
        let checked = jsonschema::validator_for(&get.input).unwrap();
        assert!(
            checked.is_valid(&json!({"id": "a", "fields": ["naam"], "peildatum": "2026-01-01"}))
        );
        assert!(!checked.is_valid(&json!({"id": "a", "verzonnen": 1})));
        assert!(!checked.is_valid(&json!({"id": "a", "peildatum": "1-1-2026"})));
    }

    #[test]
    fn skips_a_second_copy_of_a_cli() {
        let mut catalog = Catalog::default();
        catalog.add(PathBuf::from("/a/demo-cli"), &discovery());
        let warnings = catalog.add(PathBuf::from("/b/demo-cli"), &discovery());
        assert!(warnings[0].contains("overgeslagen"));
        assert_eq!(catalog.tools.len(), 2);
    }

    #[test]
    fn leaves_out_path_arguments_and_tools_that_need_one_unless_allowed() {
        let mut document = discovery();
        document["tools"][0]["inputSchema"]["properties"]["map"] =
            json!({"type": "string", "format": "path"});
        document["tools"][1]["inputSchema"]["properties"]["bestand"] =
            json!({"type": "string", "format": "path"});
        document["tools"][1]["inputSchema"]["required"] = json!(["bestand"]);
        let mut hiding = Catalog::default();
        let warnings = hiding.add(PathBuf::from("/x/demo-cli"), &document);
        // Left out by the operator's choice: nothing is wrong, so no warning at every start.
        assert!(warnings.is_empty(), "{warnings:?}");
        let names: Vec<&str> = hiding.tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["demo__ding_get"]);
        let get = &hiding.tools[0];
        assert!(get.listed["inputSchema"]["properties"].get("map").is_none());
        assert_eq!(get.hidden_paths, ["map"]);

        let mut allowing = Catalog::new(true, false);
        allowing.add(PathBuf::from("/x/demo-cli"), &document);
        assert_eq!(allowing.tools.len(), 2);
        assert!(allowing.tools[0].hidden_paths.is_empty());
        assert_eq!(
            allowing.tools[0].listed["inputSchema"]["properties"]["map"]["format"],
            "path"
        );
    }

    #[test]
    fn a_projection_safe_schema_accepts_every_projection_and_still_checks_types() {
        let mut schema = json!({
            "type": "object",
            "required": ["naam", "adressen"],
            "properties": {
                "naam": {"type": "string"},
                "required": {"type": "integer"},
                "adressen": {"type": "array", "minItems": 2, "contains": {"required": ["plaats"]},
                             "items": {"type": "object", "required": ["plaats", "postcode"],
                                       "properties": {"plaats": {"type": "string"}}}},
                "soort": {"oneOf": [{"type": "object", "required": ["a"]}, {"type": "object", "required": ["b"]}]}
            },
            "$defs": {"x": {"type": "object", "required": ["y"]}}
        });
        let original = jsonschema::validator_for(&schema).unwrap();
        let projection = json!({"adressen": [{"plaats": "Lollum"}], "soort": {"c": 1}});
        assert!(!original.is_valid(&projection));
        projection_safe(&mut schema);
        let relaxed = jsonschema::validator_for(&schema).unwrap();
        assert!(relaxed.is_valid(&projection));
        assert!(relaxed.is_valid(&json!({})));
        assert!(!relaxed.is_valid(&json!({"naam": 1})));
        assert!(!relaxed.is_valid(&json!({"adressen": [{"plaats": 2}]})));
        // A property called `required` is a property, not the keyword.
        assert!(schema["properties"]["required"].is_object());
        assert!(!relaxed.is_valid(&json!({"required": "x"})));
        assert!(schema["$defs"]["x"].get("required").is_none());
    }

    #[test]
    fn a_narrower_tool_takes_every_required_argument_and_more() {
        let tool = |name: &str, required: Value, read_only: bool| {
            json!({"name": name, "inputSchema": {"type": "object", "required": required},
                   "annotations": {"readOnlyHint": read_only},
                   "_meta": {"argv": [name], "positional": [], "flags": {}}})
        };
        let document = json!({"name": "koop-cli", "tools": [
            tool("regeling_toon", json!(["bwb_id"]), true),
            tool("regeling_artikel", json!(["bwb_id", "artikel"]), true),
            tool("regeling_versies", json!(["bwb_id"]), true),
            tool("regeling_wijzig", json!(["bwb_id", "tekst"]), false),
            tool("regeling_lijst", json!([]), true),
        ]});
        let mut catalog = Catalog::default();
        catalog.add(PathBuf::from("/x/koop-cli"), &document);
        let toon = catalog.tool("koop__regeling_toon").unwrap();
        assert_eq!(catalog.narrower(toon), ["koop__regeling_artikel"]);
        let lijst = catalog.tool("koop__regeling_lijst").unwrap();
        assert!(catalog.narrower(lijst).is_empty());
    }

    #[test]
    fn derives_the_source_prefix() {
        assert_eq!(source_prefix("kvk-cli"), "kvk");
        assert_eq!(source_prefix("regelrecht-cli"), "regelrecht");
        assert_eq!(source_prefix("mijn-ding"), "mijn_ding");
    }
}
