//! The streaming state machine behind [`super::parse_toestand`], [`super::extract_artikel`] and
//! [`super::artikel_nummers`]: one quick-xml pass, text rendered only where it is wanted.

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};
use quick_xml::name::QName;

use super::{Artikel, Lid, Regeling, Tekstdeel, normalise_nummer};
use crate::error::{KoopError, ProtocolError};
use crate::text::TextWriter;
use crate::xml;

/// What the pass renders.
pub(super) enum Want {
    All,
    One(String),
    Numbers,
}

/// What an open element means for rendering.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tag {
    Inline,
    Block,
    Spaced,
    List,
    Item,
    Row,
    Cell,
    Kop,
    Capture,
    Lid,
    Artikel,
    Container,
    Root,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CaptureKind {
    KopLabel,
    KopNr,
    KopTitel,
    LidNr,
    LiNr,
    Intitule,
    Citeertitel,
}

struct Capture {
    kind: CaptureKind,
    writer: TextWriter,
}

#[derive(Default)]
struct Kop {
    label: String,
    nr: String,
    titel: String,
}

impl Kop {
    fn heading(&self) -> Option<String> {
        let text = [self.label.as_str(), self.nr.as_str(), self.titel.as_str()]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" ");
        (!text.is_empty()).then_some(text)
    }
}

struct Container {
    soort: String,
    structural: bool,
    segment: Option<String>,
    heading: Option<String>,
    writer: Option<TextWriter>,
    slot: usize,
}

struct ArticleState {
    qname: Vec<u8>,
    stack_len: usize,
    label_attr: Option<String>,
    variabel_deel: Option<String>,
    pad: String,
    kop: Option<Kop>,
    decided: bool,
    active: bool,
    writer: TextWriter,
    lid: Option<(String, TextWriter)>,
    leden: Vec<Lid>,
}

pub(super) struct Walk<'a> {
    reader: Reader<&'a [u8]>,
    want: Want,
    stack: Vec<Tag>,
    seen_root: bool,
    done: bool,
    pub(super) bwb_id: String,
    pub(super) titel: String,
    pub(super) citeertitel: Option<String>,
    pub(super) soort: Option<String>,
    pub(super) inwerkingtreding: Option<String>,
    containers: Vec<Container>,
    article: Option<ArticleState>,
    kop: Option<Kop>,
    capture: Option<Capture>,
    pub(super) numbers: Vec<String>,
    pub(super) artikelen: Vec<Artikel>,
    overige: Vec<Tekstdeel>,
}

const SKIPPED: &[&[u8]] = &[
    b"meta-data",
    b"bwb-inputbestand",
    b"bwb-wijzigingen",
    b"redactionele-correcties",
    b"jcis",
    b"brondata",
    b"colspec",
    b"spanspec",
];

const STRUCTURAL: &[&[u8]] = &[
    b"boek",
    b"deel",
    b"titeldeel",
    b"hoofdstuk",
    b"afdeling",
    b"paragraaf",
    b"sub-paragraaf",
    b"subparagraaf",
    b"divisie",
    b"circulaire.divisie",
    b"bijlage",
];

const SECTIONS: &[&[u8]] = &[
    b"aanhef",
    b"wetsluiting",
    b"wettekst-slot",
    b"slotbepalingen",
    b"nota-toelichting",
];

const BLOCKS: &[&[u8]] = &[
    b"al",
    b"al-groep",
    b"considerans",
    b"considerans.al",
    b"wij",
    b"afkondiging",
    b"slotformulering",
    b"redactie",
    b"tussenkop",
    b"gegeven",
    b"dagtekening",
    b"koning",
    b"ondertekening",
    b"functie",
    b"naam",
    b"uitgifte",
    b"tabel",
    b"table",
    b"title",
    b"kop",
    b"formule",
    b"vervallen",
];

const SPACED: &[&[u8]] = &[b"voornaam", b"achternaam", b"plaats", b"datum"];

