//! Links kvk-cli for a quick start (`common/build/startup_link.rs`): the functions a call runs
//! placed together (`startup.order`) and packed relocations.

#[path = "../common/build/startup_link.rs"]
mod startup_link;

fn main() {
    startup_link::startup_link();
}
