//! NUM-1: numbers the KvK answers with are passed through as written, however large: an
//! integer beyond 2^64 keeps every digit (no float on the way), in every output mode and
//! through `--fields`.

use serde_json::Value;
use test_support::kvk::special::{BEYOND_U64, BEYOND_U64_PROFILE};

use crate::support::{KvkFake, Sandbox, run};

#[test]
fn num_1_an_integer_beyond_2_64_passes_through_exactly() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let expected = format!("\"totaalWerkzamePersonen\":{BEYOND_U64}");
    for extra in [
        &[][..],
        &["--fields", "totaalWerkzamePersonen"][..],
        &["--provenance"][..],
    ] {
        let mut args = vec!["basisprofiel", "toon", BEYOND_U64_PROFILE];
        args.extend(extra);
        let outcome = run(sandbox.cmd(&fake.base()), &args);
        let value: Value = outcome.json();
        assert!(
            outcome.stdout.contains(&expected),
            "{extra:?}: {}",
            outcome.stdout
        );
        assert!(value.to_string().contains(BEYOND_U64));
    }
    let pretty = run(
        sandbox.cmd(&fake.base()),
        [
            "basisprofiel",
            "toon",
            BEYOND_U64_PROFILE,
            "--output",
            "pretty",
        ],
    );
    assert_eq!(pretty.code, 0, "{pretty:#?}");
    assert!(
        pretty
            .stdout
            .contains(&format!("\"totaalWerkzamePersonen\": {BEYOND_U64}")),
        "{}",
        pretty.stdout
    );
}
