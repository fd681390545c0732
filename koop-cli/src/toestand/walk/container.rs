//! Containers outside the articles (hoofdstukken, afdelingen, bijlagen, aanhef, slot): the structural
//! path (`pad`) they make and the texts they hold outside their articles.

use super::Walk;
use crate::text::TextWriter;

/// An open container; the root container (`overig`) collects text directly under the root.
pub(super) struct Container {
    pub(super) soort: String,
    pub(super) structural: bool,
    pub(super) segment: Option<String>,
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
            segment: None,
            heading: None,
            writer: None,
            slot: 0,
        }
    }
}

impl<'a> Walk<'a> {
    /// Opens a container; `structural` ones add a segment to the path.
    pub(super) fn open_container(&mut self, name: &[u8], structural: bool) {
        self.containers.push(Container {
            soort: String::from_utf8_lossy(name).into_owned(),
            structural,
            segment: None,
            heading: None,
            writer: None,
            slot: 0,
        });
    }

    /// Closes a container (never the root one) and stores the text it held.
    pub(super) fn close_container(&mut self) {
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

    /// The structural path here, e.g. `Hoofdstuk 5 / Afdeling 5.4`.
    pub(super) fn pad(&self) -> String {
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
}
