#!/usr/bin/env bash
# Runs the ClusterFuzzLite recipe of docs/ci.md end to end, as far as a
# machine without a fuzzing service can (issue 37): build.sh builds
# `search_framing` for a subprocess target (the Python seed style,
# targets/seed-a2a-markers.yaml) and ships its profile and adapter beside
# the binary, with a corpus that `framecheck search --corpus` wrote in the
# seed corpus; then the binary runs from an empty directory with no
# environment but PATH, as a service's runner starts it:
#
# 1. from the committed corpus (the seed corpus less the search corpus,
#    which would crash at once), a bounded number of runs: it must
#    calibrate the target and judge inputs (exit 0, or a crash that is a
#    confirmed finding), never stop on a harness error;
# 2. over the search corpus alone: it must crash with a confirmed finding,
#    and the case the crash message carries, saved as a catalogue file,
#    must fail again under `framecheck run` against the same profile.
#
# Not done here: ClusterFuzzLite's own Docker images and GitHub actions
# (this needs a Docker engine and a repository to push to).
#
# Needs a nightly toolchain with cargo-fuzz, zip and python3; without
# cargo-fuzz it says so and exits 0, except under CI=true where a nightly
# without cargo-fuzz fails (as fuzz/smoke.sh). FRAMECHECK_BIN: the
# framecheck binary (default target/debug/framecheck, built if missing).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=fuzz/cargo-fuzz.sh
source "$root/fuzz/cargo-fuzz.sh"
need_cargo_fuzz .clusterfuzzlite/check.sh
bin="${FRAMECHECK_BIN:-$root/target/debug/framecheck}"
[ -x "$bin" ] || (cd "$root" && cargo build --quiet)
profile=targets/seed-a2a-markers.yaml

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src" "$work/out" "$work/mine" "$work/seeds" "$work/empty" "$work/found"
ln -s "$root" "$work/src/framecheck"
# The user's repository: the profile, its adapter and a search corpus.
cp -r "$root/targets" "$root/adapters" "$work/mine/"
status=0
"$bin" search --target "$work/mine/$profile" --seed 1 --budget 300 --max-findings 3 \
  --corpus "$work/mine/search-corpus" --reproducible --out "$work/report" \
  >"$work/search.log" 2>&1 || status=$?
if [ "$status" -gt 1 ]; then
  cat "$work/search.log" >&2
  echo ".clusterfuzzlite/check.sh: the search that writes the corpus failed" >&2
  exit 1
fi

echo "== build.sh: search_framing against $profile"
SRC="$work/src" OUT="$work/out" RUSTUP_TOOLCHAIN=nightly \
  FRAMECHECK_FUZZ_ROOT="$work/mine" FRAMECHECK_FUZZ_TARGETS=search_framing \
  FRAMECHECK_FUZZ_PROFILE="$profile" FRAMECHECK_FUZZ_FILES="targets adapters" \
  FRAMECHECK_SEARCH_CORPUS=search-corpus \
  bash "$root/.clusterfuzzlite/build.sh" >"$work/build.log" 2>&1 ||
  { tail -20 "$work/build.log" >&2; exit 1; }
test -f "$work/out/search_framing.target/$profile"
# The seed corpus holds the committed corpus and the search corpus.
python3 -m zipfile -e "$work/out/search_framing_seed_corpus.zip" "$work/unzipped"
for file in "$root"/corpus/search_framing/* "$work"/mine/search-corpus/*; do
  cmp -s "$file" "$work/unzipped/$(basename "$file")" ||
    { echo ".clusterfuzzlite/check.sh: $file is not in the seed corpus" >&2; exit 1; }
done

# As a runner starts it: another directory, no environment but PATH.
fuzz() {
  (cd "$work/empty" && env -i PATH="$PATH" HOME="$work/empty" \
    "$work/out/search_framing" -timeout=30 -rss_limit_mb=2048 "$@")
}

# The committed corpus alone (the search corpus would crash at once), in
# a scratch copy: libFuzzer adds what it finds to its first directory.
echo "== search_framing: 2000 runs from the committed corpus"
cp -r "$root/corpus/search_framing/." "$work/seeds/"
status=0
fuzz -runs=2000 "$work/seeds" >"$work/run.log" 2>&1 || status=$?
if [ "$status" -ne 0 ] && ! grep -q "search_framing: confirmed finding" "$work/run.log"; then
  tail -30 "$work/run.log" >&2
  echo ".clusterfuzzlite/check.sh: search_framing stopped without a finding (exit $status)" >&2
  exit 1
fi
grep -E "^Done [0-9]+ runs|confirmed finding" "$work/run.log" | head -1

echo "== search_framing: the search corpus alone"
status=0
fuzz -runs=0 "$work/mine/search-corpus" >"$work/crash.log" 2>&1 || status=$?
if [ "$status" -eq 0 ] || ! grep -q "search_framing: confirmed finding" "$work/crash.log"; then
  tail -30 "$work/crash.log" >&2
  echo ".clusterfuzzlite/check.sh: the search corpus did not crash with a finding" >&2
  exit 1
fi
grep "search_framing: confirmed finding" "$work/crash.log"
# The case sits between the "Replayable case" line, which names the file
# to save it as, and Rust's panic note.
name="$(grep -o 'save it as DIR/[a-z-]*\.yaml' "$work/crash.log" | head -1 | sed 's|.*DIR/||')"
sed -n '/^Replayable case/,/^note: run with/p' "$work/crash.log" | sed '1d;$d' \
  >"$work/found/${name:?the crash message names no file}"
status=0
"$bin" run --catalogue "$work/found" --target "$work/mine/$profile" \
  --out "$work/replay" >"$work/replay.log" 2>&1 || status=$?
if [ "$status" -ne 1 ]; then
  cat "$work/found/$name" "$work/replay.log" >&2
  echo ".clusterfuzzlite/check.sh: the crash's case did not fail under framecheck run (exit $status)" >&2
  exit 1
fi
echo ".clusterfuzzlite/check.sh: the recipe built, ran and found a finding that replays"
