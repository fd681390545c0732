//! `zoek`: search the register (KvK Zoeken API v2). Public: not session-bound.
//!
//! KvK answers zero hits with 404 and code IPD5200; that is an empty result
//! (exit 0, `totaal: 0`), not an error.

use clap::ValueEnum;
use common::args::{KvkNummer, is_kvk_nummer};
use common::paging::{Alles, Paging};
use common::validate::{Validation, is_digits};
use common::{Annotations, CommandSpec, Context, Outcome, PlanSpec, Response, Result};
use serde_json::{Value, json};

use crate::cli::shape;
use crate::cli::source::{Kvk, fout};

common::arguments! {
    /// Zoek in het Handelsregister, bijv. om een KvK- of vestigingsnummer te vinden
    ///
    /// Minstens één zoekcriterium. Namen worden op hele woorden gezocht.
    /// Nul resultaten is geen fout: exit 0 met een lege lijst.
    #[derive(clap::Args, serde::Serialize, Debug)]
    pub(crate) struct Args {
        /// Handelsnaam of statutaire naam (hele woorden)
        #[arg(long)]
        pub naam: Option<String>,
        /// 8 cijfers
        #[arg(long)]
        pub kvk_nummer: Option<String> => (KvkNummer::SCHEMA.schema),
        /// 9 cijfers
        #[arg(long)]
        pub rsin: Option<String> => {"pattern": "^[0-9]{9}$"},
        /// 12 cijfers
        #[arg(long)]
        pub vestigingsnummer: Option<String> => (crate::cli::commands::vestigingsprofiel::VESTIGINGSNUMMER_SCHEMA),
        /// Straatnaam
        #[arg(long)]
        pub straatnaam: Option<String>,
        /// Plaats
        #[arg(long)]
        pub plaats: Option<String>,
        /// 1234AB; spaties en kleine letters mogen
        #[arg(long)]
        pub postcode: Option<String> => {"pattern": "^ *[0-9]{4} *[A-Za-z]{2} *$"},
        /// Alleen met --postcode
        #[arg(long)]
        pub huisnummer: Option<String> => {"pattern": "^[0-9]{1,5}$"},
        /// Alleen met --huisnummer
        #[arg(long)]
        pub huisletter: Option<String> => {"pattern": "^[A-Za-z]$"},
        /// Alleen met --postcode
        #[arg(long)]
        pub postbusnummer: Option<String> => {"pattern": "^[0-9]{1,5}$"},
        /// Soort resultaat; herhaalbaar
        #[arg(long = "type", id = "type", value_enum)]
        #[serde(rename = "type")]
        pub soort: Vec<Soort>,
        /// Ook uitgeschreven en inactieve registraties
        #[arg(long)]
        pub inclusief_inactief: bool,
        #[command(flatten)]
        #[serde(flatten)]
        pub paging: Paging => flatten,
    }
}

/// The kinds of registration KvK distinguishes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Soort {
    Hoofdvestiging,
    Nevenvestiging,
    Rechtspersoon,
}

impl Soort {
    fn as_str(self) -> &'static str {
        match self {
            Self::Hoofdvestiging => "hoofdvestiging",
            Self::Nevenvestiging => "nevenvestiging",
            Self::Rechtspersoon => "rechtspersoon",
        }
    }
}

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["zoek"],
    title: "Zoeken in het Handelsregister",
    annotations: Annotations::READ_REMOTE,
    output_schema: include_str!("../../../schemas/zoeken.json"),
    examples: &[
        &["zoek", "--naam", "Donald"],
        &["zoek", "--postcode", "8823 SJ", "--huisnummer", "3"],
    ],
    args: Args::SCHEMAS,
}];

/// One text criterion: argument name, KvK parameter, value, check, message.
type Criterion = (
    &'static str,
    &'static str,
    Option<String>,
    fn(&str) -> bool,
    &'static str,
);

