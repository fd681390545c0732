#!/usr/bin/env bash
# One small law per process: regelrecht-cli against the reference engine's own `evaluate`
# (issue 32.10), over several laws of the shared corpus, interleaved.
#
#   bench/regelrecht/laws.sh [RUNS]      (default 300 runs per command)
#
# For each law below: `regelrecht-cli evalueer LAW --uitvoer OUT --peildatum DATE [--param …]
# --corpus LAW.yaml`, its audit record written (REGELRECHT_AUDIT_LOG) and its prepared form read
# from the cache (CACHE-5; the warm-up fills it), against the reference's `evaluate` given the
# same law's YAML, output, parameters and date as its JSON request on stdin. All commands run
# interleaved in one bench/interleave.py run (shuffled each round), so the machine's load hits
# them alike; the table gives each median, the p10–p90 spread, the CPU time and the peak RSS,
# and per law the ratio of the medians (target ≤ 1). On a loaded machine the wall times spread
# widely (a process waits for a core); the CPU time (user + system, from wait4) moves less, so
# its ratio is the steadier comparison.
#
# The reference: REGELRECHT_REFERENCE_DIR names a checkout of MinBZK/regelrecht (not vendored;
# e.g. `git -C /work/.mirror/MinBZK+regelrecht/repo archive HEAD | tar -x -C DIR`). Its
# `evaluate` is built from that checkout by bench/regelrecht/reference (crates.io only, release
# with fat LTO, as ours) into $REGELRECHT_REFERENCE_DIR/target, once. Without a checkout the
# script measures ours alone and says so. Needs python3 and ../shared/regelrecht.
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-300}
corpus=../shared/regelrecht/corpus/nl
[ -d "$corpus" ] || { echo "geen corpus in $corpus" >&2; exit 1; }
# Ours as shipped (dist/build.sh: static, with musl); REGELRECHT_CLI names another build to
# measure (say, target/release/regelrecht-cli, the glibc build, or a copy of an earlier one).
bin=${REGELRECHT_CLI:-}
[ -n "$bin" ] || bin=$(bash dist/build.sh regelrecht-cli)/regelrecht-cli
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export REGELRECHT_AUDIT_LOG="$work/audit.jsonl" OVERHEID_CACHE_DIR="$work/cache" HOME="$work"

# name | law file | output | date | parameters (name=value, space-separated; values are JSON
# for the reference: numbers as numbers, the rest as strings)
laws=(
  "regeling_standaardpremie|ministeriele_regeling/regeling_standaardpremie/2025-01-01.yaml|standaardpremie|2025-01-01|"
  "test_untranslatables|wet/test_untranslatables/2025-01-01.yaml|toegekende_toeslag|2025-06-01|"
  "test_date_operations|wet/test_date_operations/2025-01-01.yaml|doorlooptijd_dagen|2025-06-01|indieningsdatum=2025-05-01"
  "apv_erfgrens_amsterdam|gemeentelijke_verordening/amsterdam/apv_erfgrens/2024-01-01.yaml|gemeentelijke_afstand_cm|2024-06-01|type_beplanting=boom postcode=1012"
)

evaluate=
if [ -n "${REGELRECHT_REFERENCE_DIR:-}" ] && [ -f "$REGELRECHT_REFERENCE_DIR/packages/engine/src/bin/evaluate.rs" ]; then
  ref=$REGELRECHT_REFERENCE_DIR
  evaluate=$ref/target/release/evaluate
  if [ ! -x "$evaluate" ]; then
    mkdir -p "$work/harness"
    cp -r bench/regelrecht/reference/. "$work/harness/"
    sed -i "s|REFERENCE_DIR|$ref|" "$work/harness/Cargo.toml"
    # The checkout may pin a toolchain this machine does not have; the engine builds on ours.
    cargo build --release --quiet --manifest-path "$work/harness/Cargo.toml" \
      --target-dir "$ref/target" --bin evaluate
  fi
fi

commands=()
for spec in "${laws[@]}"; do
  IFS='|' read -r id file output date params <<<"$spec"
  args=(evalueer "$id" --uitvoer "$output" --peildatum "$date" --corpus "$corpus/$file")
  json='{}'
  for p in $params; do
    args+=(--param "$p")
    json=$(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); k,v=sys.argv[2].split("=",1)
try: v=json.loads(v)
except ValueError: pass
d[k]=v; print(json.dumps(d))' "$json" "$p")
  done
  "$bin" "${args[@]}" >/dev/null # a law that does not evaluate stops here, not in the runner
  commands+=("ours $id=$bin ${args[*]}")
  if [ -n "$evaluate" ]; then
    python3 -c 'import json,sys; print(json.dumps({"law_yaml": open(sys.argv[1]).read(), "output_name": sys.argv[2], "params": json.loads(sys.argv[3]), "date": sys.argv[4]}))' \
      "$corpus/$file" "$output" "$json" "$date" >"$work/$id.json"
    "$evaluate" <"$work/$id.json" | grep -q '"outputs"' || { echo "referentie: $id faalt" >&2; exit 1; }
    commands+=("reference $id=$evaluate < $work/$id.json")
  fi
done
[ -n "$evaluate" ] || echo "referentie overgeslagen: zet REGELRECHT_REFERENCE_DIR op een checkout van MinBZK/regelrecht"

python3 bench/interleave.py --runs "$runs" --warmup 10 --json "$work/laws.json" "${commands[@]}"
if [ -n "$evaluate" ]; then
  echo
  echo '| law | ours / reference, wall median | ours / reference, CPU median (target ≤ 1) |'
  echo '|---|---:|---:|'
  python3 - "$work/laws.json" <<'EOF'
import json, statistics, sys
results = {r["name"]: r for r in json.load(open(sys.argv[1]))["results"]}
med = lambda name, key: statistics.median(results[name][key])
for name in results:
    if name.startswith("ours "):
        ref = "reference " + name[len("ours "):]
        print(f"| {name[len('ours '):]} | {med(name, 'wall_ms') / med(ref, 'wall_ms'):.3f} "
              f"| {med(name, 'cpu_ms') / med(ref, 'cpu_ms'):.3f} |")
EOF
fi
