#!/usr/bin/env bash
# regelrecht-cli throughput and latency (issue 14), next to the reference engine when it is here.
#
#   bench/regelrecht/run.sh [CASES]      (default 200000)
#
# 1. batch throughput in process (engine alone, and with the JSON around each case), target
#    >= 150k simple cases/s: the built-in Bal's heeft_informatieplicht, six parameters;
# 2. the same JSON Lines through `regelrecht-cli evalueer --batch` (whole process, cases/s);
# 3. single-law whole-process latency, target <= 1.3 ms median: `evalueer` of one small law
#    (test_untranslatables, the only file in --corpus, and the file itself as --corpus, as the
#    reference is given it; with its prepared form from the cache, CACHE-5, and with
#    --geen-cache, parsed from YAML every time) and of the built-in Bal;
# 4. the reference engine (MinBZK regelrecht-engine) on the same cases, interleaved with ours
#    (three rounds, medians, and the ratio; target >= 1.2), only when REGELRECHT_REFERENCE_DIR
#    points at a checkout of MinBZK/regelrecht (it is not vendored): its harness
#    bench/regelrecht/reference is used from $REGELRECHT_REFERENCE_DIR/target/release when
#    built there, else built here; without a checkout it says so and skips it. With it, the
#    single-law latencies of 3. are measured for the reference too, one evaluation per process
#    (regelrecht-reference-evaluate), in the same hyperfine run.
# 5. bench/regelrecht/laws.sh: several small laws against the reference's own `evaluate`,
#    interleaved (wall and CPU medians).
# Needs hyperfine (bench/run.sh installs it) and ../shared/regelrecht. Takes about a minute
# after the release builds (the measured one is the static build, dist/build.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
cases=${1:-200000}
corpus=../shared/regelrecht/corpus
command -v hyperfine >/dev/null || { echo "hyperfine nodig (zie bench/run.sh)" >&2; exit 1; }
[ -d "$corpus" ] || { echo "geen corpus in $corpus" >&2; exit 1; }

cargo build --release --quiet -p regelrecht-engine --examples
# As shipped (dist/build.sh: static, with musl).
bin=$(bash dist/build.sh regelrecht-cli)/regelrecht-cli
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export REGELRECHT_AUDIT_LOG="$work/audit.jsonl"
# The prepared laws (CACHE-5) go to a cache of this run only; the warm-up fills it.
export OVERHEID_CACHE_DIR="$work/cache"

target/release/examples/batch_throughput --genereer "$cases" >"$work/cases.jsonl"

# The reference engine's two harnesses (in process, and one evaluation per process): the ones
# already built next to the checkout (…/target/release), or built here against it.
reference= refbin=
if [ -n "${REGELRECHT_REFERENCE_DIR:-}" ] && [ -f "$REGELRECHT_REFERENCE_DIR/packages/engine/Cargo.toml" ]; then
  refbin=$REGELRECHT_REFERENCE_DIR/target/release
  if [ ! -x "$refbin/regelrecht-reference-bench" ] || [ ! -x "$refbin/regelrecht-reference-evaluate" ]; then
    ref=$work/reference
    cp -r bench/regelrecht/reference "$ref"
    sed -i "s|REFERENCE_DIR|$REGELRECHT_REFERENCE_DIR|" "$ref/Cargo.toml"
    cargo build --release --quiet --manifest-path "$ref/Cargo.toml" --target-dir "$work/ref-target"
    refbin=$work/ref-target/release
  fi
  reference=$refbin/regelrecht-reference-bench
fi

# In process, ours and the reference interleaved (three rounds, the median of each), so that a
# change in the machine's load hits both alike.
num() { sed -n "s/.*\"$1\":\([0-9.]*\).*/\1/p"; }
median() { sort -n | sed -n 2p; }
bal_yaml=regelrecht-cli/engine/laws/besluit_activiteiten_leefomgeving/2026-01-01.yaml
: >"$work/ours" && : >"$work/json" && : >"$work/ref"
for _ in 1 2 3; do
  inproc=$(target/release/examples/batch_throughput "$cases" "$work/cases.jsonl")
  echo "$inproc" | num engine_per_s >>"$work/ours"
  echo "$inproc" | num met_json_per_s >>"$work/json"
  if [ -n "$reference" ]; then
    "$reference" "$bal_yaml" besluit_activiteiten_leefomgeving heeft_informatieplicht 2026-01-01 "$work/cases.jsonl" |
      num engine_per_s >>"$work/ref"
  fi
done

echo "## batch, $cases gevallen (Bal heeft_informatieplicht; load $(cut -d' ' -f1-3 /proc/loadavg))"
echo
echo '| meting | gevallen/s |'
echo '|---|---:|'
ours=$(median <"$work/ours")
echo "| in proces, engine alleen (mediaan van 3) | $ours |"
echo "| in proces, met JSON in en uit (mediaan van 3) | $(median <"$work/json") |"
start=$(date +%s.%N)
"$bin" evalueer besluit_activiteiten_leefomgeving --uitvoer heeft_informatieplicht --peildatum 2026-01-01 \
  --batch "$work/cases.jsonl" --timeout 600 >"$work/out.jsonl" 2>"$work/batch.err"
