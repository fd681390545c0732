//! koop-cli core: Dutch legislation (BWB) from the KOOP SRU search service and the official toestand XML.
//!
//! This library holds what is specific to the source and does no I/O:
//! - [`cql`]: CQL queries with user text quoted and escaped;
//! - [`sru`]: parsing SRU search answers (records, diagnostics) and choosing the version in force;
//! - [`toestand`]: one streaming pass over a toestand XML (articles, leden, plain text, texts outside
//!   articles), one article by number, the list of article numbers;
//! - [`links`]: wetten.overheid.nl URLs and the repository host check;
//! - [`id`]: validation of BWB ids and dates; [`error`]: what can go wrong (the binary maps it to exit codes);
//! - [`generate`]: a large synthetic law for benchmarks and tests.

pub mod cql;
pub mod error;
pub mod generate;
pub mod id;
pub mod links;
pub mod sru;
pub mod text;
pub mod toestand;
mod xml;

pub use error::{Diagnostic, KoopError, ProtocolError};
pub use id::BwbId;
