//! Parsing of SRU 2.0 and 1.2 `searchRetrieveResponse` answers of the BWB connection, matching on local
//! names (prefixes vary, the gzd children are often unprefixed), plus choosing among versions.
//!
//! A response with `diagnostics` is a failure ([`KoopError::Diagnostic`]), also when HTTP said 200.

use chrono::NaiveDate;
use quick_xml::events::Event;
use serde::Serialize;

use crate::error::{Diagnostic, KoopError, ProtocolError};
use crate::xml;

/// Open end of a validity period in BWB (`geldigheidsperiode_einddatum`).
pub const OPEN_END: &str = "9999-12-31";

/// One search answer: the total and the records of this page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SearchResponse {
    /// `numberOfRecords`: records matching the query (one per toestand, so before deduplication).
    pub totaal: u64,
    /// `nextRecordPosition`: the `startRecord` of the next page, if any.
    pub volgende_start: Option<u64>,
    /// The records of this page, in the order of the answer.
    pub records: Vec<Record>,
}

/// One record: one version (toestand) of one law.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Record {
    /// `dcterms:identifier`, e.g. `BWBR0018451`.
    pub bwb_id: String,
    /// `dcterms:title`.
    pub titel: String,
    /// `dcterms:type`, e.g. `wet`, `AMvB`.
    #[serde(rename = "type")]
    pub regeling_type: Option<String>,
    /// `overheidbwb:rechtsgebied` (all of them).
    pub rechtsgebieden: Vec<String>,
    /// `overheidbwb:overheidsdomein` (all of them).
    pub overheidsdomeinen: Vec<String>,
    /// `overheid:authority`: the responsible ministry or body.
    pub verantwoordelijke: Option<String>,
    /// `geldigheidsperiode_startdatum`.
    pub geldig_vanaf: Option<NaiveDate>,
    /// `geldigheidsperiode_einddatum`; `None` when open (`9999-12-31`).
    pub geldig_tot: Option<NaiveDate>,
    /// `overheidbwb:toestand`, e.g. `http://wetten.overheid.nl/id/BWBR0018451/2025-01-01/0`.
    pub toestand_id: Option<String>,
    /// `overheidbwb:locatie_toestand`: URL of the toestand XML (check the host before fetching).
    pub toestand_url: Option<String>,
    /// `overheidbwb:locatie_wti`.
    pub wti_url: Option<String>,
    /// `overheidbwb:locatie_manifest`.
    pub manifest_url: Option<String>,
    /// `dcterms:modified`.
    pub gewijzigd: Option<NaiveDate>,
}

impl Record {
    /// True when this version is in force on `date` (end date inclusive).
    pub fn valid_on(&self, date: NaiveDate) -> bool {
        self.geldig_vanaf.is_some_and(|from| from <= date)
            && self.geldig_tot.is_none_or(|to| date <= to)
    }

    /// The sequence number of the toestand (`…/2025-01-01/1` → 1); corrections of the same date count up.
    pub fn volgnummer(&self) -> u32 {
        self.toestand_id
            .as_deref()
            .and_then(|id| id.rsplit('/').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    }

    fn recency(&self) -> (Option<NaiveDate>, u32) {
        (self.geldig_vanaf, self.volgnummer())
    }
}

/// One version in the answer of `regeling versies`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Versie {
    /// The toestand id (`…/id/BWBR…/DATE/N`).
    pub toestand_id: Option<String>,
    /// First day in force.
    pub geldig_vanaf: Option<NaiveDate>,
    /// Last day in force; `None` when open.
    pub geldig_tot: Option<NaiveDate>,
    /// URL of the toestand XML.
    pub toestand_url: Option<String>,
}

