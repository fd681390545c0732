//! Validating a law file (`wet valideer`): its YAML, the JSON Schema of the version its
//! `$schema` declares (RegelRecht's schemas v0.2.0 to v0.5.6 in `schema/`, compiled into the
//! program and each into a validator only when a file declares it), the engine's own reading of
//! the law, and the reference engine's unit checks (RFC-023). As the reference's `validate`
//! does, a file without `$schema`, or whose `$schema` names a version that is not shipped, is
//! invalid: there is no schema to check it against. Every violation comes with its path (a JSON
//! Pointer into the file's data). A message never quotes a value from the file, but for the
//! `$schema` URL it cannot read: the path names where, the schema what was expected.

use crate::error::LoadError;
use crate::format;
use crate::origin::Origin;
use crate::parse::{parse_law, without_file_text};
use serde_json::Value;

/// RegelRecht's JSON Schemas (EUPL-1.2) as `(version, file name, JSON)`, compact and without
/// annotations (see `build.rs`): `schema.json` of every version, `annotation-schema.json` of the
/// versions that have one.
pub const SCHEMAS: &[(&str, &str, &str)] = include!(concat!(env!("OUT_DIR"), "/schemas.rs"));

/// The versions whose law schema is shipped, oldest first.
pub fn schema_versions() -> impl Iterator<Item = &'static str> {
    SCHEMAS
        .iter()
        .filter(|(_, name, _)| *name == "schema.json")
        .map(|(version, _, _)| *version)
}

/// The shipped schema `name` (`schema.json`, `annotation-schema.json`) of `version` (`v0.5.6`).
pub fn schema_json(version: &str, name: &str) -> Option<&'static str> {
    SCHEMAS
        .iter()
        .find(|(v, n, _)| *v == version && *n == name)
        .map(|(_, _, json)| *json)
}

/// `vX.Y.Z` of a version.
pub fn version_name((a, b, c): (u32, u32, u32)) -> String {
    format!("v{a}.{b}.{c}")
}

/// The longest `$schema` URL quoted in a message.
const MAX_URL_SHOWN: usize = 200;

/// The shipped version a `$schema` URL declares, or why there is none (naming the URL).
pub fn declared_version(url: &str) -> Result<&'static str, String> {
    let shown: String = url
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_URL_SHOWN)
        .collect();
    let shipped = || {
        let versions: Vec<&str> = schema_versions().collect();
        format!(
            "{} t/m {}",
            versions.first().unwrap_or(&"?"),
            versions.last().unwrap_or(&"?")
        )
    };
    let Some(version) = format::schema_version(url) else {
        return Err(format!(
            "$schema '{shown}' noemt geen schemaversie (vX.Y.Z); meegeleverd zijn {}",
            shipped()
        ));
    };
    let name = version_name(version);
    schema_versions().find(|v| *v == name).ok_or_else(|| {
        format!(
            "$schema '{shown}' noemt schemaversie {name}, die niet is meegeleverd ({})",
            shipped()
        )
    })
}

/// What a violation breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The file is no YAML.
    Yaml,
    /// The JSON Schema of the format.
    Schema,
    /// A `$schema` version this engine does not read.
    Version,
    /// The engine's reading of the law (an unknown operation, say).
    Law,
    /// A unit check (RFC-023).
    Units,
}

impl Kind {
    /// The kind as the output names it.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Yaml => "yaml",
            Kind::Schema => "schema",
            Kind::Version => "schemaversie",
            Kind::Law => "wet",
            Kind::Units => "eenheden",
        }
    }
}

/// One violation: where (a JSON Pointer, `""` for the whole file), what, and the line when
/// known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    pub kind: Kind,
    pub path: String,
    pub problem: String,
    pub line: Option<usize>,
}

/// What validating one file found.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// The law's `$id`, when the file has one.
    pub law_id: Option<String>,
    /// The `$schema` URL the file declares.
    pub schema: Option<String>,
    /// The shipped version it was validated against (`v0.5.6`), when it declares one.
    pub schema_version: Option<&'static str>,
    /// Every violation, in order: YAML, version, schema, law, units.
    pub violations: Vec<Violation>,
}

