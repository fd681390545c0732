//! Short texts captured whole: the parts of a kop (label, nr, titel), lid and list-item numbers, the
//! intitule and the citeertitel; and what a finished kop means for its article or container.

use super::{Tag, Walk};
use crate::error::KoopError;
use crate::text::TextWriter;

/// Which short text is being captured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CaptureKind {
    KopLabel,
    KopNr,
    KopTitel,
    LidNr,
    LiNr,
    Intitule,
    Citeertitel,
}

/// A capture in progress.
pub(super) struct Capture {
    pub(super) kind: CaptureKind,
    pub(super) writer: TextWriter,
}

/// The heading of an article or container: `label nr titel`.
#[derive(Default)]
pub(super) struct Kop {
    pub(super) label: String,
    pub(super) nr: String,
    pub(super) titel: String,
}

impl Kop {
    /// `label nr titel`, the parts present; none when all are empty.
    pub(super) fn heading(&self) -> Option<String> {
        let text = [self.label.as_str(), self.nr.as_str(), self.titel.as_str()]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" ");
        (!text.is_empty()).then_some(text)
    }
}

impl<'a> Walk<'a> {
    /// Starts capturing `kind`, unless a capture is already running (then the element is inline).
    pub(super) fn begin_capture(&mut self, kind: CaptureKind) -> Tag {
        if self.capture.is_none() {
            self.capture = Some(Capture {
                kind,
                writer: self.writer(),
            });
            Tag::Capture
        } else {
            Tag::Inline
        }
    }

    /// Stores the captured text where its kind belongs.
    pub(super) fn end_capture(&mut self) {
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

    /// A finished kop: it names the article (and decides it) or the container (path segment, heading).
    pub(super) fn end_kop(&mut self, position: u64) -> Result<(), KoopError> {
        let Some(kop) = self.kop.take() else {
            return Ok(());
        };
        if self.stack.last() == Some(&Tag::Artikel) {
            if let Some(article) = self.article.as_mut() {
                article.kop = Some(kop);
            }
            self.decide_article();
        } else if self.stack.last() == Some(&Tag::Container) {
            self.set_segment(segment(&kop));
            let Some(container) = self.containers.last_mut() else {
                return Ok(());
            };
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
}

/// The path segment of a container: `label nr`, or the titel when both are empty.
pub(super) fn segment(kop: &Kop) -> Option<String> {
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
