//! Integration tests of regelrecht-cli, one test binary. Every test runs the tool in a clean
//! environment with a temporary audit log; laws come from the built-in set and from the
//! shared RegelRecht corpus at `<repo>/../shared/regelrecht` (read only).
#![allow(
    clippy::too_many_lines,
    reason = "a test is one scenario read top to bottom; the lint holds production code (issue 42.5)"
)]

mod batch;
mod concept;
mod corpus;
mod energy;
mod entry;
mod evalueer;
mod golden;
mod grondslag;
mod hostile;
mod modes;
mod notes;
mod precision;
mod prepared;
mod profile;
mod reference_receipt;
mod regelingen;
mod scenario;
mod shared_args;
mod support;
mod valideer;
mod vectors;
