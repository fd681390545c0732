//! One module per command group: its arguments, its metadata, its `run`.

pub mod basisprofiel;
pub mod naamgeving;
pub mod vestigingsprofiel;
pub mod zoeken;
