//! Where laws come from: `--corpus`, `REGELRECHT_CORPUS`, malformed files (exit 65 naming the
//! file and line), and the `wet lijst` / `wet toon` views of them.

use serde_json::Value;

use crate::support::{
    BAL, SMALL_LAW, Sandbox, assert_valid_against, corpus_dir, evalueer_kleine_wet, output_schema,
    run,
};

#[test]
fn a_malformed_law_file_is_65_naming_file_and_line() {
    let sandbox = Sandbox::new();
    let bad = sandbox.write(
        "wetten/kapot/2025-01-01.yaml",
        "$id: kapot\nname: Kapot\nregulatory_layer: WET\nvalid_from: '2025-01-01'\narticles:\n  - number: '1'\n    text: [niet gesloten\n",
    );
    let dir = sandbox.path().join("wetten").display().to_string();
    // wet lijst reads only what it shows of each file (its scan), so it lists the law; what
    // needs the law parses it, and refuses it.
    let listed = run(sandbox.cmd(), ["wet", "lijst", "--corpus", &dir]).json();
    assert!(listed.to_string().contains("\"kapot\""), "{listed}");
    for args in [
        vec!["evalueer", "kapot", "--uitvoer", "x", "--corpus", &dir],
        vec!["wet", "toon", "kapot", "--corpus", &dir],
        vec!["wet", "valideer", &dir],
    ] {
        let run = run(sandbox.cmd(), &args);
        if args[1] == "valideer" {
            assert_eq!(run.code, 1, "{run:?}");
            assert!(run.stdout.contains("regel"), "{run:?}");
            continue;
        }
        let error = run.error(65);
        assert_eq!(error["code"], "WETBESTAND_ONGELDIG", "{args:?}");
        let detail = error["detail"].as_str().expect("detail");
        assert!(detail.contains(&bad.display().to_string()), "{detail}");
        assert!(
            detail.contains("regel 7") || detail.contains("regel 8"),
            "{detail}"
        );
        assert_eq!(error["errors"][0]["pointer"], "/corpus");
    }
}

#[test]
fn an_unknown_operation_is_reported_with_its_line() {
    let sandbox = Sandbox::new();
    let text = SMALL_LAW.replace(
        "value: $bedrag",
        "operation: VERDUBBEL\n            subject: $bedrag",
    );
    sandbox.write("w/kleine_wet.yaml", &text);
    let dir = sandbox.path().join("w").display().to_string();
    let error = run(
        sandbox.cmd(),
        [
            "evalueer",
            "kleine_wet",
            "--uitvoer",
            "bedrag_eurocent",
            "--corpus",
            &dir,
        ],
    )
    .error(65);
    let detail = error["detail"].as_str().expect("detail");
    assert!(detail.contains("kleine_wet.yaml regel"), "{detail}");
    assert!(detail.contains("VERDUBBEL"), "{detail}");
}

