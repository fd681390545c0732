//! One module per command group: its arguments, its metadata, its `run`.

pub(crate) mod basisprofiel;
pub(crate) mod naamgeving;
pub(crate) mod vestigingsprofiel;
pub(crate) mod zoek;
