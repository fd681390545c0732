#!/usr/bin/env bash
# Writes TOOL/startup.order: the functions some typical calls of TOOL run, so that the linker
# (rust-lld, --symbol-ordering-file; see common/build/startup_link.rs) puts them together and a
# call maps fewer pages of code (less time in page faults, less resident memory).
#
#   bench/startup-order.sh TOOL           write TOOL/startup.order (kvk-cli, regelrecht-cli)
#   bench/startup-order.sh --check TOOL   say how many of its names each build has
#
# Builds TOOL twice, alone as `cargo install --locked` builds it, with the linker's map: as
# shipped (static with musl, dist/build.sh) and for this machine's glibc (`cargo build
# --release`, as the README's commands run it). Runs each call below once under callgrind
# (which records every instruction run) and maps the instructions to the functions of the map.
# The order holds both builds' names, the shipped one's first: the names carry a hash of each
# crate's build settings (target, compiler, dependency versions, features), so each build finds
# its own and the linker skips the rest. A refactoring renames functions too, so run it again
# after such changes, or when --check reports that few names were found. Then rebuild. Needs
# valgrind (Debian package valgrind), python3 and, for regelrecht-cli, ../shared/regelrecht.
# About three minutes per tool after the builds.
set -euo pipefail
cd "$(dirname "$0")/.."
check=
if [ "${1:-}" = --check ]; then check=1; shift; fi
tool=${1:?gebruik: bench/startup-order.sh [--check] TOOL}
[ -f "$tool/build.rs" ] && grep -q startup_link "$tool/build.rs" ||
  { echo "$tool linkt niet met een startvolgorde (zie common/build/startup_link.rs)" >&2; exit 1; }
order=$tool/startup.order

# TOOL alone, with the linker's map, for each target ("" is the host's). A map left by an earlier
# build would describe another binary, so it goes first; an up-to-date build does not link again
# and so writes none, and then the build script is made to rerun (the order newer) and the
# program is linked again. Where the linker is not rust-lld there is never a map.
musl=x86_64-unknown-linux-musl
targets=("$musl" "")
target_dir=$(bash dist/build.sh --target-dir)
build() { # TARGET -> target directory of the build, with TOOL.map beside the program
  local target=$1 dir=$target_dir/release
  [ -z "$target" ] || dir=$target_dir/$target/release
  rm -f "$dir/$tool.map"
  for _ in 1 2; do
    if [ -n "$target" ]; then
      OVERHEID_LINK_MAP=$dir/$tool.map bash dist/build.sh "$tool" >/dev/null
    else
      OVERHEID_LINK_MAP=$dir/$tool.map cargo build --locked --release --quiet -p "$tool"
    fi
    [ -s "$dir/$tool.map" ] && break
    touch "$order"
  done
  [ -s "$dir/$tool.map" ] || { echo "geen linker-map: deze toolchain linkt niet met rust-lld" >&2; exit 1; }
  echo "$dir"
}
if [ -n "$check" ]; then
  for target in "${targets[@]}"; do
    dir=$(build "$target")
    found=$(awk 'NR == FNR { want[$1] = 1; next } ($NF in want && !($NF in seen)) { seen[$NF] = 1; n++ } END { print n + 0 }' "$order" "$dir/$tool.map")
    echo "$order: $found van $(wc -l <"$order") namen in de build voor ${target:-deze machine (glibc)}"
  done
  exit 0
fi
command -v valgrind >/dev/null || { echo "valgrind nodig (Debian-pakket valgrind)" >&2; exit 1; }
work=$(mktemp -d)
fake_pid=
trap '[ -z "$fake_pid" ] || kill "$fake_pid" 2>/dev/null; rm -rf "$work"' EXIT
# cargo and rustup below (kvk-cli's fake) still find their own homes.
export RUSTUP_HOME=${RUSTUP_HOME:-$HOME/.rustup} CARGO_HOME=${CARGO_HOME:-$HOME/.cargo}
export HOME=$work XDG_CACHE_HOME=$work/cache OVERHEID_CACHE_DIR=$work/cache