#[test]
fn laws_come_from_regelrecht_corpus_and_corpus() {
    test_support::conformance_dir!();
    let sandbox = Sandbox::new();
    sandbox.write("a/kleine_wet/2025-01-01.yaml", SMALL_LAW);
    let env_dir = sandbox.path().join("a");
    let mut cmd = sandbox.cmd();
    cmd.env("REGELRECHT_CORPUS", format!("{}:", env_dir.display()));
    let v = run(
        cmd,
        [
            "evalueer",
            "kleine_wet",
            "--uitvoer",
            "bedrag_eurocent",
            "--provenance",
        ],
    )
    .json();
    assert_eq!(v["data"]["uitvoer"]["bedrag_eurocent"], 1000);
    let uri = v["provenance"]["source_url"].as_str().expect("uri");
    assert!(
        uri.starts_with("file:///") && uri.ends_with("/a/kleine_wet/2025-01-01.yaml"),
        "{uri}"
    );

    let corpus = corpus_dir().display().to_string();
    let list = run(sandbox.cmd(), ["wet", "lijst", "--corpus", &corpus]).json();
    assert_valid_against(&output_schema("wet_lijst"), &list, "wet_lijst");
    let wetten = list["wetten"].as_array().expect("wetten");
    assert_eq!(list["aantal"], wetten.len());
    assert!(wetten.len() > 20);
    let bal = wetten.iter().find(|w| w["law_id"] == BAL).expect("Bal");
    assert_eq!(bal["ingebouwd"], true);
    assert_eq!(bal["bwb_id"], "BWBR0041330");
    let zorg = wetten
        .iter()
        .find(|w| w["law_id"] == "wet_op_de_zorgtoeslag")
        .expect("zorgtoeslag");
    assert_eq!(zorg["ingebouwd"], false);
    // One row per law, every version listed; `#wet_naam` resolved to the citation title.
    let ids: Vec<&Value> = wetten.iter().map(|w| &w["law_id"]).collect();
    let mut unique = ids.clone();
    unique.dedup();
    assert_eq!(ids, unique);
    assert!(list["aantal_versies"].as_u64().unwrap() > list["aantal"].as_u64().unwrap());
    let versions: Vec<&Value> = zorg["versies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| &v["valid_from"])
        .collect();
    assert_eq!(
        versions,
        [&Value::from("2024-01-01"), &Value::from("2025-01-01")]
    );
    assert_eq!(zorg["naam"], "Wet op de zorgtoeslag");
    assert!(
        wetten
            .iter()
            .all(|w| !w["naam"].as_str().unwrap_or("").starts_with('#')),
        "{wetten:?}"
    );
    assert!(
        zorg["uitvoer"]
            .as_array()
            .expect("uitvoer")
            .iter()
            .any(|o| o == "hoogte_zorgtoeslag")
    );
}

/// Version `valid_from` of `kleine_wet`, citing `bwb` and an article URL of that version.
fn small_law_version(valid_from: &str, bwb: &str, bedrag: u32) -> String {
    SMALL_LAW
        .replace("valid_from: '2025-01-01'", &format!("valid_from: '{valid_from}'\nbwb_id: {bwb}"))
        .replace(
            "    text: Het bedrag",
            &format!("    url: https://wetten.overheid.nl/{bwb}/{valid_from}#Artikel1\n    text: Het bedrag"),
        )
        .replace("bedrag: 1000", &format!("bedrag: {bedrag}"))
}

#[test]
fn the_legal_basis_cites_the_version_applied_on_the_date_not_the_newest() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "v/kleine_wet/2023-01-01.yaml",
        &small_law_version("2023-01-01", "BWBR0000023", 700),
    );
    sandbox.write(
        "v/kleine_wet/2024-01-01.yaml",
        &small_law_version("2024-01-01", "BWBR0000024", 800),
    );
    sandbox.write(
        "v/kleine_wet/2025-01-01.yaml",
        &small_law_version("2025-01-01", "BWBR0000025", 900),
    );
    let dir = sandbox.path().join("v").display().to_string();
    for (date, bwb, value) in [
        ("2023-06-01", "BWBR0000023", 700),
        ("2024-06-01", "BWBR0000024", 800),
        ("2026-06-01", "BWBR0000025", 900),
    ] {
        let v = run(
            sandbox.cmd(),
            [
                "evalueer",
                "kleine_wet",
                "--uitvoer",
                "bedrag_eurocent",
                "--peildatum",
                date,
                "--corpus",
                &dir,
            ],
        )
        .json();
        assert_eq!(v["uitvoer"]["bedrag_eurocent"], value, "{date}");
        let basis = &v["wettelijke_grondslag"][0];
        assert_eq!(basis["bwb_id"], bwb, "{date}: {basis}");
        let url = basis["url"].as_str().expect("url");
        assert!(url.contains(bwb), "{date}: {url}");
    }
}

/// `$schema` of version `version`, as the upstream corpus writes it (a folded scalar).
fn with_schema(text: &str, version: &str) -> String {
    format!(
        "---\n$schema: >-\n  https://raw.githubusercontent.com/MinBZK/regelrecht/refs/heads/main/schema/{version}/schema.json\n{text}"
    )
}

