//! `voorstel goedkeuren ID`: a person approves a proposal at a terminal (hidden; never a tool).

use common::{CommandSpec, Context, Outcome, Result};
use overheid_records::Decision;

common::arguments! {
    /// Keur een voorstel goed (alleen op een terminal: u typt het begin van de plan-digest)
    ///
    /// Toont het plan en vraagt de eerste 8 tekens van de plan-digest. De goedkeuring noemt de
    /// gebruiker van het besturingssysteem. In een shell die u deelt met een agent is de terminal
    /// de grens, geen login: keur alleen goed wat u zelf hebt gelezen.
    #[derive(clap::Args, Debug)]
    pub(crate) struct Args {
        /// Id van het voorstel (vs_…)
        pub id: String => (super::ID_SCHEMA),
        /// Log in met de browser op deze machine in plaats van met een code op een ander apparaat
        /// (alleen onder een beleid dat een login vraagt)
        #[arg(long)]
        pub browser: bool,
    }
}

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["voorstel", "goedkeuren"],
    title: "Voorstel goedkeuren (terminal)",
    annotations: super::DECISION,
    output_schema: include_str!("../../../../schemas/voorstel.json"),
    examples: &[&[
        "voorstel",
        "goedkeuren",
        "vs_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    ]],
    args: Args::SCHEMAS,
}];

pub(crate) fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    super::decide(ctx, args.id.trim(), Decision::Approve, args.browser)
}
