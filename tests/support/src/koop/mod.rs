//! A fake KOOP: the SRU search service (`x-connection=BWB`) and the repository of toestand XML,
//! as one router for [`crate::FakeServer`] over the koop-cli fixtures.
//!
//! Under its mount (`/koop` in `fake-upstream`):
//!
//! | route | answer |
//! |---|---|
//! | `GET …/?operation=searchRetrieve&x-connection=BWB&query=…` (any path but `/repository/…`) | SRU 2.0 answer |
//! | `GET …/repository/bwb/{ID}/{label}/xml/{file}` | the toestand XML |
//!
//! Queries: `dcterms.identifier==ID` → every version of ID (paged by `startRecord` and
//! `maximumRecords`); `… and overheidbwb.geldigheidsdatum=D` → the versions in force on D;
//! `overheidbwb.titel all "…"` → by the search term: `voorbeeld` five hits (page of three),
//! `syntaxfout` diagnostic 10 (HTTP 200), `onbeschikbaar` an SRU 1.2 "temporarily unavailable"
//! diagnostic, `traag` zero hits after [`SLOW`]; any other term searches the titles of the
//! [`CATALOGUE`] (every word in the title; `dcterms.type`, `overheidbwb.rechtsgebied` and
//! `overheidbwb.geldigheidsdatum` clauses honoured), so `zorgtoeslag` finds BWBR0018451 and
//! most terms find nothing. Another query, or one without `x-connection=BWB`, gets a diagnostic. URLs of the real repository in the answers are
//! rewritten to `<base>/repository`, so `KOOP_REPOSITORY_URL=<base>/repository`.
//!
//! Laws: the real ids of koop-cli's discovery examples, BWBR0018451 (Wet op de zorgtoeslag,
//! synthetic text, 2024 and open 2025, artikel 1–3) and BWBR0041330 (Bal, open from 2026-01-01,
//! the official text of artikel 5.15–5.15d that regelrecht-cli and rvo-cli cite); BWBR9900001
//! (three versions), BWBR9900002 (lists, tables, references), BWBR9900003 (its toestand lies on
//! `https://evil.example.org`, or on [`Koop::foreign_base`]), the ids of [`SPECIAL_IDS`], which
//! misbehave on purpose, and whatever a test generates ([`Koop::with_toestand`]).

pub mod fixtures;

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use crate::reply::Reply;
use crate::request::RecordedRequest;

/// The real repository host that fixtures name.
pub const REAL_REPOSITORY: &str = "https://repository.officiele-overheidspublicaties.nl";
/// The foreign host of the `vreemde-host` fixture.
pub const FOREIGN_HOST: &str = "https://evil.example.org";
/// How long the slow routes stall.
pub const SLOW: Duration = Duration::from_secs(5);
/// The generated large law; its XML is read from the file named by [`LARGE_LAW_FILE_VAR`].
pub const LARGE_LAW_ID: &str = "BWBR9999999";
/// Variable naming the file with the large law (for `fake-upstream` in the benchmark).
pub const LARGE_LAW_FILE_VAR: &str = "KOOP_FAKE_GROTE_WET";

/// The laws with a real id that a title search looks through.
pub const CATALOGUE: &[&str] = &["BWBR0018451", "BWBR0041330"];

/// Ids that behave like BWBR9900001 in 2025 in search, with a toestand that misbehaves.
pub const SPECIAL_IDS: &[(&str, &str)] = &[
    ("BWBR9900004", "toestand afgebroken midden in artikel 2"),
    ("BWBR9900005", "toestand is platte tekst, geen XML"),
    ("BWBR9900006", "toestand is een HTML-foutpagina"),
    ("BWBR9900007", "toestand komt pas na 5 seconden"),
    (
        LARGE_LAW_ID,
        "grote gegenereerde wet uit het bestand in KOOP_FAKE_GROTE_WET",
    ),
];