impl<'a> Walk<'a> {
    pub(super) fn new(body: &'a [u8], want: Want) -> Result<Self, KoopError> {
        if xml::clearly_not_xml(body) {
            return Err(ProtocolError::NotXml.into());
        }
        Ok(Self {
            reader: xml::reader(body),
            want,
            stack: Vec::with_capacity(32),
            seen_root: false,
            done: false,
            bwb_id: String::new(),
            titel: String::new(),
            citeertitel: None,
            soort: None,
            inwerkingtreding: None,
            containers: Vec::new(),
            article: None,
            kop: None,
            capture: None,
            numbers: Vec::new(),
            artikelen: Vec::new(),
            overige: Vec::new(),
        })
    }

    pub(super) fn run(&mut self) -> Result<(), KoopError> {
        while !self.done {
            let position = self.reader.buffer_position();
            let event = self
                .reader
                .read_event()
                .map_err(|e| xml::map_error(&e, position))?;
            match event {
                Event::Start(start) => self.start(&start, position)?,
                Event::Empty(start) => self.empty(&start, position)?,
                Event::End(_) => self.end(position)?,
                Event::Text(t) => {
                    let text = xml::text(&t, position)?;
                    self.text(&text);
                }
                Event::CData(c) => self.text(&String::from_utf8_lossy(&c)),
                Event::GeneralRef(r) => {
                    let text = xml::reference(&r, position)?;
                    self.text(&text);
                }
                Event::Eof => {
                    return Err(if self.seen_root {
                        ProtocolError::Truncated { position }.into()
                    } else {
                        ProtocolError::NotXml.into()
                    });
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn start(&mut self, start: &BytesStart<'a>, position: u64) -> Result<(), KoopError> {
        let qname = start.name();
        let name = xml::local(qname.as_ref());
        if self.stack.is_empty() {
            self.root(start, name)?;
            self.stack.push(Tag::Root);
            return Ok(());
        }
        if SKIPPED.contains(&name) {
            return self.skip(qname, position);
        }
        let parent = *self.stack.last().expect("root is open");
        if self.skipped_article(parent, name, position)? {
            return Ok(());
        }
        let tag = self.classify(start, name, parent);
        self.stack.push(tag);
        Ok(())
    }

    /// Content of an article before (or without) its kop: decide now with the fallback number, and skip the
    /// article when it is not wanted. Returns true when it was skipped.
    fn skipped_article(
        &mut self,
        parent: Tag,
        name: &[u8],
        position: u64,
    ) -> Result<bool, KoopError> {
        if parent != Tag::Artikel || name == b"kop" {
            return Ok(false);
        }
        self.decide_article();
        if self
            .article
            .as_ref()
            .is_some_and(|a| a.decided && !a.active)
        {
            self.skip_article(position)?;
            return Ok(true);
        }
        Ok(false)
    }

    fn root(&mut self, start: &BytesStart<'a>, name: &[u8]) -> Result<(), KoopError> {
        if name != b"toestand" {
            return Err(ProtocolError::WrongRoot {
                expected: "toestand",
                found: String::from_utf8_lossy(name).into_owned(),
            }
            .into());
        }
        self.seen_root = true;
        self.bwb_id = attribute(start, b"bwb-id").unwrap_or_default();
        self.inwerkingtreding = attribute(start, b"inwerkingtreding");
        self.containers.push(Container {
            soort: "overig".into(),
            structural: false,
            segment: None,
            heading: None,
            writer: None,
            slot: 0,
        });
        Ok(())
    }

    fn classify(&mut self, start: &BytesStart<'a>, name: &[u8], parent: Tag) -> Tag {
        if self.soort.is_none() && self.stack.len() == 1 {
            self.soort = attribute(start, b"soort");
        }
        if parent == Tag::Kop {
            let kind = match name {
                b"label" => Some(CaptureKind::KopLabel),
                b"nr" => Some(CaptureKind::KopNr),
                b"titel" => Some(CaptureKind::KopTitel),
                _ => None,
            };
            return match kind {
                Some(kind) => self.begin_capture(kind),
                None => Tag::Inline,
            };
        }
        match name {
            b"intitule" if self.article.is_none() && self.titel.is_empty() => {
                self.begin_capture(CaptureKind::Intitule)
            }
            b"citeertitel" if self.article.is_none() && self.citeertitel.is_none() => {
                self.begin_capture(CaptureKind::Citeertitel)
            }
            b"kop" if matches!(parent, Tag::Artikel | Tag::Container) && self.capture.is_none() => {
                self.kop = Some(Kop::default());
                Tag::Kop
            }
            b"artikel" if self.article.is_none() && self.capture.is_none() => {
                self.begin_article(start);
                Tag::Artikel
            }
            b"lid" if parent == Tag::Artikel => {
                if let Some(article) = self.article.as_mut() {
                    article.lid = Some((String::new(), TextWriter::new()));
                }
                Tag::Lid
            }
            b"lidnr" if parent == Tag::Lid => self.begin_capture(CaptureKind::LidNr),
            b"li.nr" if parent == Tag::Item => self.begin_capture(CaptureKind::LiNr),
            b"lijst" => {
                self.with_sink(false, TextWriter::open_list);
                Tag::List
            }
            b"li" => {
                self.with_sink(false, TextWriter::open_item);
                Tag::Item
            }
            b"row" => {
                self.with_sink(false, TextWriter::open_row);
                Tag::Row
            }
            b"entry" => {
                self.with_sink(true, TextWriter::open_cell);
                Tag::Cell
            }
            _ if self.article.is_none() && self.capture.is_none() && STRUCTURAL.contains(&name) => {
                self.open_container(name, true);
                Tag::Container
            }
            _ if self.article.is_none() && self.capture.is_none() && SECTIONS.contains(&name) => {
                self.open_container(name, false);
                Tag::Container
            }
            _ if BLOCKS.contains(&name) => {
                self.with_sink(false, TextWriter::block_break);
                Tag::Block
            }
            _ if SPACED.contains(&name) => {
                self.with_sink(false, TextWriter::soft_space);
                Tag::Spaced
            }
            _ => Tag::Inline,
        }
    }

    fn empty(&mut self, start: &BytesStart<'a>, position: u64) -> Result<(), KoopError> {
        let qname = start.name();
        let name = xml::local(qname.as_ref());
        if self.stack.is_empty() {
            self.root(start, name)?;
            self.done = true;
            return Ok(());
        }
        let parent = *self.stack.last().expect("root is open");
        if self.skipped_article(parent, name, position)? {
            return Ok(());
        }
        match name {
            b"illustratie" | b"plaatje" => self.with_sink(true, |w| w.text(" [afbeelding] ")),
            b"entry" => self.with_sink(true, |w| {
                w.open_cell();
                w.close_cell();
            }),
            _ => {}
        }
        Ok(())
    }

    fn end(&mut self, position: u64) -> Result<(), KoopError> {
        let Some(tag) = self.stack.pop() else {
            return Ok(());
        };
        match tag {
            Tag::Root => self.done = true,
            Tag::Capture => self.end_capture(),
            Tag::Kop => self.end_kop(position)?,
            Tag::Lid => self.end_lid(),
            Tag::Artikel => self.end_article(),
            Tag::Container => self.close_container(),
            Tag::Block => self.with_sink(false, TextWriter::block_break),
            Tag::Item => self.with_sink(false, TextWriter::close_item),
            Tag::Row => self.with_sink(false, TextWriter::block_break),
            Tag::List => self.with_sink(false, TextWriter::close_list),
            Tag::Cell => self.with_sink(false, TextWriter::close_cell),
            Tag::Spaced => self.with_sink(false, TextWriter::soft_space),
            Tag::Inline => {}
        }
        Ok(())
    }

    fn text(&mut self, text: &str) {
        if text.trim().is_empty() {
            self.with_sink(false, |w| w.text(text));
        } else {
            self.with_sink(true, |w| w.text(text));
        }
    }

    fn skip(&mut self, qname: QName<'_>, position: u64) -> Result<(), KoopError> {
        self.reader
            .read_to_end(qname)
            .map_err(|e| xml::map_error(&e, position))?;
        Ok(())
    }

    /// Applies `f` to the writer that receives text here; `create` makes a text block outside articles.
    fn with_sink(&mut self, create: bool, f: impl FnOnce(&mut TextWriter)) {
        if let Some(capture) = self.capture.as_mut() {
            return f(&mut capture.writer);
        }
        if self.kop.is_some() {
            return;
        }
        if create && self.article.as_ref().is_some_and(|a| !a.decided) {
            self.decide_article();
        }
        if let Some(article) = self.article.as_mut() {
            if article.active {
                match article.lid.as_mut() {
                    Some((_, writer)) => f(writer),
                    None => f(&mut article.writer),
                }
            }
            return;
        }
        if !matches!(self.want, Want::All) {
            return;
        }
        let needs_writer = self.containers.last().is_some_and(|c| c.writer.is_none());
        if needs_writer {
            if !create {
                return;
            }
            let pad = self.pad();
            let slot = self.overige.len();
            let Some(container) = self.containers.last_mut() else {
                return;
            };
            self.overige.push(Tekstdeel {
                soort: container.soort.clone(),
                kop: container.heading.clone(),
                pad,
                tekst: String::new(),
            });
            container.slot = slot;
            container.writer = Some(TextWriter::new());
        }
        if let Some(writer) = self.containers.last_mut().and_then(|c| c.writer.as_mut()) {
            f(writer);
        }
    }

    fn begin_capture(&mut self, kind: CaptureKind) -> Tag {
        if self.capture.is_none() {
            self.capture = Some(Capture {
                kind,
                writer: TextWriter::new(),
            });
            Tag::Capture
        } else {
            Tag::Inline
        }
    }

    fn end_capture(&mut self) {
        let Some(capture) = self.capture.take() else {
            return;
        };
        let text = capture.writer.finish_line();
        match capture.kind {
            CaptureKind::KopLabel => self.kop.get_or_insert_with(Kop::default).label = text,
            CaptureKind::KopNr => self.kop.get_or_insert_with(Kop::default).nr = text,
            CaptureKind::KopTitel => self.kop.get_or_insert_with(Kop::default).titel = text,
            CaptureKind::LidNr => {
                if let Some((nummer, _)) = self.article.as_mut().and_then(|a| a.lid.as_mut()) {
                    *nummer = text;
                }
            }
            CaptureKind::LiNr => self.with_sink(true, |w| w.prefix(&text)),
            CaptureKind::Intitule => self.titel = text,
            CaptureKind::Citeertitel => self.citeertitel = Some(text),
        }
    }

    fn end_kop(&mut self, position: u64) -> Result<(), KoopError> {
        let Some(kop) = self.kop.take() else {
            return Ok(());
        };
        if self.stack.last() == Some(&Tag::Artikel) {
            if let Some(article) = self.article.as_mut() {
                article.kop = Some(kop);
            }
            self.decide_article();
        } else if self.stack.last() == Some(&Tag::Container)
            && let Some(container) = self.containers.last_mut()
        {
            container.segment = segment(&kop);
            container.heading = kop.heading();
            if let Some(slot) = container.writer.as_ref().map(|_| container.slot) {
                self.overige[slot].kop = container.heading.clone();
            }
        }
        if self
            .article
            .as_ref()
            .is_some_and(|a| a.decided && !a.active)
        {
            self.skip_article(position)?;
        }
        Ok(())
    }

    fn begin_article(&mut self, start: &BytesStart<'a>) {
        let active = matches!(self.want, Want::All);
        self.article = Some(ArticleState {
            qname: start.name().as_ref().to_vec(),
            stack_len: self.stack.len(),
            label_attr: attribute(start, b"label"),
            variabel_deel: attribute(start, b"bwb-ng-variabel-deel"),
            pad: self.pad(),
            kop: None,
            decided: active,
            active,
            writer: TextWriter::new(),
            lid: None,
            leden: Vec::new(),
        });
    }

    /// Decides, once the number is known, whether the current article is rendered (`One`/`Numbers` modes).
    fn decide_article(&mut self) {
        let Some(article) = self.article.as_mut() else {
            return;
        };
        if article.decided {
            return;
        }
        article.decided = true;
        let nummer = article_number(article);
        article.active = match &self.want {
            Want::All => true,
            Want::One(wanted) => normalise_nummer(&nummer) == *wanted,
            Want::Numbers => false,
        };
    }

    /// Skips the rest of an article that is not wanted, keeping only its number.
    fn skip_article(&mut self, position: u64) -> Result<(), KoopError> {
        let Some(article) = self.article.take() else {
            return Ok(());
        };
        self.capture = None;
        self.kop = None;
        self.numbers.push(article_number(&article));
        self.stack.truncate(article.stack_len);
        self.reader
            .read_to_end(QName(&article.qname))
            .map_err(|e| xml::map_error(&e, position))?;
        Ok(())
    }

    fn end_lid(&mut self) {
        let Some(article) = self.article.as_mut() else {
            return;
        };
        let Some((nummer, writer)) = article.lid.take() else {
            return;
        };
        let tekst = writer.finish();
        if article.active {
            let prefix = if nummer.is_empty() || nummer.ends_with('.') {
                nummer.clone()
            } else {
                format!("{nummer}.")
            };
            article.writer.numbered_block(&prefix, &tekst);
            article.leden.push(Lid { nummer, tekst });
        }
    }

    fn end_article(&mut self) {
        self.decide_article();
        let Some(article) = self.article.take() else {
            return;
        };
        let nummer = article_number(&article);
        if !article.active {
            self.numbers.push(nummer);
            return;
        }
        if matches!(self.want, Want::One(_)) {
            self.done = true;
        }
        self.numbers.push(nummer.clone());
        let kop = article.kop.unwrap_or_default();
        let label = article.label_attr.clone().unwrap_or_else(|| {
            [kop.label.as_str(), kop.nr.as_str()]
                .iter()
                .filter(|s| !s.is_empty())
                .copied()
                .collect::<Vec<_>>()
                .join(" ")
        });
        let anker = match article
            .variabel_deel
            .as_deref()
            .map(|v| v.trim_matches('/'))
        {
            Some(v) if !v.is_empty() => v.replace('/', "_"),
            _ => format!("Artikel{}", nummer.replace(char::is_whitespace, "")),
        };
        self.artikelen.push(Artikel {
            nummer,
            label,
            titel: (!kop.titel.is_empty()).then_some(kop.titel),
            pad: article.pad,
            tekst: article.writer.finish(),
            leden: article.leden,
            anker,
        });
    }

    fn open_container(&mut self, name: &[u8], structural: bool) {
        self.containers.push(Container {
            soort: String::from_utf8_lossy(name).into_owned(),
            structural,
            segment: None,
            heading: None,
            writer: None,
            slot: 0,
        });
    }

    fn close_container(&mut self) {
        if self.containers.len() <= 1 {
            return;
        }
        let Some(container) = self.containers.pop() else {
            return;
        };
        if let Some(writer) = container.writer {
            self.overige[container.slot].tekst = writer.finish();
        }
    }

    fn pad(&self) -> String {
        let mut pad = String::new();
        for segment in self
            .containers
            .iter()
            .filter(|c| c.structural)
            .filter_map(|c| c.segment.as_deref())
        {
            if !pad.is_empty() {
                pad.push_str(" / ");
            }
            pad.push_str(segment);
        }
        pad
    }

    pub(super) fn into_regeling(mut self) -> Regeling {
        if let Some(root) = self.containers.first_mut().and_then(|c| c.writer.take()) {
            self.overige[0].tekst = root.finish();
        }
        self.overige.retain(|t| !t.tekst.is_empty());
        Regeling {
            bwb_id: self.bwb_id,
            titel: self.titel,
            citeertitel: self.citeertitel,
            soort: self.soort,
            inwerkingtreding: self.inwerkingtreding,
            artikelen: self.artikelen,
            overige_teksten: self.overige,
        }
    }
}

fn segment(kop: &Kop) -> Option<String> {
    let text = [kop.label.as_str(), kop.nr.as_str()]
        .iter()
        .filter(|s| !s.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    if text.is_empty() {
        (!kop.titel.is_empty()).then(|| kop.titel.clone())
    } else {
        Some(text)
    }
}

fn article_number(article: &ArticleState) -> String {
    if let Some(kop) = &article.kop {
        if !kop.nr.is_empty() {
            return kop.nr.clone();
        }
        if !kop.label.is_empty() {
            return kop.label.clone();
        }
    }
    match article.label_attr.as_deref() {
        Some(label) => label
            .strip_prefix("Artikel ")
            .unwrap_or(label)
            .trim()
            .to_owned(),
        None => String::new(),
    }
}

fn attribute(start: &BytesStart<'_>, name: &[u8]) -> Option<String> {
    let attr = start.try_get_attribute(name).ok().flatten()?;
    attr.unescape_value().ok().map(|v| v.trim().to_owned())
}