/// A checkout laid out as MinBZK/regelrecht-corpus: `regulation/nl/{layer}/{slug}/{date}.yaml`
/// with each law folder's `status.yaml` (and sometimes `.enrichment.yaml`), annotations beside,
/// CI configuration in a hidden directory, and one law in a schema version the engine does not
/// read. Returns the checkout's path.
fn upstream_checkout(sandbox: &Sandbox) -> String {
    let law = "regulation/nl/wet/kleine_wet";
    sandbox.write(
        &format!("up/{law}/2025-01-01.yaml"),
        &with_schema(SMALL_LAW, "v0.5.6"),
    );
    sandbox.write(
        &format!("up/{law}/status.yaml"),
        "---\nbwb_id: BWBR0000001\nlaw_name: Kleine wet\nslug: kleine_wet\nstatus: harvested\nwarnings:\n- 'Article 1: iets'\n",
    );
    sandbox.write(
        &format!("up/{law}/.enrichment.yaml"),
        "law_id: BWBR0000001\nprovider: opencode\ncoverage_score: 0.5\n",
    );
    let old = "$id: oud_besluit\nregulatory_layer: AMVB\nvalid_from: '1991-01-09'\nbwb_id: BWBR0000002\narticles:\n  - number: '1.1'\n    text: Alleen tekst.\n";
    sandbox.write(
        "up/regulation/nl/amvb/oud_besluit/1991-01-09.yaml",
        &with_schema(old, "v0.3.1"),
    );
    sandbox.write(
        "up/regulation/nl/amvb/oud_besluit/status.yaml",
        "---\nslug: oud_besluit\nstatus: harvested\n",
    );
    let newer = SMALL_LAW.replace("kleine_wet", "nieuwe_wet");
    sandbox.write(
        "up/regulation/nl/wet/nieuwe_wet/2025-01-01.yaml",
        &with_schema(&newer, "v0.7.1"),
    );
    sandbox.write(
        "up/annotations/kleine_wet/annotations.yaml",
        "annotations:\n  - target: kleine_wet\n    note: iets\n",
    );
    sandbox.write("up/.github/workflows/ci.yml", "on: push\njobs: {}\n");
    sandbox.write("up/features/kleine_wet.feature", "Feature: kleine wet\n");
    sandbox.path().join("up").display().to_string()
}

#[test]
fn an_upstream_corpus_checkout_loads_with_warnings_for_what_is_no_law() {
    let sandbox = Sandbox::new();
    let dir = upstream_checkout(&sandbox);
    let listed = run(sandbox.cmd(), ["wet", "lijst", "--corpus", &dir]);
    let list = listed.json_after_warnings();
    let ids: Vec<&str> = list["wetten"]
        .as_array()
        .expect("wetten")
        .iter()
        .filter_map(|w| w["law_id"].as_str())
        .collect();
    assert!(
        ids.contains(&"kleine_wet") && ids.contains(&"oud_besluit"),
        "{ids:?}"
    );
    assert!(!ids.contains(&"nieuwe_wet"), "{ids:?}");
    let warnings: Vec<&str> = listed.stderr.lines().collect();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("annotations/kleine_wet/annotations.yaml")
                && w.contains("geen wetbestand")),
        "{warnings:?}"
    );
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("nieuwe_wet/2025-01-01.yaml") && w.contains("v0.7.1")),
        "{warnings:?}"
    );
    // Status, enrichment and hidden files are passed over silently.
    for quiet in ["status.yaml", "enrichment", "ci.yml"] {
        assert!(!listed.stderr.contains(quiet), "{quiet}: {warnings:?}");
    }

    let v = evalueer_kleine_wet(&sandbox, &dir, &[]).json_after_warnings();
    assert_eq!(v["uitvoer"]["bedrag_eurocent"], 1000);
}

