//! sjabloon: a read-only tool of the overheid CLI family, to copy for a new source. The
//! commands and what the tool declares about itself live under `src/cli/`; `common::entry!`
//! runs them with the profile (parsing, discovery, the gate, the printer, the audit record).

mod cli;

common::entry!(cli::Command, &cli::tool::TOOL);
