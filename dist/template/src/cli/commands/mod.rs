//! One module per command: its arguments (a clap `Args` that derives `Serialize`, which is its
//! plan's `arguments`), its side-table entries (`SPECS`) and its `run`.

pub(crate) mod groet;
