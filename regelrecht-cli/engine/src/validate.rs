//! Validating a law file (`wet valideer`): its YAML, the JSON Schema of the format (a copy of
//! RegelRecht's schema v0.5.6 in `schema/`, compiled into the program and into a validator only
//! when a file is validated), the `$schema` version this engine reads, the engine's own reading
//! of the law, and the reference engine's unit checks (RFC-023). Every violation comes with its
//! path (a JSON Pointer into the file's data). A message never quotes a value from the file:
//! the path names where, the schema what was expected.

use crate::error::LoadError;
use crate::format;
use crate::origin::Origin;
use crate::parse::{parse_law, without_file_text};
use serde_json::Value;

/// The JSON Schema of the format, v0.5.6 (RegelRecht, EUPL-1.2).
pub const SCHEMA_JSON: &str = include_str!("../schema/v0.5.6/schema.json");

/// The version of [`SCHEMA_JSON`].
pub const SCHEMA_VERSION: &str = "v0.5.6";

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
    /// Every violation, in order: YAML, version, schema, law, units.
    pub violations: Vec<Violation>,
}

/// The compiled schema; one per run of `wet valideer`, for all its files.
pub struct Validator(jsonschema::Validator);

impl Validator {
    /// Compiles [`SCHEMA_JSON`].
    pub fn new() -> Validator {
        // The shipped schema is tested to compile; a failure is a programming error.
        let schema: Value = serde_json::from_str(SCHEMA_JSON).expect("schema.json is JSON");
        Validator(jsonschema::draft7::new(&schema).expect("schema.json compiles"))
    }

    /// Validates one law text.
    pub fn check(&self, origin: &Origin, text: &str) -> Report {
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
        if let Some(problem) = report.schema.as_deref().and_then(format::schema_refusal) {
            report.violations.push(Violation {
                kind: Kind::Version,
                path: "/$schema".into(),
                problem,
                line: None,
            });
        }
        for error in self.0.iter_errors(&data) {
            report.violations.push(Violation {
                kind: Kind::Schema,
                path: error.instance_path.to_string(),
                problem: schema_problem(&error),
                line: None,
            });
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

impl Default for Validator {
    fn default() -> Validator {
        Validator::new()
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

    const LAW: &str = "$id: t\nregulatory_layer: WET\nbwb_id: BWBR0000001\npublication_date: '2025-01-01'\nvalid_from: '2025-01-01'\nurl: https://example.org/t\narticles:\n  - number: '1'\n    text: Tekst.\n    url: https://example.org/t/1\n";

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
    fn no_yaml_is_one_violation_with_its_line() {
        let report = check("$id: t\narticles: [\n");
        assert_eq!(report.violations.len(), 1, "{report:?}");
        assert_eq!(report.violations[0].kind, Kind::Yaml);
        assert!(report.violations[0].line.is_some());
    }
}
