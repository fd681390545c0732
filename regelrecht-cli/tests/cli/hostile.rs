//! Hostile corpus directories and files: symlink loops, FIFOs, devices, deep nesting and huge
//! files end in bounded time with a clear error (65, or 124 at the deadline); errors never echo
//! the contents of a local file; arguments naming local paths are declared as such (DISC-21).

use std::path::Path;
use std::process::Command as Process;
use std::time::{Duration, Instant};

use crate::support::{BAL, Sandbox, run};
use test_support::cli::Run;

const SMALL_LAW: &str = "$id: kleine_wet\nname: Kleine wet\nregulatory_layer: WET\nvalid_from: '2025-01-01'\narticles:\n  - number: '1'\n    text: Het bedrag is tien euro.\n    machine_readable:\n      definitions:\n        bedrag: 1000\n      execution:\n        output:\n          - name: bedrag_eurocent\n            type: amount\n        actions:\n          - output: bedrag_eurocent\n            value: $bedrag\n";

/// A value that must never appear in any output.
const CANARY: &str = "kanarie-3f9c2a7e41b8d6055e1c";

/// The run limit of a test that would hang on the old code.
const LIMIT: Duration = Duration::from_secs(20);

fn symlink(target: &Path, link: &Path) {
    std::os::unix::fs::symlink(target, link).expect("symlink");
}

fn mkfifo(path: &Path) {
    let status = Process::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success(), "mkfifo {}", path.display());
}

fn wet_lijst(sandbox: &Sandbox, dir: &Path) -> Run {
    let mut cmd = sandbox.cmd();
    cmd.timeout(LIMIT);
    let dir = dir.display().to_string();
    run(cmd, ["wet", "lijst", "--corpus", &dir])
}

#[test]
fn a_symlink_loop_in_a_corpus_is_walked_once() {
    let sandbox = Sandbox::new();
    sandbox.write("wetten/kleine_wet/2025-01-01.yaml", SMALL_LAW);
    let dir = sandbox.path().join("wetten");
    for name in ["a", "b", "c"] {
        symlink(Path::new("."), &dir.join(name));
    }
    let started = Instant::now();
    let listing = wet_lijst(&sandbox, &dir).json();
    assert!(started.elapsed() < Duration::from_secs(10));
    let small: Vec<_> = listing["wetten"]
        .as_array()
        .expect("wetten")
        .iter()
        .filter(|w| w["law_id"] == "kleine_wet")
        .collect();
    assert_eq!(small.len(), 1, "{listing}");
}

#[test]
fn a_fifo_or_device_in_a_corpus_is_65_not_a_wait() {
    let sandbox = Sandbox::new();
    let fifo_dir = sandbox.path().join("fifo");
    std::fs::create_dir_all(&fifo_dir).expect("mkdir");
    mkfifo(&fifo_dir.join("wacht.yaml"));
    let zero_dir = sandbox.path().join("zero");
    std::fs::create_dir_all(&zero_dir).expect("mkdir");
    symlink(Path::new("/dev/zero"), &zero_dir.join("nul.yaml"));
    for (dir, name) in [(fifo_dir, "wacht.yaml"), (zero_dir, "nul.yaml")] {
        let error = wet_lijst(&sandbox, &dir).error(65);
        let detail = error["detail"].as_str().expect("detail");
        assert!(detail.contains(name), "{detail}");
        assert!(detail.contains("geen gewoon bestand"), "{detail}");
    }
}

#[test]
fn a_fifo_or_device_named_as_the_corpus_is_65_not_a_wait() {
    let sandbox = Sandbox::new();
    let fifo = sandbox.path().join("wacht.yaml");
    mkfifo(&fifo);
    for path in [fifo.as_path(), Path::new("/dev/zero")] {
        let error = wet_lijst(&sandbox, path).error(65);
        assert_eq!(error["errors"][0]["pointer"], "/corpus", "{error}");
        let detail = error["detail"].as_str().expect("detail");
        assert!(
            detail.contains("geen bestaande map of wetbestand"),
            "{detail}"
        );
    }
}

