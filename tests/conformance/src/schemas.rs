//! The profile's JSON Schemas, embedded from `spec/schemas/` so the checker needs no files and no network.

use std::sync::OnceLock;

use jsonschema::Validator;
use serde_json::Value;

/// Every profile schema, compiled once.
pub(crate) struct Schemas {
    pub discovery: Validator,
    pub tool: Validator,
    pub error: Validator,
    pub plan: Validator,
    pub envelope: Validator,
    pub audit: Validator,
}

const DISCOVERY: &str = include_str!("../../../spec/schemas/discovery.schema.json");
const TOOL: &str = include_str!("../../../spec/schemas/tool.schema.json");
const ERROR: &str = include_str!("../../../spec/schemas/error.schema.json");
const PLAN: &str = include_str!("../../../spec/schemas/plan.schema.json");
const ENVELOPE: &str = include_str!("../../../spec/schemas/envelope.schema.json");
const AUDIT: &str = include_str!("../../../spec/schemas/audit-record.schema.json");

fn compile(text: &str) -> Validator {
    let schema: Value = serde_json::from_str(text).expect("embedded profile schema is JSON");
    jsonschema::draft202012::new(&schema).expect("embedded profile schema compiles")
}

/// The compiled schemas (compiled on first use).
pub(crate) fn schemas() -> &'static Schemas {
    static SCHEMAS: OnceLock<Schemas> = OnceLock::new();
    SCHEMAS.get_or_init(|| Schemas {
        discovery: compile(DISCOVERY),
        tool: compile(TOOL),
        error: compile(ERROR),
        plan: compile(PLAN),
        envelope: compile(ENVELOPE),
        audit: compile(AUDIT),
    })
}

/// Why `value` does not validate (at most three reasons), or `None` when it does.
pub(crate) fn violations(validator: &Validator, value: &Value) -> Option<String> {
    let reasons: Vec<String> = validator
        .iter_errors(value)
        .take(3)
        .map(|error| {
            format!(
                "{}: {}",
                pointer_or_root(&error.instance_path.to_string()),
                error
            )
        })
        .collect();
    (!reasons.is_empty()).then(|| reasons.join("; "))
}

fn pointer_or_root(pointer: &str) -> &str {
    if pointer.is_empty() { "/" } else { pointer }
}

/// Compile `schema` as a JSON Schema 2020-12 document; the error says why it is not one.
pub(crate) fn compile_user_schema(schema: &Value) -> Result<Validator, String> {
    jsonschema::draft202012::new(schema).map_err(|error| error.to_string())
}