/// Parses a `searchRetrieveResponse` (SRU 2.0 or 1.2).
///
/// Errors: diagnostics → [`KoopError::Diagnostic`]; non-XML, truncated XML, another root, a missing
/// `numberOfRecords` or a record without identifier → [`KoopError::Protocol`].
pub fn parse_search_response(body: &[u8]) -> Result<SearchResponse, KoopError> {
    if xml::clearly_not_xml(body) {
        return Err(ProtocolError::NotXml.into());
    }
    let mut reader = xml::reader(body);
    let mut path: Vec<Vec<u8>> = Vec::new();
    let mut text = String::new();
    let mut read = Collected::default();
    let mut seen_root = false;
    loop {
        let position = reader.buffer_position();
        let event = reader
            .read_event()
            .map_err(|e| xml::map_error(&e, position))?;
        match event {
            Event::Start(start) => {
                xml::check_depth(path.len(), position)?;
                let name = xml::local(start.name().as_ref()).to_vec();
                if path.is_empty() {
                    check_root(&name, seen_root)?;
                    seen_root = true;
                }
                read.start(&name, &path);
                path.push(name);
                text.clear();
            }
            Event::Empty(start) if path.is_empty() => {
                check_root(xml::local(start.name().as_ref()), seen_root)?;
                return Err(ProtocolError::MissingElement {
                    element: "numberOfRecords",
                }
                .into());
            }
            Event::Text(t) => text.push_str(&xml::text(&t, position)?),
            Event::CData(c) => text.push_str(&String::from_utf8_lossy(&c)),
            Event::GeneralRef(r) => text.push_str(&xml::reference(&r, position)?),
            Event::End(_) => {
                let Some(name) = path.pop() else { break };
                read.end(&name, text.trim(), path.len())?;
                text.clear();
                if path.is_empty() {
                    break;
                }
            }
            Event::Eof => {
                if seen_root {
                    return Err(ProtocolError::Truncated { position }.into());
                }
                return Err(ProtocolError::NotXml.into());
            }
            _ => {}
        }
    }
    read.response()
}

/// What a search response has said so far: its counts, its records and its first diagnostic,
/// and the record or diagnostic being read.
#[derive(Default)]
struct Collected {
    totaal: Option<u64>,
    volgende_start: Option<u64>,
    records: Vec<Record>,
    record: Option<Record>,
    diagnostic: Option<Diagnostic>,
    first_diagnostic: Option<Diagnostic>,
}

impl Collected {
    /// An element starts below `path`: a record (in `records`) or a diagnostic (outside a
    /// record) starts being read.
    fn start(&mut self, name: &[u8], path: &[Vec<u8>]) {
        match name {
            b"record" if self.record.is_none() && in_records(path) => {
                self.record = Some(empty_record());
            }
            b"diagnostic" if self.record.is_none() => {
                self.diagnostic = Some(Diagnostic::default());
            }
            _ => {}
        }
    }

