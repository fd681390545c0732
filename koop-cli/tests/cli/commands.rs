//! Every command on its happy path, against the fake KOOP: output shapes (OUT-7), the peildatum
//! choosing the version, deduplication, zero hits (OUT-8) and not-found ids (EXIT-6).

use serde_json::{Value, json};

use crate::support::{KoopFake, Sandbox, data, run};

fn artikel<'a>(law: &'a Value, nummer: &str) -> &'a Value {
    law["artikelen"]
        .as_array()
        .expect("artikelen")
        .iter()
        .find(|a| a["nummer"] == nummer)
        .unwrap_or_else(|| panic!("artikel {nummer} ontbreekt"))
}

#[test]
fn zoek_deduplicates_and_pages() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    let args = [
        "regeling",
        "zoek",
        "voorbeeld",
        "--peildatum",
        "2025-06-01",
        "--per-pagina",
        "3",
    ];
    let result = data(&run(sandbox.cmd(&fake), args), "regeling_zoek");
    assert_eq!(result["totaal"], 5);
    assert_eq!(result["volgende_start"], 4);
    assert_eq!(result["peildatum"], "2025-06-01");
    assert_eq!(
        result["zoekopdracht"],
        r#"overheidbwb.titel all "voorbeeld" and overheidbwb.geldigheidsdatum=2025-06-01"#
    );
    let ids: Vec<&str> = result["resultaten"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["bwb_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["BWBR9900001", "BWBR9900002"], "one result per law");
    let first = &result["resultaten"][0];
    assert_eq!(first["titel"], "Wet op de voorbeeldtoeslag");
    assert_eq!(first["type"], "wet");
    assert_eq!(first["geldig_tot"], Value::Null);
    assert_eq!(
        first["wetten_url"],
        "https://wetten.overheid.nl/BWBR9900001/2025-06-01"
    );
    assert!(
        first["toestand_url"]
            .as_str()
            .unwrap()
            .starts_with(&fake.repository_url()),
        "the correction _1 of the same date wins: {first}"
    );
    let request = &fake.requests()[0];
    assert_eq!(request.query_param("x-connection"), Some("BWB"));
    assert_eq!(request.query_param("maximumRecords"), Some("3"));
    assert_eq!(request.query_param("startRecord"), Some("1"));
}

/// CONV-5: `--pagina` counts pages of `--per-pagina` (SRU `startRecord`), the old `--start/--max`
/// keep their meaning, and `--alles` reads the pages one after another.
#[test]
fn zoek_pages_by_pagina_and_alles_reads_every_page() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    let base = ["regeling", "zoek", "voorbeeld", "--peildatum", "2025-06-01"];
    let with = |extra: &[&str]| {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        data(&run(sandbox.cmd(&fake), args), "regeling_zoek")
    };
    let second = with(&["--pagina", "2", "--per-pagina", "3"]);
    let requests = fake.requests();
    let request = requests.last().expect("a request");
    assert_eq!(request.query_param("startRecord"), Some("4"));
    assert_eq!(request.query_param("maximumRecords"), Some("3"));
    let old = with(&["--start", "4", "--max", "3"]);
    assert_eq!(
        old, second,
        "--start 4 --max 3 is --pagina 2 --per-pagina 3"
    );

    // The fake's "voorbeeld" answer is the same for every startRecord: page one, then the page at
    // its nextRecordPosition 4, which points to 4 again; a position that does not move forward
    // ends the walk (no endless loop on a misbehaving source).
    let first = with(&["--per-pagina", "3"]);
    let before = fake.requests().len();
    let all = with(&["--per-pagina", "3", "--alles"]);
    let requests = fake.requests();
    let pages = &requests[before..];
    let starts: Vec<Option<&str>> = pages.iter().map(|r| r.query_param("startRecord")).collect();
    assert_eq!(
        starts,
        [Some("1"), Some("4")],
        "page one, then the next position"
    );
    assert_eq!(
        all["resultaten"], first["resultaten"],
        "the same records, each law once"
    );
    assert_eq!(all["totaal"], 5);
    assert_eq!(all["volgende_start"], 4, "the source's own next position");
    assert!(all.get("afgekapt").is_none(), "no cap was reached: {all}");
}

#[test]
fn zoek_keeps_quotes_and_keywords_as_data() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    let term = r#"wet" or dcterms.type=wet and (x*"#;
    let args = ["regeling", "zoek", "--peildatum", "2025-06-01", "--", term];
    let result = data(&run(sandbox.cmd(&fake), args), "regeling_zoek");
    assert_eq!(
        result["resultaten"],
        json!([]),
        "OUT-8: zero hits is an empty list"
    );
    assert_eq!(result["totaal"], 0);
    assert_eq!(
        fake.requests()[0].query_param("query"),
        Some(
            r#"overheidbwb.titel all "wet\" or dcterms.type=wet and (x\*" and overheidbwb.geldigheidsdatum=2025-06-01"#
        )
    );
}

