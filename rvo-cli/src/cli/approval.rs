//! rvo-cli's side of a person's approval (profile §10.3): what a proposal's approval is bound
//! to, where a person approves it, and the check of a decision's approval token before a
//! filing is applied.
//!
//! - **The binding** (recorded by `rapportage voorstel`): the company, the scheme, the target
//!   (`lokaal`, or the backend's base URL) and the peildatum of a planned filing; it is the
//!   approval token's authorization detail ([`detail_of`]) besides the proposal's id and digest.
//! - **Where a person approves** ([`where_to_approve`]): the operator's page, the bridge's page
//!   (`OVERHEID_GOEDKEURING_URL`), and the terminal command.
//! - **Applying** ([`check_apply`]): the proposal's target must be this call's; under the
//!   operator's policy the decision's token must verify against the policy's issuer and match
//!   the proposal. The token is held as a secret from the moment it is read.

use common::approval::detail::{self, Detail};
use common::approval::policy::{self, Identity, Policy};
use common::approval::provider::Provider;
use common::approval::token;
use common::{Context, ExitStatus, Problem, Result, codes};
use overheid_records::Proposal;
use serde_json::Value;

/// The operator's policy (exit 78 when its file is there but not trusted).
pub(crate) fn policy() -> Result<&'static Policy> {
    Ok(policy::current()?)
}

/// Base URL of the approval page (overheid-mcp --http); a proposal's page is `{base}/voorstellen/{id}`.
pub(crate) const APPROVAL_URL_ENV: &str = "OVERHEID_GOEDKEURING_URL";

/// What every answer about a terminal decision says.
pub(crate) const NOT_A_LOGIN: &str = "Let op: een beslissing op een terminal is geen login. Alles wat in deze terminal kan typen, ook een agent, kan zo beslissen; beslis alleen over wat u zelf hebt gelezen.";

/// The bridge's page where a person approves proposal `id`, when `OVERHEID_GOEDKEURING_URL` is
/// set (the operator's policy may name its own: [`where_to_approve`]).
fn approval_url(ctx: &Context<'_>, id: &str) -> Option<String> {
    ctx.env(APPROVAL_URL_ENV)
        .map(str::trim)
        .filter(|base| !base.is_empty())
        .map(|base| format!("{}/voorstellen/{id}", base.trim_end_matches('/')))
}

/// The authorization detail an approval of `proposal` is for; `None` for a proposal recorded
/// before bindings were kept.
pub(crate) fn detail_of(proposal: &Proposal) -> Option<Detail> {
    let binding = proposal.call.binding.as_ref()?;
    Some(Detail::of(
        &proposal.id,
        &proposal.call.plan_digest,
        binding,
    ))
}

/// Where a person approves proposal `id`: the operator's page, else the bridge's page, and the
/// terminal command (with a policy: a login there, not a typed digest).
pub(crate) fn where_to_approve(ctx: &Context<'_>, id: &str) -> (Option<String>, String) {
    let page = match policy::current() {
        Ok(Policy::Identity(Identity {
            page: Some(page), ..
        })) => Some(format!("{page}/{id}")),
        _ => approval_url(ctx, id),
    };
    (page, format!("rvo-cli voorstel goedkeuren {id}"))
}

/// The refusal of `--confirm` under a policy that asks for a login: the proposal recorded for
/// the same filing, and where a person approves it (nothing sent).
pub(crate) fn confirm_refused(ctx: &Context<'_>, proposal: &Proposal) -> Problem {
    let (page, command) = where_to_approve(ctx, &proposal.id);
    let place = match &page {
        Some(page) => format!("op {page} (of met {command})"),
        None => format!("met {command} (een login bij de identiteitsprovider)"),
    };
    Problem::new(
        ExitStatus::NoPerm,
        codes::GOEDKEURING_VEREIST,
        "Goedkeuring door een persoon vereist",
        format!(
            "op deze machine keurt alleen een persoon met een login een indiening goed (beleid {}); \
             --confirm is niet toegestaan en er is niets ingediend. Voorstel {} staat klaar",
            policy::PATH,
            proposal.id
        ),
    )
    .with_hint(format!(
        "laat een persoon voorstel {} goedkeuren {place}; dien het daarna in met rvo-cli rapportage indienen --voorstel {}",
        proposal.id, proposal.id
    ))
}

