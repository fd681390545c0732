//! The commands of koop-cli: one module per command (its arguments, its metadata, its `run`),
//! plus the lookup that `get` and `artikel` share.

pub mod artikel;
pub mod get;
mod lookup;
pub mod regeling;
pub mod versies;
pub mod zoek;
