//! `vestigingsprofiel toon`: one establishment.

pub(crate) mod toon;

common::commands! {
    pub(crate) enum Action {
        #[command(alias = "get")]
        Toon(toon::Args) => toon,
    }
}
