//! The article being read: when it is decided whether it is rendered (by its number, in the
//! `One` and `Numbers` modes), skipping unwanted ones, its leden, and the finished [`Artikel`].

use quick_xml::events::BytesStart;
use quick_xml::name::QName;

use super::capture::Kop;
use super::{Tag, Walk, Want, attribute};
use crate::error::KoopError;
use crate::text::TextWriter;
use crate::toestand::{Artikel, Lid, normalise_nummer};
use crate::xml;

/// The open article: where it sits, its kop once read, and its text so far.
pub(super) struct ArticleState {
    pub(super) qname: Vec<u8>,
    pub(super) stack_len: usize,
    pub(super) label_attr: Option<String>,
    pub(super) variabel_deel: Option<String>,
    pub(super) pad: String,
    pub(super) kop: Option<Kop>,
    pub(super) decided: bool,
    pub(super) active: bool,
    pub(super) writer: TextWriter,
    pub(super) lid: Option<(String, TextWriter)>,
    pub(super) leden: Vec<Lid>,
}

impl<'a> Walk<'a> {
    /// Content of an article before (or without) its kop: decide now with the fallback number, and skip the
    /// article when it is not wanted. `opened` is the child element whose start tag was just read (none for
    /// a self-closing one): it is skipped first, so a child with the article's own name (a nested
    /// `artikel`) cannot end the article early. Returns true when it was skipped.
    pub(super) fn skipped_article(
        &mut self,
        parent: Tag,
        name: &[u8],
        opened: Option<&[u8]>,
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
            if let Some(child) = opened {
                self.reader
                    .read_to_end(QName(child))
                    .map_err(|e| xml::map_error(&e, position))?;
            }
            self.skip_article(position)?;
            return Ok(true);
        }
        Ok(false)
    }

    /// Opens an article; in `All` mode it is rendered at once, otherwise decided when its number is
    /// known. Until then it is rendered too, so that text before its kop is not lost when it is the
    /// one wanted.
    pub(super) fn begin_article(&mut self, start: &BytesStart<'a>) {
        let decided = matches!(self.want, Want::All);
        self.article = Some(ArticleState {
            qname: start.name().as_ref().to_vec(),
            stack_len: self.stack.len(),
            label_attr: attribute(start, b"label"),
            variabel_deel: attribute(start, b"bwb-ng-variabel-deel"),
            pad: self.pad.clone(),
            kop: None,
            decided,
            active: true,
            writer: self.writer(),
            lid: None,
            leden: Vec::new(),
        });
    }

    /// Decides, once the number is known (its kop has been read), whether the current article is
    /// rendered (`One`/`Numbers` modes). Content before the kop does not decide: the kop may still
    /// name the article (as a full parse takes it), so the article stays undecided and rendered.
    pub(super) fn decide_article(&mut self) {
        if self.article.as_ref().is_some_and(|a| a.kop.is_none()) {
            return;
        }
        self.decide_article_now();
    }

    /// Decides with what is known now: at the article's end, its kop or label attribute.
    fn decide_article_now(&mut self) {
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
    pub(super) fn skip_article(&mut self, position: u64) -> Result<(), KoopError> {
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

    /// Closes a lid: its text goes into the article's text after its number and into `leden`.
    pub(super) fn end_lid(&mut self) {
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
            self.overflowed |= article.writer.overflowed();
            article.leden.push(Lid { nummer, tekst });
        }
    }

    /// Closes the article: records its number and, when rendered, the finished [`Artikel`].
    pub(super) fn end_article(&mut self) {
        self.decide_article_now();
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
}

/// The number of an article: `kop/nr`, else the kop label, else `@label` without "Artikel ".
pub(super) fn article_number(article: &ArticleState) -> String {
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