#[test]
fn a_schema_version_the_engine_does_not_read_is_refused_naming_it() {
    let sandbox = Sandbox::new();
    let dir = upstream_checkout(&sandbox);
    let error = run(
        sandbox.cmd(),
        [
            "evalueer",
            "nieuwe_wet",
            "--uitvoer",
            "bedrag_eurocent",
            "--peildatum",
            "2025-06-01",
            "--corpus",
            &dir,
        ],
    )
    .error_after_warnings(65);
    assert_eq!(error["code"], "WETBESTAND_ONGELDIG");
    let detail = error["detail"].as_str().expect("detail");
    assert!(
        detail.contains("v0.7.1") && detail.contains("v0.5.6"),
        "{detail}"
    );
    // Named on its own, the file is refused outright.
    let file = sandbox
        .path()
        .join("up/regulation/nl/wet/nieuwe_wet/2025-01-01.yaml")
        .display()
        .to_string();
    let error = run(sandbox.cmd(), ["wet", "lijst", "--corpus", &file]).error(65);
    assert!(
        error["detail"].as_str().expect("detail").contains("v0.7.1"),
        "{error}"
    );
    // The versions the reference reads load, from v0.2.0 on.
    for version in ["v0.2.0", "v0.5.0", "v0.5.6"] {
        let file = sandbox.write(
            &format!("{version}/kleine_wet.yaml"),
            &with_schema(SMALL_LAW, version),
        );
        let v = evalueer_kleine_wet(&sandbox, &file.display().to_string(), &[]).json();
        assert_eq!(v["uitvoer"]["bedrag_eurocent"], 1000, "{version}");
    }
}

#[test]
fn an_unknown_regulatory_layer_is_refused_naming_it() {
    let sandbox = Sandbox::new();
    let file = sandbox.write(
        "laag/kleine_wet.yaml",
        &SMALL_LAW.replace("regulatory_layer: WET", "regulatory_layer: GEMEENTEWET"),
    );
    let error = evalueer_kleine_wet(&sandbox, &file.display().to_string(), &[]).error(65);
    let detail = error["detail"].as_str().expect("detail");
    assert!(
        detail.contains("'GEMEENTEWET'") && detail.contains("regel 3"),
        "{detail}"
    );
    let file = sandbox.write(
        "laag2/kleine_wet.yaml",
        &SMALL_LAW.replace(
            "regulatory_layer: WET",
            "regulatory_layer: UITVOERINGSBELEID",
        ),
    );
    evalueer_kleine_wet(&sandbox, &file.display().to_string(), &[]).json();
}

#[test]
fn a_duplicate_version_and_a_replaced_builtin_law_are_named_in_a_warning() {
    let sandbox = Sandbox::new();
    let first = sandbox.write("een/kleine_wet.yaml", SMALL_LAW);
    let second = sandbox.write("twee/kleine_wet.yaml", &SMALL_LAW.replace("1000", "2000"));
    let (a, b) = (
        sandbox.path().join("een").display().to_string(),
        sandbox.path().join("twee").display().to_string(),
    );
    let done = evalueer_kleine_wet(&sandbox, &a, &["--corpus", &b]);
    assert_eq!(
        done.json_after_warnings()["uitvoer"]["bedrag_eurocent"],
        2000
    );
    let warning = done.stderr.trim();
    assert!(
        warning.contains(&first.display().to_string())
            && warning.contains(&second.display().to_string())
            && warning.contains("kleine_wet"),
        "{warning}"
    );

    // A file with the `$id` and `valid_from` of a built-in law replaces it, with a warning.
    let bal = include_str!("../../engine/laws/besluit_activiteiten_leefomgeving/2026-01-01.yaml");
    let file = sandbox.write("eigen/bal.yaml", bal);
    let listed = run(
        sandbox.cmd(),
        [
            "wet",
            "lijst",
            "--corpus",
            &sandbox.path().join("eigen").display().to_string(),
        ],
    );
    listed.json_after_warnings();
    assert!(
        listed.stderr.contains(&file.display().to_string())
            && listed
                .stderr
                .contains("ingebouwde wet besluit_activiteiten_leefomgeving"),
        "{}",
        listed.stderr
    );
}

#[test]
fn one_law_file_is_a_corpus_as_its_directory_is() {
    let sandbox = Sandbox::new();
    let file = sandbox.write("los/mijn-wet.yml", SMALL_LAW);
    let file = file.display().to_string();
    let dir = sandbox.path().join("los").display().to_string();
    let evaluate = |corpus: &str| evalueer_kleine_wet(&sandbox, corpus, &[]).json();
    let (from_file, from_dir) = (evaluate(&file), evaluate(&dir));
    assert_eq!(from_file["uitvoer"]["bedrag_eurocent"], 1000);
    assert_eq!(from_file, from_dir);
    let list = run(sandbox.cmd(), ["wet", "lijst", "--corpus", &file]).json();
    assert!(
        list["wetten"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w["law_id"] == "kleine_wet"),
        "{list}"
    );
}

