#!/usr/bin/env bash
# Regenerates the committed reports: the catalogue run against every target in
# the README's table, and the black-box search against the reference and each
# seed style. Exit 1 from a run or a search (findings) is expected for the
# seed styles; exit 2 (the run or search proves nothing) stops the script.
# Needs node, python3 and go (adapters/build.sh builds the Go adapter).
# Usage: reports/regenerate.sh [OUT_DIR]   (BUDGET=60s by default)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/framecheck
out="${1:-reports}"
budget="${BUDGET:-60s}"
bash adapters/build.sh

allow_findings() { "$@" || [ $? -eq 1 ]; }

allow_findings "$bin" run --target reference --out "$out"
for target in seed-ts-envelope seed-a2a-markers seed-go-context; do
  allow_findings "$bin" run --target "$target" --format json --format markdown --out "$out"
done
for target in reference seed-ts-envelope seed-a2a-markers seed-go-context; do
  rm -rf "$out/search-$target"
  allow_findings "$bin" search --target "$target" --seed 1 --budget "$budget" --max-findings 10 --out "$out"
done
