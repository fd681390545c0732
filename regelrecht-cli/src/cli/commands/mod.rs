//! One module per top-level command: its arguments, its tool entries, its `run`.

pub(crate) mod check;
pub(crate) mod concept;
pub(crate) mod evalueer;
pub(crate) mod ontvangstbewijs;
pub(crate) mod regelingen;
pub(crate) mod scenario;
pub(crate) mod wet;
