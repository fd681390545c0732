//! The names of the environment variables that say where regelrecht-cli's laws come from and
//! how many it reads; `laws` reads them (through the context), `problems` names them in a hint
//! and `tool` declares them.

/// Colon-separated directories with law files.
pub(crate) const CORPUS_ENV: &str = "REGELRECHT_CORPUS";

/// The bound on the number of law files read.
pub(crate) const MAX_FILES_ENV: &str = "REGELRECHT_MAX_WETBESTANDEN";