#[test]
fn a_missing_directory_is_65_for_the_option_and_78_for_the_variable() {
    let sandbox = Sandbox::new();
    let missing = sandbox.path().join("bestaat-niet").display().to_string();
    let error = run(sandbox.cmd(), ["wet", "lijst", "--corpus", &missing]).error(65);
    assert_eq!(error["errors"][0]["pointer"], "/corpus");
    let mut cmd = sandbox.cmd();
    cmd.env("REGELRECHT_CORPUS", &missing);
    let error = run(cmd, ["wet", "lijst"]).error(78);
    assert_eq!(error["code"], "CONFIG_FOUT");
}

#[test]
fn wet_toon_describes_parameters_inputs_outputs_definitions_and_articles() {
    let v = run(
        Sandbox::new().cmd(),
        ["wet", "toon", BAL, "--peildatum", "2026-06-01"],
    )
    .json();
    assert_valid_against(&output_schema("wet_toon"), &v, "wet_toon");
    let names = |key: &str| -> Vec<String> {
        v[key]
            .as_array()
            .expect(key)
            .iter()
            .map(|f| f["naam"].as_str().expect("naam").to_string())
            .collect()
    };
    assert!(names("parameters").contains(&"elektriciteitsverbruik_kwh".to_string()));
    // Each parameter once, with the articles that use it.
    let mut unique = names("parameters");
    unique.dedup();
    assert_eq!(
        unique.len(),
        names("parameters").len(),
        "{:?}",
        names("parameters")
    );
    let param = &v["parameters"][0];
    assert_eq!(
        param["artikelen"],
        serde_json::json!(["5.15", "5.15b"]),
        "{param}"
    );
    assert_eq!(param["type"], "number");
    assert!(
        param["omschrijving"]
            .as_str()
            .expect("omschrijving")
            .contains("kWh")
    );
    let input = v["invoer"]
        .as_array()
        .expect("invoer")
        .iter()
        .find(|i| i["naam"] == "heeft_onderzoeksplicht")
        .expect("input");
    assert_eq!(input["artikel"], "5.15a");
    assert_eq!(input["bron"]["uitvoer"], "heeft_onderzoeksplicht");
    assert!(names("uitvoer").contains(&"volgende_rapportagedatum".to_string()));
    assert!(names("definities").contains(&"onderzoeksdrempel_elektriciteit_kwh".to_string()));
    let articles: Vec<&str> = v["artikelen"]
        .as_array()
        .expect("artikelen")
        .iter()
        .map(|a| a["nummer"].as_str().expect("nummer"))
        .collect();
    assert_eq!(articles, ["5.15", "5.15a", "5.15b"]);
    assert!(
        v["artikelen"][0]["tekst"]
            .as_str()
            .expect("tekst")
            .contains("kleiner is dan 50.000 kWh")
    );
}

#[test]
fn wet_toon_of_an_unknown_law_is_66() {
    let error = run(Sandbox::new().cmd(), ["wet", "toon", "geen_wet"]).error(66);
    assert!(error["hint"].as_str().expect("hint").contains("wet lijst"));
}

/// A law whose name and output are the given ones, in `valid_from` 2025.
fn named_law(id: &str, name: &str, output: &str) -> String {
    format!(
        "$id: {id}\nname: {name}\nregulatory_layer: WET\nvalid_from: '2025-01-01'\narticles:\n  - number: '1'\n    machine_readable:\n      execution:\n        output:\n          - name: {output}\n            type: number\n        actions:\n          - output: {output}\n            value: 1\n"
    )
}

