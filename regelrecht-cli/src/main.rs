//! regelrecht-cli: machine-readable Dutch law (RegelRecht format) evaluated offline, with its
//! legal basis, following the overheid CLI profile. The binary's modules live under `src/cli/`.

mod cli;

// One small law per process: the static build allocates with dlmalloc, which starts with less
// than jemalloc (`common::allocators`).
common::entry!(cli::Command, &cli::tool::TOOL, dlmalloc);
