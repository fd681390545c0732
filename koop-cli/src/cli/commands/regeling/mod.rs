//! `regeling …`: the command group, one module per command (its arguments, its entry, its
//! `run`), plus the lookup that `get` and `artikel` share.

pub mod artikel;
pub mod get;
mod lookup;
pub mod versies;
pub mod zoek;

common::commands! {
    pub enum Action {
        Zoek(zoek::Args) => zoek,
        Get(get::Args) => get,
        Artikel(artikel::Args) => artikel,
        Versies(versies::Args) => versies,
    }
}
