//! `check …`: fixed questions, answered from the built-in laws.

pub mod energiebesparing;

common::commands! {
    pub enum Action {
        Energiebesparing(energiebesparing::Args) => energiebesparing,
    }
}
