//! Paging, the same in every tool (rule CONV-5): `--pagina N` (from 1), `--per-pagina N`
//! (1–100) and `--alles`, which follows the pages up to a documented cap.
//!
//! A command that pages flattens [`Paging`] into its arguments, checks it with
//! [`Paging::check`], and with `--alles` asks [`Alles`] before each further page; the cap
//! is [`MAX_PAGINAS`] pages or [`MAX_RESULTATEN`] results, whichever comes first. Every page is
//! an ordinary upstream request, so the invocation's deadline bounds them all together.

use serde_json::{Value, json};

use crate::data::validate::Validation;

/// The most pages `--alles` reads.
pub(crate) const MAX_PAGINAS: u32 = 10;
/// The most results `--alles` collects.
pub(crate) const MAX_RESULTATEN: usize = 1000;
/// The largest page number a command accepts.
pub const MAX_PAGINA: u32 = 1000;
/// The most results per page.
pub const MAX_PER_PAGINA: u32 = 100;

arguments! {
    /// `--pagina`, `--per-pagina`, `--alles`.
    #[derive(clap::Args, Debug, Clone, serde::Serialize)]
    pub struct Paging {
        /// Pagina (1–1000)
        #[arg(long, default_value_t = 1, value_name = "N")]
        pub pagina: u32 => {"type": "integer", "minimum": 1, "maximum": 1000},
        /// Resultaten per pagina
        #[arg(long, default_value_t = 10, value_name = "N")]
        pub per_pagina: u32 => {"type": "integer", "minimum": 1, "maximum": 100},
        /// Alle pagina's vanaf --pagina (tot 10 pagina's of 1000 resultaten)
        #[arg(long)]
        pub alles: bool => {"type": "boolean"},
    }
}

impl Paging {
    /// Record out-of-range values in `validation`.
    pub fn check(&self, validation: &mut Validation) {
        validation.check((1..=MAX_PAGINA).contains(&self.pagina), "pagina", || {
            format!(
                "pagina moet tussen 1 en {MAX_PAGINA} liggen (niet {})",
                self.pagina
            )
        });
        validation.check(
            (1..=MAX_PER_PAGINA).contains(&self.per_pagina),
            "per_pagina",
            || {
                format!(
                    "per-pagina moet tussen 1 en {MAX_PER_PAGINA} liggen (niet {})",
                    self.per_pagina
                )
            },
        );
    }

    /// The 1-based index of this page's first result.
    pub fn first_item(&self) -> u64 {
        u64::from(self.pagina.saturating_sub(1)) * u64::from(self.per_pagina) + 1
    }
}

/// The state of an `--alles` walk: pages read and results collected so far.
#[derive(Debug, Default)]
pub struct Alles {
    pages: u32,
    items: usize,
}

impl Alles {
    pub fn new() -> Self {
        Self::default()
    }

    /// Count one page read with `items` results.
    pub fn read(&mut self, items: usize) {
        self.pages += 1;
        self.items += items;
    }

    /// Whether the cap allows another page.
    pub fn may_continue(&self) -> bool {
        self.pages < MAX_PAGINAS && self.items < MAX_RESULTATEN
    }

    /// The `afgekapt` member of a walk that stopped at the cap while more pages were left:
    /// which limit stopped it, and how far it got.
    pub fn capped(&self) -> Value {
        let reden = if self.items >= MAX_RESULTATEN {
            format!("maximaal {MAX_RESULTATEN} resultaten")
        } else {
            format!("maximaal {MAX_PAGINAS} pagina's")
        };
        json!({
            "reden": reden,
            "paginas": self.pages,
            "resultaten": self.items.min(MAX_RESULTATEN),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_walk_stops_at_ten_pages_or_a_thousand_results() {
        let mut walk = Alles::new();
        for _ in 0..9 {
            walk.read(10);
        }
        assert!(walk.may_continue());
        walk.read(10);
        assert!(!walk.may_continue());
        assert_eq!(walk.capped()["reden"], "maximaal 10 pagina's");
        assert_eq!(walk.capped()["paginas"], 10);

        let mut big = Alles::new();
        for _ in 0..9 {
            big.read(100);
        }
        assert!(big.may_continue());
        big.read(100);
        assert!(!big.may_continue());
        assert_eq!(big.capped()["reden"], "maximaal 1000 resultaten");
        assert_eq!(big.capped()["resultaten"], 1000);
    }

    #[test]
    fn first_item_of_a_page() {
        let paging = |pagina, per_pagina| Paging {
            pagina,
            per_pagina,
            alles: false,
        };
        assert_eq!(paging(1, 10).first_item(), 1);
        assert_eq!(paging(3, 25).first_item(), 51);
        let mut v = Validation::new();
        paging(0, 101).check(&mut v);
        assert_eq!(v.finish().unwrap_err().errors.len(), 2);
    }
}