    /// An element ends with its text `value`, `depth` elements deep: a field of the record or
    /// diagnostic being read (which ends with its own element), or a count of the response.
    fn end(&mut self, name: &[u8], value: &str, depth: usize) -> Result<(), KoopError> {
        if let Some(rec) = self.record.as_mut() {
            if name == b"record" {
                let done = self.record.take().expect("record present");
                if done.bwb_id.is_empty() {
                    return Err(ProtocolError::MissingElement {
                        element: "dcterms:identifier",
                    }
                    .into());
                }
                self.records.push(done);
            } else {
                fill_record(rec, name, value)?;
            }
        } else if let Some(diag) = self.diagnostic.as_mut() {
            match name {
                b"uri" => diag.uri = non_empty(value),
                b"message" => diag.message = non_empty(value),
                b"details" => diag.details = non_empty(value),
                b"diagnostic" => {
                    let done = self.diagnostic.take().expect("diagnostic present");
                    self.first_diagnostic.get_or_insert(done);
                }
                _ => {}
            }
        } else if depth == 1 {
            match name {
                b"numberOfRecords" => {
                    self.totaal = Some(parse_count("numberOfRecords", value)?);
                }
                b"nextRecordPosition" if !value.is_empty() => {
                    self.volgende_start = Some(parse_count("nextRecordPosition", value)?);
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The response read: its first diagnostic as the failure, else its counts and records.
    fn response(self) -> Result<SearchResponse, KoopError> {
        if let Some(diag) = self.first_diagnostic {
            return Err(KoopError::Diagnostic(diag));
        }
        let totaal = self.totaal.ok_or(ProtocolError::MissingElement {
            element: "numberOfRecords",
        })?;
        Ok(SearchResponse {
            totaal,
            volgende_start: self.volgende_start,
            records: self.records,
        })
    }
}

/// Keeps one record per BWB id, in order of first appearance. Per id it keeps the record valid on
/// `peildatum` (when given), otherwise the most recent one (latest start, then highest volgnummer).
pub fn dedup_by_id(records: Vec<Record>, peildatum: Option<NaiveDate>) -> Vec<Record> {
    let mut kept: Vec<Record> = Vec::with_capacity(records.len());
    for record in records {
        match kept.iter_mut().find(|r| r.bwb_id == record.bwb_id) {
            Some(existing) => {
                if better(&record, existing, peildatum) {
                    *existing = record;
                }
            }
            None => kept.push(record),
        }
    }
    kept
}

/// The record in force on `date`. When two overlap on a boundary day the later start wins (the new version
/// takes effect that day), then the highest volgnummer (a correction of the same date).
pub fn pick_valid_on(records: &[Record], date: NaiveDate) -> Option<&Record> {
    records
        .iter()
        .filter(|r| r.valid_on(date))
        .max_by_key(|r| r.recency())
}

/// The versions of one law sorted by start date, one per toestand id.
pub fn versions(records: &[Record]) -> Vec<Versie> {
    let mut list: Vec<&Record> = records.iter().collect();
    list.sort_by_key(|r| r.recency());
    list.dedup_by(|a, b| a.toestand_id.is_some() && a.toestand_id == b.toestand_id);
    list.into_iter()
        .map(|r| Versie {
            toestand_id: r.toestand_id.clone(),
            geldig_vanaf: r.geldig_vanaf,
            geldig_tot: r.geldig_tot,
            toestand_url: r.toestand_url.clone(),
        })
        .collect()
}

fn better(candidate: &Record, current: &Record, peildatum: Option<NaiveDate>) -> bool {
    if let Some(date) = peildatum {
        match (candidate.valid_on(date), current.valid_on(date)) {
            (true, false) => return true,
            (false, true) => return false,
            _ => {}
        }
    }
    candidate.recency() > current.recency()
}

fn check_root(name: &[u8], seen_root: bool) -> Result<(), KoopError> {
    if seen_root || name != b"searchRetrieveResponse" {
        return Err(ProtocolError::WrongRoot {
            expected: "searchRetrieveResponse",
            found: String::from_utf8_lossy(name).into_owned(),
        }
        .into());
    }
    Ok(())
}

fn in_records(path: &[Vec<u8>]) -> bool {
    path.last().is_some_and(|p| p == b"records")
}

fn empty_record() -> Record {
    Record {
        bwb_id: String::new(),
        titel: String::new(),
        regeling_type: None,
        rechtsgebieden: Vec::new(),
        overheidsdomeinen: Vec::new(),
        verantwoordelijke: None,
        geldig_vanaf: None,
        geldig_tot: None,
        toestand_id: None,
        toestand_url: None,
        wti_url: None,
        manifest_url: None,
        gewijzigd: None,
    }
}

fn fill_record(rec: &mut Record, name: &[u8], value: &str) -> Result<(), KoopError> {
    if value.is_empty() {
        return Ok(());
    }
    let first = |slot: &mut Option<String>| {
        if slot.is_none() {
            *slot = Some(value.to_owned());
        }
    };
    match name {
        b"identifier" if rec.bwb_id.is_empty() => rec.bwb_id = value.to_owned(),
        b"title" if rec.titel.is_empty() => rec.titel = value.to_owned(),
        b"type" => first(&mut rec.regeling_type),
        b"authority" => first(&mut rec.verantwoordelijke),
        b"rechtsgebied" => rec.rechtsgebieden.push(value.to_owned()),
        b"overheidsdomein" => rec.overheidsdomeinen.push(value.to_owned()),
        b"toestand" => first(&mut rec.toestand_id),
        b"locatie_toestand" => first(&mut rec.toestand_url),
        b"locatie_wti" => first(&mut rec.wti_url),
        b"locatie_manifest" => first(&mut rec.manifest_url),
        b"geldigheidsperiode_startdatum" => {
            rec.geldig_vanaf = Some(parse_date("geldigheidsperiode_startdatum", value)?)
        }
        b"geldigheidsperiode_einddatum" => {
            rec.geldig_tot = if value == OPEN_END {
                None
            } else {
                Some(parse_date("geldigheidsperiode_einddatum", value)?)
            };
        }
        b"modified" => rec.gewijzigd = parse_date("modified", value).ok(),
        _ => {}
    }
    Ok(())
}

fn parse_date(element: &'static str, value: &str) -> Result<NaiveDate, KoopError> {
    let date_part = value.get(..10).unwrap_or(value);
    NaiveDate::parse_from_str(date_part, "%Y-%m-%d").map_err(|_| {
        ProtocolError::BadValue {
            element,
            value: value.to_owned(),
        }
        .into()
    })
}

fn parse_count(element: &'static str, value: &str) -> Result<u64, KoopError> {
    value.parse().map_err(|_| {
        ProtocolError::BadValue {
            element,
            value: value.to_owned(),
        }
        .into()
    })
}

fn non_empty(value: &str) -> Option<String> {
    (!value.is_empty()).then(|| value.to_owned())
}