# The calls, most important first.
calls=()
case $tool in
  regelrecht-cli)
    corpus=../shared/regelrecht/corpus
    [ -d "$corpus" ] || { echo "geen corpus in $corpus" >&2; exit 1; }
    export REGELRECHT_AUDIT_LOG=$work/audit.jsonl
    mkdir -p "$work/klein"
    cp -r "$corpus/nl/wet/test_untranslatables" "$work/klein/"
    # Small laws (prepared forms from the cache, then one parsed from YAML), the built-in Bal,
    # a cross-law evaluation over the whole corpus, --version.
    small="evalueer test_untranslatables --uitvoer toegekende_toeslag --peildatum 2025-06-01 --corpus $work/klein"
    # The bench's calls (bench/regelrecht/laws.sh): a law file as --corpus, one with a parameter.
    nl=$corpus/nl
    premie="evalueer regeling_standaardpremie --uitvoer standaardpremie --peildatum 2025-01-01 --corpus $nl/ministeriele_regeling/regeling_standaardpremie/2025-01-01.yaml"
    datum="evalueer test_date_operations --uitvoer doorlooptijd_dagen --peildatum 2025-06-01 --param indieningsdatum=2025-05-01 --corpus $nl/wet/test_date_operations/2025-01-01.yaml"
    # Each build fills a cache of its own, so that the calls below are cache hits.
    # shellcheck disable=SC2086 # a call is words
    prepare() { rm -rf "$work/cache"; for call in "$small" "$premie" "$datum"; do "$bin" $call >/dev/null; done; }
    calls=("$premie" "$small" "$datum" "$small --geen-cache"
      "evalueer besluit_activiteiten_leefomgeving --uitvoer heeft_informatieplicht --peildatum 2026-01-01 --param elektriciteitsverbruik_kwh=60000 --param aardgasverbruik_m3=1000 --param betreft_gebruiksfunctie_bbl=false --param alleen_hernieuwbare_energie_op_locatie=false --param is_activiteit_artikel_3_3a_lid_1_onder_a=false --param is_activiteit_artikel_3_3a_lid_1_onder_b=false"
      "evalueer wet_op_de_zorgtoeslag --uitvoer standaardpremie --peildatum 2025-01-01 --corpus $corpus"
      "--version")
    ;;
  kvk-cli)
    # A company's profile from the local fake (the bench's call), its establishments, the
    # discovery document, --version.
    [ -x target/release/fake-upstream ] || cargo build --release --quiet -p test-support --bin fake-upstream
    target/release/fake-upstream --source kvk >"$work/fake.out" 2>/dev/null &
    fake_pid=$!
    for _ in $(seq 50); do grep -q '^export KVK_API_BASE=' "$work/fake.out" 2>/dev/null && break; sleep 0.1; done
    export KVK_API_BASE=$(sed -n 's/^export KVK_API_BASE=//p' "$work/fake.out")
    export KVK_API_KEY=bench-key KVK_AUDIT_LOG=$work/audit.jsonl
    prepare() { :; }
    calls=("basisprofiel toon 68750110" "basisprofiel toon 68750110 --fields naam,kvkNummer --provenance"
      "basisprofiel vestigingen 68750110" "--help --json" "--version")
    ;;
  *) echo "geen aanroepen voor $tool in dit script" >&2; exit 1 ;;
esac

: >"$work/order"
for target in "${targets[@]}"; do
  dir=$(build "$target")
  bin=$dir/$tool
  prepare
  runs=()
  i=0
  for call in "${calls[@]}"; do
    # shellcheck disable=SC2086 # a call is words
    valgrind --tool=callgrind --dump-instr=yes --compress-strings=no --compress-pos=no \
      --callgrind-out-file="$work/cg.$i" "$bin" $call >/dev/null 2>"$work/vg.$i" ||
      { cat "$work/vg.$i" >&2; exit 1; }
    runs+=("$work/cg.$i")
    i=$((i + 1))
  done
  python3 bench/startup_order.py "$dir/$tool.map" "$bin" "${runs[@]}" >>"$work/order"
done
# Each name once, where it first appears.
awk '!seen[$0]++' "$work/order" >"$order"
echo "$order: $(wc -l <"$order") functies"
