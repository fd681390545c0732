//! Containers outside the articles (hoofdstukken, afdelingen, bijlagen, aanhef, slot): the structural
//! path (`pad`) they make and the texts they hold outside their articles.
//!
//! The path is one string of the walk: a structural container's kop appends its segment, closing the
//! container cuts the string back to where it began. It is capped at [`MAX_PAD_BYTES`] (real paths
//! are under 150 bytes): a segment that does not fit becomes `…` and deeper ones are left out, so
//! copying the path into each article costs a bounded number of bytes.

use super::Walk;
use crate::text::TextWriter;

/// Most bytes of a structural path before the `…` that ends a cut path.
pub(super) const MAX_PAD_BYTES: usize = 300;
/// What stands for the segments that did not fit.
const CUT: &str = "…";

/// An open container; the root container (`overig`) collects text directly under the root.
pub(super) struct Container {
    pub(super) soort: String,
    pub(super) structural: bool,
    /// Length of the walk's path when this container opened (before its own segment).
    pub(super) pad_len: usize,
    pub(super) heading: Option<String>,
    pub(super) writer: Option<TextWriter>,
    pub(super) slot: usize,
}

impl Container {
    /// The root container, for text that lies in no other container.
    pub(super) fn root() -> Self {
        Container {
            soort: "overig".into(),
            structural: false,
            pad_len: 0,
            heading: None,
            writer: None,
            slot: 0,
        }
    }
}

impl<'a> Walk<'a> {
    /// Opens a container; `structural` ones add a segment to the path once their kop is read.
    pub(super) fn open_container(&mut self, name: &[u8], structural: bool) {
        self.containers.push(Container {
            soort: String::from_utf8_lossy(name).into_owned(),
            structural,
            pad_len: self.pad.len(),
            heading: None,
            writer: None,
            slot: 0,
        });
    }

    /// Closes a container (never the root one), stores the text it held and drops its segment.
    pub(super) fn close_container(&mut self) {
        if self.containers.len() <= 1 {
            return;
        }
        let Some(container) = self.containers.pop() else {
            return;
        };
        self.pad.truncate(container.pad_len);
        if let Some(writer) = container.writer {
            self.overige[container.slot].tekst = writer.finish();
        }
    }

    /// Sets the segment of the innermost container (its kop was read); a second kop replaces it.
    pub(super) fn set_segment(&mut self, segment: Option<String>) {
        let Some(container) = self.containers.last() else {
            return;
        };
        if !container.structural {
            return;
        }
        self.pad.truncate(container.pad_len);
        if let Some(segment) = segment {
            push_segment(&mut self.pad, &segment);
        }
    }
}

/// Appends `segment` to `pad` with ` / ` between, or `…` when the path would pass [`MAX_PAD_BYTES`].
fn push_segment(pad: &mut String, segment: &str) {
    if pad.ends_with(CUT) {
        return;
    }
    let separator = if pad.is_empty() { "" } else { " / " };
    pad.push_str(separator);
    if pad.len() + segment.len() <= MAX_PAD_BYTES {
        pad.push_str(segment);
    } else {
        pad.push_str(CUT);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_join_until_the_cap_and_then_end_in_a_cut() {
        let mut pad = String::new();
        push_segment(&mut pad, "Hoofdstuk 5");
        push_segment(&mut pad, "Afdeling 5.4");
        assert_eq!(pad, "Hoofdstuk 5 / Afdeling 5.4");
        push_segment(&mut pad, &"x".repeat(MAX_PAD_BYTES));
        assert_eq!(pad, "Hoofdstuk 5 / Afdeling 5.4 / …");
        push_segment(&mut pad, "Paragraaf 5.4.1");
        assert_eq!(pad, "Hoofdstuk 5 / Afdeling 5.4 / …", "nothing after a cut");
        let mut long = String::new();
        for _ in 0..1000 {
            push_segment(&mut long, "Paragraaf 5.4.1");
        }
        assert!(long.len() <= MAX_PAD_BYTES + " / …".len(), "{}", long.len());
    }
}