/// Every criterion with a check of its own, its value as given (free text trimmed, the postcode
/// without spaces), and what its check says when the value fails it.
fn checked_criteria(args: &Args, postcode: Option<String>) -> [Criterion; 9] {
    let trimmed = |v: &Option<String>| {
        v.as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    let given = |v: &Option<String>| v.clone();
    [
        (
            "naam",
            "naam",
            trimmed(&args.naam),
            |s| s.chars().count() <= 500,
            "naam is te lang",
        ),
        (
            "kvk_nummer",
            "kvkNummer",
            given(&args.kvk_nummer),
            is_kvk_nummer,
            "KvK-nummer moet uit precies 8 cijfers bestaan",
        ),
        (
            "rsin",
            "rsin",
            given(&args.rsin),
            |s| is_digits(s, 9),
            "RSIN moet uit 9 cijfers bestaan",
        ),
        (
            "vestigingsnummer",
            "vestigingsnummer",
            given(&args.vestigingsnummer),
            |s| is_digits(s, 12),
            "vestigingsnummer moet uit 12 cijfers bestaan",
        ),
        (
            "straatnaam",
            "straatnaam",
            trimmed(&args.straatnaam),
            |s| s.chars().count() <= 200,
            "straatnaam is te lang",
        ),
        (
            "plaats",
            "plaats",
            trimmed(&args.plaats),
            |s| s.chars().count() <= 200,
            "plaats is te lang",
        ),
        (
            "postcode",
            "postcode",
            postcode,
            is_postcode,
            "postcode moet de vorm 1234AB hebben",
        ),
        (
            "huisnummer",
            "huisnummer",
            given(&args.huisnummer),
            |s| (1..=5).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit()),
            "huisnummer moet uit 1 tot 5 cijfers bestaan",
        ),
        (
            "postbusnummer",
            "postbusnummer",
            given(&args.postbusnummer),
            |s| (1..=5).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit()),
            "postbusnummer moet uit 1 tot 5 cijfers bestaan",
        ),
    ]
}

/// Validated search criteria: argument name, KvK query parameter, value. Free text is trimmed (an empty text is no
/// criterion); a value with a published pattern is checked as given, so the pattern is exactly
/// what is accepted (DISC-22): only the spaces the postcode pattern allows are removed.
fn criteria(args: &Args) -> Result<Vec<(&'static str, &'static str, String)>> {
    let given = |v: &Option<String>| v.clone();
    let postcode = given(&args.postcode).map(|p| p.replace(' ', "").to_ascii_uppercase());
    let mut v = Validation::new();
    let mut query = Vec::new();
    let fields = checked_criteria(args, postcode.clone());
    for (name, param, value, valid, message) in fields {
        if let Some(value) = value {
            v.check(valid(&value), name, || {
                format!("{message} (niet {value:?})")
            });
            query.push((name, param, value));
        }
    }
    let huisletter = given(&args.huisletter);
    if let Some(letter) = &huisletter {
        let ok = letter.chars().count() == 1 && letter.chars().all(|c| c.is_ascii_alphabetic());
        v.check(ok, "huisletter", || {
            format!("huisletter moet één letter zijn (niet {letter:?})")
        });
        v.check(args.huisnummer.is_some(), "huisletter", || {
            "huisletter kan alleen met --huisnummer".into()
        });
        query.push(("huisletter", "huisletter", letter.clone()));
    }
    v.check(
        args.huisnummer.is_none() || postcode.is_some(),
        "huisnummer",
        || "huisnummer kan alleen samen met --postcode".into(),
    );
    v.check(
        args.postbusnummer.is_none() || postcode.is_some(),
        "postbusnummer",
        || "postbusnummer kan alleen samen met --postcode".into(),
    );
    args.paging.check(&mut v);
    v.check(!query.is_empty(), "naam", || {
        "geef minstens één zoekcriterium (bijv. --naam, --kvk-nummer of --postcode met --huisnummer)".into()
    });
    v.finish()?;
    Ok(query)
}

fn is_postcode(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 6
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4..].iter().all(u8::is_ascii_uppercase)
}

