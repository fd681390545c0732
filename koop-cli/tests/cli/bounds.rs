//! Hostile toestanden: output and memory stay linear in the input (NET-7). Nesting deeper than any
//! law is exit 76 with one JSON error and an audit record; the structural path and the list
//! indentation stop growing at their caps, so a large legal toestand gives output proportional to
//! its size. The toestanden are generated here and served by the fake as BWBR9999998.

use koop_cli::sru::parse_search_response;
use koop_cli::toestand::parse_toestand;
use koop_cli::{KoopError, ProtocolError};
use test_support::koop::Koop;

use crate::support::{KoopFake, Sandbox, run};

const ID: &str = "BWBR9999998";
const PEILDATUM: &str = "2025-06-01";

/// A toestand with `artikelen` (XML of articles) inside `wrap` (opening and closing XML).
fn toestand(open: &str, artikelen: &str, close: &str) -> Vec<u8> {
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><toestand bwb-id=\"{ID}\" inwerkingtreding=\"2025-01-01\">\
         <wetgeving soort=\"wet\"><intitule>Gegenereerde wet</intitule><wet-besluit><wettekst>\
         {open}{artikelen}{close}</wettekst></wet-besluit></wetgeving></toestand>"
    )
    .into_bytes()
}

/// Artikel 1 with one lid holding lists nested `depth` deep, one item per level.
fn nested_lists(depth: usize) -> Vec<u8> {
    let items = "<lijst><li><li.nr>a.</li.nr><al>onderdeel</al>".repeat(depth);
    let ends = "</li></lijst>".repeat(depth);
    let artikel = format!(
        "<artikel label=\"Artikel 1\"><kop><label>Artikel</label><nr>1</nr></kop>\
         <lid><lidnr>1</lidnr><al>Aanhef:</al>{items}{ends}</lid></artikel>"
    );
    toestand("", &artikel, "")
}

/// `depth` nested hoofdstukken, each with a kop and a text, and artikel 1 in the innermost one.
fn nested_chapters(depth: usize) -> Vec<u8> {
    let open =
        "<hoofdstuk><kop><label>Hoofdstuk</label><nr>1</nr></kop><al>tekst</al>".repeat(depth);
    let close = "</hoofdstuk>".repeat(depth);
    let artikel = "<artikel label=\"Artikel 1\"><kop><nr>1</nr></kop><al>Tekst.</al></artikel>";
    toestand(&open, artikel, &close)
}

fn serve(body: Vec<u8>) -> KoopFake {
    KoopFake::with(Koop::new().with_toestand(ID, body))
}

#[test]
fn nesting_deeper_than_any_law_is_one_protocol_error() {
    for (what, body) in [
        ("lijsten", nested_lists(2_000)),
        ("hoofdstukken", nested_chapters(2_000)),
    ] {
        let fake = serve(body);
        for args in [
            vec!["regeling", "toon", ID, "--peildatum", PEILDATUM],
            vec!["regeling", "artikel", ID, "1", "--peildatum", PEILDATUM],
        ] {
            let sandbox = Sandbox::new();
            let error = run(sandbox.cmd(&fake), &args).error(76);
            assert_eq!(error["code"], "PARSE_FOUT", "{what} {args:?}");
            let detail = error["detail"].as_str().unwrap();
            assert!(detail.contains("te diep genest"), "{what}: {detail}");
            let record = sandbox.single_audit_record();
            assert_eq!(record["status"], "ERROR", "AUDIT-1");
            assert_eq!(record["exit_code"], 76);
        }
    }
}

#[test]
fn legal_nesting_is_rendered_and_its_indentation_is_capped() {
    let fake = serve(nested_lists(40));
    let sandbox = Sandbox::new();
    let args = ["regeling", "artikel", ID, "1", "--peildatum", PEILDATUM];
    let artikel = run(sandbox.cmd(&fake), args).json();
    let tekst = artikel["artikel"]["tekst"].as_str().unwrap();
    assert_eq!(tekst.lines().count(), 41, "{tekst}");
    assert!(tekst.starts_with("1. Aanhef:\n   a. onderdeel\n      a. onderdeel\n"));
    let widest = tekst.lines().map(str::len).max().unwrap();
    assert_eq!(
        widest,
        10 * 3 + "a. onderdeel".len(),
        "indentation stops at 10 levels"
    );
}

/// One chapter whose heading is `heading_bytes` long, holding `artikelen` short articles.
fn long_heading(heading_bytes: usize, artikelen: usize) -> Vec<u8> {
    let open = format!(
        "<hoofdstuk><kop><label>Hoofdstuk</label><nr>1</nr><titel>{}</titel></kop>\
         <afdeling><kop><label>Afdeling</label><nr>{}</nr></kop>",
        "t".repeat(10),
        "1".repeat(heading_bytes)
    );
    let artikelen: String = (1..=artikelen)
        .map(|n| format!("<artikel><kop><nr>{n}</nr></kop><al>Tekst {n}.</al></artikel>"))
        .collect();
    toestand(&open, &artikelen, "</afdeling></hoofdstuk>")
}

#[test]
fn output_stays_linear_in_the_input() {
    let sandbox = Sandbox::new();
    let mut sizes = Vec::new();
    for artikelen in [250, 1_000] {
        let body = long_heading(20_000, artikelen);
        let input = body.len();
        let fake = serve(body);
        let law = run(
            sandbox.cmd(&fake),
            ["regeling", "toon", ID, "--peildatum", PEILDATUM],
        );
        let value = law.json();
        assert_eq!(value["aantal_artikelen"], artikelen);
        assert_eq!(
            value["artikelen"][0]["pad"], "Hoofdstuk 1 / …",
            "capped path"
        );
        let output = law.stdout.len();
        assert!(output < 8 * input, "{output} bytes out of {input}");
        sizes.push((input, output));
    }
    // Each extra article costs a bounded number of output bytes per input byte; with the path
    // copied into every article it would cost the whole heading.
    let [(in_a, out_a), (in_b, out_b)] = sizes[..] else {
        unreachable!()
    };
    let marginal = (out_b - out_a) as f64 / (in_b - in_a) as f64;
    assert!(
        marginal < 8.0,
        "{marginal} output bytes per extra input byte"
    );
}

#[test]
fn the_parsers_refuse_deep_nesting_in_one_pass() {
    let deep = nested_lists(5_000);
    assert!(matches!(
        parse_toestand(&deep),
        Err(KoopError::Protocol(ProtocolError::TooDeep {
            limit: 100,
            ..
        }))
    ));
    let sru = format!(
        "<searchRetrieveResponse>{}{}</searchRetrieveResponse>",
        "<x>".repeat(5_000),
        "</x>".repeat(5_000)
    );
    assert!(matches!(
        parse_search_response(sru.as_bytes()),
        Err(KoopError::Protocol(ProtocolError::TooDeep { .. }))
    ));
    let ok = parse_toestand(&nested_lists(40)).unwrap();
    assert_eq!(ok.artikelen.len(), 1);
}
