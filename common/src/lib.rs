//! The overheid CLI profile, implemented once for every tool of the family.
//!
//! A tool defines its commands with clap, declares what clap cannot express in
//! a [`ToolInfo`] side table, and hands control to [`main`]. Everything the
//! profile prescribes (discovery, output modes, `--fields`, `--provenance`,
//! structured errors and exit codes, dry runs, confirmed mutations, the audit
//! log, the HTTP client, the environment) lives here and nowhere else. The
//! normative text is `spec/CLI-PROFILE.md`.
//!
//! The code stands in floors, each folder using only the ones below it (`ARCHITECTURE.md`;
//! `tests/source_files.rs` fails on a cycle): `problem`, `data`, `process`, `print`, `net`,
//! `call`, `run`. They are private: what other crates use is re-exported below, item by item, by
//! the paths the tools know (`common::args::Peildatum`), so an item no other crate uses is
//! `pub(crate)` (the `unreachable_pub` lint holds it). Inside `common`, code names an item by its
//! module path (`crate::call::context::Context`), never through these re-exports.

/// The allocators a program of the static build chooses from with [`allocator!`] (`entry!`
/// gives a tool jemalloc). Each program declares its own, because a feature of this crate would
/// be unified across every program cargo builds at once. The glibc build keeps glibc's malloc.
#[cfg(target_env = "musl")]
#[doc(hidden)]
pub mod allocators {
    /// For a program that is mostly one small call per process (regelrecht-cli): jemalloc's own
    /// start (its arena, base and radix tree) takes 42 of a small law's 288 page faults, and
    /// filling a slab per size class an eighth of its instructions; dlmalloc (a Rust port of the
    /// allocator glibc's descends from) carves one heap. A small law then takes 50 faults and 14 %
    /// of its CPU less; a batch of 100,000 cases 15 % more CPU (dlmalloc takes one lock per
    /// allocation): `bench/RESULTS.md`, "One small law per process in the release archive". It
    /// cost `--help --json` 12 % too, when that call made 20,000 allocations; it makes 9,000 since
    /// it stopped copying its document (3.0-3.5 ms wall against 4.35 ms with jemalloc before).
    pub use dlmalloc::GlobalDlmalloc as Dlmalloc;
    /// musl's own allocator is slow (a batch of 100,000 cases took 1.4x as long with it;
    /// `bench/RESULTS.md`), so the programs use jemalloc, as ripgrep does.
    pub use tikv_jemallocator::Jemalloc;
}

/// Approvals only a person can give: the operator's policy, what an approval is for, and the
/// person's login (a floor between `net` and `call`; public as a whole, since the tools that
/// approve or verify use each of its parts).
pub mod approval;
mod call;
mod data;
mod net;
mod print;
mod problem;
mod process;
mod run;

pub use call::context::Context;
pub use call::plan::{Checked, Passed, PlanSpec};
pub use call::provenance::{Environment, Outcome};
pub use call::tool::{Annotations, ArgSchema, CommandSpec, ResourceSpec, ToolInfo};
pub use net::http::{Request, Response};
pub use problem::error::{Error, FieldError, Problem, Result};
pub use problem::exit::ExitStatus;
pub use process::env::{EnvKind, EnvVar};
pub use run::app::main;
pub use run::cli::Commands;

/// The version of the profile this crate implements.
pub const PROFILE_VERSION: &str = "2.0";

/// Arguments several tools share (`call::args`, `call::session`).
/// The audit record of a person's decision outside a command (the approval page).
pub mod audit {
    pub use crate::call::audit::decision::{Decided, DecisionAudit};
}

pub mod args {
    pub use crate::call::args::{
        KvkNummer, Lang, Peildatum, check_kvk_nummer, is_kvk_nummer, kvk_nummer_problem, parse_date,
    };
}

/// The response cache's prepared forms and settings (`net::cache`).
pub mod cache {
    pub use crate::net::cache::{PreparedForms, Settings};
}

/// The calendar date and time in the Netherlands (`data::calendar`).
pub mod calendar {
    pub use crate::data::calendar::{dutch_date, dutch_display};
}

/// Running another CLI of the family as a child (`call::child`).
pub mod child {
    pub use crate::call::child::{
        ChildFailure, Ending, EnvPolicy, Environment, Finished, Spawn, run, run_async, run_json,
    };
}