end=$(date +%s.%N)
lines=$(wc -l <"$work/out.jsonl")
awk -v n="$lines" -v a="$start" -v b="$end" 'BEGIN { printf "| regelrecht-cli evalueer --batch (heel proces) | %.0f |\n", n / (b - a) }'
if [ -n "$reference" ]; then
  refs=$(median <"$work/ref")
  echo "| referentie-engine, in proces (mediaan van 3, afwisselend met de onze) | $refs |"
  awk -v a="$ours" -v b="$refs" 'BEGIN { printf "| verhouding in proces, onze / referentie (doel >= 1.2) | %.2f |\n", a / b }'
else
  echo "| referentie-engine | overgeslagen: niet lokaal beschikbaar (zet REGELRECHT_REFERENCE_DIR op een checkout van MinBZK/regelrecht) |"
fi

echo
echo "## één wet, heel proces"
echo
mkdir -p "$work/klein"
cp -r "$corpus/nl/wet/test_untranslatables" "$work/klein/"
small="$bin evalueer test_untranslatables --uitvoer toegekende_toeslag --peildatum 2025-06-01 --corpus $work/klein"
small_file="$bin evalueer test_untranslatables --uitvoer toegekende_toeslag --peildatum 2025-06-01 --corpus $(find "$work/klein" -name '*.yaml')"
bal="$bin evalueer besluit_activiteiten_leefomgeving --uitvoer heeft_informatieplicht --peildatum 2026-01-01 --param elektriciteitsverbruik_kwh=60000 --param aardgasverbruik_m3=1000 --param betreft_gebruiksfunctie_bbl=false --param alleen_hernieuwbare_energie_op_locatie=false --param is_activiteit_artikel_3_3a_lid_1_onder_a=false --param is_activiteit_artikel_3_3a_lid_1_onder_b=false"
cross="$bin evalueer wet_op_de_zorgtoeslag --uitvoer standaardpremie --peildatum 2025-01-01 --corpus $corpus"
runs=(-n "evalueer, één kleine wet (--corpus met één bestand)" "$small"
      -n "evalueer, één kleine wet (--corpus is het wetbestand, als bij de referentie)" "$small_file"
      -n "evalueer, één kleine wet, --geen-cache (YAML elke keer gelezen)" "$small --geen-cache"
      -n "evalueer, ingebouwde Bal" "$bal"
      -n "evalueer, cross-law, hele corpus" "$cross")
if [ -n "$refbin" ]; then
  # The same three evaluations, one per process, through the reference engine (its laws given
  # as files: the small one, the Bal, the whole corpus).
  reval=$refbin/regelrecht-reference-evaluate
  balparams='{"elektriciteitsverbruik_kwh":60000,"aardgasverbruik_m3":1000,"betreft_gebruiksfunctie_bbl":false,"alleen_hernieuwbare_energie_op_locatie":false,"is_activiteit_artikel_3_3a_lid_1_onder_a":false,"is_activiteit_artikel_3_3a_lid_1_onder_b":false}'
  runs+=(-n "referentie, één kleine wet" "$reval test_untranslatables toegekende_toeslag 2025-06-01 {} $(find "$work/klein" -name '*.yaml')"
         -n "referentie, Bal" "$reval besluit_activiteiten_leefomgeving heeft_informatieplicht 2026-01-01 '$balparams' $bal_yaml"
         -n "referentie, cross-law, hele corpus" "$reval wet_op_de_zorgtoeslag standaardpremie 2025-01-01 {} $(find "$corpus" -name '*.yaml' | sort | tr '\n' ' ')")
fi
hyperfine -N --warmup 20 --runs 200 --export-json "$work/lat.json" "${runs[@]}" >/dev/null
echo '| commando | mediaan (ms) | gemiddeld (ms) | min (ms) | doel |'
echo '|---|---:|---:|---:|---|'
jq -r '.results[] | [.command, (.median*1000), (.mean*1000), (.min*1000)] | @tsv' "$work/lat.json" |
while IFS=$'\t' read -r name median mean min; do
  case "$name" in "evalueer, één kleine wet (--corpus met één bestand)") t="<= 1.3 ms mediaan" ;; *) t="-" ;; esac
  printf '| %s | %.2f | %.2f | %.2f | %s |\n' "$name" "$median" "$mean" "$min" "$t"
done
echo
echo "belasting (uptime): $(uptime | sed 's/.*load average: //')"

echo
echo "## kleine wetten, één per proces, afwisselend met de referentie-evaluate (bench/regelrecht/laws.sh)"
echo
bash bench/regelrecht/laws.sh
