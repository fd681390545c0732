//! RegelRecht evaluation engine: loads machine-readable Dutch law (format v0.5.x), selects the
//! version in force on a calculation date and evaluates outputs lazily with exact decimals,
//! cross-law references, open terms (IoC), hooks and overrides, explaining each answer with a
//! trace and the article it comes from.
//!
//! ```no_run
//! use regelrecht_engine::{Corpus, Engine, Request, Value};
//! let mut corpus = Corpus::with_builtins();
//! corpus.add_dir(std::path::Path::new("corpus")).unwrap();
//! let request = Request {
//!     law_id: "besluit_activiteiten_leefomgeving".into(),
//!     outputs: vec!["heeft_informatieplicht".into()],
//!     params: [("elektriciteitsverbruik_kwh".to_string(), Value::int(60_000))].into(),
//!     date: chrono::NaiveDate::from_ymd_opt(2026, 1, 1).unwrap(),
//! };
//! let evaluation = Engine::new(&corpus).evaluate(&request).unwrap();
//! println!("{:?}", evaluation.outputs);
//! ```

#![allow(
    clippy::result_large_err,
    reason = "errors carry the names of what is missing and are returned on the cold path only"
)]

pub mod builtin;
pub mod data;
pub mod dates;
pub mod energy;
pub mod error;
pub mod eval;
pub mod expr;
pub mod format;
mod index;
pub mod law;
mod limits;
pub mod load;
pub mod notes;
pub mod ops;
pub mod origin;
pub mod params;
pub mod parse;
pub mod prepared;
pub mod resolve;
pub mod scan;
pub mod scenario;
mod scope;
pub mod trace;
mod units;
pub mod validate;
pub mod value;
mod walk;

pub use data::DataSources;
pub use dates::parse_iso_date;
pub use energy::{EnergyCheck, EnergyFacts, check_energiebesparing};
pub use error::{ErrorKind, EvalError, LoadError, LoadErrorKind};
pub use eval::untranslatable::UntranslatableMode;
pub use eval::{Basis, Engine, Evaluation, Request, Taint};
pub use law::{Article, Field, FieldType, Law};
pub use load::{Corpus, IndexStore, LawFile, Limits, Selection};
pub use origin::Origin;
pub use params::{ParamError, TypedParams, typed_params};
pub use prepared::{Prepared, PreparedStore};
pub use scan::Summary;
pub use trace::{TraceKind, TraceNode};
pub use value::Value;
