#!/usr/bin/env bash
# `regelrecht-cli wet valideer` against the reference engine's `validate` and
# `validate-annotations` (issue 41 item 3): both run on every file, and their verdicts (valid or
# not) are compared.
#
#   REGELRECHT_REFERENCE_DIR=<checkout of MinBZK/regelrecht> bench/regelrecht/valideer.sh
#
# The files: the shared corpus re-declared to each shipped schema version (v0.2.0 to v0.5.6,
# 26 laws x 12 versions), the reference's own fixtures (packages/engine/tests/fixtures/
# validate_cli and .../annotations) and the shared notes. The reference's two programs are used
# from $REGELRECHT_REFERENCE_DIR/target/release when built there (cargo build --release -p
# regelrecht-engine --features validate --bin validate --bin validate-annotations); the
# reference is not vendored and nothing of it is committed. Prints one line per disagreement and
# the totals; exit 1 on any disagreement.
set -euo pipefail
cd "$(dirname "$0")/../.."
ref=${REGELRECHT_REFERENCE_DIR:?zet REGELRECHT_REFERENCE_DIR op een checkout van MinBZK/regelrecht}
validate=$ref/target/release/validate
annotations=$ref/target/release/validate-annotations
[ -x "$validate" ] && [ -x "$annotations" ] || {
  echo "bouw eerst de referentie: (cd $ref/packages && cargo build --release -p regelrecht-engine --features validate --bin validate --bin validate-annotations)" >&2
  exit 1
}
shared=../shared/regelrecht
cargo build --quiet -p regelrecht-cli
ours=target/debug/regelrecht-cli
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The corpus re-declared to every version.
for schema in "$shared"/schema/v*; do
  version=$(basename "$schema")
  mkdir -p "$work/laws/$version"
  url="https://raw.githubusercontent.com/MinBZK/regelrecht/refs/tags/schema-$version/schema/$version/schema.json"
  find "$shared/corpus" -name '*.yaml' | sort | while read -r law; do
    name=$(echo "${law#"$shared"/corpus/}" | tr / _)
    awk -v url="$url" '
      /^\$schema:/ { print "$schema: " url; if ($0 ~ />-$/) skip = 1; next }
      skip == 1 { skip = 0; next }
      { print }' "$law" >"$work/laws/$version/$name"
  done
done
# The reference's own fixtures, as files of that checkout.
mkdir -p "$work/fixtures" "$work/notes"
cp "$ref"/packages/engine/tests/fixtures/validate_cli/*.yaml "$work/fixtures/"
cp "$ref"/packages/engine/tests/fixtures/annotations/*.yaml "$work/notes/"
cp "$shared"/annotations/*/annotations.yaml "$work/notes/shared.yaml"
# validate-annotations resolves notes against a repository's corpus.
mkdir -p "$work/root/corpus/regulation" "$work/root/corpus/annotations/_vocabulary"
cp -r "$shared/corpus/nl" "$work/root/corpus/regulation/"
cp "$ref/corpus/annotations/_vocabulary/ambiguity.yaml" "$work/root/corpus/annotations/_vocabulary/" 2>/dev/null || true

agree=0 disagree=0
compare() { # kind file reference-exit
  local ours_exit
  "$ours" wet valideer "$2" >/dev/null 2>&1 && ours_exit=0 || ours_exit=$?
  if [ "$3" = "$ours_exit" ]; then
    agree=$((agree + 1))
  else
    disagree=$((disagree + 1))
    echo "VERSCHIL $1 $2: referentie $3, regelrecht-cli $ours_exit"
  fi
}
for file in "$work"/laws/*/*.yaml "$work"/fixtures/*.yaml; do
  "$validate" "$file" >/dev/null 2>&1 && code=0 || code=$?
  compare wet "$file" "$code"
done
for file in "$work"/notes/*.yaml; do
  REGELRECHT_REPO_ROOT=$work/root "$annotations" "$file" >/dev/null 2>&1 && code=0 || code=$?
  compare notities "$file" "$code"
done
echo "eens: $agree, oneens: $disagree"
[ "$disagree" = 0 ]
