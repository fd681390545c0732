//! Every member a command can print is in its output schema (issue 40 item 3, OUT-7): every
//! command of the four CLIs runs against the fakes (the KvK and KOOP fakes of `test-support`, a
//! local RVO store, regelrecht-cli's children found next to it), in the variants that print
//! different members, and its actual output is validated against the full `outputSchema` of its
//! own `--help --json` with unknown members forbidden: every object schema that lists its
//! members is closed (`additionalProperties: false` where it says nothing else), so a member the
//! schema does not name fails here, where a plain validation would let it through. A free-form map
//! (`{"type": "object"}` alone, such as a law's outputs) stays open. `evalueer --batch` prints
//! JSON Lines, each checked against `regelrecht-cli/schemas/evalueer_batch_regel.json` alike.
//!
//! Every command's `--dry-run` is then asked for every member of its plan with `--fields`
//! (FIELDS-8: the plan's own members, such as `backend`, are known), and for answers that are the
//! same twice, `--fields` with every leaf path of the answer must give the answer back (every
//! path the output has is accepted, and the shape is kept: empty lists and objects too).
//!
//! The test also fails when a command of any CLI is not run at all, so a command added later
//! cannot escape it. Runs the real binaries of this build (`cargo build -p kvk-cli -p koop-cli -p
//! rvo-cli -p regelrecht-cli` before `cargo test -p profile-check`; `cargo test --workspace`
//! builds them): a missing binary fails the test, naming the build command.
#![allow(
    clippy::too_many_lines,
    reason = "a test is one scenario read top to bottom; the lint holds production code (issue 42.5)"
)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Map, Value, json};
use test_support::{FakeServer, Mounts, koop, kvk};

/// The family's programs (`cargo metadata`: every `*-cli` package with a program).
fn tools() -> impl Iterator<Item = &'static str> {
    test_support::cli::programs().iter().map(String::as_str)
}
const KVK: &str = "68750110";
/// A date on which EBR-2027 is open.
const PEILDATUM: &str = "2026-11-30";

/// The directory of this build's binaries (this test runs as `target/<profile>/deps/…`).
fn bin_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test knows its own path");
    exe.parent()
        .and_then(|deps| deps.parent())
        .expect("the test runs from target/<profile>/deps")
        .to_path_buf()
}

/// The workspace root (`tests/conformance/../..`).
fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `schema` with every object schema that lists its members (or requires some) closed.
fn closed(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => {
            let mut out = Map::new();
            for (key, value) in map {
                // Values, not schemas: left as they are.
                let kept = matches!(key.as_str(), "const" | "enum" | "default" | "examples");
                out.insert(
                    key.clone(),
                    if kept { value.clone() } else { closed(value) },
                );
            }
            let is_object = map.get("type").is_some_and(|t| {
                t == "object"
                    || t.as_array()
                        .is_some_and(|a| a.iter().any(|t| t == "object"))
            });
            let lists_members =
                map.contains_key("properties") || (is_object && map.contains_key("required"));
            if lists_members
                && !map.contains_key("additionalProperties")
                && !map.contains_key("patternProperties")
                && !map.contains_key("unevaluatedProperties")
            {
                out.insert("additionalProperties".into(), Value::Bool(false));
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(closed).collect()),
        other => other.clone(),
    }
}

/// The problems of `instance` against `schema`, closed.
fn violations(schema: &Value, instance: &Value) -> Vec<String> {
    let closed = closed(schema);
    let validator = jsonschema::validator_for(&closed).expect("the output schema compiles");
    let mut seen = BTreeSet::new();
    validator
        .iter_errors(instance)
        .flat_map(|e| described(&e))
        .filter(|line| seen.insert(line.clone()))
        .collect()
}