/// The router with its settings.
#[derive(Debug, Clone, Default)]
pub struct Koop {
    foreign_base: Option<String>,
    /// Toestanden a test generated, by BWB id ([`Koop::with_toestand`]).
    generated: Vec<(String, Arc<Vec<u8>>)>,
}

/// The fake KOOP with default settings, as `fake-upstream` mounts it.
pub fn koop(request: &RecordedRequest) -> Reply {
    Koop::default().route(request)
}

impl Koop {
    pub fn new() -> Self {
        Koop::default()
    }

    /// Point the foreign toestand URL (of BWBR9900003) at `base` instead of `evil.example.org`,
    /// so a test can prove that the foreign host receives nothing.
    pub fn foreign_base(mut self, base: &str) -> Self {
        self.foreign_base = Some(base.trim_end_matches('/').to_owned());
        self
    }

    /// Serve `body` as the toestand of `id`; searched, `id` answers like the 2025 version of
    /// BWBR9900001 (open from 2025-01-01). For tests that generate their input (huge or hostile).
    pub fn with_toestand(mut self, id: &str, body: Vec<u8>) -> Self {
        self.generated.push((id.to_owned(), Arc::new(body)));
        self
    }

    /// Answers `request` as KOOP would.
    pub fn route(&self, request: &RecordedRequest) -> Reply {
        if request.method != "GET" {
            return Reply::text(405, "Alleen GET.").header("allow", "GET");
        }
        if let Some(rest) = request.path.strip_prefix("/repository/") {
            if let Some(body) = self.generated_body(rest) {
                return Reply::new(200)
                    .header("content-type", "application/xml")
                    .body(body.to_vec());
            }
            return repository(rest);
        }
        let base = request.base_before("/repository");
        let reply = search(request, &self.generated_ids());
        let Ok(text) = std::str::from_utf8(reply.body_bytes()) else {
            return reply;
        };
        let mut text = text.replace(REAL_REPOSITORY, &format!("{base}/repository"));
        if let Some(foreign) = &self.foreign_base {
            text = text.replace(FOREIGN_HOST, foreign);
        }
        reply.body(text.into_bytes())
    }
}

impl Koop {
    fn generated_ids(&self) -> Vec<&str> {
        self.generated.iter().map(|(id, _)| id.as_str()).collect()
    }

    /// The generated toestand a repository path (`bwb/{ID}/…`) names, if any.
    fn generated_body(&self, rest: &str) -> Option<&Arc<Vec<u8>>> {
        let id = rest.strip_prefix("bwb/")?.split('/').next()?;
        self.generated
            .iter()
            .find(|(known, _)| known == id)
            .map(|(_, body)| body)
    }
}

fn xml(status: u16, body: &str) -> Reply {
    Reply::new(status)
        .header("content-type", "application/xml; charset=utf-8")
        .body(body.as_bytes().to_vec())
}

/// `bwb/{ID}/{label}/xml/{file}`.
fn repository(rest: &str) -> Reply {
    let parts: Vec<&str> = rest.split('/').collect();
    let ["bwb", id, _label, "xml", file] = parts.as_slice() else {
        return Reply::text(404, "Not Found");
    };
    match *id {
        "BWBR9900004" => xml(200, fixtures::AFGEBROKEN),
        "BWBR9900005" => Reply::text(200, fixtures::NIET_XML_TEKST),
        "BWBR9900006" => Reply::new(200)
            .header("content-type", "text/html")
            .body(fixtures::NIET_XML_HTML.as_bytes().to_vec()),
        "BWBR9900007" => {
            xml(200, toestand("BWBR9900001_2025-01-01_0.xml").unwrap_or("")).delay(SLOW)
        }
        LARGE_LAW_ID => match large_law() {
            Some(body) => Reply::new(200)
                .header("content-type", "application/xml")
                .body(body.clone()),
            None => Reply::text(404, "KOOP_FAKE_GROTE_WET is niet gezet of onleesbaar"),
        },
        _ => match toestand(file) {
            Some(body) => xml(200, body),
            None => Reply::text(404, "Not Found"),
        },
    }
}