/// The compiled schemas of one run of `wet valideer`, each compiled when a file first declares
/// its version.
#[derive(Default)]
pub struct Validator {
    compiled: std::collections::HashMap<(&'static str, &'static str), jsonschema::Validator>,
}

/// The annotation schema a notes file is checked against: the one of the version its `$schema`
/// names when that version ships one, else the newest shipped (the reference's
/// `validate-annotations` checks every notes file against its newest).
pub fn annotation_schema_version(declared: Option<&str>) -> &'static str {
    let shipped = || {
        SCHEMAS
            .iter()
            .filter(|(_, name, _)| *name == ANNOTATION_SCHEMA)
            .map(|(version, _, _)| *version)
    };
    declared
        .and_then(|url| declared_version(url).ok())
        .and_then(|version| shipped().find(|v| *v == version))
        .or_else(|| shipped().next_back())
        .expect("an annotation schema is shipped")
}

/// The file name of the notes (annotation) schema.
const ANNOTATION_SCHEMA: &str = "annotation-schema.json";

/// A shipped schema compiled (draft 7, as RegelRecht's are written).
pub fn compile(json: &str) -> jsonschema::Validator {
    // The shipped schemas are tested to compile; a failure is a programming error.
    let schema: Value = serde_json::from_str(json).expect("a shipped schema is JSON");
    jsonschema::draft7::new(&schema).expect("a shipped schema compiles")
}

impl Validator {
    /// A validator that has compiled nothing yet.
    pub fn new() -> Validator {
        Validator::default()
    }

    fn schema(&mut self, version: &'static str, name: &'static str) -> &jsonschema::Validator {
        self.compiled
            .entry((version, name))
            .or_insert_with(|| compile(schema_json(version, name).expect("a shipped schema")))
    }

    /// Validates a notes file (RFC-005 stand-off notes) against the annotation schema
    /// ([`annotation_schema_version`]).
    pub fn check_notes(&mut self, text: &str) -> Report {
        let mut report = Report::default();
        let data: Value = match serde_yaml_ng::from_str(text) {
            Ok(data) => data,
            Err(e) => {
                report.violations.push(yaml_violation(&e));
                return report;
            }
        };
        report.schema = data
            .get("$schema")
            .and_then(Value::as_str)
            .map(str::to_string);
        let version = annotation_schema_version(report.schema.as_deref());
        report.schema_version = Some(version);
        for error in self.schema(version, ANNOTATION_SCHEMA).iter_errors(&data) {
            report.violations.push(Violation {
                kind: Kind::Schema,
                path: error.instance_path.to_string(),
                problem: schema_problem(&error),
                line: None,
            });
        }
        report
    }

    /// Validates one law text against the schema of the version it declares.
    pub fn check(&mut self, origin: &Origin, text: &str) -> Report {
        let mut report = Report::default();
        let data: Value = match serde_yaml_ng::from_str(text) {
            Ok(data) => data,
            Err(e) => {
                report.violations.push(yaml_violation(&e));
                return report;
            }
        };
        report.law_id = data.get("$id").and_then(Value::as_str).map(str::to_string);
        report.schema = data
            .get("$schema")
            .and_then(Value::as_str)
            .map(str::to_string);
        let version = match (data.get("$schema"), report.schema.as_deref()) {
            (None, _) => Err(
                "$schema ontbreekt: het bestand noemt zijn schemaversie niet, dus is er geen \
                 schema om het aan te toetsen"
                    .to_string(),
            ),
            (Some(_), None) => Err("$schema is geen tekst (een URL met vX.Y.Z)".to_string()),
            (Some(_), Some(url)) => declared_version(url),
        };
        match version {
            Ok(version) => {
                report.schema_version = Some(version);
                for error in self.schema(version, "schema.json").iter_errors(&data) {
                    report.violations.push(Violation {
                        kind: Kind::Schema,
                        path: error.instance_path.to_string(),
                        problem: schema_problem(&error),
                        line: None,
                    });
                }
            }
            Err(problem) => report.violations.push(Violation {
                kind: Kind::Version,
                path: "/$schema".into(),
                problem,
                line: None,
            }),
        }
        match parse_law(origin, text) {
            Err(LoadError { problem, line, .. }) => {
                // The schema names what is wrong where the engine's reading also fails.
                if !report.violations.iter().any(|v| v.kind == Kind::Schema) {
                    report.violations.push(Violation {
                        kind: Kind::Law,
                        path: String::new(),
                        problem,
                        line,
                    });
                }
            }
            Ok(law) => {
                for (index, article) in law.articles.iter().enumerate() {
                    if let Err(e) = crate::units::check_article(article) {
                        report.violations.push(Violation {
                            kind: Kind::Units,
                            path: format!("/articles/{index}/machine_readable"),
                            problem: format!("artikel {}: {e}", article.number),
                            line: None,
                        });
                    }
                }
            }
        }
        report
    }
}

