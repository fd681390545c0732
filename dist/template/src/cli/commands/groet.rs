//! `groet NAAM`: the example command. It validates its input, passes the gate with its plan
//! (no requests: the answer is made here) and answers from the gate's token. A command that
//! reads a source builds its requests, passes them through the gate and sends what the gate
//! hands back (`Context::send`); see kvk-cli's commands.

use common::digest::canonical_sha256;
use common::validate::Validation;
use common::{Annotations, CommandSpec, Context, Environment, Outcome, PlanSpec, Result};
use serde_json::json;

common::arguments! {
    /// Een begroeting voor NAAM, zonder bron
    ///
    /// Een voorbeeld om te vervangen door de eerste opdracht van de nieuwe bron. Een naam die geen
    /// 1 tot 40 letters, spaties of koppeltekens is, geeft exit 65.
    #[derive(clap::Args, serde::Serialize, Debug)]
    pub(crate) struct Args {
        /// Wie begroet wordt, bijv. Ada
        // The published pattern: exactly what `is_naam` accepts (DISC-22).
        pub naam: String => {"pattern": "^[A-Za-zÀ-ÖØ-öø-ÿ -]{1,40}$", "examples": ["Ada"]},
    }
}

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["groet"],
    title: "Begroeting",
    annotations: Annotations::READ_LOCAL,
    output_schema: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/schemas/groet.json")),
    examples: &[&["groet", "Ada"]],
    args: Args::SCHEMAS,
}];

/// Whether `naam` is 1 to 40 letters (Latin-1 too), spaces or hyphens.
fn is_naam(naam: &str) -> bool {
    (1..=40).contains(&naam.chars().count())
        && naam.chars().all(|c| {
            c.is_ascii_alphabetic()
                || c == ' '
                || c == '-'
                || (('\u{C0}'..='\u{FF}').contains(&c) && c != '\u{D7}' && c != '\u{F7}')
        })
}

pub(crate) fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    let mut validation = Validation::new();
    validation.check(is_naam(&args.naam), "naam", || {
        "een naam is 1 tot 40 letters, spaties of koppeltekens".to_string()
    });
    validation.finish()?;
    let passed = ctx.gate(PlanSpec::of(args))?;
    let data = json!({"naam": args.naam, "groet": format!("Hallo, {}!", args.naam)});
    // Data made here names itself as its source (PROV-3): a `urn:`, method LOCAL and its digest.
    // Data from a source gets these from the exchange that answered.
    let digest = canonical_sha256(&data);
    Ok(passed
        .answer(data, "sjabloon (geen bron)", Environment::Local)
        .source_url("urn:sjabloon:groet", "LOCAL", digest))
}

#[cfg(test)]
mod tests {
    use super::is_naam;

    #[test]
    fn a_name_is_letters_spaces_and_hyphens() {
        for good in ["Ada", "Jan-Willem", "Zoë de Vries"] {
            assert!(is_naam(good), "{good}");
        }
        for bad in ["", "Ada1", "a/b", "Ada\n", &"a".repeat(41)] {
            assert!(!is_naam(bad), "{bad:?}");
        }
    }
}
