//! `voorstel afwijzen ID`: a person declines a proposal at a terminal (hidden; never a tool).

use common::{CommandSpec, Context, Outcome, Result};
use overheid_records::Decision;

common::arguments! {
    /// Wijs een voorstel af (alleen op een terminal: u typt het begin van de plan-digest)
    ///
    /// Toont het plan en vraagt de eerste 8 tekens van de plan-digest. De afwijzing noemt de
    /// gebruiker van het besturingssysteem. In een shell die u deelt met een agent is de terminal
    /// de grens, geen login: beslis alleen over wat u zelf hebt gelezen.
    #[derive(clap::Args, Debug)]
    pub(crate) struct Args {
        /// Id van het voorstel (vs_…)
        pub id: String => (super::ID_SCHEMA),
    }
}

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["voorstel", "afwijzen"],
    title: "Voorstel afwijzen (terminal)",
    annotations: super::DECISION,
    output_schema: include_str!("../../../../schemas/voorstel.json"),
    examples: &[&[
        "voorstel",
        "afwijzen",
        "vs_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    ]],
    args: Args::SCHEMAS,
}];

pub(crate) fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    super::decide(ctx, args.id.trim(), Decision::Decline, false)
}