#[test]
fn zoek_adds_onderwerp_and_canonical_type() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    let args = [
        "regeling",
        "zoek",
        "niets",
        "--onderwerp",
        "Sociale zekerheid",
        "--type",
        "amvb",
        "--peildatum",
        "2025-06-01",
    ];
    run(sandbox.cmd(&fake), args).json();
    assert_eq!(
        fake.requests()[0].query_param("query"),
        Some(
            r#"overheidbwb.titel all "niets" and overheidbwb.rechtsgebied="Sociale zekerheid" and dcterms.type="AMvB" and overheidbwb.geldigheidsdatum=2025-06-01"#
        )
    );
}

#[test]
fn get_reads_the_version_in_force_on_the_peildatum() {
    for (peildatum, percentage, vanaf, tot, has_2a) in [
        (
            "2023-06-01",
            "4,0%",
            "2023-01-01",
            json!("2023-12-31"),
            false,
        ),
        (
            "2024-12-31",
            "4,1%",
            "2024-01-01",
            json!("2024-12-31"),
            false,
        ),
        ("2030-01-01", "4,273%", "2025-01-01", Value::Null, true),
    ] {
        let fake = KoopFake::start();
        let sandbox = Sandbox::new();
        let args = [
            "regeling",
            "toon",
            "BWBR9900001",
            "--peildatum",
            peildatum,
            "--lang",
        ];
        let law = data(&run(sandbox.cmd(&fake), args), "regeling_toon");
        assert_eq!(law["geldig_vanaf"], vanaf, "{peildatum}");
        assert_eq!(law["geldig_tot"], tot, "{peildatum}");
        let lid = &artikel(&law, "2")["leden"][0];
        assert_eq!(
            lid["tekst"],
            format!("De normpremie bedraagt {percentage} van het drempelinkomen."),
            "{peildatum}"
        );
        let numbers: Vec<&str> = law["artikelen"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["nummer"].as_str().unwrap())
            .collect();
        assert_eq!(numbers.contains(&"2a"), has_2a, "{peildatum}: {numbers:?}");
        assert_eq!(law["aantal_artikelen"], numbers.len());
        let url = law["toestand_url"].as_str().unwrap();
        assert!(
            url.ends_with(&format!("BWBR9900001_{vanaf}_0.xml")),
            "{url}"
        );
        assert_eq!(fake.requests().len(), 2, "one search, one toestand");
        assert_eq!(
            fake.requests()[0].query_param("query"),
            Some(
                format!(
                    "dcterms.identifier==BWBR9900001 and overheidbwb.geldigheidsdatum={peildatum}"
                )
                .as_str()
            )
        );
    }
}

#[test]
fn get_gives_paths_links_and_texts_outside_articles() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    let args = [
        "regeling",
        "toon",
        "BWBR9900002",
        "--peildatum",
        "2025-06-01",
        "--lang",
    ];
    let law = data(&run(sandbox.cmd(&fake), args), "regeling_toon");
    assert_eq!(
        law["citeertitel"],
        "Besluit voorbeeldregels energie en zorg"
    );
    assert_eq!(law["soort"], "AMvB");
    assert_eq!(
        law["wetten_url"],
        "https://wetten.overheid.nl/BWBR9900002/2025-06-01"
    );
    let a = artikel(&law, "5.15");
    assert_eq!(a["label"], "Artikel 5.15");
    assert_eq!(a["pad"], "Hoofdstuk 5 / Afdeling 5.4 / Paragraaf 5.4.1");
    assert_eq!(a["titel"], "energiebesparingsplicht");
    assert_eq!(
        a["wetten_url"],
        "https://wetten.overheid.nl/BWBR9900002/2025-06-01#Hoofdstuk5_Afdeling5.4_Paragraaf5.4.1_Artikel5.15"
    );
    assert_eq!(a["leden"].as_array().unwrap().len(), 3);
    let soorten: Vec<&str> = law["overige_teksten"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["soort"].as_str().unwrap())
        .collect();
    assert!(soorten.contains(&"aanhef"), "{soorten:?}");
    assert!(soorten.contains(&"bijlage"), "{soorten:?}");
}

#[test]
fn artikel_returns_one_article_with_the_law() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    let args = [
        "regeling",
        "artikel",
        "BWBR9900002",
        "artikel 5.15A",
        "--peildatum",
        "2025-06-01",
    ];
    let result = data(&run(sandbox.cmd(&fake), args), "regeling_artikel");
    assert_eq!(result["bwb_id"], "BWBR9900002");
    assert_eq!(result["geldig_vanaf"], "2025-01-01");
    assert_eq!(result["artikel"]["nummer"], "5.15a");
    assert_eq!(
        result["artikel"]["pad"],
        "Hoofdstuk 5 / Afdeling 5.4 / Paragraaf 5.4.1"
    );
}

