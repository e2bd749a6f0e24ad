#!/bin/bash -eu
# Builds every cargo-fuzz target in fuzz/ into $OUT, each with a seed corpus
# zip made of its committed corpus and its regression inputs, so the service
# starts from every input that ever broke a property. ClusterFuzzLite and
# OSS-Fuzz set $SRC, $OUT and the sanitizer flags; to check by hand:
#   SRC=$PWD/.. OUT=$(mktemp -d) bash .clusterfuzzlite/build.sh
#
# search_framing judges inputs against your framing instead of the
# reference when FRAMECHECK_FUZZ_PROFILE names its profile, relative to
# FRAMECHECK_FUZZ_ROOT (your checkout; default: framecheck's own).
# FRAMECHECK_FUZZ_TARGETS (space-separated) builds only those targets.
# A fuzzing service passes no environment to the fuzzer,
# so the profile and the directories its adapter needs
# (FRAMECHECK_FUZZ_FILES, space-separated, default: the profile's
# directory) are copied beside the binary, into search_framing.target/,
# with the profile's path in search_framing.target/PROFILE. A search
# corpus (a directory `framecheck search --corpus` wrote) named by
# FRAMECHECK_SEARCH_CORPUS joins search_framing's seed corpus as is.
root="$SRC/framecheck"
mine="${FRAMECHECK_FUZZ_ROOT:-$root}"
cd "$root/fuzz"
targets="${FRAMECHECK_FUZZ_TARGETS:-$(cargo fuzz list)}"
for target in $targets; do
  cargo fuzz build -O "$target"
done
release="$root/fuzz/target/x86_64-unknown-linux-gnu/release"
for target in $targets; do
  cp "$release/$target" "$OUT/"
  zip_file="$OUT/${target}_seed_corpus.zip"
  rm -f "$zip_file"
  dirs=("$root/corpus/$target" "$root/corpus/regressions/$target")
  if [ "$target" = search_framing ] && [ -n "${FRAMECHECK_SEARCH_CORPUS:-}" ]; then
    dirs+=("$mine/$FRAMECHECK_SEARCH_CORPUS")
  fi
  for dir in "${dirs[@]}"; do
    if [ -d "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
      # -j: flat names, as libFuzzer reads the zip; -q: quiet.
      zip -q -j "$zip_file" "$dir"/*
    fi
  done
done
if [ -n "${FRAMECHECK_FUZZ_PROFILE:-}" ]; then
  shipped="$OUT/search_framing.target"
  rm -rf "$shipped"
  mkdir -p "$shipped"
  for dir in ${FRAMECHECK_FUZZ_FILES:-$(dirname "$FRAMECHECK_FUZZ_PROFILE")}; do
    mkdir -p "$shipped/$(dirname "$dir")"
    cp -r "$mine/$dir" "$shipped/$dir"
  done
  mkdir -p "$shipped/$(dirname "$FRAMECHECK_FUZZ_PROFILE")"
  cp "$mine/$FRAMECHECK_FUZZ_PROFILE" "$shipped/$FRAMECHECK_FUZZ_PROFILE"
  echo "$FRAMECHECK_FUZZ_PROFILE" > "$shipped/PROFILE"
fi
