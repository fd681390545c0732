//! The shared arguments behave as in every tool of the family: `--peildatum` refuses the same
//! values with the same error (DISC-23), `kvk_nummer` accepts exactly what its published pattern
//! matches (DISC-22).

use test_support::cli::{check_kvk_nummer, check_peildatum};

use crate::support::Sandbox;

#[test]
fn peildatum_errors_are_the_family_s() {
    let sandbox = Sandbox::new();
    let tried = check_peildatum(&sandbox.discovery(), &|words| sandbox.run(words));
    // wet toon, wet notities, evalueer, check energiebesparing, concept.
    assert_eq!(tried, 5);
}

#[test]
fn kvk_nummer_pattern_is_what_is_accepted() {
    let sandbox = Sandbox::new();
    let tried = check_kvk_nummer(&sandbox.discovery(), &|words| sandbox.run(words));
    // check energiebesparing, concept, regelingen.
    assert_eq!(tried, 3);
}

/// DISC-1, DISC-10, DISC-17: discovery within its budget, its entries compact.
#[test]
fn discovery_stays_within_its_budget() {
    let sandbox = Sandbox::new();
    let size = test_support::cli::check_discovery_budget(&|words| sandbox.run(words));
    assert!(size > 1000, "{size}");
}
