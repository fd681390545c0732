//! Property tests of the XML-to-text path: no input makes the parsers panic, and on well-formed random
//! toestanden the output is clean text and the one-article path agrees with the whole-law parse.

use koop_cli::sru::parse_search_response;
use koop_cli::toestand::{artikel_nummers, extract_artikel, normalise_nummer, parse_toestand};
use proptest::prelude::*;

const INLINE: &[&str] = &["nadruk", "extref", "intref", "inf", "sup", "onbekend"];
const BLOCK: &[&str] = &[
    "al",
    "redactie",
    "tabel",
    "table",
    "tgroup",
    "tbody",
    "row",
    "entry",
    "lijst",
    "li",
    "li.nr",
    "meta-data",
    "considerans.al",
    "voornaam",
    "achternaam",
    "kop",
    "nr",
    "label",
    "titel",
    "lidnr",
];
const CONTAINER: &[&str] = &[
    "hoofdstuk",
    "afdeling",
    "paragraaf",
    "titeldeel",
    "boek",
    "bijlage",
    "aanhef",
    "wetsluiting",
];

fn words() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            "[a-zA-Z0-9€°,.;:()é ]{0,12}",
            Just("&amp;".to_string()),
            Just("&#8364;".to_string()),
            Just("&onbekend;".to_string()),
            Just("\n   \t".to_string()),
            Just("<![CDATA[x & y]]>".to_string()),
        ],
        0..4,
    )
    .prop_map(|parts| parts.concat())
}

/// A random element tree from the toestand vocabulary, in any nesting (well-formed, not schema-valid).
fn content(depth: u32) -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        words(),
        Just("<entry/>".to_string()),
        Just("<illustratie naam=\"x\"/>".to_string())
    ]
    .boxed();
    leaf.prop_recursive(depth, 64, 5, |inner| {
        (
            prop::sample::select([INLINE, BLOCK, CONTAINER, &["artikel", "lid"]].concat()),
            prop::collection::vec(inner, 0..5),
            prop::option::of("[0-9a-z.:]{1,5}"),
        )
            .prop_map(|(name, children, nr)| match (name, nr) {
                ("artikel", Some(nr)) => format!(
                    "<artikel label=\"Artikel {nr}\" bwb-ng-variabel-deel=\"/Artikel{nr}\"><kop><label>Artikel</label><nr>{nr}</nr></kop>{}</artikel>",
                    children.concat()
                ),
                (name, _) => format!("<{name}>{}</{name}>", children.concat()),
            })
    })
    .boxed()
}

fn document() -> impl Strategy<Value = String> {
    prop::collection::vec(content(5), 0..6).prop_map(|parts| {
        format!(
            "<?xml version=\"1.0\"?><toestand bwb-id=\"BWBR0000001\" inwerkingtreding=\"2025-01-01\"><wetgeving soort=\"wet\"><intitule>T</intitule>{}</wetgeving></toestand>",
            parts.concat()
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let _ = parse_toestand(&bytes);
        let _ = extract_artikel(&bytes, "1");
        let _ = artikel_nummers(&bytes);
        let _ = parse_search_response(&bytes);
    }

    #[test]
    fn xml_like_text_never_panics(text in "[<>/a-z=\"&;# !?\\[\\]-]{0,300}") {
        let body = format!("<toestand>{text}");
        let _ = parse_toestand(body.as_bytes());
        let _ = extract_artikel(body.as_bytes(), "a");
        let _ = parse_search_response(text.as_bytes());
    }

    #[test]
    fn random_toestanden_give_clean_text(doc in document()) {
        let law = parse_toestand(doc.as_bytes()).expect("well-formed input parses");
        let texts = law.artikelen.iter().map(|a| a.tekst.as_str())
            .chain(law.artikelen.iter().flat_map(|a| a.leden.iter().map(|l| l.tekst.as_str())))
            .chain(law.overige_teksten.iter().map(|t| t.tekst.as_str()));
        for text in texts {
            prop_assert!(!text.contains('<') && !text.contains('>'), "markup in {text:?}");
            prop_assert!(!text.contains("\n\n"), "empty line in {text:?}");
            prop_assert!(text.lines().all(|l| !l.ends_with(' ')), "trailing space in {text:?}");
            prop_assert!(!text.starts_with('\n') && !text.ends_with('\n'));
        }
        let numbers = artikel_nummers(doc.as_bytes()).unwrap();
        let all: Vec<&str> = law.artikelen.iter().map(|a| a.nummer.as_str()).collect();
        prop_assert_eq!(numbers.iter().map(String::as_str).collect::<Vec<_>>(), all);
        for a in &law.artikelen {
            let first = law.artikelen.iter().find(|b| normalise_nummer(&b.nummer) == normalise_nummer(&a.nummer)).unwrap();
            let one = extract_artikel(doc.as_bytes(), &a.nummer).expect("known number is found");
            prop_assert_eq!(&one.artikel, first);
        }
    }

    #[test]
    fn truncated_toestanden_never_panic(doc in document(), cut in 0.0f64..1.0) {
        let end = (doc.len() as f64 * cut) as usize;
        let body = &doc.as_bytes()[..end];
        let _ = parse_toestand(body);
        let _ = extract_artikel(body, "1");
    }
}

/// Found by `random_toestanden_give_clean_text`: content before an article's kop decided the article
/// (as number "") in the streaming passes, while a full parse takes the kop's number.
#[test]
fn content_before_the_kop_does_not_decide_the_article() {
    let doc = "<?xml version=\"1.0\"?><toestand bwb-id=\"BWBR0000001\" inwerkingtreding=\"2025-01-01\"><wetgeving soort=\"wet\"><intitule>T</intitule><artikel><nadruk></nadruk><kop><nr>A</nr></kop><al>een</al></artikel><artikel><nadruk>vooraf</nadruk><kop><nr>B</nr></kop><al>twee</al></artikel></wetgeving></toestand>";
    assert_eq!(artikel_nummers(doc.as_bytes()).unwrap(), ["A", "B"]);
    let law = parse_toestand(doc.as_bytes()).unwrap();
    for nummer in ["A", "B"] {
        let one = extract_artikel(doc.as_bytes(), nummer).expect("known number is found");
        let full = law.artikelen.iter().find(|a| a.nummer == nummer).unwrap();
        assert_eq!(&one.artikel, full);
    }
}