#[test]
fn deeply_nested_brackets_are_65_in_linear_time() {
    let sandbox = Sandbox::new();
    let depth = 100_000;
    let text = format!(
        "$id: diep\nvalid_from: '2025-01-01'\nx: {}{}\n",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    sandbox.write("diep/diep.yaml", &text);
    let started = Instant::now();
    // The check comes before the parser (quadratic in the nesting) ever sees the text: when the
    // law is needed. A listing only scans the file's lines, in linear time too.
    wet_lijst(&sandbox, &sandbox.path().join("diep")).json();
    let dir = sandbox.path().join("diep").display().to_string();
    let mut cmd = sandbox.cmd();
    cmd.timeout(LIMIT);
    let error = run(cmd, ["wet", "toon", "diep", "--corpus", &dir]).error(65);
    assert!(started.elapsed() < Duration::from_secs(10));
    let detail = error["detail"].as_str().expect("detail");
    assert!(detail.contains("diep.yaml regel 3"), "{detail}");
    assert!(detail.contains("genest"), "{detail}");
}

#[test]
fn a_law_file_over_the_size_cap_is_65() {
    let sandbox = Sandbox::new();
    let text = format!("{SMALL_LAW}# {}\n", "x".repeat(1024 * 1024));
    sandbox.write("groot/kleine_wet.yaml", &text);
    let error = wet_lijst(&sandbox, &sandbox.path().join("groot")).error(65);
    let detail = error["detail"].as_str().expect("detail");
    assert!(detail.contains("groter dan 1048576 bytes"), "{detail}");
}

#[test]
fn a_corpus_entry_linking_to_another_file_never_echoes_it() {
    let sandbox = Sandbox::new();
    let secrets = [
        format!("API_KEY={CANARY}"),
        format!("wachtwoord: [{CANARY}]"),
        format!("{{\"token\": \"{CANARY}\", \"{CANARY}\": 1}}"),
        format!("$id: x\nvalid_to: {CANARY}\n"),
        format!("- {CANARY}\n"),
    ];
    for (index, secret) in secrets.iter().enumerate() {
        let target = sandbox.write(&format!("geheim/{index}.txt"), secret);
        let dir = sandbox.path().join(format!("corpus{index}"));
        std::fs::create_dir_all(&dir).expect("mkdir");
        symlink(&target, &dir.join("wet.yaml"));
        let outcome = wet_lijst(&sandbox, &dir);
        if secret.contains("$id") {
            let error = outcome.error(65);
            assert_eq!(error["code"], "WETBESTAND_ONGELDIG", "{secret}");
        } else {
            // Without `$id` the file is no law: passed over with a warning naming only the file.
            outcome.json_after_warnings();
            assert!(
                outcome.stderr.contains("geen wetbestand"),
                "{}",
                outcome.stderr
            );
        }
        assert!(
            !outcome.stderr.contains(CANARY) && !outcome.stdout.contains(CANARY),
            "{secret}: {}",
            outcome.stderr
        );
    }
    assert!(!sandbox.audit_text().contains(CANARY));
}

#[test]
fn param_json_errors_quote_a_short_excerpt_of_the_value() {
    let sandbox = Sandbox::new();
    let value = format!("{CANARY}{}", "y".repeat(400));
    let file = sandbox.write(
        "param.json",
        &format!("{{\"elektriciteitsverbruik_kwh\": \"{value}\"}}"),
    );
    let file = file.display().to_string();
    let outcome = sandbox.run([
        "evalueer",
        BAL,
        "--uitvoer",
        "heeft_onderzoeksplicht",
        "--param-json",
        &file,
    ]);
    let error = outcome.error(65);
    let detail = error["detail"].as_str().expect("detail");
    assert!(detail.contains("elektriciteitsverbruik_kwh"), "{detail}");
    assert!(!outcome.stderr.contains(&value[..60]), "{detail}");
    assert!(detail.contains('…'), "{detail}");
}

#[test]
fn param_json_must_be_a_regular_file() {
    let sandbox = Sandbox::new();
    let fifo = sandbox.path().join("param.fifo");
    mkfifo(&fifo);
    let fifo = fifo.display().to_string();
    let mut cmd = sandbox.cmd();
    cmd.timeout(LIMIT);
    let error = run(
        cmd,
        [
            "evalueer",
            BAL,
            "--uitvoer",
            "heeft_onderzoeksplicht",
            "--param-json",
            &fifo,
        ],
    )
    .error(65);
    assert_eq!(error["errors"][0]["pointer"], "/param_json");
    let detail = error["detail"].as_str().expect("detail");
    assert!(detail.contains("geen gewoon bestand"), "{detail}");
}

#[test]
fn path_arguments_are_declared_as_paths() {
    let sandbox = Sandbox::new();
    for tool in ["wet_lijst", "wet_toon", "evalueer"] {
        let entry = sandbox.tool_entry(tool);
        let corpus = &entry["inputSchema"]["properties"]["corpus"];
        assert_eq!(corpus["type"], "array", "{tool}");
        assert_eq!(corpus["items"]["format"], "path", "{tool}: {corpus}");
    }
    // The files and directories `wet valideer` and `scenario` read: paths too, beside the
    // `minLength` of their items (a bridge withholds them from a model, DISC-21).
    for tool in ["wet_valideer", "scenario"] {
        let entry = sandbox.tool_entry(tool);
        let paden = &entry["inputSchema"]["properties"]["paden"];
        assert_eq!(paden["items"]["format"], "path", "{tool}: {paden}");
        assert_eq!(paden["items"]["minLength"], 1, "{tool}: {paden}");
    }
    let evalueer = sandbox.tool_entry("evalueer");
    let properties = &evalueer["inputSchema"]["properties"];
    assert_eq!(properties["param_json"]["format"], "path");
    // `-` reads the same JSON object from stdin, so a bridge can offer it as a value.
    assert_eq!(properties["param_json"]["x-stdin"], true);
    assert_eq!(
        properties["param_json"]["contentMediaType"],
        "application/json"
    );
    assert_eq!(properties["param_json"]["contentSchema"]["type"], "object");
    assert_eq!(properties["batch"]["format"], "path");
    assert_eq!(properties["batch"]["x-stdin"], true);
    for (name, property) in properties.as_object().expect("properties") {
        if !["corpus", "param_json", "batch"].contains(&name.as_str()) {
            assert!(
                property.get("format") != Some(&"path".into())
                    && property["items"].get("format") != Some(&"path".into()),
                "{name} is no path"
            );
        }
    }
}