pub(crate) fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    let criteria = criteria(args)?;
    if let Some((_, _, number)) = criteria.iter().find(|(name, ..)| *name == "kvk_nummer") {
        ctx.subject(number, "KVK_NUMMER");
    }
    let kvk = Kvk::from_env(ctx)?;
    let mut query: Vec<(&str, String)> = criteria
        .iter()
        .map(|(_, param, value)| (*param, value.clone()))
        .collect();
    let mut soorten: Vec<&str> = args.soort.iter().map(|s| s.as_str()).collect();
    soorten.sort_unstable();
    soorten.dedup();
    query.extend(soorten.iter().map(|s| ("type", s.to_string())));
    if args.inclusief_inactief {
        query.push(("inclusiefInactieveRegistraties", "true".into()));
    }
    let paging = &args.paging;
    let page = |pagina: u32| {
        let mut query = query.clone();
        query.push(("pagina", pagina.to_string()));
        query.push(("resultatenPerPagina", paging.per_pagina.to_string()));
        kvk.request("/v2/zoeken").query(&query)
    };
    let request = page(paging.pagina);

    let mut plan = PlanSpec::of(args).set("type", soorten);
    for (name, _, value) in &criteria {
        plan = plan.set(name, value.as_str());
    }
    let mut passed = ctx.gate(plan.request(request))?;
    let request = passed.take()?;

    let mut data = search_page(ctx, &kvk, &request, paging.pagina, paging.per_pagina)?;
    if paging.alles {
        let mut walk = Alles::new();
        walk.read(hits(&data).len());
        let mut pagina = paging.pagina;
        while has_more(&data, pagina, paging.per_pagina) {
            if !walk.may_continue() {
                data["afgekapt"] = walk.capped();
                break;
            }
            pagina += 1;
            let next = search_page(
                ctx,
                &kvk,
                &passed.follow(page(pagina))?,
                pagina,
                paging.per_pagina,
            )?;
            let found = hits(&next);
            walk.read(found.len());
            if found.is_empty() {
                break;
            }
            if let Some(all) = data["resultaten"].as_array_mut() {
                all.extend(found);
            }
            data["totaal"] = next["totaal"].clone();
            if let Some(object) = data.as_object_mut() {
                match next.get("volgende") {
                    Some(link) => object.insert("volgende".into(), link.clone()),
                    None => object.remove("volgende"),
                };
            }
        }
    }
    // The companies found are the data subjects of this processing: one
    // audit line each (AUDIT-14; LDV "one line per data subject").
    let found = data["resultaten"].as_array().into_iter().flatten();
    for number in found.filter_map(|r| r["kvkNummer"].as_str()) {
        if is_kvk_nummer(number) {
            ctx.subject(number, "KVK_NUMMER");
        }
    }
    Ok(passed.answer(data, kvk.label(), kvk.environment))
}

/// One page of search results; KvK's "no hits" is an empty page.
fn search_page(
    ctx: &mut Context<'_>,
    kvk: &Kvk,
    request: &common::Checked,
    pagina: u32,
    per_pagina: u32,
) -> Result<Value> {
    let response = ctx.send(request)?;
    if is_no_hits(&response) {
        return Ok(json!({
            "pagina": pagina,
            "resultatenPerPagina": per_pagina,
            "totaal": 0,
            "resultaten": [],
        }));
    }
    kvk.interpret(&response, &shape::ZOEKEN)
}

/// The results of one page.
fn hits(page: &Value) -> Vec<Value> {
    page["resultaten"].as_array().cloned().unwrap_or_default()
}

/// Whether pages after `pagina` hold more results (by KvK's `totaal`).
fn has_more(data: &Value, pagina: u32, per_pagina: u32) -> bool {
    let totaal = data["totaal"].as_u64().unwrap_or(0);
    pagina < common::paging::MAX_PAGINA && u64::from(pagina) * u64::from(per_pagina) < totaal
}

/// KvK's "no hits": 404 with code IPD5200.
fn is_no_hits(response: &Response) -> bool {
    response.status == 404 && fout(response).is_some_and(|(code, _)| code == "IPD5200")
}
