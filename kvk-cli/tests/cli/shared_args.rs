//! `kvk_nummer` accepts exactly what its published pattern matches, in every command (DISC-22),
//! with the checks every tool of the family shares (`test_support::cli::check_kvk_nummer`).

use test_support::cli::{check_kvk_nummer, run};

use crate::support::{KvkFake, Sandbox, discovery};

#[test]
fn kvk_nummer_pattern_is_what_is_accepted() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let tried = check_kvk_nummer(&discovery(), &|words| run(sandbox.cmd(&fake.base()), words));
    // basisprofiel toon|eigenaar|hoofdvestiging|vestigingen, naamgeving toon, zoeken.
    assert_eq!(tried, 6);
    assert_eq!(
        fake.request_count(),
        0,
        "validation and dry runs send nothing"
    );
}

/// DISC-1, DISC-10, DISC-17: discovery within its budget, its entries compact.
#[test]
fn discovery_stays_within_its_budget() {
    let sandbox = Sandbox::new();
    let size = test_support::cli::check_discovery_budget(&|words| run(sandbox.bare(), words));
    assert!(size > 1000, "{size}");
}
