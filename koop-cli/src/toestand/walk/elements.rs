//! What each element of a toestand means to the pass: the element tables (skipped, structural,
//! sections, blocks, spaced) and [`Walk::classify`], which opens the matching state for an element.

use quick_xml::events::BytesStart;

use super::capture::{CaptureKind, Kop};
use super::{Tag, Walk, attribute};
use crate::text::TextWriter;

/// Elements skipped whole: metadata and CALS column specifications.
pub(super) const SKIPPED: &[&[u8]] = &[
    b"meta-data",
    b"bwb-inputbestand",
    b"bwb-wijzigingen",
    b"redactionele-correcties",
    b"jcis",
    b"brondata",
    b"colspec",
    b"spanspec",
];

/// Containers that add a segment to the structural path (`pad`).
pub(super) const STRUCTURAL: &[&[u8]] = &[
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

/// Containers outside the articles whose text is kept, without a path segment.
pub(super) const SECTIONS: &[&[u8]] = &[
    b"aanhef",
    b"wetsluiting",
    b"wettekst-slot",
    b"slotbepalingen",
    b"nota-toelichting",
];

/// Elements that start and end a block of text.
pub(super) const BLOCKS: &[&[u8]] = &[
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

/// Inline elements separated from their neighbours by a space.
pub(super) const SPACED: &[&[u8]] = &[b"voornaam", b"achternaam", b"plaats", b"datum"];

impl<'a> Walk<'a> {
    /// The tag for `start` under `parent`, opening the capture, kop, article, lid, list or container it begins.
    pub(super) fn classify(&mut self, start: &BytesStart<'a>, name: &[u8], parent: Tag) -> Tag {
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
                let writer = self.writer();
                if let Some(article) = self.article.as_mut() {
                    article.lid = Some((String::new(), writer));
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
}
