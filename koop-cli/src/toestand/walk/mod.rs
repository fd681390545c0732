//! The streaming state machine behind [`super::parse_toestand`], [`super::extract_artikel`] and
//! [`super::artikel_nummers`]: one quick-xml pass, text rendered only where it is wanted.
//!
//! This file holds the pass itself: the event loop, the stack of open elements and where text goes
//! ([`Walk::with_sink`]). What an element means is in [`elements`]; short captured texts and koppen in
//! [`capture`]; the article being read in [`article`]; containers outside articles in [`container`].
//!
//! Bounded work: at most [`xml::MAX_DEPTH`] open elements (deeper input is
//! [`ProtocolError::TooDeep`]); the structural path is one string that grows and shrinks with the
//! containers (never rebuilt per article, capped in [`container`]); and every text writer of the pass
//! is limited to [`TEXT_PER_INPUT_BYTE`] bytes per input byte plus [`TEXT_SLACK`]
//! ([`ProtocolError::TooMuchText`] beyond it). Output and memory are therefore linear in the input.

mod article;
mod capture;
mod container;
mod elements;

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};
use quick_xml::name::QName;

use super::{Artikel, Regeling, Tekstdeel};
use crate::error::{KoopError, ProtocolError};
use crate::text::TextWriter;
use crate::xml;
use article::ArticleState;
use capture::{Capture, Kop};
use container::Container;
use elements::SKIPPED;

/// Bytes of rendered text one writer may hold per byte of input (plain text is shorter than its XML;
/// indentation and list markers add at most a few bytes per line, see [`crate::text`]).
pub(super) const TEXT_PER_INPUT_BYTE: usize = 4;
/// Bytes every writer may hold on top of that, for tiny inputs.
pub(super) const TEXT_SLACK: usize = 64 * 1024;

/// What the pass renders.
pub(super) enum Want {
    All,
    One(String),
    Numbers,
}

/// What an open element means for rendering.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tag {
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

/// The state of one pass over one toestand.
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
    /// The structural path of the open containers, e.g. `Hoofdstuk 5 / Afdeling 5.4`.
    pad: String,
    /// Most bytes one writer may hold.
    text_limit: usize,
    /// A writer reached `text_limit`.
    overflowed: bool,
}

impl<'a> Walk<'a> {
    /// A pass over `body` rendering what `want` asks; a body that is clearly not XML is refused at once.
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
            pad: String::new(),
            text_limit: body
                .len()
                .saturating_mul(TEXT_PER_INPUT_BYTE)
                .saturating_add(TEXT_SLACK),
            overflowed: false,
        })
    }

    /// Reads events until the root closes (or the wanted article is done); end of input before that is an error.
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
            if self.overflowed {
                return Err(ProtocolError::TooMuchText {
                    limit: self.text_limit,
                }
                .into());
            }
        }
        Ok(())
    }

    /// A writer for one text of this pass, limited to `text_limit` bytes.
    pub(super) fn writer(&self) -> TextWriter {
        TextWriter::with_limit(self.text_limit)
    }

    /// An opening tag: the root, a skipped element, an unwanted article's content, or a classified element.
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
        xml::check_depth(self.stack.len(), position)?;
        let parent = *self.stack.last().expect("root is open");
        if self.skipped_article(parent, name, Some(qname.as_ref()), position)? {
            return Ok(());
        }
        let tag = self.classify(start, name, parent);
        self.stack.push(tag);
        Ok(())
    }

    /// The root must be `toestand`; its attributes give the id and the first day of the version.
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
        self.containers.push(Container::root());
        Ok(())
    }

    /// A self-closing element: the root alone, an image or an empty table cell.
    fn empty(&mut self, start: &BytesStart<'a>, position: u64) -> Result<(), KoopError> {
        let qname = start.name();
        let name = xml::local(qname.as_ref());
        if self.stack.is_empty() {
            self.root(start, name)?;
            self.done = true;
            return Ok(());
        }
        let parent = *self.stack.last().expect("root is open");
        if self.skipped_article(parent, name, None, position)? {
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

    /// A closing tag: finishes whatever the matching opening tag began.
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

    /// Text and whitespace; whitespace alone never starts a text block.
    fn text(&mut self, text: &str) {
        if text.trim().is_empty() {
            self.with_sink(false, |w| w.text(text));
        } else {
            self.with_sink(true, |w| w.text(text));
        }
    }

    /// Skips the element just opened, with everything inside it.
    fn skip(&mut self, qname: QName<'_>, position: u64) -> Result<(), KoopError> {
        self.reader
            .read_to_end(qname)
            .map_err(|e| xml::map_error(&e, position))?;
        Ok(())
    }

    /// Applies `f` to the writer that receives text here; `create` makes a text block outside articles.
    /// A writer that reaches its limit sets `overflowed`, which ends the pass.
    fn with_sink(&mut self, create: bool, f: impl FnOnce(&mut TextWriter)) {
        let write = |w: &mut TextWriter, overflowed: &mut bool| {
            f(w);
            *overflowed |= w.overflowed();
        };
        if let Some(capture) = self.capture.as_mut() {
            return write(&mut capture.writer, &mut self.overflowed);
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
                    Some((_, writer)) => write(writer, &mut self.overflowed),
                    None => write(&mut article.writer, &mut self.overflowed),
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
            let pad = self.pad.clone();
            let writer = self.writer();
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
            container.writer = Some(writer);
        }
        if let Some(writer) = self.containers.last_mut().and_then(|c| c.writer.as_mut()) {
            write(writer, &mut self.overflowed);
        }
    }

    /// The whole law, after a pass in `All` mode; empty texts outside articles are dropped.
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

/// The trimmed, unescaped value of attribute `name`, if present and well-formed.
fn attribute(start: &BytesStart<'_>, name: &[u8]) -> Option<String> {
    let attr = start.try_get_attribute(name).ok().flatten()?;
    attr.unescape_value().ok().map(|v| v.trim().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_past_the_writers_limit_ends_the_pass() {
        let body = b"<toestand bwb-id=\"BWBR9900009\"><artikel><kop><nr>1</nr></kop>\
                     <al>een twee drie vier vijf</al></artikel></toestand>";
        let mut walk = Walk::new(body, Want::All).unwrap();
        walk.text_limit = 8;
        assert_eq!(
            walk.run(),
            Err(KoopError::Protocol(ProtocolError::TooMuchText { limit: 8 }))
        );
        let mut walk = Walk::new(body, Want::All).unwrap();
        walk.run().unwrap();
        assert_eq!(walk.artikelen[0].tekst, "een twee drie vier vijf");
    }
}
