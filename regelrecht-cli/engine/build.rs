//! The built-in laws as JSON, next to their YAML: every `check` call evaluates the built-in
//! Bal, and reading its YAML (libyaml, through serde) was over half of such a call's
//! instructions. JSON with the same data model reads several times faster. The YAML stays
//! the source (its text is what `regulation_sha256` and receipts name); a test checks that
//! both forms give the same law. Also which cross-law keys each built-in law names, so that
//! indexing them scans no text. And RegelRecht's JSON Schemas (`schema/vX.Y.Z/*.json`), compact
//! and without their annotations (`description`, `examples`, `title`, `$comment`), which do not
//! take part in validation: a third of the size in the program.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    #[allow(
        clippy::disallowed_methods,
        reason = "build scripts get their paths from cargo"
    )]
    let (manifest_dir, out_dir) = (
        std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"),
        std::env::var("OUT_DIR").expect("OUT_DIR"),
    );
    let laws = Path::new(&manifest_dir).join("laws");
    println!("cargo:rerun-if-changed={}", laws.display());
    let mut files = Vec::new();
    for dir in std::fs::read_dir(&laws).expect("laws/ is readable") {
        let dir = dir.expect("laws/ entry").path();
        println!("cargo:rerun-if-changed={}", dir.display());
        for file in std::fs::read_dir(&dir).expect("law directory is readable") {
            let path = file.expect("law file").path();
            if path.extension().is_some_and(|ext| ext == "yaml") {
                files.push(path);
            }
        }
    }
    files.sort();
    let mut code = String::from("&[\n");
    let mut declares = String::from("&[\n");
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path
            .strip_prefix(&laws)
            .expect("under laws/")
            .to_str()
            .expect("UTF-8 name");
        let yaml = std::fs::read_to_string(path).expect("law file is readable");
        let value: serde_json::Value = serde_yaml_ng::from_str(&yaml)
            .unwrap_or_else(|e| panic!("built-in law {name} is not YAML: {e}"));
        let json = serde_json::to_string(&value).expect("JSON");
        writeln!(code, "    ({name:?}, {json:?}),").expect("write");
        // The keys of `load::Declares::KEYS` (a test checks the two agree).
        let keys =
            ["implements:", "hooks:", "overrides:", "procedure:"].map(|key| yaml.contains(key));
        writeln!(declares, "    ({name:?}, {keys:?}),").expect("write");
    }
    code.push(']');
    declares.push(']');
    let out = Path::new(&out_dir);
    std::fs::write(out.join("builtin_json.rs"), code).expect("OUT_DIR writable");
    std::fs::write(out.join("builtin_declares.rs"), declares).expect("OUT_DIR writable");
    schemas(Path::new(&manifest_dir).join("schema").as_path(), out);
}

/// `schemas.rs`: `&[(version, file name, compact JSON)]` for every `schema/vX.Y.Z/*.json`.
fn schemas(dir: &Path, out: &Path) {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files = Vec::new();
    for version in std::fs::read_dir(dir).expect("schema/ is readable") {
        let version = version.expect("schema/ entry").path();
        println!("cargo:rerun-if-changed={}", version.display());
        for file in std::fs::read_dir(&version).expect("schema version is readable") {
            let path = file.expect("schema file").path();
            if path.extension().is_some_and(|ext| ext == "json") {
                files.push(path);
            }
        }
    }
    files.sort();
    let mut code = String::from("&[\n");
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let version = path
            .parent()
            .and_then(Path::file_name)
            .and_then(|n| n.to_str())
            .expect("UTF-8 version");
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .expect("UTF-8 name");
        let text = std::fs::read_to_string(path).expect("schema is readable");
        let schema: serde_json::Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
        let json = serde_json::to_string(&without_annotations(schema)).expect("JSON");
        writeln!(code, "    ({version:?}, {name:?}, {json:?}),").expect("write");
    }
    code.push(']');
    std::fs::write(out.join("schemas.rs"), code).expect("OUT_DIR writable");
}

/// A schema without the keywords that only annotate. The members of a map of names
/// (`properties`, `definitions`, ...) are schemas whatever their names, so a property called
/// `description` stays; values (`const`, `enum`, `default`) are kept as they are.
fn without_annotations(schema: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    const NAMES: [&str; 5] = [
        "properties",
        "definitions",
        "$defs",
        "patternProperties",
        "dependencies",
    ];
    const ANNOTATIONS: [&str; 4] = ["description", "examples", "title", "$comment"];
    const VALUES: [&str; 3] = ["const", "enum", "default"];
    match schema {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(key, value)| !ANNOTATIONS.contains(&key.as_str()) || value.is_object())
                .map(|(key, value)| {
                    let value = match value {
                        Value::Object(names) if NAMES.contains(&key.as_str()) => Value::Object(
                            names
                                .into_iter()
                                .map(|(name, child)| (name, without_annotations(child)))
                                .collect(),
                        ),
                        value if VALUES.contains(&key.as_str()) => value,
                        other => without_annotations(other),
                    };
                    (key, value)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(without_annotations).collect()),
        other => other,
    }
}
