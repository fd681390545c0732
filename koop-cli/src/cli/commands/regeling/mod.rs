//! `regeling …`: the command group, one module per command (its arguments, its entry, its
//! `run`), plus the lookup that `toon` and `artikel` share.

pub(crate) mod artikel;
mod lookup;
pub(crate) mod toon;
pub(crate) mod versies;
pub(crate) mod zoek;

common::commands! {
    pub enum Action {
        Zoek(zoek::Args) => zoek,
        #[command(alias = "get")]
        Toon(toon::Args) => toon,
        Artikel(artikel::Args) => artikel,
        Versies(versies::Args) => versies,
    }
}