#[test]
fn a_file_changed_under_the_index_is_read_again_even_with_its_size_and_time_put_back() {
    let sandbox = Sandbox::new();
    let law = sandbox.write("w/a/2025-01-01.yaml", &named_law("wet_a", "Eerste", "een"));
    sandbox.write("w/b/2025-01-01.yaml", &named_law("wet_b", "Tweede", "twee"));
    let dir = sandbox.path().join("w").display().to_string();
    let names = |data: &Value| -> Vec<String> {
        data["wetten"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|w| w["naam"].as_str().map(str::to_string))
            .collect()
    };
    let first = run(sandbox.cmd(), ["wet", "lijst", "--corpus", &dir]).json();
    assert!(names(&first).contains(&"Eerste".to_string()), "{first}");
    // Two seconds on, every stamp is settled: the index written now is believed next time.
    std::thread::sleep(std::time::Duration::from_millis(2_100));
    let settled = run(sandbox.cmd(), ["wet", "lijst", "--corpus", &dir]).json();
    assert_eq!(names(&settled), names(&first));

    // Same size and modification time, other text: the change time (which no program can set
    // back) tells, and the file is read again.
    let modified = std::fs::metadata(&law).unwrap().modified().unwrap();
    std::fs::write(&law, named_law("wet_a", "Andere", "een")).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&law)
        .unwrap()
        .set_modified(modified)
        .unwrap();
    assert_eq!(
        std::fs::metadata(&law).unwrap().modified().unwrap(),
        modified
    );
    let rewritten = run(sandbox.cmd(), ["wet", "lijst", "--corpus", &dir]).json();
    assert!(
        names(&rewritten).contains(&"Andere".to_string()),
        "{rewritten}"
    );
    assert!(
        !names(&rewritten).contains(&"Eerste".to_string()),
        "{rewritten}"
    );

    // Another modification time: read again.
    let later = modified + std::time::Duration::from_secs(5);
    std::fs::File::options()
        .write(true)
        .open(&law)
        .unwrap()
        .set_modified(later)
        .unwrap();
    let again = run(sandbox.cmd(), ["wet", "lijst", "--corpus", &dir]).json();
    assert!(names(&again).contains(&"Andere".to_string()), "{again}");
    // A law added to the directory is listed, and one removed is gone.
    sandbox.write("w/c/2025-01-01.yaml", &named_law("wet_c", "Derde", "drie"));
    std::fs::remove_file(sandbox.path().join("w/b/2025-01-01.yaml")).unwrap();
    let changed = run(sandbox.cmd(), ["wet", "lijst", "--corpus", &dir]).json();
    let changed_names = names(&changed);
    assert!(changed_names.contains(&"Derde".to_string()), "{changed}");
    assert!(!changed_names.contains(&"Tweede".to_string()), "{changed}");
    // An evaluation reads the law it needs, as it is now.
    let value = run(
        sandbox.cmd(),
        [
            "evalueer",
            "wet_a",
            "--uitvoer",
            "een",
            "--peildatum",
            "2025-06-01",
            "--corpus",
            &dir,
        ],
    )
    .json();
    assert_eq!(value["uitvoer"]["een"], 1);
}

#[test]
fn a_corpus_beyond_the_bound_is_65_naming_the_bound_and_how_to_raise_it() {
    let sandbox = Sandbox::new();
    for (id, output) in [("wet_a", "een"), ("wet_b", "twee"), ("wet_c", "drie")] {
        sandbox.write(
            &format!("w/{id}/2025-01-01.yaml"),
            &named_law(id, id, output),
        );
    }
    let dir = sandbox.path().join("w").display().to_string();
    let mut cmd = sandbox.cmd();
    cmd.env("REGELRECHT_MAX_WETBESTANDEN", "2");
    let error = run(cmd, ["wet", "lijst", "--corpus", &dir]).error(65);
    let text = error.to_string();
    assert!(text.contains("meer dan 2 wetbestanden"), "{error}");
    assert!(
        error["hint"]
            .as_str()
            .unwrap()
            .contains("REGELRECHT_MAX_WETBESTANDEN"),
        "{error}"
    );
    let mut raised = sandbox.cmd();
    raised.env("REGELRECHT_MAX_WETBESTANDEN", "3");
    let listed = run(raised, ["wet", "lijst", "--corpus", &dir]).json();
    assert_eq!(
        listed["aantal"].as_u64().unwrap(),
        3 + 2,
        "three and the built-in two"
    );
    let mut wrong = sandbox.cmd();
    wrong.env("REGELRECHT_MAX_WETBESTANDEN", "veel");
    let error = run(wrong, ["wet", "lijst", "--corpus", &dir]).error(78);
    assert!(
        error["detail"].as_str().unwrap().contains("veel"),
        "{error}"
    );
}