fn toestand(file: &str) -> Option<&'static str> {
    fixtures::TOESTANDEN
        .iter()
        .find(|(name, _)| *name == file)
        .map(|(_, body)| *body)
}

fn large_law() -> Option<&'static Vec<u8>> {
    static LAW: OnceLock<Option<Vec<u8>>> = OnceLock::new();
    LAW.get_or_init(|| {
        let path = std::env::var_os(LARGE_LAW_FILE_VAR)?;
        std::fs::read(path).ok()
    })
    .as_ref()
}

/// The SRU answer; `generated` are the ids of [`Koop::with_toestand`].
fn search(request: &RecordedRequest, generated: &[&str]) -> Reply {
    if request.query_param("operation") != Some("searchRetrieve")
        || request.query_param("x-connection") != Some("BWB")
    {
        return xml(
            200,
            &diagnostic("7", "Mandatory parameter not supplied", "x-connection"),
        );
    }
    let query = request.query_param("query").unwrap_or("");
    let start = number(request.query_param("startRecord"), 1).max(1);
    let max = number(request.query_param("maximumRecords"), 50);
    if let Some(rest) = query.strip_prefix("dcterms.identifier==") {
        let (id, date) = match rest.split_once(" and overheidbwb.geldigheidsdatum=") {
            Some((id, date)) => (id.trim(), Some(date.trim())),
            None => (rest.trim(), None),
        };
        let records = if generated.contains(&id) {
            like_9900001(id)
        } else {
            versions(id)
        };
        let records: Vec<String> = records
            .into_iter()
            .filter(|record| date.is_none_or(|d| valid_on(record, d)))
            .collect();
        return xml(200, &page(&records, start, max));
    }
    if let Some(rest) = query.strip_prefix("overheidbwb.titel all ") {
        let term = quoted(rest).to_lowercase();
        return if term.contains("syntaxfout") {
            xml(200, fixtures::DIAGNOSTIEK_SYNTAX)
        } else if term.contains("onbeschikbaar") {
            xml(200, fixtures::DIAGNOSTIEK_ONBESCHIKBAAR)
        } else if term.contains("voorbeeld") {
            xml(200, fixtures::ZOEK_VOORBEELD)
        } else if term.contains("traag") {
            xml(200, fixtures::GEEN_RESULTATEN).delay(SLOW)
        } else {
            xml(200, &page(&catalogue_search(rest), start, max))
        };
    }
    xml(200, &diagnostic("10", "Query syntax error", query))
}

/// The versions of the laws with a real id (see [`CATALOGUE`]) that a title search selects:
/// every word of the term in the title, and the type, rechtsgebied and geldigheidsdatum clauses
/// that follow it, if any.
fn catalogue_search(query: &str) -> Vec<String> {
    let (term, clauses) = quoted_with_rest(query);
    let wanted: Vec<String> = words(&term).collect();
    let kind = clause_value(clauses, "dcterms.type=");
    let area = clause_value(clauses, "overheidbwb.rechtsgebied=");
    let date = clauses
        .split_once("overheidbwb.geldigheidsdatum=")
        .and_then(|(_, rest)| rest.split_whitespace().next());
    CATALOGUE
        .iter()
        .flat_map(|id| versions(id))
        .filter(|record| {
            let title: Vec<String> =
                words(element(record, "dcterms:title").unwrap_or("")).collect();
            wanted.iter().all(|word| title.contains(word))
                && kind.as_deref().is_none_or(|kind| {
                    element(record, "dcterms:type").is_some_and(|t| t.eq_ignore_ascii_case(kind))
                })
                && area.as_deref().is_none_or(|area| {
                    elements(record, "overheidbwb:rechtsgebied")
                        .any(|a| a.eq_ignore_ascii_case(area))
                })
                && date.is_none_or(|d| valid_on(record, d))
        })
        .collect()
}

/// The lower-case words of `text`.
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
}

