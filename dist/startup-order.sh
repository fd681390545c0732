#!/usr/bin/env bash
# Relinks a shipped program with the functions its calls run placed together (a start-up order),
# learnt from the program itself at release time and never checked in, so it cannot go stale.
#
#   dist/startup-order.sh [--profile NAME] PROGRAM
#
# dist/release.sh runs it for the release profile (the default), x86-64; .ci/run runs it on the
# dev build, so that every step of it (the training, the order, the relink and the comparison) is
# tried on every change, not only when a release is made.
#
# Every call is a new process, and the kernel maps a program's code as it is first run, 64 KiB
# around each page touched. Left to the linker, the code of one small law lies spread over some 70
# of those windows of regelrecht-cli's 9 MB of code; placed together, over about 15. That is
# fewer page faults, less to map and unmap, and less resident memory: bench/RESULTS.md ("One small
# law per process in the release archive") measured 10 % less CPU and 2.8 instead of 6.5 MiB of
# peak RSS per call. (The order that was checked in until issue 42 item 7 aged with every
# refactoring; this one is made from the build being shipped.)
#
# How: the program as dist/build.sh builds it (x86_64-unknown-linux-musl, release, built alone),
# linked once with its symbols kept, runs the training calls below under callgrind (valgrind),
# which names every function they ran; then the program is linked again, stripped, by rust-lld
# (the toolchain's, handed to the compiler driver as rustc does for the glibc target) with those
# names as `--symbol-ordering-file`. Only the final link runs twice (cargo rustc: the dependencies
# are not rebuilt). The relinked program answers the training calls byte for byte as the program
# dist/build.sh built, or this script fails (and a failing training call fails it, with that
# call's error). Without rust-lld it fails too: a release is not shipped without its order.
# Prints nothing on stdout; what it did on stderr.
#
# Training calls exist for regelrecht-cli (one small law, read and then from its prepared form in
# the cache, `--help --json`, and the main job); a program without them is left as built. Installs
# valgrind from Debian when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
profile=release
if [ "${1:-}" = --profile ]; then
  profile=${2:?--profile NAAM}
  shift 2
fi
program=${1:?PROGRAM}
target=x86_64-unknown-linux-musl

law=regelrecht-cli/engine/laws/erkende_maatregelenlijst_energiebesparing/2024-01-01.yaml
case $program in
  regelrecht-cli)
    training=(
      "evalueer erkende_maatregelenlijst_energiebesparing --uitvoer gc1_van_toepassing --peildatum 2025-01-01 --corpus $PWD/$law"
      "evalueer erkende_maatregelenlijst_energiebesparing --uitvoer gc1_van_toepassing --peildatum 2025-01-01 --corpus $PWD/$law"
      "--help --json"
      "check energiebesparing 68750110 --elektriciteit-kwh 62000 --gas-m3 31000 --peildatum 2026-06-01"
    )
    ;;
  *) echo "dist/startup-order.sh: geen trainingsaanroepen voor $program; gelaten zoals gebouwd" >&2; exit 0 ;;
esac

# rust-lld and the compiler driver's `gcc-ld` wrapper are the host toolchain's (rustup ships them
# from Rust 1.90 on); GNU ld has no symbol ordering.
gcc_ld="$(rustc --print sysroot)/lib/rustlib/x86_64-unknown-linux-gnu/bin/gcc-ld"
if [ ! -x "$gcc_ld/ld.lld" ] || [[ $gcc_ld == *[,[:space:]]* ]]; then
  echo "dist/startup-order.sh: geen rust-lld in $gcc_ld (rustup's toolchain vanaf Rust 1.90 heeft het)" >&2
  exit 1
fi
if ! command -v valgrind >/dev/null; then
  sudo=()
  [ "$(id -u)" = 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq >&2
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >&2
fi

case $profile in dev) dir=debug ;; *) dir=$profile ;; esac
bin="$(bash dist/build.sh --target-dir)/$target/$dir/$program"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
link() { # RUSTC_ARG...: the program's final link again, with rust-lld and these arguments
  cargo rustc --locked --quiet --profile "$profile" --target "$target" --package "$program" --bin "$program" \
    -- -C "link-arg=-B$gcc_ld" -C link-arg=-fuse-ld=lld "$@" >&2
}
train() { # DIR [valgrind]: the training calls in a home of their own (cache, audit log); stdout
  local dir=$1 call
  shift
  rm -rf "$dir"
  mkdir -p "$dir"
  for call in "${training[@]}"; do
    read -r -a args <<<"$call"
    env -i PATH="$PATH" HOME="$dir" OVERHEID_CACHE_DIR="$dir/cache" \
      REGELRECHT_AUDIT_LOG="$dir/audit.jsonl" "$@" "$bin" "${args[@]}" 2>"$dir/stderr" || {
      echo "dist/startup-order.sh: de trainingsaanroep '$call' van $program faalt:" >&2
      cat "$dir/stderr" >&2
      return 1
    }
  done
}

[ -x "$bin" ] || { echo "dist/startup-order.sh: $bin is niet gebouwd (dist/build.sh)" >&2; exit 1; }
train "$work/home" >"$work/built.out"
link -C strip=none
train "$work/home" valgrind --quiet --tool=callgrind --demangle=no \
  --callgrind-out-file="$work/callgrind.%p" >"$work/trained.out"
# callgrind names each function once, the first time it appears: `fn=(ID) NAME` or `cfn=…`.
sed -n 's/^c\{0,1\}fn=([0-9]*) //p' "$work"/callgrind.* | grep -v -e '^0x' -e '^(below main)$' |
  awk '!seen[$0]++' >"$work/startup.order"
if [ ! -s "$work/startup.order" ] || [[ $work == *[,[:space:]]* ]]; then
  echo "dist/startup-order.sh: geen functies uit de training van $program" >&2
  exit 1
fi
link "-Clink-arg=-Wl,--symbol-ordering-file=$work/startup.order,--no-warn-symbol-ordering"
train "$work/home" >"$work/ordered.out"
if ! cmp -s "$work/built.out" "$work/trained.out" || ! cmp -s "$work/built.out" "$work/ordered.out"; then
  echo "dist/startup-order.sh: $program antwoordt anders na het herlinken" >&2
  exit 1
fi
echo "dist/startup-order.sh: $program gelinkt met $(wc -l <"$work/startup.order") functies op volgorde" >&2
