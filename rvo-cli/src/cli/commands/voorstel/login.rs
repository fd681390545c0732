//! Approving a proposal with a login, under the operator's policy (MUT-19, MUT-20): a device
//! login (RFC 8628) at the policy's identity provider that asks for exactly this proposal's
//! authorization detail, or with `--browser` a browser login on this machine (RFC 8252, the
//! provider sends the browser back to a port of this process; no polling). The person opens the
//! link (a device login: on any device), logs in afresh and sees at the provider what they
//! approve; here the terminal shows the same. The access token that comes
//! back is verified (signature, issuer, audience of the target, the detail, `acr`), the ID
//! token's `auth_time` must not be older than this approval, and the token is stored with the
//! decision. Nothing typed here approves anything.
//!
//! Errors: an unusable provider is 69 naming it; a login that expired or that the person
//! declined is 75 (`LOGIN_NIET_VOLTOOID`, retry when the person is ready); a token that does not
//! verify or match is 77 (`GOEDKEURING_ONGELDIG`). In each the proposal stays open.

use common::approval::detail::Detail;
use common::approval::login::{self, DeviceLogin, Ended};
use common::approval::loopback::{self, BrowserLogin};
use common::approval::policy::Identity;
use common::approval::token;
use common::{Context, ExitStatus, Outcome, Problem, Result, codes};
use overheid_records::{Decision, Person, Proposal, Status};
use serde_json::Value;

use crate::cli::approval;
use crate::cli::records;

/// How the person logs in.
enum Started {
    /// A code on any device (RFC 8628).
    Device(DeviceLogin),
    /// The browser on this machine, back to this process's port (RFC 8252).
    Browser(BrowserLogin),
}

impl Started {
    fn wait(&mut self) -> std::result::Result<Ended, common::approval::provider::Unusable> {
        match self {
            Started::Device(login) => login.wait(common::interrupt::interrupted),
            Started::Browser(login) => login.wait(common::interrupt::interrupted),
        }
    }

    /// When the login was asked for (seconds since the epoch).
    fn started(&self) -> i64 {
        match self {
            Started::Device(login) => login.started,
            Started::Browser(login) => login.started,
        }
    }

    /// What the person does, and how long it may take.
    fn instruction(&self) -> String {
        let minutes = |at: std::time::Instant| {
            at.saturating_duration_since(std::time::Instant::now())
                .as_secs()
                .div_ceil(60)
        };
        match self {
            Started::Device(login) => format!(
                "Open op een apparaat van uzelf:\n  {}\nen log in; code {}. De code verloopt over {} min.",
                login.link(),
                login.user_code,
                minutes(login.expires_at)
            ),
            Started::Browser(login) => format!(
                "Open in de browser op deze machine:\n  {}\nen log in; de provider stuurt de browser daarna terug naar rvo-cli. De login verloopt over {} min.",
                login.url,
                minutes(login.expires_at)
            ),
        }
    }

    /// How the decision record names the login.
    fn method(&self) -> &'static str {
        match self {
            Started::Device(_) => "oidc-apparaat",
            Started::Browser(_) => "oidc-browser",
        }
    }
}

