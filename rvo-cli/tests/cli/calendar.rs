//! Filing around a scheme's closing date, with "now" fixed through `rvo-cli-test-hooks`
//! (`RVO_CLI_TEST_NOW`), so these tests give the same outcome on every day of the year.
//!
//! EBR-2027 accepts reports up to and including 2027-12-01. A report filed on that day and
//! retried the next day (after a lost reply) is replayed, not refused (MUT-9): the key is looked
//! up before the scheme's state is judged.

use serde_json::json;

use crate::http::{contract_fake, http_run_at};
use crate::support::{Sandbox, digest_of_default_report, indienen_today as indienen};

const LAST_DAY: &str = "2027-12-01T22:30:00Z";
const NEXT_DAY: &str = "2027-12-02T08:00:00Z";
const TODAY: &str = "2026-11-30T12:00:00Z";

#[test]
fn the_worked_digest_of_the_profile_holds() {
    let sandbox = Sandbox::new();
    let plan = sandbox
        .run_at(
            TODAY,
            &indienen("warmtepomp, led-verlichting", &["--dry-run"]),
        )
        .plan();
    assert_eq!(
        plan["plan_digest"],
        "1f4f39fc2c5b136013af29e53af88b72ef6bc9e77764d641b038a84f285ecc53"
    );
    assert_eq!(plan["plan_digest"], digest_of_default_report().as_str());
    assert_eq!(plan["peildatum"], "2026-11-30");
    assert!(plan["arguments"].get("peildatum").is_none(), "{plan:#}");
}

#[test]
fn a_new_report_after_the_closing_date_is_refused() {
    let sandbox = Sandbox::new();
    let run = sandbox.run_at(NEXT_DAY, &indienen("LED", &["--confirm"]));
    let error = run.error(65);
    assert_eq!(error["errors"][0]["pointer"], "/regeling_id", "{error:#}");
    assert!(
        error["errors"][0]["detail"]
            .as_str()
            .unwrap()
            .contains("gesloten op 2027-12-02"),
        "{error:#}"
    );
    sandbox.assert_store(0);
}

#[test]
fn a_retry_the_day_after_the_closing_date_replays_the_first_result() {
    let sandbox = Sandbox::new();
    let first = sandbox
        .run_at(
            LAST_DAY,
            &indienen("warmtepomp, led-verlichting", &["--confirm"]),
        )
        .json();
    assert_eq!(first["replayed"], false);
    assert_eq!(first["ingediend_op"], "2027-12-01T22:30:00Z");

    // The same command again, the next day: the first result, not "regeling is gesloten".
    let digest = digest_of_default_report();
    for extra in [
        vec!["--confirm".to_string()],
        vec![format!("--confirm={digest}")],
        vec![
            "--confirm".to_string(),
            "--peildatum=2027-12-02".to_string(),
        ],
    ] {
        let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
        let again = sandbox
            .run_at(NEXT_DAY, &indienen("led-verlichting,warmtepomp", &extra))
            .json();
        assert_eq!(again["replayed"], true, "{extra:?}");
        assert_eq!(again["referentienummer"], first["referentienummer"]);
        assert_eq!(again["ingediend_op"], first["ingediend_op"]);
    }
    // Its dry run says so too, and exits 0 like the real call.
    let plan = sandbox
        .run_at(
            NEXT_DAY,
            &indienen("warmtepomp,led-verlichting", &["--dry-run"]),
        )
        .plan();
    assert_eq!(plan["al_ingediend"], true);
    sandbox.assert_store(1);
    sandbox.assert_every_report_audited();
}

#[test]
fn no_peildatum_and_the_peildatum_of_today_are_one_report() {
    let sandbox = Sandbox::new();
    let without = sandbox
        .run_at(TODAY, &indienen("LED", &["--dry-run"]))
        .plan();
    let with = sandbox
        .run_at(
            TODAY,
            &indienen("LED", &["--dry-run", "--peildatum=2026-11-30"]),
        )
        .plan();
    assert_eq!(without["plan_digest"], with["plan_digest"]);
    assert_eq!(without["arguments"], with["arguments"]);
}

