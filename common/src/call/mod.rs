//! One call of a command: what a tool declares (`tool`, its argument sets with their schemas
//! declared once by `arguments`), the arguments several tools share
//! (`args`, `session`, `paging`) and the options every command takes (`globals`), the gate
//! (`plan`), what a command returns (`provenance`), the sources it reads (`source`), the family
//! CLIs it runs (`child`), Ctrl-C while it waits (`interrupt`), its audit record (`audit`), and
//! what it can see and do while it runs (`context`).

// First, so that the modules below can declare their argument sets with `arguments!` by its
// textual scope (inside `common`, nothing is named through the crate root).
#[macro_use]
pub(crate) mod arguments;

pub(crate) mod args;
pub(crate) mod audit;
pub(crate) mod child;
pub(crate) mod context;
pub(crate) mod globals;
pub(crate) mod interrupt;
pub(crate) mod paging;
pub(crate) mod plan;
pub(crate) mod provenance;
pub(crate) mod session;
pub(crate) mod source;
pub(crate) mod tool;