/// Issue 40 item 4: an article's text is printed once. Its `leden` are the same text again,
/// lid by lid: only with `--lang`, or when `--fields` or `--jq` ask for them.
#[test]
fn an_article_s_text_is_printed_once_and_its_leden_when_asked() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    let args = [
        "regeling",
        "artikel",
        "BWBR9900002",
        "5.15",
        "--peildatum",
        "2025-06-01",
    ];
    let compact = run(sandbox.cmd(&fake), args);
    let short = data(&compact, "regeling_artikel");
    assert!(short["artikel"].get("leden").is_none(), "{short}");
    let tekst = short["artikel"]["tekst"].as_str().unwrap();
    let long_run = run(sandbox.cmd(&fake), args.iter().copied().chain(["--lang"]));
    let long = data(&long_run, "regeling_artikel");
    let leden = long["artikel"]["leden"].as_array().unwrap();
    assert_eq!(leden.len(), 3);
    for lid in leden {
        let lid = lid["tekst"].as_str().unwrap();
        assert!(tekst.contains(lid), "{lid:?} is in {tekst:?}");
    }
    assert_eq!(long["artikel"]["tekst"], short["artikel"]["tekst"]);
    assert!(compact.stdout.len() + tekst.len() / 2 < long_run.stdout.len());
    // A selection names any member of the output schema, leden included.
    let fields = args
        .iter()
        .copied()
        .chain(["--fields", "artikel.leden[].nummer"]);
    let selected = run(sandbox.cmd(&fake), fields).json();
    assert_eq!(
        selected,
        json!({"artikel": {"leden": [{"nummer": "1"}, {"nummer": "2"}, {"nummer": "3"}]}})
    );
    // So does the whole law: each article's text once.
    let law = [
        "regeling",
        "toon",
        "BWBR9900002",
        "--peildatum",
        "2025-06-01",
    ];
    let law = data(&run(sandbox.cmd(&fake), law), "regeling_toon");
    let artikelen = law["artikelen"].as_array().unwrap();
    assert!(
        artikelen
            .iter()
            .all(|a| a.get("leden").is_none() && a["tekst"].is_string())
    );
}

#[test]
fn artikel_unknown_number_names_the_numbers_nearby() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    let args = [
        "regeling",
        "artikel",
        "BWBR9900002",
        "5.16",
        "--peildatum",
        "2025-06-01",
    ];
    let error = run(sandbox.cmd(&fake), args).error(66);
    assert_eq!(error["code"], "NIET_GEVONDEN");
    assert_eq!(error["hint"], "Artikelen in de buurt: 1:2, 5.15, 5.15a");
}

#[test]
fn versies_lists_every_version_oldest_first() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    let result = data(
        &run(sandbox.cmd(&fake), ["regeling", "versies", "BWBR9900001"]),
        "regeling_versies",
    );
    assert_eq!(result["aantal"], 3);
    assert_eq!(result["totaal"], 3);
    assert_eq!(result["titel"], "Wet op de voorbeeldtoeslag");
    let ranges: Vec<(Value, Value)> = result["versies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v["geldig_vanaf"].clone(), v["geldig_tot"].clone()))
        .collect();
    assert_eq!(
        ranges,
        [
            (json!("2023-01-01"), json!("2023-12-31")),
            (json!("2024-01-01"), json!("2024-12-31")),
            (json!("2025-01-01"), Value::Null),
        ]
    );
    assert_eq!(
        result["versies"][0]["wetten_url"],
        "https://wetten.overheid.nl/BWBR9900001/2023-01-01"
    );
    assert_eq!(
        fake.requests()[0].query_param("query"),
        Some("dcterms.identifier==BWBR9900001")
    );
}

#[test]
fn unknown_ids_and_dates_are_not_found() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    for args in [
        vec![
            "regeling",
            "toon",
            "BWBR9900001",
            "--peildatum",
            "2000-01-01",
        ],
        vec![
            "regeling",
            "toon",
            "BWBR1234567",
            "--peildatum",
            "2025-06-01",
        ],
        vec![
            "regeling",
            "artikel",
            "BWBR1234567",
            "1",
            "--peildatum",
            "2025-06-01",
        ],
        vec!["regeling", "versies", "BWBR1234567"],
    ] {
        let error = run(sandbox.cmd(&fake), &args).error(66);
        assert_eq!(error["code"], "NIET_GEVONDEN", "{args:?}");
    }
    assert!(
        fake.requests()
            .iter()
            .all(|r| !r.path.contains("/repository")),
        "no toestand is fetched for an unknown law"
    );
}