/// One error, short: for `anyOf`/`oneOf`, the errors of the branch that came closest.
fn described(error: &jsonschema::ValidationError<'_>) -> Vec<String> {
    use jsonschema::error::ValidationErrorKind as Kind;
    let branches = match &error.kind {
        Kind::AnyOf { context } | Kind::OneOfNotValid { context } => context,
        _ => {
            let mut text = error.to_string();
            if let Some((cut, _)) = text.char_indices().nth(300) {
                text = format!("{}…", &text[..cut]);
            }
            return vec![format!("{}: {text}", error.instance_path)];
        }
    };
    branches
        .iter()
        .min_by_key(|errors| errors.len())
        .map(|errors| errors.iter().flat_map(described).collect())
        .unwrap_or_default()
}

/// The four CLIs with their fakes, a store and a home of their own.
struct Family {
    home: tempfile::TempDir,
    env: Vec<(String, String)>,
    /// Root discovery per program.
    discovery: BTreeMap<&'static str, Value>,
    /// Full output schema per `program tool`, asked once.
    schemas: BTreeMap<String, Value>,
    /// `program tool` of every command run.
    covered: BTreeSet<String>,
    failures: Vec<String>,
    _fake: FakeServer,
}

/// What one run printed.
struct Printed {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Family {
    fn new() -> Self {
        let dir = bin_dir();
        for tool in tools() {
            assert!(
                dir.join(tool).is_file(),
                "{tool} is missing in {}: build it first with `cargo build -p {tool}` \
                 (or run `cargo test --workspace`)",
                dir.display()
            );
        }
        let mounts = Mounts::new()
            .mount("kvk", kvk::kvk)
            .mount("koop", koop::koop);
        let fake = FakeServer::start(move |request| mounts.route(request));
        let home = tempfile::tempdir().expect("a temporary home");
        let at = |name: &str| home.path().join(name).display().to_string();
        let env = vec![
            ("HOME".into(), at("")),
            ("PATH".into(), dir.display().to_string()),
            ("RVO_DATA_DIR".into(), at("rvo")),
            ("OVERHEID_CACHE_DIR".into(), at("cache")),
            ("OVERHEID_AUDIT_LOG".into(), at("audit.jsonl")),
            ("OVERHEID_CLI_DIR".into(), dir.display().to_string()),
            ("KVK_API_BASE".into(), fake.url("/kvk")),
            ("KVK_API_KEY".into(), "test-sleutel".into()),
            ("KOOP_SRU_URL".into(), fake.url("/koop")),
            ("KOOP_REPOSITORY_URL".into(), fake.url("/koop/repository")),
        ];
        let mut family = Family {
            home,
            env,
            discovery: BTreeMap::new(),
            schemas: BTreeMap::new(),
            covered: BTreeSet::new(),
            failures: Vec::new(),
            _fake: fake,
        };
        for tool in tools() {
            let printed = family.raw(tool, &["--help", "--json"], None);
            let document = serde_json::from_str(&printed.stdout).expect("discovery is JSON");
            family.discovery.insert(tool, document);
        }
        family
    }

    fn path(&self, name: &str) -> PathBuf {
        self.home.path().join(name)
    }

    fn raw(&self, program: &str, args: &[&str], stdin: Option<&str>) -> Printed {
        use std::io::Write;
        let mut command = Command::new(bin_dir().join(program));
        command
            .env_clear()
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        let mut child = command.spawn().expect("the tool starts");
        let mut pipe = child.stdin.take().expect("stdin");
        pipe.write_all(stdin.unwrap_or("").as_bytes())
            .expect("stdin written");
        drop(pipe);
        let output = child.wait_with_output().expect("the tool runs");
        Printed {
            code: output.status.code().expect("the tool exited, not killed"),
            stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
            stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
        }
    }

