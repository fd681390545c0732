//! rvo-cli library: the source-specific core of the RVO command-line tool.
//!
//! - [`catalogue`]: the embedded, versioned catalogue of RVO schemes (regelingen).
//! - [`status`]: the status of a scheme (open, gesloten, binnenkort_open), computed against a date.
//! - [`search`]: case- and accent-insensitive, ranked search over the catalogue.
//! - [`filing`]: validation and normalisation of a report filing, and the result shape.
//! - [`inhoud`]: the Bal 5.15a contents of a report, built from a concept and the measures named.
//! - [`reference`]: reference numbers (`RVO-EBR-2027-…`) that are unique and not guessable.
//! - [`record`]: a filed report as a record of the family's store (`overheid-records`), which
//!   gives the local sandbox backend ("lokaal") its exactly-once filing.
//! - [`verify`]: a consistency check of the filings in a store, reusable by tests.
//! - [`hook`]: the crash tests' pause points (compiled in only for test builds).
//! - [`canonical`]: canonical text (one report, one digest) and canonical JSON with its SHA-256.
//! - [`clock`]: "now", fixed only in test programs.
//! - [`backend_types`]: request/response types of the HTTP backend contract (`spec/rvo-backend.md`).
//! - `embedded`: the report as filed embedded in the records that carry it, in their JSON objects.
//!
//! Nothing here does network I/O (only [`verify`] opens the store it is given); the clap commands and the HTTP client live on top of `common`.

pub mod backend_types;
pub mod canonical;
pub mod catalogue;
pub mod clock;
mod embedded;
pub mod filing;
pub mod hook;
pub mod inhoud;
pub mod record;
pub mod reference;
pub mod search;
pub mod status;
mod text;
pub mod verify;
