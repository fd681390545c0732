//! Values and their exact forms, above `problem` only: a Dutch number or date, a JSON document
//! named by a path, a JSON object of moved members, canonical JSON and its hashes, `--fields`
//! selections, input validation that collects every problem, and the closest word to a
//! misspelled one. Nothing here does I/O beyond reading one named input.

pub(crate) mod calendar;
pub(crate) mod digest;
pub(crate) mod fields;
pub(crate) mod input;
pub(crate) mod number;
pub(crate) mod object;
pub(crate) mod suggest;
pub(crate) mod validate;
