//! One module per command: its arguments, its metadata, its `run`.

pub(crate) mod rapportage;
pub(crate) mod regeling;
pub(crate) mod voorstel;
