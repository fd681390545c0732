//! `regeling …`: the command group, one module per command (its arguments, its entry, its
//! `run`), plus the lookup that `toon` and `artikel` share.

pub(crate) mod artikel;
mod lookup;
pub(crate) mod toon;
pub(crate) mod versies;
pub(crate) mod zoek;

/// The published schema of a BWB id, the argument of every command here.
pub(crate) const BWB_ID_SCHEMA: &str =
    common::schema!({"pattern": "^BWB[RV][0-9]{7}$", "examples": ["BWBR0018451"]});

common::commands! {
    pub enum Action {
        Zoek(zoek::Args) => zoek,
        #[command(alias = "get")]
        Toon(toon::Args) => toon,
        Artikel(artikel::Args) => artikel,
        Versies(versies::Args) => versies,
    }
}
