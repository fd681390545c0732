//! Loading and resolution: malformed law files name file, line and problem; versions are chosen
//! by date; cyclic references are refused with their path.

use regelrecht_engine::{
    Corpus, Engine, ErrorKind, Limits, LoadErrorKind, Origin, Request, Value, parse_iso_date,
};
use std::path::PathBuf;

fn law(id: &str, valid_from: &str, body: &str) -> String {
    format!(
        "$id: {id}\nregulatory_layer: WET\nbwb_id: BWBR9999999\npublication_date: '2020-01-01'\nvalid_from: '{valid_from}'\nurl: https://example.com/{id}\narticles:\n{body}"
    )
}

fn add(corpus: &mut Corpus, name: &str, text: String) {
    corpus
        .add_text(Origin::File(PathBuf::from(name)), text)
        .expect("law loads");
}

fn request(law_id: &str, output: &str, date: &str) -> Request {
    Request {
        law_id: law_id.into(),
        outputs: vec![output.into()],
        params: Default::default(),
        date: parse_iso_date(date).unwrap(),
    }
}

const CONSTANT: &str = "  - number: '1'\n    text: t\n    url: https://example.com/1\n    machine_readable:\n      execution:\n        output:\n          - name: waarde\n            type: number\n        actions:\n          - output: waarde\n            value: VALUE\n";

#[test]
fn yaml_syntax_error_names_file_and_line() {
    let mut corpus = Corpus::new();
    let text = law(
        "kapot",
        "2020-01-01",
        "  - number: '1'\n    text: [unclosed\n",
    );
    add(&mut corpus, "kapot.yaml", text);
    let err = corpus.parse_all().unwrap_err();
    assert_eq!(err.file, "kapot.yaml");
    assert_eq!(err.line, Some(9), "{err}");
}

#[test]
fn unknown_operation_is_a_load_error_with_line() {
    let mut corpus = Corpus::new();
    add(
        &mut corpus,
        "op.yaml",
        law(
            "op",
            "2020-01-01",
            &CONSTANT.replace("VALUE", "{operation: POWER, values: [1, 2]}"),
        ),
    );
    let err = corpus.parse_all().unwrap_err();
    assert!(err.problem.contains("POWER"), "{err}");
    assert!(err.line.is_some_and(|l| l >= 8), "{err}");
    // Evaluation reaching the file reports the same problem.
    let eval_err = Engine::new(&corpus)
        .evaluate(&request("op", "waarde", "2021-01-01"))
        .unwrap_err();
    assert!(matches!(eval_err.kind, ErrorKind::Load(_)), "{eval_err}");
}

#[test]
fn missing_required_key_and_bad_type_are_load_errors() {
    let mut corpus = Corpus::new();
    add(
        &mut corpus,
        "geen_layer.yaml",
        "$id: x\npublication_date: '2020-01-01'\narticles: []\n".to_string(),
    );
    let err = corpus.parse_all().unwrap_err();
    assert!(err.problem.contains("regulatory_layer"), "{err}");

    let mut corpus = Corpus::new();
    add(
        &mut corpus,
        "type.yaml",
        law(
            "t",
            "2020-01-01",
            &CONSTANT
                .replace("type: number", "type: getal")
                .replace("VALUE", "1"),
        ),
    );
    let err = corpus.parse_all().unwrap_err();
    // The line and the allowed values; the file's own text is not quoted.
    assert!(
        err.problem.contains("unknown variant")
            && err.problem.contains("`number`")
            && !err.problem.contains("getal")
            && err.line == Some(15),
        "{err}"
    );
}

#[test]
fn invalid_valid_to_is_refused_at_load() {
    let mut corpus = Corpus::new();
    let text = law("t", "2020-01-01", &CONSTANT.replace("VALUE", "1")).replacen(
        "url:",
        "valid_to: '2020-13-01'\nurl:",
        1,
    );
    let err = corpus
        .add_text(Origin::File(PathBuf::from("t.yaml")), text)
        .unwrap_err();
    assert_eq!(err.line, Some(6), "{err}");
}

