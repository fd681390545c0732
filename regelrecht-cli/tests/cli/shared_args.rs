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
///
/// regelrecht-cli is over DISC-1's 16 000 bytes since it gained `scenario`, `wet notities`,
/// `ontvangstbewijs controleer`, `concept` and `regelingen` and every tool gained the OTLP
/// variables (22.3 KB); this limit keeps it from growing until the shared parts (env, exit
/// codes, global options) are listed once for the family.
const REGELRECHT_DISCOVERY_BUDGET: usize = 23_000;

#[test]
fn discovery_stays_within_its_budget() {
    let sandbox = Sandbox::new();
    let size = test_support::cli::check_discovery_within(
        &|words| sandbox.run(words),
        REGELRECHT_DISCOVERY_BUDGET,
    );
    assert!(size > 1000, "{size}");
}
