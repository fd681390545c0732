//! The commands of koop-cli: one module per top-level command.

pub(crate) mod regeling;
