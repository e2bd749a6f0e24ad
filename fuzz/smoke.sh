#!/usr/bin/env bash
# Bounded smoke run of every fuzz target over its committed corpus and
# regressions: 20,000 executions each. Exits non-zero on any crash or
# property failure. Without a nightly toolchain and cargo-fuzz it says so and
# exits 0 (under CI=true, a nightly without cargo-fuzz fails): the corpus
# replay test (crates/run/tests/it/corpus_replay.rs) still runs every committed input on
# stable.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
runs="${FUZZ_SMOKE_RUNS:-20000}"
targets=(envelope_roundtrip envelope_read envelope_nonce defang_differential catalogue_loader protocol_decoder oracle search_framing)

# shellcheck source=fuzz/cargo-fuzz.sh
source "$here/cargo-fuzz.sh"
need_cargo_fuzz fuzz/smoke.sh

cd "$here"
cargo +nightly fuzz build -O
failed=()
for target in "${targets[@]}"; do
    # Fuzz in a scratch copy so new inputs found by the smoke run do not
    # land in the committed corpus.
    scratch="$(mktemp -d)"
    cp -r "$root/corpus/$target/." "$scratch/"
    dirs=("$scratch")
    if [ -d "$root/corpus/regressions/$target" ]; then
        dirs+=("$root/corpus/regressions/$target")
    fi
    mkdir -p "$here/artifacts/$target"
    echo "== $target: $runs runs over ${dirs[*]}"
    if ! cargo +nightly fuzz run -O "$target" "${dirs[@]}" -- \
        -runs="$runs" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$here/artifacts/$target/" -print_final_stats=1 2>&1 | tail -n 12; then
        failed+=("$target")
    fi
    rm -rf "$scratch"
done

if [ "${#failed[@]}" -ne 0 ]; then
    echo "fuzz/smoke.sh: failing targets: ${failed[*]} (reproducers in fuzz/artifacts/)"
    exit 1
fi
echo "fuzz/smoke.sh: ${#targets[@]} targets, $runs runs each, no failure"
