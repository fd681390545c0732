#!/usr/bin/env bash
# The CLIs as they are shipped: static, position-independent x86-64 Linux programs linked with
# musl (target x86_64-unknown-linux-musl), each built alone, as `cargo install --locked` builds it.
#
#   dist/build.sh [--dev] [TOOL ...]    (default: every *-cli program of the workspace)
#   dist/build.sh --list                 print those programs' names (what .ci/run checks)
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
# The family's tools, by the rule overheid-mcp's DEFAULT_TOOLS test holds: every workspace package
# named `*-cli` with a program.
family() {
  cargo metadata --no-deps --format-version 1 | python3 -c '
import json, sys
packages = json.load(sys.stdin)["packages"]
print(" ".join(sorted(p["name"] for p in packages
    if p["name"].endswith("-cli") and any("bin" in t["kind"] for t in p["targets"]))))'
}
if [ "${1:-}" = --list ]; then family; exit 0; fi
target=x86_64-unknown-linux-musl
profile=release
dir=release
if [ "${1:-}" = --dev ]; then profile=dev; dir=debug; shift; fi
tools=("$@")
[ ${#tools[@]} -gt 0 ] || read -r -a tools < <(family)

if [ ! -d "$(rustc --print sysroot)/lib/rustlib/$target/lib" ]; then
  rustup target add "$target" >&2
fi
if ! command -v musl-gcc >/dev/null; then
  sudo=
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq musl-tools >&2
fi
if [ "$profile" = dev ]; then
  # To test, not to ship: one build for all (features unified across them).
  cargo build --locked --quiet --target "$target" "${tools[@]/#/-p=}" >&2
else
  for tool in "${tools[@]}"; do
    cargo build --locked --quiet --target "$target" --release -p "$tool" >&2
  done
fi
echo "$PWD/target/$target/$dir"
