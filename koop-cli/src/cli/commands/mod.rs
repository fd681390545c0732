//! The commands of koop-cli: one module per top-level command.

pub mod regeling;
