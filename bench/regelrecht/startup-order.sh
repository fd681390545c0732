#!/usr/bin/env bash
# Writes regelrecht-cli/startup.order: the functions some typical calls run, so that the linker
# (rust-lld, --symbol-ordering-file; see regelrecht-cli/build.rs) puts them together and a call
# maps fewer pages of code.
#
#   bench/regelrecht/startup-order.sh
#
# Builds the release binary as `cargo install --locked` does (regelrecht-cli alone) with the
# linker's map, runs each call below once under callgrind (which records every instruction
# run), and maps the instructions to the functions of the map. The names carry a hash of each crate's build
# settings (compiler, dependency versions, features), so run it again after a compiler or
# Cargo.lock update, or when bench/regelrecht/run.sh reports that few names were found; the
# linker skips names it does not have. Then rebuild. Needs valgrind (Debian package valgrind),
# python3 and ../shared/regelrecht. Takes about a minute and a half.
set -euo pipefail
cd "$(dirname "$0")/../.."
corpus=../shared/regelrecht/corpus
command -v valgrind >/dev/null || { echo "valgrind nodig (Debian-pakket valgrind)" >&2; exit 1; }
[ -d "$corpus" ] || { echo "geen corpus in $corpus" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The same build and map as bench/regelrecht/run.sh's, so that neither relinks for the other.
source bench/regelrecht/build-with-map.sh
[ -s "$map" ] || { echo "geen linker-map: deze toolchain linkt niet met rust-lld (zie regelrecht-cli/build.rs)" >&2; exit 1; }
bin=$(realpath target/release/regelrecht-cli)
export REGELRECHT_AUDIT_LOG="$work/audit.jsonl" OVERHEID_CACHE_DIR="$work/cache"
mkdir -p "$work/klein"
cp -r "$corpus/nl/wet/test_untranslatables" "$work/klein/"

# The calls, most important first: a small law (prepared form from the cache, then parsed from
# YAML), the built-in Bal, a cross-law evaluation over the whole corpus, --version.
small=(evalueer test_untranslatables --uitvoer toegekende_toeslag --peildatum 2025-06-01 --corpus "$work/klein")
call0=("${small[@]}")
call1=("${small[@]}" --geen-cache)
call2=(evalueer besluit_activiteiten_leefomgeving --uitvoer heeft_informatieplicht --peildatum 2026-01-01
  --param elektriciteitsverbruik_kwh=60000 --param aardgasverbruik_m3=1000
  --param betreft_gebruiksfunctie_bbl=false --param alleen_hernieuwbare_energie_op_locatie=false
  --param is_activiteit_artikel_3_3a_lid_1_onder_a=false --param is_activiteit_artikel_3_3a_lid_1_onder_b=false)
call3=(evalueer wet_op_de_zorgtoeslag --uitvoer standaardpremie --peildatum 2025-01-01 --corpus "$corpus")
call4=(--version)
"$bin" "${small[@]}" >/dev/null # fills the cache, so that the first call below is a cache hit
runs=()
for i in 0 1 2 3 4; do
  declare -n call="call$i"
  valgrind --tool=callgrind --dump-instr=yes --compress-strings=no --compress-pos=no \
    --callgrind-out-file="$work/cg.$i" "$bin" "${call[@]}" >/dev/null 2>"$work/vg.$i" ||
    { cat "$work/vg.$i" >&2; exit 1; }
  runs+=("$work/cg.$i")
done
python3 bench/regelrecht/startup_order.py "$map" "$bin" "${runs[@]}" >"$work/order"
mv "$work/order" regelrecht-cli/startup.order
echo "regelrecht-cli/startup.order: $(wc -l <regelrecht-cli/startup.order) functies"
