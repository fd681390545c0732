//! One module per top-level command: its arguments, its tool entries, its `run`.

pub mod check;
pub mod concept;
pub mod evalueer;
pub mod ontvangstbewijs;
pub mod regelingen;
pub mod scenario;
pub mod wet;