/// The quoted value after `key` in the CQL `clauses`, unescaped.
fn clause_value(clauses: &str, key: &str) -> Option<String> {
    let (_, rest) = clauses.split_once(key)?;
    Some(quoted_with_rest(rest).0)
}

/// Every version of `id` as `<sru:record>` elements.
fn versions(id: &str) -> Vec<String> {
    let source = match id {
        "BWBR0018451" => fixtures::VERSIES_0018451,
        "BWBR0041330" => fixtures::VERSIES_0041330,
        "BWBR9900001" => fixtures::VERSIES_9900001,
        "BWBR9900002" => fixtures::REGELING_9900002,
        "BWBR9900003" => fixtures::VREEMDE_HOST,
        special if SPECIAL_IDS.iter().any(|(s, _)| *s == special) => return like_9900001(special),
        _ => return Vec::new(),
    };
    records(source).into_iter().map(str::to_owned).collect()
}

/// The 2025 record of BWBR9900001 under another id.
fn like_9900001(id: &str) -> Vec<String> {
    records(fixtures::VERSIES_9900001)
        .into_iter()
        .filter(|r| r.contains("BWBR9900001/2025-01-01"))
        .map(|r| r.replace("BWBR9900001", id))
        .collect()
}

fn records(xml: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = xml;
    while let Some(start) = rest.find("<sru:record>") {
        let Some(len) = rest[start..].find("</sru:record>") else {
            break;
        };
        let end = start + len + "</sru:record>".len();
        out.push(&rest[start..end]);
        rest = &rest[end..];
    }
    out
}

fn element<'a>(record: &'a str, name: &str) -> Option<&'a str> {
    elements(record, name).next()
}

/// The text of every `<name>` element in `record`.
fn elements<'a>(record: &'a str, name: &str) -> impl Iterator<Item = &'a str> {
    let open = format!("{name}>");
    let mut rest = record;
    std::iter::from_fn(move || {
        let start = rest.find(&open)? + open.len();
        let len = rest[start..].find('<')?;
        let text = rest[start..start + len].trim();
        rest = &rest[start + len..];
        Some(text)
    })
}

/// ISO dates compare as text.
fn valid_on(record: &str, date: &str) -> bool {
    let from = element(record, "geldigheidsperiode_startdatum").unwrap_or("9999-12-31");
    let to = element(record, "geldigheidsperiode_einddatum").unwrap_or("9999-12-31");
    from <= date && date <= to
}

fn page(records: &[String], start: usize, max: usize) -> String {
    let chosen: Vec<&str> = records
        .iter()
        .skip(start - 1)
        .take(max)
        .map(String::as_str)
        .collect();
    let next = start + chosen.len();
    let next = if next <= records.len() {
        format!("<sru:nextRecordPosition>{next}</sru:nextRecordPosition>")
    } else {
        String::new()
    };
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sru:searchRetrieveResponse {NAMESPACES}>\
         <sru:version>2.0</sru:version><sru:numberOfRecords>{}</sru:numberOfRecords>\
         <sru:records>{}</sru:records>{next}</sru:searchRetrieveResponse>\n",
        records.len(),
        chosen.join("\n"),
    )
}

fn diagnostic(number: &str, message: &str, details: &str) -> String {
    let details = details
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sru:searchRetrieveResponse {NAMESPACES}>\
         <sru:version>2.0</sru:version><sru:numberOfRecords>0</sru:numberOfRecords>\
         <sru:diagnostics><diag:diagnostic><diag:uri>info:srw/diagnostic/1/{number}</diag:uri>\
         <diag:details>{details}</diag:details><diag:message>{message}</diag:message>\
         </diag:diagnostic></sru:diagnostics></sru:searchRetrieveResponse>\n"
    )
}

