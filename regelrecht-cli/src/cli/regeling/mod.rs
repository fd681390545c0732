//! Regulations as data (spec/concept.md): the definitions and the source register
//! ([`definition`]), answers normalised by type ([`opgave`]), values from family CLIs
//! ([`sourcing`]), outcomes ([`evaluate`]), the draft ([`concept`]), its re-evaluation
//! ([`recheck`]), which regulations may apply ([`applicability`]) and which schemes of the RVO
//! catalogue ([`rvo`]). No module here names a
//! regulation: everything specific is in the definition files.

pub(crate) mod applicability;
pub(crate) mod concept;
pub(crate) mod definition;
pub(crate) mod evaluate;
pub(crate) mod opgave;
pub(crate) mod recheck;
pub(crate) mod rvo;
pub(crate) mod sourcing;