/// A refusal of an apply: the approval does not cover this filing.
fn invalid(id: &str, why: &str) -> Problem {
    Problem::new(
        ExitStatus::NoPerm,
        codes::GOEDKEURING_ONGELDIG,
        "Goedkeuring geldt niet",
        format!("de goedkeuring van voorstel {id} geldt niet voor deze indiening: {why}; er is niets ingediend"),
    )
    .with_hint(format!(
        "laat een persoon het voorstel opnieuw goedkeuren (rvo-cli voorstel goedkeuren {id}), of stel een nieuw voorstel op"
    ))
}

/// The identity provider of the policy, its keys from the family cache while they may be kept;
/// an unusable provider is exit 69 naming the issuer.
pub(crate) fn provider(ctx: &Context<'_>, identity: &Identity) -> Result<Provider> {
    let settings = ctx.cache_settings();
    Provider::cached(&identity.issuer, settings).map_err(|why| unusable(&identity.issuer, &why.0))
}

/// A provider that could not be used: exit 69, naming the issuer.
pub(crate) fn unusable(issuer: &str, why: &str) -> common::Error {
    Problem::new(
        ExitStatus::Unavailable,
        codes::BRON_ONBEREIKBAAR,
        "Identiteitsprovider niet bruikbaar",
        format!("de identiteitsprovider {issuer} is niet te gebruiken: {why}; er is niets beslist of ingediend"),
    )
    .with_hint("controleer de issuer in het beleid en of de provider bereikbaar is; het voorstel blijft open")
    .into()
}

/// Whether proposal `proposal` may be applied by this call, to `target`: its binding's target
/// must be this call's, and under a policy that asks for a login its decision must carry an
/// approval token that verifies and matches it. The token (when there is one) is held as a
/// secret and returned, to go with the filing.
pub(crate) fn check_apply(
    ctx: &mut Context<'_>,
    proposal: &Proposal,
    target: &str,
) -> Result<Option<String>> {
    let id = proposal.id.as_str();
    let token = proposal.decision.as_ref().and_then(|d| d.token.clone());
    if let Some(token) = &token {
        common::secrets::hold(token);
    }
    let policy = policy()?;
    let detail = detail_of(proposal);
    if let Some(detail) = &detail {
        let bound = detail
            .get("backend")
            .and_then(Value::as_str)
            .unwrap_or(detail::LOCAL);
        if bound != target {
            return Err(invalid(
                id,
                &format!("goedgekeurd voor backend {bound}, niet voor {target}"),
            )
            .into());
        }
    }
    let Some(identity) = policy.identity() else {
        return Ok(token);
    };
    let (Some(detail), Some(token)) = (detail, token) else {
        return Err(invalid(
            id,
            "de beslissing draagt geen goedkeuringstoken van een login",
        )
        .into());
    };
    let mut provider = provider(ctx, identity)?;
    let header_kid = jsonwebtoken_kid(&token);
    if !provider.has_key(header_kid.as_deref()) {
        provider = provider
            .refreshed()
            .map_err(|why| unusable(&identity.issuer, &why.0))?;
    }
    let approved = token::verify(&provider, &token, &detail, identity.acr.as_deref())
        .map_err(|why| invalid(id, &why))?;
    ctx.audit_attribute("overheid.goedgekeurd_door", approved.subject.clone().into());
    Ok(Some(token))
}

/// The `kid` a token's header names, if it can be read.
fn jsonwebtoken_kid(token: &str) -> Option<String> {
    common::approval::provider::header_kid(token)
}