/// Approve proposal `id` with a login of a person at `identity`'s provider: a device login, or
/// with `browser` a browser login on this machine.
pub(crate) fn approve(
    ctx: &mut Context<'_>,
    id: &str,
    identity: &Identity,
    browser: bool,
) -> Result<Outcome> {
    ctx.audit_attribute("overheid.voorstel_id", id.into());
    let (mut store, proposal) = records::find(ctx, id)?;
    if proposal.status != Status::Open {
        return Err(records::refused(id, proposal.status).into());
    }
    let detail = approval::detail_of(&proposal).ok_or_else(|| {
        Problem::new(
            ExitStatus::DataErr,
            codes::GOEDKEURING_ONGELDIG,
            "Voorstel zonder binding",
            format!(
                "voorstel {id} is opgesteld voordat een goedkeuring aan backend en peildatum werd gebonden; het kan niet met een login worden goedgekeurd"
            ),
        )
        .with_hint("stel het opnieuw voor met rvo-cli rapportage voorstel")
    })?;
    let mut provider = approval::provider(ctx, identity)?;
    let acr = identity.acr.as_deref();
    let mut started = if browser {
        loopback::start(&provider, &identity.client_id, &detail, acr).map(Started::Browser)
    } else {
        login::start(&provider, &identity.client_id, &detail, acr).map(Started::Device)
    }
    .map_err(|why| approval::unusable(&identity.issuer, &why.0))?;
    show(ctx, id, identity, &proposal, &detail, &started);
    common::interrupt::arm();
    let ended = started
        .wait()
        .map_err(|why| approval::unusable(&identity.issuer, &why.0))?;
    let (access_token, id_token) = tokens(id, ended)?;
    if !provider.has_key(common::approval::provider::header_kid(&access_token).as_deref()) {
        provider = provider
            .refreshed()
            .map_err(|why| approval::unusable(&identity.issuer, &why.0))?;
    }
    let refused = |why: String| -> common::Error {
        Problem::new(
            ExitStatus::NoPerm,
            codes::GOEDKEURING_ONGELDIG,
            "Goedkeuring ongeldig",
            format!("de identiteitsprovider gaf geen bruikbare goedkeuring van voorstel {id}: {why}; er is niets beslist"),
        )
        .with_hint("het voorstel blijft open; probeer opnieuw of vraag de beheerder de provider na te kijken")
        .into()
    };
    let approved = token::verify(&provider, &access_token, &detail, identity.acr.as_deref())
        .map_err(refused)?;
    // When the person logged in: the ID token says it (the access token may too).
    let auth_time = match &id_token {
        Some(id_token) => {
            let claims = provider
                .verify(id_token, &identity.client_id)
                .map_err(|why| refused(format!("ID-token: {why}")))?;
            if let Started::Browser(login) = &started
                && claims.get("nonce").and_then(Value::as_str) != Some(login.nonce.as_str())
            {
                return Err(refused("de nonce van het ID-token klopt niet".into()));
            }
            if claims.get("sub").and_then(Value::as_str) != Some(approved.subject.as_str()) {
                return Err(refused(
                    "ID-token en goedkeuring noemen een andere persoon".into(),
                ));
            }
            claims.get("auth_time").and_then(Value::as_i64)
        }
        None => approved.auth_time,
    };
    token::fresh(auth_time, started.started()).map_err(refused)?;
    let by = Person {
        subject: approved.subject.clone(),
        name: approved
            .name
            .clone()
            .unwrap_or_else(|| approved.subject.clone()),
        method: started.method().into(),
    };
    super::record(
        ctx,
        &mut store,
        &proposal,
        Decision::Approve,
        &by,
        Some(&access_token),
    )
}

/// Shows on the terminal what the person approves, as the provider shows it, and what to do.
fn show(
    ctx: &Context<'_>,
    id: &str,
    identity: &Identity,
    proposal: &Proposal,
    detail: &Detail,
    started: &Started,
) {
    let mut shown = String::new();
    for (name, value) in detail.members() {
        let value = value
            .as_str()
            .map_or_else(|| value.to_string(), str::to_string);
        shown.push_str(&format!("  {name}: {value}\n"));
    }
    let text = format!(
        "Voorstel {id} goedkeuren met een login bij {issuer}\n\n{plan}\nWat u goedkeurt (de identiteitsprovider toont hetzelfde):\n{shown}\n{instruction} Ctrl-C breekt af.\n",
        issuer = identity.issuer,
        plan = records::readable(proposal),
        instruction = started.instruction(),
    );
    ctx.printer
        .stderr_text(&common::render::printable(&text, true));
}

/// The tokens of a login that ended in an approval (the access token, and the ID token if the
/// provider sent one); a declined or expired login is exit 75, and an interrupted one decides
/// nothing.
fn tokens(id: &str, ended: Ended) -> Result<(String, Option<String>)> {
    match ended {
        Ended::Approved {
            access_token,
            id_token,
        } => Ok((access_token, id_token)),
        Ended::Declined => Err(not_finished(id, "de persoon heeft de login afgewezen")),
        Ended::Expired => Err(not_finished(
            id,
            "de login is verlopen voordat de persoon klaar was",
        )),
        Ended::Interrupted => Err(Problem::interrupted("afgebroken; er is niets beslist").into()),
    }
}

/// A login that did not end in an approval: exit 75, the proposal stays open.
fn not_finished(id: &str, why: &str) -> common::Error {
    let mut problem = Problem::new(
        ExitStatus::TempFail,
        codes::LOGIN_NIET_VOLTOOID,
        "Login niet voltooid",
        format!("{why}; voorstel {id} blijft open en er is niets beslist"),
    )
    .with_hint(format!(
        "start de login opnieuw zodra de persoon er klaar voor is (dat kan meteen): rvo-cli voorstel goedkeuren {id}"
    ));
    // A new login can start at once: the person decides when.
    problem.retry_after = Some(1);
    problem.into()
}