const NAMESPACES: &str = "xmlns:sru=\"http://docs.oasis-open.org/ns/search-ws/sruResponse\" \
     xmlns:gzd=\"http://standaarden.overheid.nl/sru\" xmlns:dcterms=\"http://purl.org/dc/terms/\" \
     xmlns:overheid=\"http://standaarden.overheid.nl/owms/terms/\" \
     xmlns:overheidbwb=\"http://standaarden.overheid.nl/bwb/terms/\" \
     xmlns:diag=\"http://docs.oasis-open.org/ns/search-ws/diagnostic\"";

/// The CQL quoted string at the start of `text`, unescaped.
fn quoted(text: &str) -> String {
    quoted_with_rest(text).0
}

/// The CQL quoted string at the start of `text`, unescaped, and the text after it.
fn quoted_with_rest(text: &str) -> (String, &str) {
    let body = text.trim_start().strip_prefix('"').unwrap_or(text);
    let mut out = String::new();
    let mut chars = body.char_indices();
    while let Some((_, c)) = chars.next() {
        match c {
            '\\' => out.extend(chars.next().map(|(_, escaped)| escaped)),
            '"' => return (out, chars.as_str()),
            other => out.push(other),
        }
    }
    (out, "")
}

fn number(value: Option<&str>, default: usize) -> usize {
    value.and_then(|v| v.parse().ok()).unwrap_or(default)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get(url: &str) -> Reply {
        koop(&RecordedRequest::get(url, &[("host", "127.0.0.1:9")]))
    }

    fn body(reply: &Reply) -> String {
        String::from_utf8_lossy(reply.body_bytes()).into_owned()
    }

    const SRU: &str = "/?operation=searchRetrieve&version=2.0&x-connection=BWB";

    #[test]
    fn the_peildatum_selects_one_version() {
        for (date, start) in [
            ("2023-06-01", "2023"),
            ("2024-12-31", "2024"),
            ("2030-01-01", "2025"),
        ] {
            let reply = get(&format!(
                "{SRU}&query=dcterms.identifier%3D%3DBWBR9900001+and+overheidbwb.geldigheidsdatum%3D{date}"
            ));
            let text = body(&reply);
            assert_eq!(records(&text).len(), 1, "{date}");
            assert!(
                text.contains(&format!("BWBR9900001/{start}-01-01")),
                "{date}"
            );
            assert!(
                text.contains("http://127.0.0.1:9/repository/bwb/"),
                "rewritten"
            );
        }
        let none = body(&get(&format!(
            "{SRU}&query=dcterms.identifier%3D%3DBWBR9900001+and+overheidbwb.geldigheidsdatum%3D2000-01-01"
        )));
        assert!(none.contains("<sru:numberOfRecords>0<"));
    }

    #[test]
    fn versions_are_paged() {
        let text = body(&get(&format!(
            "{SRU}&query=dcterms.identifier%3D%3DBWBR9900001&maximumRecords=2"
        )));
        assert_eq!(records(&text).len(), 2);
        assert!(text.contains("<sru:numberOfRecords>3<"));
        assert!(text.contains("<sru:nextRecordPosition>3<"));
    }

    #[test]
    fn title_searches_by_term() {
        let q = |term: &str| {
            body(&get(&format!(
                "{SRU}&query=overheidbwb.titel+all+%22{term}%22+and+overheidbwb.geldigheidsdatum%3D2025-06-01"
            )))
        };
        assert!(q("voorbeeld").contains("<sru:numberOfRecords>5<"));
        assert!(q("syntaxfout").contains("diagnostic/1/10"));
        assert!(q("onbeschikbaar").contains("temporarily unavailable"));
        assert!(q("niets").contains("<sru:numberOfRecords>0<"));
        assert!(body(&get("/?query=x")).contains("diagnostic/1/7"));
    }

    #[test]
    fn the_real_ids_of_the_examples_are_served() {
        let at = |id: &str, date: &str| {
            body(&get(&format!(
                "{SRU}&query=dcterms.identifier%3D%3D{id}+and+overheidbwb.geldigheidsdatum%3D{date}"
            )))
        };
        assert!(at("BWBR0018451", "2024-06-01").contains("BWBR0018451/2024-01-01"));
        for date in ["2025-01-01", "2026-11-30"] {
            let zorgtoeslag = at("BWBR0018451", date);
            assert_eq!(records(&zorgtoeslag).len(), 1, "{date}");
            assert!(zorgtoeslag.contains("BWBR0018451/2025-01-01"), "{date}");
        }
        for date in ["2026-01-01", "2026-11-30"] {
            assert!(
                at("BWBR0041330", date).contains("BWBR0041330/2026-01-01"),
                "{date}"
            );
        }
        assert!(at("BWBR0041330", "2025-12-31").contains("<sru:numberOfRecords>0<"));
        let versies = body(&get(&format!(
            "{SRU}&query=dcterms.identifier%3D%3DBWBR0018451"
        )));
        assert_eq!(records(&versies).len(), 2);
        let bal = get("/repository/bwb/BWBR0041330/2026-01-01_0/xml/BWBR0041330_2026-01-01_0.xml");
        for nummer in ["5.15", "5.15a", "5.15b", "5.15c", "5.15d"] {
            assert!(body(&bal).contains(&format!(">{nummer}</nr>")), "{nummer}");
        }
    }

    #[test]
    fn other_terms_search_the_titles_of_the_catalogue() {
        let q = |clauses: &str| {
            body(&get(&format!(
                "{SRU}&query=overheidbwb.titel+all+{clauses}"
            )))
        };
        let hit = q("%22Zorgtoeslag%22+and+overheidbwb.geldigheidsdatum%3D2026-11-30");
        assert_eq!(records(&hit).len(), 1, "{hit}");
        assert!(hit.contains("BWBR0018451/2025-01-01"));
        let both =
            q("%22activiteiten+leefomgeving%22+and+overheidbwb.geldigheidsdatum%3D2026-01-01");
        assert!(both.contains("<dcterms:identifier>BWBR0041330<"));
        for miss in [
            "%22zorgtoeslag%22+and+dcterms.type%3D%22AMvB%22+and+overheidbwb.geldigheidsdatum%3D2025-01-01",
            "%22zorgtoeslag%22+and+overheidbwb.rechtsgebied%3D%22Milieurecht%22",
            "%22zorgtoeslag%22+and+overheidbwb.geldigheidsdatum%3D2020-01-01",
            "%22wet+zorg%22",
        ] {
            assert!(q(miss).contains("<sru:numberOfRecords>0<"), "{miss}");
        }
        assert!(
            q("%22zorgtoeslag%22+and+overheidbwb.rechtsgebied%3D%22sociale+zekerheid%22")
                .contains("<sru:numberOfRecords>2<")
        );
    }

    #[test]
    fn repository_serves_toestanden_and_misbehaving_ones() {
        let ok = get("/repository/bwb/BWBR9900002/2025-01-01_0/xml/BWBR9900002_2025-01-01_0.xml");
        assert_eq!(ok.status_code(), 200);
        assert!(body(&ok).contains("<toestand"));
        assert_eq!(
            get("/repository/bwb/BWBR9900005/x/xml/y.xml").header_value("content-type"),
            Some("text/plain; charset=utf-8")
        );
        assert_eq!(
            get("/repository/bwb/BWBR9900007/x/xml/y.xml").delay_before_headers(),
            Some(SLOW)
        );
        assert_eq!(get("/repository/bwb/BWBR1/x/xml/y.xml").status_code(), 404);
    }

    #[test]
    fn the_foreign_host_can_be_pointed_at_a_second_fake() {
        let request = RecordedRequest::get(
            "/?operation=searchRetrieve&x-connection=BWB&query=dcterms.identifier%3D%3DBWBR9900003",
            &[],
        );
        let text = body(
            &Koop::new()
                .foreign_base("http://127.0.0.1:7/")
                .route(&request),
        );
        assert!(
            text.contains("http://127.0.0.1:7/bwb/BWBR9900003/"),
            "{text}"
        );
    }
}