#[test]
fn version_in_force_on_the_date_is_chosen() {
    let mut corpus = Corpus::new();
    add(
        &mut corpus,
        "v1.yaml",
        law("v", "2020-01-01", &CONSTANT.replace("VALUE", "1")),
    );
    add(
        &mut corpus,
        "v2.yaml",
        law("v", "2024-01-01", &CONSTANT.replace("VALUE", "2")),
    );
    let engine = Engine::new(&corpus);
    assert_eq!(
        engine
            .evaluate(&request("v", "waarde", "2023-12-31"))
            .unwrap()
            .outputs["waarde"],
        Value::int(1)
    );
    assert_eq!(
        engine
            .evaluate(&request("v", "waarde", "2024-01-01"))
            .unwrap()
            .outputs["waarde"],
        Value::int(2)
    );
    let err = engine
        .evaluate(&request("v", "waarde", "2019-12-31"))
        .unwrap_err();
    assert!(matches!(err.kind, ErrorKind::LawNotInForce { .. }), "{err}");
}

#[test]
fn ended_law_is_refused_after_valid_to() {
    let mut corpus = Corpus::new();
    let text = law("e", "2020-01-01", &CONSTANT.replace("VALUE", "1")).replacen(
        "url:",
        "valid_to: '2022-12-31'\nurl:",
        1,
    );
    add(&mut corpus, "e.yaml", text);
    let engine = Engine::new(&corpus);
    let r = engine.evaluate(&request("e", "waarde", "2022-12-31"));
    assert!(r.is_ok(), "{:?}", r.err().map(|e| e.to_string()));
    assert!(matches!(
        engine
            .evaluate(&request("e", "waarde", "2023-01-01"))
            .unwrap_err()
            .kind,
        ErrorKind::LawEnded { .. }
    ));
}

fn referring(output: &str, input: &str, regulation: Option<&str>) -> String {
    let regulation = regulation.map_or(String::new(), |r| {
        format!("\n              regulation: {r}")
    });
    format!(
        "  - number: '{output}'\n    text: t\n    url: https://example.com/{output}\n    machine_readable:\n      execution:\n        input:\n          - name: {input}\n            type: number\n            source:{regulation}\n              output: {input}\n        output:\n          - name: {output}\n            type: number\n        actions:\n          - output: {output}\n            value: {{operation: ADD, values: [${input}, 1]}}\n"
    )
}

#[test]
fn cyclic_internal_references_are_refused_with_their_path() {
    let mut corpus = Corpus::new();
    add(
        &mut corpus,
        "c.yaml",
        law(
            "c",
            "2020-01-01",
            &format!("{}{}", referring("a", "b", None), referring("b", "a", None)),
        ),
    );
    let err = Engine::new(&corpus)
        .evaluate(&request("c", "a", "2021-01-01"))
        .unwrap_err();
    let ErrorKind::Cycle { path } = &err.kind else {
        panic!("expected a cycle, got {err}")
    };
    assert_eq!(path, &["c#b", "c#a", "c#b"]);
}

#[test]
fn cyclic_cross_law_references_are_refused() {
    let mut corpus = Corpus::new();
    add(
        &mut corpus,
        "x.yaml",
        law("x", "2020-01-01", &referring("p", "q", Some("y"))),
    );
    add(
        &mut corpus,
        "y.yaml",
        law("y", "2020-01-01", &referring("q", "p", Some("x"))),
    );
    let err = Engine::new(&corpus)
        .evaluate(&request("x", "p", "2021-01-01"))
        .unwrap_err();
    assert!(matches!(err.kind, ErrorKind::Cycle { .. }), "{err}");
}

#[test]
fn add_dir_reads_nested_yaml_and_reports_bad_files() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("wet/a")).unwrap();
    std::fs::write(
        dir.path().join("wet/a/2020-01-01.yaml"),
        law("a", "2020-01-01", &CONSTANT.replace("VALUE", "7")),
    )
    .unwrap();
    std::fs::write(dir.path().join("wet/a/notes.txt"), "geen wet").unwrap();
    let mut corpus = Corpus::new();
    assert_eq!(corpus.add_dir(dir.path()).unwrap(), 1);
    assert_eq!(
        Engine::new(&corpus)
            .evaluate(&request("a", "waarde", "2021-01-01"))
            .unwrap()
            .outputs["waarde"],
        Value::int(7)
    );

    // YAML without `$id` is no law: skipped with a warning naming it; so are each law folder's
    // `status.yaml` and hidden files, without one.
    std::fs::write(dir.path().join("wet/a/status.yaml"), "status: harvested\n").unwrap();
    std::fs::write(dir.path().join("wet/a/.enrichment.yaml"), "provider: x\n").unwrap();
    std::fs::write(dir.path().join("wet/geen.yaml"), "articles: [\n").unwrap();
    let mut corpus = Corpus::new();
    assert_eq!(corpus.add_dir(dir.path()).unwrap(), 1);
    assert_eq!(corpus.warnings().len(), 1, "{:?}", corpus.warnings());
    assert!(
        corpus.warnings()[0].contains("geen.yaml"),
        "{:?}",
        corpus.warnings()
    );

    std::fs::write(
        dir.path().join("wet/kapot.yaml"),
        "$id: kapot\narticles: [\n",
    )
    .unwrap();
    let mut corpus = Corpus::new();
    corpus.add_dir(dir.path()).unwrap();
    let err = corpus.parse_all().unwrap_err();
    assert!(
        err.file.ends_with("kapot.yaml") && err.line.is_some(),
        "{err}"
    );
}

