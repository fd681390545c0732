//! koop-cli: Dutch legislation (BWB) from the KOOP SRU search service and the official toestand XML,
//! following the overheid CLI profile.

mod cli;

common::entry!(cli::Command, &cli::tool::TOOL);