/// The registry of problem codes (`problem::codes`).
pub mod codes {
    pub use crate::problem::codes::{
        ANTWOORD_TE_GROOT, API_FOUT, BATCH_DEELS_GEFAALD, BELEID_ONGELDIG, BEVESTIGING_ONJUIST,
        BRON_ONBEREIKBAAR, Code, DELING_DOOR_NUL, GOEDKEURING_ONGELDIG, GOEDKEURING_VEREIST,
        IDEMPOTENTIE_CONFLICT, INTERNE_FOUT, LOGIN_NIET_VOLTOOID, NIET_GEVONDEN, NIET_TOEGESTAAN,
        OMLEIDING_GEWEIGERD, ONGELDIG, ONGELDIG_GEBRUIK, ONGELDIGE_INVOER,
        ONTVANGSTBEWIJS_AFWIJKEND, OPSLAG_BESCHADIGD, OPSLAG_FOUT, OPSLAG_ONBEREIKBAAR, PARSE_FOUT,
        SCENARIO_GEFAALD, TERMINAL_VEREIST, TIJDLIMIET_VERSTREKEN, TYPE_FOUT, VELD_ONTBREEKT,
        VOORSTEL_AFGEWEZEN, VOORSTEL_AL_GOEDGEKEURD, VOORSTEL_GEWIJZIGD, VOORSTEL_INGEDIEND,
        VOORSTEL_NIET_GOEDGEKEURD, VOORSTEL_ONBEKEND, VOORSTEL_VERLOPEN, WET_ONGELDIG,
        WETBESTAND_ONGELDIG,
    };
}

/// The tests every tool runs over its declarations (`run::consistency`), for
/// [`consistency_test!`].
#[doc(hidden)]
pub mod consistency {
    pub use crate::run::consistency::{named_parser_problems, tool_problems};
}

/// Hashes and canonical JSON (`data::digest`).
pub mod digest {
    pub use crate::data::digest::{canonical_json, canonical_sha256, sha256_hex};
}

/// Parts of the discovery document the bridge and the tests reuse (`run::discovery`).
pub mod discovery {
    pub use crate::run::discovery::{compact_entry, mcp_annotations};
}

/// The environment's names other crates read (`process::env`).
pub mod env {
    pub use crate::process::env::{
        CLI_DIR_VAR, FOREIGN_CLIENT, FOREIGN_PROCESSOR, FOREIGN_USER, KVK_SESSIE_NUMMER,
    };
}

/// The exit-code table (`problem::exit`).
pub mod exit {
    pub use crate::problem::exit::ExitStatus;
}

/// Help as clap would write it in English, for the conformance tests (`run::help`).
pub mod help {
    pub use crate::run::help::CLAP_ENGLISH;
}

/// The one HTTP client setup (`net::http`).
pub mod http {
    pub use crate::net::http::{
        ClientConfig, HttpClient, Request, Response, ensure_under, is_loopback,
    };
}

/// Ctrl-C while a command waits (`call::interrupt`).
pub mod interrupt {
    pub use crate::call::interrupt::{abandonable, arm, interrupted};
}

/// A JSON document named by a path argument (`data::input`).
pub mod input {
    pub use crate::data::input::{json_reason, read_json};
}

/// The one rule for a number a person types (`data::number`).
pub mod number {
    pub use crate::data::number::parse;
}

/// The one printer (`print::output`).
pub mod output {
    pub use crate::print::output::{Printer, stderr_is_terminal};
}

/// Paging, the same in every tool (`call::paging`).
pub mod paging {
    pub use crate::call::paging::{Alles, MAX_PAGINA, MAX_PER_PAGINA, Paging};
}

/// Request plans and the gate (`call::plan`).
pub mod plan {
    pub use crate::call::plan::{CALLER_TEXT, NOTICE, Passed, Plan, digest, optional_path, paths};
}

/// The `--provenance` envelope (`call::provenance`).
pub mod provenance {
    pub use crate::call::provenance::{COMPACT_MEMBERS, ProvenanceForm};
}

/// Text for people (`print::render`).
pub mod render {
    pub use crate::print::render::{is_bidi_or_separator, printable};
}

/// The KvK session rule (`call::session`).
pub mod session {
    pub use crate::call::session::{
        bound_kvk_number, enforce, enforce_owner, kvk_number, session_number,
    };
}

/// Secrets held by this process, masked wherever the family prints or records (`process::secrets`):
/// a crate that learns one outside the declared environment (the store URL's password) holds it.
pub mod secrets {
    pub use crate::process::secrets::{hold, scrub};
}

/// A source's base URL and its environment (`call::source`).
pub mod source {
    pub use crate::call::source::{Source, SourceSpec, joint, label};
}

/// TLS for the HTTP client and the shared store's connection (`net::tls`).
pub mod tls {
    pub use crate::net::tls::{UntrustedIssuer, client_config};
}

/// What a tool declares about itself (`call::tool`); `concat` and `commands_level` for
/// [`commands!`], `arg_id` and `join_schemas` for [`arguments!`].
pub mod tool {
    #[doc(hidden)]
    pub use crate::call::arguments::{arg_id, join_schemas};
    pub use crate::call::tool::{PATH_FORMAT, STDIN_JSON, STDIN_KEYWORD, shown_version};
    #[doc(hidden)]
    pub use crate::call::tool::{commands_level, concat};
}

/// W3C trace context (`process::trace`).
pub mod trace {
    pub use crate::process::trace::TraceContext;
}

/// Trusted directories and files (`process::trust`).
pub mod trust {
    pub use crate::process::trust::{check_dir, check_file};
}

/// Input validation that collects every problem (`data::validate`).
pub mod validate {
    pub use crate::data::validate::{Validation, is_digits};
}
