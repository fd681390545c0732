//! The one printer and everything that reaches a terminal: data to stdout, problems and warnings
//! to stderr (secrets masked here, at the sink), tables and problem text for people, the spinner,
//! and JSON Lines spooled so a batch's memory does not grow.

pub(crate) mod lines;
pub(crate) mod output;
pub(crate) mod render;
pub(crate) mod spinner;