fn yaml_violation(e: &serde_yaml_ng::Error) -> Violation {
    let mut problem = e.to_string();
    if let Some(pos) = problem.find(" at line ") {
        problem.truncate(pos);
    }
    Violation {
        kind: Kind::Yaml,
        path: String::new(),
        problem: format!("geen geldige YAML: {}", without_file_text(&problem)),
        line: e.location().map(|l| l.line()),
    }
}

/// What a schema error says, in Dutch, from the schema's side only (never the file's value).
fn schema_problem(error: &jsonschema::ValidationError<'_>) -> String {
    use jsonschema::error::{TypeKind, ValidationErrorKind as K};
    match &error.kind {
        K::Required { property } => format!("verplichte sleutel {property} ontbreekt"),
        K::AdditionalProperties { unexpected } => {
            format!("sleutel(s) niet in het schema: {}", unexpected.join(", "))
        }
        K::Enum { options } => format!("niet een van de toegestane waarden {options}"),
        K::Constant { expected_value } => format!("moet {expected_value} zijn"),
        K::Type {
            kind: TypeKind::Single(expected),
        } => format!("verwacht type {expected}"),
        K::Pattern { pattern } => format!("voldoet niet aan het patroon {pattern}"),
        K::Format { format } => format!("geen geldige {format}"),
        K::MinItems { limit } => format!("minstens {limit} element(en) verwacht"),
        K::MinLength { limit } => format!("minstens {limit} teken(s) verwacht"),
        K::Minimum { limit } => format!("kleiner dan het minimum {limit}"),
        K::Maximum { limit } => format!("groter dan het maximum {limit}"),
        _ => {
            let keyword = error.schema_path.to_string();
            let keyword = keyword.rsplit('/').next().unwrap_or_default().to_string();
            format!("voldoet niet aan '{keyword}' van het schema")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str) -> Report {
        Validator::new().check(&Origin::File("t.yaml".into()), text)
    }

    const LAW: &str = "$schema: https://example.org/schema/v0.5.6/schema.json\n$id: t\nregulatory_layer: WET\nbwb_id: BWBR0000001\npublication_date: '2025-01-01'\nvalid_from: '2025-01-01'\nurl: https://example.org/t\narticles:\n  - number: '1'\n    text: Tekst.\n    url: https://example.org/t/1\n";

    #[test]
    fn the_shipped_schema_compiles_and_a_small_law_passes() {
        let report = check(LAW);
        assert_eq!(report.violations, [], "{report:?}");
        assert_eq!(report.law_id.as_deref(), Some("t"));
    }

    #[test]
    fn every_violation_has_its_path_and_no_value_of_the_file() {
        let text = LAW
            .replace("regulatory_layer: WET", "regulatory_layer: GEHEIM_WOORD")
            .replace("    text: Tekst.\n", "    geheim_veld: x\n");
        let report = check(&text);
        let paths: Vec<&str> = report.violations.iter().map(|v| v.path.as_str()).collect();
        assert!(paths.contains(&"/regulatory_layer"), "{report:?}");
        assert!(paths.contains(&"/articles/0"), "{report:?}");
        for v in &report.violations {
            assert!(!v.problem.contains("GEHEIM_WOORD"), "{v:?}");
        }
    }

    #[test]
    fn every_shipped_schema_compiles() {
        let versions: Vec<&str> = schema_versions().collect();
        assert_eq!(versions.first(), Some(&"v0.2.0"));
        assert_eq!(versions.last(), Some(&"v0.5.6"));
        assert_eq!(versions.len(), 12, "{versions:?}");
        for (version, name, json) in SCHEMAS {
            compile(json);
            assert!(json.len() > 1000, "{version}/{name}");
        }
        assert_eq!(
            version_name(crate::format::NEWEST),
            *versions.last().unwrap()
        );
        assert_eq!(version_name(crate::format::OLDEST), versions[0]);
    }

    #[test]
    fn a_file_is_checked_against_the_version_it_declares() {
        let report = check(&LAW.replace("v0.5.6", "v0.3.1"));
        assert_eq!(report.schema_version, Some("v0.3.1"));
        let report = check(LAW);
        assert_eq!(report.schema_version, Some("v0.5.6"));
    }

    #[test]
    fn without_schema_or_with_an_unknown_one_a_file_is_invalid_naming_the_url() {
        let missing = check(&LAW.replace(
            "$schema: https://example.org/schema/v0.5.6/schema.json\n",
            "",
        ));
        assert_eq!(missing.violations.len(), 1, "{missing:?}");
        assert_eq!(missing.violations[0].kind, Kind::Version);
        assert!(missing.violations[0].problem.contains("ontbreekt"));
        for url in [
            "https://example.org/schema/v0.7.1/schema.json",
            "https://example.org/schema/latest/schema.json",
            "https://example.org/schema/v0.1.9/schema.json",
        ] {
            let report = check(&LAW.replace("https://example.org/schema/v0.5.6/schema.json", url));
            let versions: Vec<_> = report
                .violations
                .iter()
                .filter(|v| v.kind == Kind::Version)
                .collect();
            assert_eq!(versions.len(), 1, "{report:?}");
            assert!(versions[0].problem.contains(url), "{report:?}");
            assert_eq!(report.schema_version, None);
        }
    }

    #[test]
    fn annotations_are_gone_from_the_shipped_schemas_but_a_property_named_so_stays() {
        let json = schema_json("v0.5.6", "schema.json").unwrap();
        let schema: Value = serde_json::from_str(json).unwrap();
        fn no_annotation(value: &Value, path: &str) {
            if let Value::Object(map) = value {
                for (key, child) in map {
                    if ["properties", "definitions"].contains(&key.as_str()) {
                        for (name, schema) in child.as_object().unwrap() {
                            no_annotation(schema, &format!("{path}/{key}/{name}"));
                        }
                    } else if !["const", "enum", "default"].contains(&key.as_str()) {
                        assert!(!(key == "description" && child.is_string()), "{path}/{key}");
                        no_annotation(child, &format!("{path}/{key}"));
                    }
                }
            } else if let Value::Array(items) = value {
                for item in items {
                    no_annotation(item, path);
                }
            }
        }
        no_annotation(&schema, "");
        assert!(
            json.contains("\"description\":{"),
            "a property called description stays"
        );
    }

    #[test]
    fn notes_are_checked_against_the_annotation_schema() {
        let mut validator = Validator::new();
        let note = "$schema: https://example.org/schema/v0.5.2/annotation-schema.json\nannotations:\n  - type: Annotation\n    motivation: commenting\n    target:\n      source: regelrecht://t\n      selector: {type: TextQuoteSelector, exact: Tekst}\n    body: {type: TextualBody, value: uitleg, purpose: commenting}\n";
        let report = validator.check_notes(note);
        assert_eq!(report.violations, [], "{report:?}");
        assert_eq!(report.schema_version, Some("v0.5.2"));
        let bad =
            validator.check_notes(&note.replace("motivation: commenting", "motivation: GEHEIM"));
        assert_eq!(bad.violations.len(), 1, "{bad:?}");
        assert_eq!(bad.violations[0].path, "/annotations/0/motivation");
        assert!(!bad.violations[0].problem.contains("GEHEIM"));
        // Without $schema, or naming a version without one, the newest annotation schema.
        let undeclared = validator.check_notes("annotations: []\n");
        assert_eq!(undeclared.schema_version, Some("v0.5.3"));
        assert_eq!(
            annotation_schema_version(Some("x/v0.5.6/schema.json")),
            "v0.5.3"
        );
    }

    #[test]
    fn no_yaml_is_one_violation_with_its_line() {
        let report = check("$id: t\narticles: [\n");
        assert_eq!(report.violations.len(), 1, "{report:?}");
        assert_eq!(report.violations[0].kind, Kind::Yaml);
        assert!(report.violations[0].line.is_some());
    }
}