    /// The tool entry of `program` whose command path is the longest prefix of `args`.
    fn entry(&self, program: &str, args: &[&str]) -> String {
        let tools = self.discovery[program]["tools"].as_array().expect("tools");
        tools
            .iter()
            .filter(|tool| {
                let argv: Vec<&str> = tool["_meta"]["argv"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                args.starts_with(&argv)
            })
            .max_by_key(|tool| tool["_meta"]["argv"].as_array().map_or(0, Vec::len))
            .and_then(|tool| tool["name"].as_str())
            .map(String::from)
            .unwrap_or_else(|| panic!("no command of {program} for {args:?}"))
    }

    /// The full output schema of `program`'s tool `name`, from its own `--help --json`.
    fn schema(&mut self, program: &str, name: &str) -> Value {
        let key = format!("{program} {name}");
        if let Some(schema) = self.schemas.get(&key) {
            return schema.clone();
        }
        let tools = self.discovery[program]["tools"].as_array().expect("tools");
        let tool = tools.iter().find(|t| t["name"] == name).expect("the tool");
        let mut argv: Vec<&str> = tool["_meta"]["argv"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        argv.extend(["--help", "--json"]);
        let printed = self.raw(program, &argv, None);
        let full: Value = serde_json::from_str(&printed.stdout).expect("a full entry");
        let schema = full["outputSchema"].clone();
        self.schemas.insert(key, schema.clone());
        schema
    }

    /// Runs `program args` (as JSON), expects one of `exits`, and checks the document it printed
    /// against its command's schema, closed. Returns the document.
    fn check(&mut self, program: &str, args: &[&str], exits: &[i32]) -> Value {
        self.check_with(program, args, None, exits)
    }

    fn check_with(
        &mut self,
        program: &str,
        args: &[&str],
        stdin: Option<&str>,
        exits: &[i32],
    ) -> Value {
        let name = self.entry(program, args);
        self.covered.insert(format!("{program} {name}"));
        let mut argv = args.to_vec();
        argv.extend(["--output", "json"]);
        let printed = self.raw(program, &argv, stdin);
        let call = format!("{program} {}", args.join(" "));
        if !exits.contains(&printed.code) {
            self.failures.push(format!(
                "{call}: exit {} (expected {exits:?}): {}",
                printed.code, printed.stderr
            ));
            return Value::Null;
        }
        let Ok(document) = serde_json::from_str::<Value>(&printed.stdout) else {
            self.failures
                .push(format!("{call}: stdout is not one JSON document"));
            return Value::Null;
        };
        let schema = self.schema(program, &name);
        for problem in violations(&schema, &document) {
            self.failures.push(format!("{call}: {problem}"));
        }
        if stdin.is_none() {
            self.dry_run_fields(program, args);
        }
        document
    }

    /// `--dry-run --fields` knows every member of the plan (FIELDS-8): selecting all of the
    /// plan's top-level members prints exactly those members.
    fn dry_run_fields(&mut self, program: &str, args: &[&str]) {
        let call = format!("{program} {} --dry-run", args.join(" "));
        let mut argv = args.to_vec();
        argv.extend(["--dry-run", "--output", "json"]);
        let plan = self.raw(program, &argv, None);
        let Ok(Value::Object(plan)) = serde_json::from_str::<Value>(&plan.stdout) else {
            self.failures
                .push(format!("{call}: no plan ({})", plan.stderr));
            return;
        };
        let members: Vec<&str> = plan.keys().map(String::as_str).collect();
        let selection = format!("--fields={}", members.join(","));
        argv.push(&selection);
        let selected = self.raw(program, &argv, None);
        let got: Vec<String> = serde_json::from_str::<Value>(&selected.stdout)
            .ok()
            .and_then(|v| v.as_object().map(|m| m.keys().cloned().collect()))
            .unwrap_or_default();
        if selected.code != 0 || got != members {
            self.failures.push(format!(
                "{call} {selection}: exit {}, members {got:?}: {}",
                selected.code, selected.stderr
            ));
        }
    }

    /// `--fields` accepts every path the output has and keeps its shape (FIELDS-3, FIELDS-6):
    /// selecting every leaf path of a document prints that document again, empty lists and
    /// objects included. For commands that answer the same twice.
    fn fields_round_trip(&mut self, program: &str, args: &[&str]) {
        let whole = self.check(program, args, &[0]);
        let mut paths = Vec::new();
        leaf_paths(&whole, "", &mut paths);
        let selection = format!("--fields={}", paths.join(","));
        let mut argv = args.to_vec();
        argv.extend(["--output", "json", &selection]);
        let selected = self.raw(program, &argv, None);
        let again = serde_json::from_str::<Value>(&selected.stdout).unwrap_or_default();
        if selected.code != 0 || again != whole {
            self.failures.push(format!(
                "{program} {} with every path of its output: exit {}, {}{}",
                args.join(" "),
                selected.code,
                selected.stderr,
                if again == whole {
                    ""
                } else {
                    "another document"
                }
            ));
        }
    }

    /// `evalueer --batch`: each printed line against the schema of one batch line, closed.
    fn check_batch(&mut self, args: &[&str], cases: &str) {
        let program = "regelrecht-cli";
        let name = self.entry(program, args);
        self.covered.insert(format!("{program} {name}"));
        let text = std::fs::read_to_string(
            workspace().join("regelrecht-cli/schemas/evalueer_batch_regel.json"),
        )
        .expect("the batch line schema");
        let schema: Value = serde_json::from_str(&text).expect("JSON");
        let printed = self.raw(program, args, Some(cases));
        let call = format!("{program} {}", args.join(" "));
        if printed.code != 1 {
            self.failures.push(format!(
                "{call}: exit {} (expected 1, one case fails)",
                printed.code
            ));
        }
        for line in printed.stdout.lines() {
            match serde_json::from_str::<Value>(line) {
                Ok(document) => {
                    for problem in violations(&schema, &document) {
                        self.failures.push(format!("{call}: {problem}"));
                    }
                }
                Err(_) => self.failures.push(format!("{call}: a line is not JSON")),
            }
        }
    }

    /// A `--dry-run` plan of `program args`, for the digest to confirm with.
    fn plan(&self, program: &str, args: &[&str]) -> Value {
        let mut argv = args.to_vec();
        argv.extend(["--dry-run", "--output", "json"]);
        let printed = self.raw(program, &argv, None);
        assert_eq!(printed.code, 0, "{program} {args:?}: {}", printed.stderr);
        serde_json::from_str(&printed.stdout).expect("a plan")
    }

    /// The commands of the family that no check ran.
    fn uncovered(&self) -> Vec<String> {
        let mut missing = Vec::new();
        for (program, document) in &self.discovery {
            for tool in document["tools"].as_array().into_iter().flatten() {
                let key = format!("{program} {}", tool["name"].as_str().unwrap_or_default());
                if !self.covered.contains(&key) {
                    missing.push(key);
                }
            }
        }
        missing
    }
}

/// The leaf paths of `value` as a `--fields` path list writes them (`a.b`, `lijst[].x`): a
/// list of objects is walked with `[]`, anything else (a scalar, an empty list or object, a list
/// of other values, a member whose name the path grammar cannot write) is a leaf, whole.
fn leaf_paths(value: &Value, prefix: &str, out: &mut Vec<String>) {
    let writable = |name: &str| {
        !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '$' | '@'))
    };
    let leaf = |out: &mut Vec<String>| {
        if !prefix.is_empty() && !out.iter().any(|p| p == prefix) {
            out.push(prefix.to_string());
        }
    };
    match value {
        Value::Object(map)
            if !map.is_empty() && (prefix.is_empty() || map.keys().all(|k| writable(k))) =>
        {
            for (name, member) in map {
                if !writable(name) {
                    continue;
                }
                let path = if prefix.is_empty() {
                    name.clone()
                } else {
                    format!("{prefix}.{name}")
                };
                leaf_paths(member, &path, out);
            }
        }
        Value::Array(items)
            if !items.is_empty()
                && items
                    .iter()
                    .all(|i| matches!(i, Value::Object(m) if !m.is_empty())) =>
        {
            for item in items {
                leaf_paths(item, &format!("{prefix}[]"), out);
            }
        }
        _ => leaf(out),
    }
}

fn text(value: &Value, key: &str) -> String {
    value[key]
        .as_str()
        .unwrap_or_else(|| panic!("no {key} in {value}"))
        .to_string()
}

fn kvk_commands(family: &mut Family) {
    let kvk = "kvk-cli";
    for args in [
        &["zoek", "--naam", "Donald"][..],
        &["zoek", "--postcode", "8823 SJ", "--huisnummer", "3"],
        &[
            "zoek",
            "--naam",
            "Donald",
            "--type",
            "hoofdvestiging",
            "--inclusief-inactief",
            "--per-pagina",
            "1",
        ],
        &["zoek", "--naam", "Donald", "--alles"],
        &["zoek", "--kvk-nummer", KVK],
        &["basisprofiel", "toon", KVK],
        &["basisprofiel", "toon", KVK, "--geo"],
        &["basisprofiel", "eigenaar", KVK, "--geo"],
        &["basisprofiel", "hoofdvestiging", KVK, "--geo"],
        &["basisprofiel", "vestigingen", KVK],
        &["vestigingsprofiel", "toon", "000037178598", "--geo"],
        &["naamgeving", "toon", KVK],
    ] {
        family.check(kvk, args, &[0]);
    }
    // Other companies of the fake: a foundation, a sole proprietorship, one without employees.
    for number in ["69599084", "69599068", "68727720"] {
        for command in [
            &["basisprofiel", "toon"][..],
            &["naamgeving", "toon"],
            &["basisprofiel", "vestigingen"],
        ] {
            let mut args = command.to_vec();
            args.push(number);
            family.check(kvk, &args, &[0]);
        }
    }
}

fn koop_commands(family: &mut Family) {
    for args in [
        &["regeling", "zoek", "zorgtoeslag"][..],
        &[
            "regeling",
            "zoek",
            "energiebesparing",
            "--type",
            "AMvB",
            "--peildatum",
            "2025-01-01",
            "--per-pagina",
            "5",
        ],
        &["regeling", "zoek", "energie", "--alles"],
        &["regeling", "toon", "BWBR0018451"],
        &[
            "regeling",
            "toon",
            "BWBR0041330",
            "--peildatum",
            "2026-01-01",
        ],
        &["regeling", "artikel", "BWBR0018451", "2"],
        &[
            "regeling",
            "artikel",
            "BWBR0041330",
            "5.15",
            "--peildatum",
            "2026-01-01",
        ],
        &[
            "regeling",
            "artikel",
            "BWBR0041330",
            "5.15a",
            "--peildatum",
            "2026-01-01",
        ],
        &["regeling", "versies", "BWBR0018451"],
        &["regeling", "versies", "BWBR0041330"],
    ] {
        family.check("koop-cli", args, &[0]);
    }
}

/// The answers that make the energy concept complete (FE4 then does not apply).
const ANSWERS: [&str; 8] = [
    "elektriciteitsverbruik_kwh=250.000",
    "aardgasverbruik_m3=31.000",
    "betreft_gebruiksfunctie_bbl=nee",
    "alleen_hernieuwbare_energie_op_locatie=nee",
    "is_activiteit_artikel_3_3a_lid_1_onder_a=nee",
    "is_activiteit_artikel_3_3a_lid_1_onder_b=nee",
    "heeft_koelinstallatie=nee",
    "heeft_afzuiginstallatie=ja",
];

fn rvo_and_concept_commands(family: &mut Family) {
    let rvo = "rvo-cli";
    for args in [
        &["regeling", "zoek", "informatieplicht"][..],
        &["regeling", "zoek", "warmtepomp", "--soort", "subsidie"],
        &["regeling", "zoek", "energie", "--status", "open"],
        &["regeling", "lijst"],
        &["regeling", "lijst", "--peildatum", "2027-01-01"],
    ] {
        family.check(rvo, args, &[0]);
    }
    for id in [
        "EBR-2027",
        "EBR-2023",
        "ONDERZOEKSPLICHT-2027",
        "EIA-2026",
        "MIA-VAMIL-2026",
        "ISDE-2026",
        "SDE-2026",
        "WBSO-2026",
    ] {
        family.check(rvo, &["regeling", "toon", id], &[0]);
    }

    // A filing confirmed at the terminal, then the same once more (replayed), its status, the list.
    let filing = [
        "rapportage",
        "indienen",
        KVK,
        "EBR-2027",
        "LED-verlichting",
        "--peildatum",
        PEILDATUM,
    ];
    let digest = text(&family.plan(rvo, &filing), "plan_digest");
    let confirm = format!("--confirm={digest}");
    let mut confirmed = filing.to_vec();
    confirmed.push(&confirm);
    let filed = family.check(rvo, &confirmed, &[0]);
    family.check(rvo, &confirmed, &[0]);
    family.check(
        rvo,
        &["rapportage", "status", &text(&filed, "referentienummer")],
        &[0],
    );

    // A proposal, shown and listed.
    let proposal = family.check(
        rvo,
        &[
            "rapportage",
            "voorstel",
            KVK,
            "EBR-2027",
            "LED-verlichting,Isolatie dak",
            "--peildatum",
            PEILDATUM,
        ],
        &[0],
    );
    family.check(rvo, &["voorstel", "toon", &text(&proposal, "id")], &[0]);
    family.check(rvo, &["voorstel", "lijst"], &[0]);
    family.check(rvo, &["voorstel", "lijst", "--status", "open"], &[0]);

    // The concept: open, then complete; checked again; a proposal and a filing from it.
    let regeling = "informatieplicht-energiebesparing";
    family.check("regelrecht-cli", &["concept", regeling, KVK], &[0]);
    let mut args = vec!["concept", regeling, KVK];
    for answer in ANSWERS {
        args.extend(["--opgave", answer]);
    }
    let concept = family.check("regelrecht-cli", &args, &[0]);
    let file = family.path("concept.json");
    std::fs::write(&file, concept.to_string()).expect("concept written");
    let file = file.display().to_string();
    family.check("regelrecht-cli", &["concept", "--toets", &file], &[0]);
    family.check_with(
        "regelrecht-cli",
        &["concept", "--toets", "-"],
        Some(&concept.to_string()),
        &[0],
    );
    let from_concept = [
        "--concept",
        &file,
        "--maatregel",
        "GF4",
        "--maatregel",
        "klokregeling verwarming",
        "--overige-maatregel",
        "Zonnepanelen op het dak",
        "--kalenderjaar",
        "2025",
        "--peildatum",
        PEILDATUM,
    ];
    let mut propose = vec!["rapportage", "voorstel"];
    propose.extend(from_concept);
    family.check(rvo, &propose, &[0]);
    let mut file_it = vec!["rapportage", "indienen"];
    file_it.extend(from_concept);
    let digest = text(&family.plan(rvo, &file_it), "plan_digest");
    let confirm = format!("--confirm={digest}");
    file_it.push(&confirm);
    let filed = family.check(rvo, &file_it, &[0]);
    family.check(
        rvo,
        &["rapportage", "status", &text(&filed, "referentienummer")],
        &[0],
    );
    family.check(rvo, &["rapportage", "lijst", KVK], &[0]);

    family.check("regelrecht-cli", &["regelingen", KVK], &[0]);
    family.check(
        "regelrecht-cli",
        &["regelingen", KVK, "--toestemming", "kvk-basisprofiel"],
        &[0],
    );
}

fn regelrecht_commands(family: &mut Family) {
    let rr = "regelrecht-cli";
    let bal = "besluit_activiteiten_leefomgeving";
    family.check(rr, &["wet", "lijst"], &[0]);
    family.check(rr, &["wet", "toon", bal, "--peildatum", "2026-01-01"], &[0]);
    family.check(
        rr,
        &["wet", "toon", "erkende_maatregelenlijst_energiebesparing"],
        &[0],
    );
    family.check(
        rr,
        &["wet", "notities", bal, "--peildatum", "2026-01-01"],
        &[0],
    );
    let scenarios = workspace()
        .join("regelrecht-cli/scenarios")
        .display()
        .to_string();
    family.check(rr, &["scenario", "--ingebouwd"], &[0]);
    family.check(rr, &["scenario", &scenarios], &[0]);
    // One valid law file, and a directory that also holds one the schema does not accept (exit 1,
    // the findings on stdout).
    let laws = workspace().join("regelrecht-cli/engine/laws");
    let valid = laws.join("besluit_activiteiten_leefomgeving/2026-01-01.yaml");
    family.check(rr, &["wet", "valideer", &valid.display().to_string()], &[0]);
    family.check(
        rr,
        &["wet", "valideer", &laws.display().to_string()],
        &[0, 1],
    );

    let evaluate = [
        "evalueer",
        bal,
        "--uitvoer",
        "heeft_onderzoeksplicht",
        "--param",
        "elektriciteitsverbruik_kwh=12000000",
        "--param",
        "aardgasverbruik_m3=31000",
        "--param",
        "betreft_gebruiksfunctie_bbl=false",
        "--param",
        "alleen_hernieuwbare_energie_op_locatie=false",
        "--param",
        "is_activiteit_artikel_3_3a_lid_1_onder_a=false",
        "--param",
        "is_activiteit_artikel_3_3a_lid_1_onder_b=false",
        "--peildatum",
        "2026-01-01",
    ];
    family.check(rr, &evaluate, &[0]);
    for extra in [
        &["--uitleg"][..],
        &["--onvertaalbaar", "propagate"],
        &["--onvertaalbaar", "warn"],
    ] {
        let mut args = evaluate.to_vec();
        args.extend(extra);
        family.check(rr, &args, &[0]);
    }
    let mut args = evaluate.to_vec();
    args.push("--ontvangstbewijs");
    let evaluated = family.check(rr, &args, &[0]);
    let receipt = family.path("ontvangstbewijs.json");
    std::fs::write(&receipt, evaluated["ontvangstbewijs"].to_string()).expect("receipt written");
    family.check(
        rr,
        &[
            "ontvangstbewijs",
            "controleer",
            &receipt.display().to_string(),
        ],
        &[0],
    );
    family.check(
        rr,
        &[
            "check",
            "energiebesparing",
            KVK,
            "--elektriciteit-kwh",
            "62000",
            "--gas-m3",
            "31000",
        ],
        &[0],
    );
    family.check(
        rr,
        &[
            "check",
            "energiebesparing",
            KVK,
            "--elektriciteit-kwh",
            "12000000",
            "--gas-m3",
            "0",
            "--peildatum",
            "2027-12-02",
        ],
        &[0],
    );
    family.check(
        rr,
        &[
            "check",
            "energiebesparing",
            KVK,
            "--elektriciteit-kwh",
            "1000",
            "--gas-m3",
            "0",
        ],
        &[0],
    );

    let params = "{\"elektriciteitsverbruik_kwh\": 60000, \"aardgasverbruik_m3\": 0, \"betreft_gebruiksfunctie_bbl\": false, \
                  \"alleen_hernieuwbare_energie_op_locatie\": false, \"is_activiteit_artikel_3_3a_lid_1_onder_a\": false, \
                  \"is_activiteit_artikel_3_3a_lid_1_onder_b\": false}";
    let cases = format!(
        "{{\"id\": 1, \"params\": {params}, \"peildatum\": \"2026-01-01\"}}\n{{\"id\": 2, \"params\": {{}}}}\n"
    );
    family.check_batch(
        &[
            "evalueer",
            bal,
            "--batch",
            "-",
            "--uitvoer",
            "heeft_informatieplicht",
        ],
        &cases,
    );
}

#[test]
fn every_command_prints_only_members_its_output_schema_names() {
    let mut family = Family::new();
    kvk_commands(&mut family);
    koop_commands(&mut family);
    rvo_and_concept_commands(&mut family);
    regelrecht_commands(&mut family);
    // `--fields` with every path of an answer gives the answer back, shape and all.
    for (program, args) in [
        ("kvk-cli", &["basisprofiel", "toon", KVK][..]),
        ("kvk-cli", &["zoek", "--naam", "Donald"]),
        ("kvk-cli", &["basisprofiel", "vestigingen", KVK]),
        (
            "koop-cli",
            &[
                "regeling",
                "artikel",
                "BWBR0041330",
                "5.15",
                "--peildatum",
                "2026-01-01",
            ],
        ),
        ("koop-cli", &["regeling", "zoek", "zorgtoeslag"]),
        ("rvo-cli", &["regeling", "lijst", "--peildatum", PEILDATUM]),
        (
            "rvo-cli",
            &["regeling", "toon", "EBR-2027", "--peildatum", PEILDATUM],
        ),
        ("rvo-cli", &["voorstel", "lijst"]),
        (
            "regelrecht-cli",
            &["wet", "toon", "besluit_activiteiten_leefomgeving"],
        ),
        (
            "regelrecht-cli",
            &[
                "check",
                "energiebesparing",
                KVK,
                "--elektriciteit-kwh",
                "62000",
                "--gas-m3",
                "31000",
            ],
        ),
        ("regelrecht-cli", &["wet", "lijst"]),
    ] {
        family.fields_round_trip(program, args);
    }
    let uncovered = family.uncovered();
    assert!(
        uncovered.is_empty(),
        "commands this test does not run (add them): {uncovered:#?}"
    );
    assert!(
        family.failures.is_empty(),
        "output outside its schema:\n{}",
        family.failures.join("\n")
    );
}

/// A receipt whose law changed since: `ontvangstbewijs controleer` prints the differences and
/// ends with exit 1. Needs a law outside the built-in corpus: RegelRecht's conformance material
/// (skipped visibly without it).
#[test]
fn a_receipt_with_differences_prints_only_members_its_schema_names() {
    let shared = test_support::conformance_dir!();
    let mut family = Family::new();
    let law =
        std::fs::read_to_string(shared.join("corpus/nl/wet/test_untranslatables/2025-01-01.yaml"))
            .expect("the conformance law");
    let dir = family.path("w/test_untranslatables");
    std::fs::create_dir_all(&dir).expect("corpus made");
    std::fs::write(dir.join("2025-01-01.yaml"), &law).expect("law written");
    let corpus = family.path("w").display().to_string();
    let evaluated = family.check(
        "regelrecht-cli",
        &[
            "evalueer",
            "test_untranslatables",
            "--uitvoer",
            "toegekende_toeslag",
            "--corpus",
            &corpus,
            "--peildatum",
            "2025-06-01",
            "--ontvangstbewijs",
        ],
        &[0],
    );
    let receipt = family.path("r.json");
    std::fs::write(&receipt, evaluated.to_string()).expect("receipt written");
    std::fs::write(
        dir.join("2025-01-01.yaml"),
        law.replace("value: 1000", "value: 1100"),
    )
    .expect("law changed");
    let changed = family.check(
        "regelrecht-cli",
        &[
            "ontvangstbewijs",
            "controleer",
            &receipt.display().to_string(),
            "--corpus",
            &corpus,
        ],
        &[1],
    );
    assert_eq!(changed["gelijk"], false, "{changed}");
    // A regulation in another domain, on laws of the corpus (one without valid_from).
    let corpus = shared.join("corpus").display().to_string();
    family.check(
        "regelrecht-cli",
        &[
            "concept",
            "erfgrensbeplanting-amsterdam",
            KVK,
            "--corpus",
            &corpus,
        ],
        &[0],
    );
    assert!(family.failures.is_empty(), "{}", family.failures.join("\n"));
}

/// The closing itself: a member the schema does not name fails, a free-form map stays open.
#[test]
fn a_closed_schema_refuses_an_unnamed_member_and_keeps_maps_open() {
    let schema = json!({
        "type": "object",
        "properties": {
            "a": {"type": "string"},
            "lijst": {"type": "array", "items": {"type": "object", "required": ["x"]}},
            "vrij": {"type": "object"},
            "waarde": {"enum": [{"b": 1}]}
        },
        "anyOf": [{"required": ["a"]}, {"required": ["lijst"]}]
    });
    assert!(
        violations(
            &schema,
            &json!({"a": "x", "vrij": {"wat": 1}, "waarde": {"b": 1}})
        )
        .is_empty()
    );
    assert!(!violations(&schema, &json!({"a": "x", "b": 1})).is_empty());
    assert!(!violations(&schema, &json!({"lijst": [{"x": 1, "y": 2}]})).is_empty());
}
