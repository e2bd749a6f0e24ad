#!/usr/bin/env bash
# Peak memory of a catalogue run as a function of the largest case (issue #13):
# runs a one-case catalogue whose content is a log line repeated N times,
# once as ASCII and once with a zero-width space in every line (non-ASCII
# text, which the oracle folds into stored entries), and prints the peak
# resident set of `framecheck run` (GNU time's %M) for each N. The slope
# between two sizes, in bytes of memory per byte of framed output, is what
# the goal "under 4x the largest case's framed output, plus a constant"
# bounds; the intercept is the constant.
#
# Usage: bash benches/peak_memory.sh   (from the repository root; needs /usr/bin/time)
set -euo pipefail
cargo build --release --quiet
bin=target/release/framecheck
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
line='Row of ordinary log output: request ok, 200, 12 ms, user=42 <ok> [info]'
printf 'text\trepeat\tcontent_bytes\tpeak_rss_kib\n'
for text in ascii zero-width; do
  for repeat in 2000 8000 32000; do
    body=$line
    [ "$text" = zero-width ] && body="Row\\u200b of ordinary log output: request ok, 200, 12 ms, user=42 <ok> [info]"
    mkdir -p "$work/cat"
    cat > "$work/cat/benign.yaml" <<YAML
schema: framecheck-catalogue/1
category: benign
description: Peak memory probe.
notes:
  Large:
    description: Large content.
    effect: Memory grows with the content.
cases:
  - id: peak-memory-probe
    title: Peak memory probe
    why: Measures peak memory against the content size.
    references: [CWE-400]
    severity: info
    flags: [Large]
    op: roundtrip
    input:
      content: "$body\n"
      repeat: $repeat
    expect: faithful
YAML
    rss=$( { /usr/bin/time -f '%M' "$bin" run --target reference --catalogue "$work/cat" \
      --out "$work/out" > /dev/null; } 2>&1 | tail -1)
    bytes=$(( (${#line} + 1 + $([ "$text" = zero-width ] && echo 3 || echo 0)) * repeat ))
    printf '%s\t%s\t%s\t%s\n' "$text" "$repeat" "$bytes" "$rss"
  done
done
