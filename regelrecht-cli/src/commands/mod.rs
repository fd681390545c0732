//! One module per command: its arguments, its tool entry, its `run`.

pub mod check_energiebesparing;
pub mod evalueer;
pub mod wet_lijst;
pub mod wet_toon;
