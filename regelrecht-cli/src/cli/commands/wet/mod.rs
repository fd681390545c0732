//! `wet lijst|toon`: the loaded laws.

pub mod lijst;
pub mod toon;

common::commands! {
    pub enum Action {
        Lijst(lijst::Args) => lijst,
        Toon(toon::Args) => toon,
    }
}
