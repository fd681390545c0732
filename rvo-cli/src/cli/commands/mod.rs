//! One module per command: its arguments, its metadata, its `run`.

pub mod rapportage;
pub mod regeling;
pub mod voorstel;
