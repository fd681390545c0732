//! `vestigingsprofiel toon`: one establishment.
//!
//! Bound by the session rule through its answer: an establishment names the company it belongs
//! to (`kvkNummer`), so with `KVK_SESSIE_NUMMER` set, an establishment of another company (or an
//! answer that does not say whose it is) is refused with 77 before anything is printed, and the
//! audit record names that company (SEC-7). The establishment number itself is public (`zoek`
//! finds it), so the refusal need not hide that it exists.

use common::validate::{Validation, is_digits};
use common::{Annotations, CommandSpec, Context, Outcome, PlanSpec, Result, session};

use crate::cli::shape;
use crate::cli::source::Kvk;

common::arguments! {
    /// Voor één vestiging op vestigingsnummer: adressen, werkzame personen, activiteiten
    ///
    /// Met KVK_SESSIE_NUMMER alleen vestigingen van dat bedrijf; een vestiging van een ander
    /// bedrijf wordt geweigerd (exit 77).
    #[derive(clap::Args, serde::Serialize, Debug)]
    pub(crate) struct Args {
        /// 12 cijfers
        pub vestigingsnummer: String => (super::VESTIGINGSNUMMER_SCHEMA),
        /// Met coördinaten en BAG-ids bij de adressen
        #[arg(long)]
        pub geo: bool,
    }
}

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["vestigingsprofiel", "toon"],
    title: "Vestigingsprofiel van een vestiging",
    annotations: Annotations::READ_REMOTE,
    output_schema: include_str!("../../../../schemas/vestiging.json"),
    examples: &[&["vestigingsprofiel", "toon", "000037178598"]],
    args: Args::SCHEMAS,
}];

pub(crate) fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    let number = args.vestigingsnummer.trim();
    let mut validation = Validation::new();
    validation.check(is_digits(number, 12), "vestigingsnummer", || {
        format!("vestigingsnummer {number:?} moet uit precies 12 cijfers bestaan")
    });
    validation.finish()?;
    ctx.subject(number, "VESTIGINGSNUMMER");
    let session = session::session_number(ctx)?;
    let kvk = Kvk::from_env(ctx)?;
    let request = kvk
        .request(&format!("/v1/vestigingsprofielen/{number}"))
        .query(&[("geoData", args.geo.to_string())]);
    let plan = PlanSpec::of(args).set("vestigingsnummer", number);
    let mut passed = ctx.gate(plan.request(request))?;
    let data = kvk.fetch(ctx, &passed.take()?, &shape::VESTIGING)?;
    let owner = data.get("kvkNummer").and_then(serde_json::Value::as_str);
    session::enforce_owner(
        ctx,
        session.as_deref(),
        owner,
        &format!("vestiging {number}"),
    )?;
    Ok(passed.answer(data, kvk.label(), kvk.environment))
}
