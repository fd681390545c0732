//! What the process gets from its host and keeps for its whole life: the one snapshot of the
//! environment, the secrets held from it, the panic hook, the trace context, and which
//! directories and files it trusts.

pub(crate) mod crash;
pub(crate) mod env;
pub(crate) mod secrets;
pub(crate) mod trace;
pub(crate) mod trust;