#[test]
fn over_http_a_retry_after_the_closing_date_reaches_the_backend_and_replays() {
    let fake = contract_fake();
    let sandbox = Sandbox::new();
    let first = http_run_at(
        &sandbox,
        &fake.url("/api"),
        LAST_DAY,
        &indienen("LED", &["--confirm"]),
    )
    .json();
    assert_eq!(first["replayed"], false);
    let again = http_run_at(
        &sandbox,
        &fake.url("/api"),
        NEXT_DAY,
        &indienen("led", &["--confirm"]),
    )
    .json();
    assert_eq!(again["replayed"], true);
    assert_eq!(again["referentienummer"], first["referentienummer"]);
    let bodies: Vec<serde_json::Value> = fake
        .requests()
        .iter()
        .map(|r| serde_json::from_slice(&r.body).unwrap())
        .collect();
    assert_eq!(bodies.len(), 2);
    assert_eq!(bodies[0], bodies[1]);
    assert_eq!(bodies[0]["maatregelen"], json!(["led"]));
}

/// The clock hook is for test programs only: `rvo-cli` itself ignores `RVO_CLI_TEST_NOW`, so
/// nothing from outside can move an installed binary's date past a closing day.
#[test]
fn rvo_cli_itself_has_no_clock_hook() {
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.cmd();
    cmd.env(rvo_cli::clock::NOW_ENV, "2019-08-01T12:00:00Z");
    let run = crate::support::run(cmd, indienen("LED", &["--dry-run"]));
    // The plan (or, once EBR-2027 has closed, the refusal) names the date checked: the real one,
    // in the Netherlands (between 23:00 and 0:00 UTC that is already tomorrow).
    let said = format!("{}{}", run.stdout, run.stderr);
    assert!(!said.contains("2019-08-01"), "{run:#?}");
    assert!(
        said.contains(&common::calendar::dutch_date(chrono::Utc::now()).to_string()),
        "{run:#?}"
    );
}

/// Issue 40 item 7: a second report for a scheme's round in which the company already filed says
/// so, with the first one's reference, in its plan: in the dry run, and in the proposal a person
/// approves. The same report again is a replay (`al_ingediend`), not a second one.
#[test]
fn a_second_report_in_a_round_names_the_first_before_anyone_approves() {
    let sandbox = Sandbox::new();
    let first = sandbox
        .run_at(TODAY, &indienen("LED", &["--confirm"]))
        .json();
    let reference = first["referentienummer"].as_str().unwrap();
    let plan = sandbox
        .run_at(TODAY, &indienen("warmtepomp", &["--dry-run"]))
        .plan();
    assert_eq!(
        plan["eerder_ingediend"],
        json!([{"referentienummer": reference,
                "ingediend_op": plan["eerder_ingediend"][0]["ingediend_op"],
                "maatregelen": ["led"]}]),
        "{plan:#}"
    );
    assert!(plan.get("al_ingediend").is_none(), "{plan:#}");
    // Said in words for the person who approves (the plan's let_op, which the page shows).
    let notice = plan["let_op"][0].as_str().unwrap_or_default();
    assert!(
        notice.contains("al een rapportage ingediend") && notice.contains(reference),
        "{plan:#}"
    );
    // The agent's own words are marked as such.
    assert_eq!(
        plan["vrije_tekst"],
        json!([
            "/arguments/toelichting",
            "/arguments/inhoud/overige_maatregelen"
        ])
    );
    let again = sandbox
        .run_at(TODAY, &indienen("LED", &["--dry-run"]))
        .plan();
    assert_eq!(again["al_ingediend"], true);
    assert!(again.get("eerder_ingediend").is_none(), "{again:#}");
    assert!(again.get("let_op").is_none(), "{again:#}");
    let proposal = sandbox
        .run_at(
            TODAY,
            &[
                "rapportage",
                "voorstel",
                "68750110",
                "EBR-2027",
                "warmtepomp",
            ],
        )
        .json();
    assert_eq!(
        proposal["plan"]["eerder_ingediend"][0]["referentienummer"], reference,
        "{proposal:#}"
    );
    // Another round of the same duty is no second report.
    let other = sandbox
        .run_at(
            "2023-06-01T12:00:00Z",
            &[
                "rapportage",
                "indienen",
                "68750110",
                "EBR-2023",
                "LED",
                "--dry-run",
            ],
        )
        .plan();
    assert!(other.get("eerder_ingediend").is_none(), "{other:#}");
}
