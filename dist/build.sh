#!/usr/bin/env bash
# The programs as they are shipped: static, position-independent Linux programs linked with musl
# (x86_64-unknown-linux-musl, or aarch64-unknown-linux-musl), each built alone, as
# `cargo install --locked` builds it.
#
#   dist/build.sh [--dev | --profile NAME] [--target TARGET] [PROGRAM ...]
#                                        (default: every *-cli program of the workspace)
#   dist/build.sh --list                 print those programs' names (what .ci/run checks)
#   dist/build.sh --target-dir           print cargo's target directory (the bench scripts')
#
# Prints the directory that holds them: target/<TARGET>/release, or .../debug with --dev (the dev
# profile, all in one build, as .ci/run checks them against the profile), or .../NAME with
# --profile NAME (any profile but release builds all in one build: for tests, not to ship).
# PROGRAM is a package with a program of the same name: a *-cli, overheid-mcp, profile-check.
#
# Why static: every call is a new process, and glibc's dynamic loader asks the processor about
# its features and caches at every start, some 70 `cpuid` instructions, each of which a virtual
# machine traps (about 8 µs each on the 2-core machine of bench/RESULTS.md, so 0.5 ms a call);
# musl's start-up asks nothing. musl's own allocator is slow, so the programs allocate with
# jemalloc there (as ripgrep does), but for regelrecht-cli, whose calls are mostly one small law
# per process: dlmalloc, which starts with less (each program's own `common::allocator!`, so
# building them all at once gives each its own). Installs
# what it needs when missing: the target's standard library (rustup), and a C compiler for the
# target, since ring, SQLite and jemalloc are C: for x86-64 musl-gcc (Debian package
# musl-tools), with which the bench's figures were taken; for arm64 `cargo zigbuild` with Zig
# (the PyPI packages cargo-zigbuild and ziglang, in a venv under the target directory), because
# Debian has no musl cross compiler and Zig carries musl's headers and C library for every target.
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
tools=()
while [ $# -gt 0 ]; do
  case $1 in
    --list) workspace tools; exit 0 ;;
    --target-dir) workspace target_dir; exit 0 ;;
    --dev) profile=dev ;;
    --profile) profile=${2:?--profile NAAM}; shift ;;
    --profile=*) profile=${1#--profile=} ;;
    --target) target=${2:?--target TARGET}; shift ;;
    --target=*) target=${1#--target=} ;;
    -*) echo "dist/build.sh: onbekende optie $1" >&2; exit 2 ;;
    *) tools+=("$1") ;;
  esac
  shift
done
case $profile in dev) dir=debug ;; *) dir=$profile ;; esac
if [ ${#tools[@]} -eq 0 ]; then
  read -r -a tools <<<"$(workspace tools)"
  [ ${#tools[@]} -gt 0 ] || { echo "dist/build.sh: geen programma's in de workspace" >&2; exit 1; }
fi

case $target in
  x86_64-unknown-linux-musl | aarch64-unknown-linux-musl) ;;
  *) echo "dist/build.sh: onbekend doel $target (x86_64-unknown-linux-musl, aarch64-unknown-linux-musl)" >&2; exit 2 ;;
esac
if [ ! -d "$(rustc --print sysroot)/lib/rustlib/$target/lib" ]; then
  rustup target add "$target" >&2
fi
install_debian() { # PACKAGE...: apt-get install, as root or through sudo
  local sudo=()
  [ "$(id -u)" = 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq >&2
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >&2
}
build=(cargo build)
case $target in
  x86_64-unknown-linux-musl)
    # musl-gcc compiles the C of ring, SQLite and jemalloc; jemalloc's build also runs make.
    missing=()
    command -v musl-gcc >/dev/null || missing+=(musl-tools)
    command -v make >/dev/null || missing+=(make)
    if [ ${#missing[@]} -gt 0 ]; then
      install_debian "${missing[@]}"
      command -v musl-gcc >/dev/null && command -v make >/dev/null ||
        { echo "dist/build.sh: musl-gcc en make zijn nodig (Debian: musl-tools, make)" >&2; exit 1; }
    fi
    ;;
  aarch64-unknown-linux-musl)
    # cargo-zigbuild hands cargo Zig's C compiler and linker for the target; both from PyPI,
    # pinned, in a venv of their own (python3-venv), found by cargo-zigbuild as `python3 -m ziglang`.
    venv="$(workspace target_dir)/dist-tools/zig"
    if [ ! -x "$venv/bin/cargo-zigbuild" ]; then
      python3 -c 'import venv, ensurepip' 2>/dev/null || install_debian python3-venv
      command -v make >/dev/null || install_debian make
      python3 -m venv "$venv" >&2
      "$venv/bin/pip" install --quiet --disable-pip-version-check ziglang==0.17.0 cargo-zigbuild==0.24.0 >&2
    fi
    export PATH="$venv/bin:$PATH"
    build=(cargo-zigbuild zigbuild)
    ;;
esac
if [ "$profile" != release ]; then
  # To test, not to ship: one build for all (features unified across them).
  "${build[@]}" --locked --quiet --target "$target" --profile "$profile" "${tools[@]/#/--package=}" >&2
else
  for tool in "${tools[@]}"; do
    "${build[@]}" --locked --quiet --target "$target" --release --package "$tool" >&2
  done
fi
echo "$(workspace target_dir)/$target/$dir"
