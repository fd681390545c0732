//! The XML-to-text rendering, through the CLI: lists and sub-lists, unnumbered lists, tables,
//! references and entities end up as the plain text a reader expects.

use crate::support::{KoopFake, Sandbox, run};

fn tekst(nummer: &str) -> String {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    let args = [
        "regeling",
        "artikel",
        "BWBR9900002",
        nummer,
        "--peildatum",
        "2025-06-01",
        "--fields",
        "artikel.tekst",
    ];
    let result = run(sandbox.cmd(&fake), args).json();
    result["artikel"]["tekst"]
        .as_str()
        .expect("tekst")
        .to_owned()
}

#[test]
fn lists_sub_lists_references_and_entities() {
    assert_eq!(
        tekst("1:1"),
        "In dit besluit wordt verstaan onder:\n   \
         a. activiteit: een milieubelastende activiteit als bedoeld in artikel 1.1 van de Omgevingswet;\n   \
         b. energiedrager:\n      \
         1°. elektriciteit;\n      \
         2°. aardgas & andere gassen;\n   \
         c. hernieuwbare energie: energie uit hernieuwbare bronnen, met een waarde van ten minste € 10."
    );
}

#[test]
fn tables_have_cells_separated_and_rows_on_lines() {
    assert_eq!(
        tekst("1:2"),
        "De tarieven zijn:\nJaar | Tarief | Opmerking\n2024 | € 0,10 | eerste jaar (overgang)\n2025 | € 0,12 |\n\
         Bedragen zijn exclusief btw."
    );
}

#[test]
fn leden_are_numbered_and_lists_inside_them_indented() {
    assert_eq!(
        tekst("5.15"),
        "1. Alle maatregelen met een terugverdientijd van ten hoogste vijf jaar worden getroffen.\n\
         2. Het eerste lid is niet van toepassing:\n   \
         a. als het energiegebruik kleiner is dan 50.000 kWh; of\n   \
         b. op een gebruiksfunctie als bedoeld in artikel 1:1.\n\
         3. Onze Minister kan regels stellen.\n\
         Die regels worden bekendgemaakt in de Staatscourant & elders."
    );
}

#[test]
fn unnumbered_list_items_get_a_dash() {
    assert_eq!(
        tekst("5.15a"),
        "De volgende gegevens worden verstrekt:\n   - het nummer van inschrijving in het handelsregister;\n   \
         - een overzicht van de getroffen maatregelen."
    );
}
