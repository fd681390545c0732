//! The shared arguments behave as in every tool of the family: `--peildatum` refuses the same
//! values with the same error (DISC-23), `kvk_nummer` accepts exactly what its published pattern
//! matches (DISC-22); and "today" is the date in the Netherlands (DISC-24).

use test_support::cli::{check_kvk_nummer, check_peildatum};

use crate::support::Sandbox;

#[test]
fn peildatum_errors_are_the_family_s() {
    let sandbox = Sandbox::new();
    let tried = check_peildatum(&sandbox.discovery(), &|words| sandbox.run(words));
    // regeling zoek|lijst|get, rapportage indienen|voorstel.
    assert_eq!(tried, 5);
}

#[test]
fn kvk_nummer_pattern_is_what_is_accepted() {
    let sandbox = Sandbox::new();
    let tried = check_kvk_nummer(&sandbox.discovery(), &|words| sandbox.run(words));
    // rapportage indienen|voorstel|lijst.
    assert_eq!(tried, 3);
}

#[test]
fn today_is_the_date_in_amsterdam() {
    let sandbox = Sandbox::new();
    // 23:30 UTC on 30 November is 00:30 on 1 December in Amsterdam (CET).
    let plan = sandbox
        .run_at("2026-11-30T23:30:00Z", &["regeling", "lijst", "--dry-run"])
        .plan();
    assert_eq!(plan["arguments"]["peildatum"], "2026-12-01");
    // 21:30 UTC on 30 June is 23:30 the same day in Amsterdam (CEST).
    let plan = sandbox
        .run_at("2026-06-30T21:30:00Z", &["regeling", "lijst", "--dry-run"])
        .plan();
    assert_eq!(plan["arguments"]["peildatum"], "2026-06-30");
    // 22:30 UTC on 30 June is 00:30 on 1 July in Amsterdam (CEST).
    let plan = sandbox
        .run_at("2026-06-30T22:30:00Z", &["regeling", "lijst", "--dry-run"])
        .plan();
    assert_eq!(plan["arguments"]["peildatum"], "2026-07-01");
}

/// DISC-1, DISC-10, DISC-17: discovery within its budget, its entries compact.
#[test]
fn discovery_stays_within_its_budget() {
    let sandbox = Sandbox::new();
    let size = test_support::cli::check_discovery_budget(&|words| sandbox.run(words));
    assert!(size > 1000, "{size}");
}
