//! Error objects the bridge makes itself, in the profile's shape (`urn:overheid-cli:problem:<CODE>`).
//!
//! Most error objects come from the CLI's stderr; the bridge only makes its own for what
//! happens before or around the child: input validation, the deadline, a child that
//! died or printed something that is not JSON.

use jsonschema::error::ValidationErrorKind;
use jsonschema::{ValidationError, Validator};
use serde_json::{Value, json};

use common::codes::{self, Code};
use common::exit::ExitStatus;
use common::trace::TraceContext;

/// A profile-shaped error object.
pub(crate) fn problem(
    code: Code,
    title: &str,
    detail: &str,
    exit: ExitStatus,
    trace: &TraceContext,
) -> Value {
    json!({
        "type": format!("urn:overheid-cli:problem:{code}"),
        "title": title,
        "detail": detail,
        "code": code.name,
        "exit_code": exit.code(),
        "instance": instance(trace),
    })
}

/// `urn:trace:<trace id>`, the `instance` of the error objects the bridge makes itself.
fn instance(trace: &TraceContext) -> String {
    format!("urn:trace:{}", trace.trace_id)
}

/// Validate `arguments`; `Some(error object)` listing every invalid argument, or `None` when valid.
pub(crate) fn check_input(
    validator: &Validator,
    arguments: &Value,
    tool: &str,
    trace: &TraceContext,
) -> Option<Value> {
    let errors: Vec<(String, String)> = validator
        .iter_errors(arguments)
        .flat_map(|error| describe(&error))
        .collect();
    (!errors.is_empty()).then(|| invalid_input(tool, &errors, trace))
}

/// Every string in `arguments` (values and member names, at any depth) that holds a NUL
/// character, as (JSON Pointer, Dutch explanation): a command line cannot carry one, so such an
/// argument is refused as input (65) before anything runs, not reported as a program that could
/// not start. `skip` is the argument passed as JSON on stdin, where a NUL stays escaped.
pub(crate) fn nul_characters(
    arguments: &serde_json::Map<String, Value>,
    skip: Option<&str>,
) -> Vec<(String, String)> {
    const WHY: &str = "bevat een NUL-teken (\\u0000); dat kan niet in een argument";
    fn walk(value: &Value, at: String, found: &mut Vec<(String, String)>) {
        match value {
            Value::String(text) if text.contains('\0') => found.push((at, WHY.into())),
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    walk(item, format!("{at}/{i}"), found);
                }
            }
            Value::Object(members) => {
                for (name, member) in members {
                    let here = format!("{at}{}", pointer(name));
                    if name.contains('\0') {
                        found.push((here.clone(), WHY.into()));
                    }
                    walk(member, here, found);
                }
            }
            _ => {}
        }
    }
    let mut found = Vec::new();
    for (name, value) in arguments
        .iter()
        .filter(|(name, _)| Some(name.as_str()) != skip)
    {
        if name.contains('\0') {
            found.push((pointer(name), WHY.into()));
        }
        walk(value, pointer(name), &mut found);
    }
    found
}

/// The error object (65) for invalid arguments of `tool`, each as (JSON Pointer, Dutch explanation).
pub(crate) fn invalid_input(
    tool: &str,
    errors: &[(String, String)],
    trace: &TraceContext,
) -> Value {
    let detail = match errors.len() {
        1 => format!("1 argument van {tool} is ongeldig."),
        n => format!("{n} argumenten van {tool} zijn ongeldig."),
    };
    let mut object = problem(
        codes::ONGELDIGE_INVOER,
        "Ongeldige invoer",
        &detail,
        ExitStatus::DataErr,
        trace,
    );
    object["errors"] = errors
        .iter()
        .map(|(pointer, detail)| json!({"pointer": pointer, "detail": detail}))
        .collect();
    object["hint"] =
        json!("Zie inputSchema van de tool; verbeter de genoemde argumenten en probeer opnieuw.");
    object
}

/// The JSON Pointer of argument `name`.
pub(crate) fn pointer(name: &str) -> String {
    format!("/{}", name.replace('~', "~0").replace('/', "~1"))
}

/// One schema violation as (JSON Pointer to the argument, Dutch explanation).
fn describe(error: &ValidationError<'_>) -> Vec<(String, String)> {
    let at = error.instance_path.as_str().to_string();
    let below = |name: &str| format!("{at}{}", pointer(name));
    match &error.kind {
        ValidationErrorKind::Required { property } => {
            let name = property.as_str().unwrap_or_default();
            vec![(below(name), "verplicht argument ontbreekt".to_string())]
        }
        ValidationErrorKind::AdditionalProperties { unexpected } => unexpected
            .iter()
            .map(|name| (below(name), "onbekend argument".to_string()))
            .collect(),
        ValidationErrorKind::Pattern { pattern } => {
            vec![(
                at,
                format!("{} past niet bij het patroon {pattern}", error.instance),
            )]
        }
        ValidationErrorKind::Enum { options } => {
            vec![(
                at,
                format!("{} is niet toegestaan; kies uit {options}", error.instance),
            )]
        }
        ValidationErrorKind::Type { .. } => {
            vec![(
                at,
                format!("{} heeft het verkeerde type ({error})", error.instance),
            )]
        }
        ValidationErrorKind::Minimum { limit }
        | ValidationErrorKind::ExclusiveMinimum { limit } => {
            vec![(
                at,
                format!("{} is te klein (minimum {limit})", error.instance),
            )]
        }
        ValidationErrorKind::Maximum { limit }
        | ValidationErrorKind::ExclusiveMaximum { limit } => {
            vec![(
                at,
                format!("{} is te groot (maximum {limit})", error.instance),
            )]
        }
        ValidationErrorKind::MinItems { limit } => {
            vec![(at, format!("minstens {limit} waarde(n) nodig"))]
        }
        ValidationErrorKind::MinLength { limit } => {
            vec![(at, format!("minstens {limit} teken(s) nodig"))]
        }
        ValidationErrorKind::MaxLength { limit } => vec![(at, format!("hoogstens {limit} tekens"))],
        _ => vec![(at, error.to_string())],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_every_invalid_argument_with_a_pointer() {
        let schema = json!({
            "type": "object",
            "properties": {"kvk_nummer": {"type": "string", "pattern": "^[0-9]{8}$"}, "geo": {"type": "boolean"}, "naam": {}},
            "required": ["naam"],
            "additionalProperties": false
        });
        let validator = jsonschema::validator_for(&schema).unwrap();
        let trace = TraceContext::start(None);
        let args = json!({"kvk_nummer": "123", "geo": "ja", "extra": 1});
        let error = check_input(&validator, &args, "kvk__x", &trace).unwrap();
        assert_eq!(error["code"], "ONGELDIGE_INVOER");
        assert_eq!(error["exit_code"], 65);
        assert_eq!(error["instance"], instance(&trace));
        let mut pointers: Vec<&str> = error["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["pointer"].as_str().unwrap())
            .collect();
        pointers.sort_unstable();
        assert_eq!(pointers, ["/extra", "/geo", "/kvk_nummer", "/naam"]);
        assert!(check_input(&validator, &json!({"naam": 1}), "kvk__x", &trace).is_none());
    }
}
