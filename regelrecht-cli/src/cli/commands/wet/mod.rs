//! `wet lijst|toon|notities`: the loaded laws and the notes on them.

pub mod lijst;
pub mod notities;
pub mod toon;

common::commands! {
    pub enum Action {
        Lijst(lijst::Args) => lijst,
        Toon(toon::Args) => toon,
        Notities(notities::Args) => notities,
    }
}
