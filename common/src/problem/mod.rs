//! What a failure is, the ground floor: the exit-code table, the registry of problem codes and
//! the one error type. Everything above ends a call with these; they name nothing above them.

pub(crate) mod codes;
pub(crate) mod error;
pub(crate) mod exit;
