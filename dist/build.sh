#!/usr/bin/env bash
# The CLIs as they are shipped: static, position-independent x86-64 Linux programs linked with
# musl (target x86_64-unknown-linux-musl), each built alone, as `cargo install --locked` builds it.
#
#   dist/build.sh [--dev] [TOOL ...]    (default: every *-cli program of the workspace)
#   dist/build.sh --list                 print those programs' names (what .ci/run checks)
#   dist/build.sh --target-dir           print cargo's target directory (the bench scripts')
#
# Prints the directory that holds them: target/x86_64-unknown-linux-musl/release, or .../debug
# with --dev (the dev profile, all in one build, as .ci/run checks them against the profile).
#
# Why static: every call is a new process, and glibc's dynamic loader asks the processor about
# its features and caches at every start, some 70 `cpuid` instructions, each of which a virtual
# machine traps (about 8 µs each on the 2-core machine of bench/RESULTS.md, so 0.5 ms a call);
# musl's start-up asks nothing. musl's own allocator is slow, so the programs allocate with
# jemalloc there (`common`, as ripgrep does). Installs what it needs when missing: the target's
# standard library (rustup) and musl-gcc (Debian package musl-tools; ring, SQLite and jemalloc
# are C).
set -euo pipefail
cd "$(dirname "$0")/.."
# The workspace as cargo describes it: its target directory (CARGO_TARGET_DIR and cargo's
# configuration count) and the family's tools, by the rule overheid-mcp's DEFAULT_TOOLS test
# holds: every workspace package named `*-cli` with a program.
workspace() { # FIELD: target_dir or tools
  cargo metadata --no-deps --format-version 1 | python3 -c '
import json, sys
meta = json.load(sys.stdin)
if sys.argv[1] == "target_dir":
    print(meta["target_directory"])
else:
    print(" ".join(sorted(p["name"] for p in meta["packages"]
        if p["name"].endswith("-cli") and any("bin" in t["kind"] for t in p["targets"]))))' "$1"
}
target=x86_64-unknown-linux-musl
profile=release
dir=release
tools=()
for arg in "$@"; do
  case $arg in
    --list) workspace tools; exit 0 ;;
    --target-dir) workspace target_dir; exit 0 ;;
    --dev) profile=dev; dir=debug ;;
    -*) echo "dist/build.sh: onbekende optie $arg" >&2; exit 2 ;;
    *) tools+=("$arg") ;;
  esac
done
if [ ${#tools[@]} -eq 0 ]; then
  read -r -a tools <<<"$(workspace tools)"
  [ ${#tools[@]} -gt 0 ] || { echo "dist/build.sh: geen programma's in de workspace" >&2; exit 1; }
fi

if [ ! -d "$(rustc --print sysroot)/lib/rustlib/$target/lib" ]; then
  rustup target add "$target" >&2
fi
# musl-gcc compiles the C of ring, SQLite and jemalloc; jemalloc's build also runs make.
missing=()
command -v musl-gcc >/dev/null || missing+=(musl-tools)
command -v make >/dev/null || missing+=(make)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=()
  [ "$(id -u)" = 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq >&2
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
  command -v musl-gcc >/dev/null && command -v make >/dev/null ||
    { echo "dist/build.sh: musl-gcc en make zijn nodig (Debian: musl-tools, make)" >&2; exit 1; }
fi
if [ "$profile" = dev ]; then
  # To test, not to ship: one build for all (features unified across them).
  cargo build --locked --quiet --target "$target" "${tools[@]/#/--package=}" >&2
else
  for tool in "${tools[@]}"; do
    cargo build --locked --quiet --target "$target" --release --package "$tool" >&2
  done
fi
echo "$(workspace target_dir)/$target/$dir"
