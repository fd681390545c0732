//! Regulations as data (spec/concept.md): the definitions and the source register
//! ([`definition`]), answers normalised by type ([`opgave`]), values from family CLIs
//! ([`sourcing`]), outcomes ([`evaluate`]), the draft ([`concept`]), its re-evaluation
//! ([`recheck`]) and which regulations may apply ([`applicability`]). No module here names a
//! regulation: everything specific is in the definition files.

pub mod applicability;
pub mod concept;
pub mod definition;
pub mod evaluate;
pub mod opgave;
pub mod recheck;
pub mod sourcing;
