#!/bin/bash -eu
# Builds every cargo-fuzz target in fuzz/ into $OUT, each with a seed corpus
# zip made of its committed corpus and its regression inputs, so the service
# starts from every input that ever broke a property. ClusterFuzzLite and
# OSS-Fuzz set $SRC, $OUT and the sanitizer flags; to check by hand:
#   SRC=$PWD/.. OUT=$(mktemp -d) bash .clusterfuzzlite/build.sh
root="$SRC/framecheck"
cd "$root/fuzz"
cargo fuzz build -O
release="$root/fuzz/target/x86_64-unknown-linux-gnu/release"
for target in $(cargo fuzz list); do
  cp "$release/$target" "$OUT/"
  zip_file="$OUT/${target}_seed_corpus.zip"
  rm -f "$zip_file"
  for dir in "$root/corpus/$target" "$root/corpus/regressions/$target"; do
    if [ -d "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
      # -j: flat names, as libFuzzer reads the zip; -q: quiet.
      zip -q -j "$zip_file" "$dir"/*
    fi
  done
done
