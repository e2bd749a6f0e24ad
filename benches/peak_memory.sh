#!/usr/bin/env bash
# Peak memory of a catalogue run as a function of the largest case (issue #13):
# runs a one-case catalogue whose content is a line repeated N times, for
# lines of the scripts and shapes agents frame: an ASCII log line; the same
# with a zero-width space in it; CJK with fullwidth punctuation; Hangul and
# Cyrillic words between ASCII spaces; accented prose with curly quotes,
# an ellipsis, ligatures and a fraction (characters that fold to several);
# and emoji with zero-width joiners. It prints the peak resident set of
# `framecheck run` (GNU time's %M) for each N. The slope between two sizes,
# in bytes of memory per byte of framed output, is what the goal "under 4x
# the largest case's framed output, plus a constant" bounds; the intercept
# is the constant.
#
# Usage: bash benches/peak_memory.sh   (from the repository root; needs /usr/bin/time)
set -euo pipefail
cargo build --release --quiet
bin=target/release/framecheck
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Each probe: a name, a tab, the line as a YAML double-quoted string body;
# the list is shared with tests/peak_memory.rs, which guards each probe.
probes=$(grep -v '^#' benches/peak_memory_probes.tsv)
printf 'text\trepeat\tcontent_bytes\tpeak_rss_kib\n'
while IFS=$'\t' read -r text body; do
  # The bytes of one content line with its newline, escapes decoded.
  line_bytes=$(( $(printf '%b' "$body" | wc -c) + 1 ))
  for repeat in 2000 8000 32000; do
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
    bytes=$(( line_bytes * repeat ))
    printf '%s\t%s\t%s\t%s\n' "$text" "$repeat" "$bytes" "$rss"
  done
done <<< "$probes"