fn corpus_with(limits: Limits) -> Corpus {
    let mut corpus = Corpus::new();
    corpus.set_limits(limits);
    corpus
}

fn write_laws(dir: &std::path::Path, count: usize) {
    for i in 0..count {
        let id = format!("w{i}");
        std::fs::write(
            dir.join(format!("{id}.yaml")),
            law(&id, "2020-01-01", &CONSTANT.replace("VALUE", "1")),
        )
        .unwrap();
    }
}

#[test]
fn loading_stops_at_the_deadline() {
    let dir = tempfile::tempdir().unwrap();
    write_laws(dir.path(), 1);
    let mut corpus = corpus_with(Limits {
        deadline: Some(std::time::Instant::now()),
        ..Limits::default()
    });
    let err = corpus.add_dir(dir.path()).unwrap_err();
    assert_eq!(err.kind, LoadErrorKind::Deadline, "{err}");

    // A file added before the deadline is not parsed after it.
    let mut corpus = corpus_with(Limits {
        deadline: Some(std::time::Instant::now() + std::time::Duration::from_millis(200)),
        ..Limits::default()
    });
    corpus.add_dir(dir.path()).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(250));
    let err = corpus.parse_all().unwrap_err();
    assert_eq!(err.kind, LoadErrorKind::Deadline, "{err}");
}

#[test]
fn the_number_of_files_and_the_directory_depth_are_capped() {
    let dir = tempfile::tempdir().unwrap();
    write_laws(dir.path(), 4);
    let limits = Limits {
        max_files: 3,
        ..Limits::default()
    };
    let err = corpus_with(limits).add_dir(dir.path()).unwrap_err();
    assert!(err.problem.contains("meer dan 3 wetbestanden"), "{err}");
    // The cap holds over several directories too.
    let other = tempfile::tempdir().unwrap();
    write_laws(other.path(), 2);
    let mut corpus = corpus_with(Limits {
        max_files: 5,
        ..Limits::default()
    });
    corpus.add_dir(dir.path()).unwrap();
    assert!(corpus.add_dir(other.path()).is_err());

    let deep = tempfile::tempdir().unwrap();
    let mut path = deep.path().to_path_buf();
    for level in 0..4 {
        path.push(format!("n{level}"));
    }
    std::fs::create_dir_all(&path).unwrap();
    write_laws(&path, 1);
    let shallow = Limits {
        max_dir_depth: 3,
        ..Limits::default()
    };
    let err = corpus_with(shallow).add_dir(deep.path()).unwrap_err();
    assert!(err.problem.contains("dieper dan 3"), "{err}");
    assert_eq!(
        corpus_with(Limits::default()).add_dir(deep.path()).unwrap(),
        1
    );
}

#[test]
fn parse_errors_do_not_quote_the_file() {
    let canary = "kanarie-7d1e";
    for text in [
        format!("{canary}\n"),
        format!("\"{canary}\"\n"),
        format!("$id: x\n{canary}: 1\n"),
        format!("$id: x\nregulatory_layer: {canary}\n"),
        format!("$id: x\nvalid_from: '{canary}'\n"),
    ] {
        let mut corpus = Corpus::new();
        let problem = match corpus.add_text(Origin::File("w.yaml".into()), text.clone()) {
            Err(e) => e.to_string(),
            Ok(()) => corpus.parse_all().unwrap_err().to_string(),
        };
        assert!(!problem.contains(canary), "{text:?}: {problem}");
    }
    // Names from the law format itself stay.
    let mut corpus = Corpus::new();
    corpus
        .add_text(Origin::File("w.yaml".into()), "$id: x\n".into())
        .unwrap();
    let err = corpus.parse_all().unwrap_err();
    assert!(
        err.problem.contains("missing field `regulatory_layer`"),
        "{err}"
    );
}
