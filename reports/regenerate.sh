#!/usr/bin/env bash
# Regenerates the committed reports, byte for byte reproducible
# (`--reproducible` leaves timings out; searches use a budget in mutants, not
# seconds): the catalogue run against every target in the README's table, the
# black-box search against the reference and each seed style, and the
# cross-target matrix. Exit 1 from a run or a search (findings) is expected
# for the seed styles; exit 2 (the run or search proves nothing) stops the
# script. Needs node, python3 and go (adapters/build.sh builds the Go adapter).
# Usage: reports/regenerate.sh [OUT_DIR]   (BUDGET=2000 mutants by default)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/framecheck
out="${1:-reports}"
budget="${BUDGET:-2000}"
bash adapters/build.sh

allow_findings() { "$@" || [ $? -eq 1 ]; }
# The tokenizer views whose data is embedded in the binary, so regenerating
# needs no Python package (README, "Tokenizer views").
views=(--view tok:cl100k --view tok:o200k)

# The README's main job, as written there (the reference is the default).
allow_findings "$bin" run --reproducible "${views[@]}" --out "$out"
# The reference in nonce mode: its random values are redacted in the files.
allow_findings "$bin" run --target reference-nonce --reproducible "${views[@]}" --out "$out"
for target in seed-ts-envelope seed-a2a-markers seed-go-context; do
  allow_findings "$bin" run --target "$target" --reproducible "${views[@]}" \
    --format json --format markdown --format html --out "$out"
done
for target in reference seed-ts-envelope seed-a2a-markers seed-go-context; do
  allow_findings "$bin" search --target "$target" --seed 1 --budget "$budget" \
    --max-findings 10 --reproducible --out "$out"
done
"$bin" matrix --out "$out" "$out"/reference.json "$out"/reference-nonce.json "$out"/seed-*.json
