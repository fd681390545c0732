//! `--peildatum` refuses the same values with the same error as in every tool of the family
//! (DISC-23), with the checks they share (`test_support::cli::check_peildatum`).

use test_support::cli::{check_peildatum, run};

use crate::support::{KoopFake, Sandbox, discovery};

#[test]
fn peildatum_errors_are_the_family_s() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    let tried = check_peildatum(&discovery(), &|words| run(sandbox.cmd(&fake), words));
    // regeling zoek|toon|artikel.
    assert_eq!(tried, 3);
    assert!(fake.requests().is_empty(), "validation sends nothing");
}

/// DISC-1, DISC-10, DISC-17: discovery within its budget, its entries compact.
#[test]
fn discovery_stays_within_its_budget() {
    let sandbox = Sandbox::new();
    let size = test_support::cli::check_discovery_budget(&|words| run(sandbox.bare(), words));
    assert!(size > 1000, "{size}");
}
