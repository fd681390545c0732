//! `vestigingsprofiel toon`: one establishment.

pub(crate) mod toon;

/// The published schema of an establishment number (`vestigingsprofiel toon`, `zoek
/// --vestigingsnummer`): exactly twelve digits, as the checks accept.
pub(crate) const VESTIGINGSNUMMER_SCHEMA: &str = common::schema!({"pattern": "^[0-9]{12}$"});

common::commands! {
    pub(crate) enum Action {
        #[command(alias = "get")]
        Toon(toon::Args) => toon,
    }
}
