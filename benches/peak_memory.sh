#!/usr/bin/env bash
# Peak memory of a catalogue run as a function of the largest case (issue #13):
# runs a one-case catalogue whose content is a log line repeated N times:
# ASCII; with a zero-width space in every line (mostly ASCII, the common
# non-ASCII text); and a line of CJK (every character stored by the
# oracle's folding, 8 bytes per character per reader level). It prints the peak
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
cjk='中文日志：请求成功，用户四十二，耗时十二毫秒，状态正常。'
for text in ascii zero-width cjk; do
  for repeat in 2000 8000 32000; do
    # The YAML body, and the bytes of one content line with its newline.
    case $text in
      ascii) body=$line line_bytes=$(( ${#line} + 1 )) ;;
      zero-width)
        body="Row\\u200b of ordinary log output: request ok, 200, 12 ms, user=42 <ok> [info]"
        line_bytes=$(( ${#line} + 1 + 3 )) ;;
      cjk) body=$cjk line_bytes=$(( $(printf '%s' "$cjk" | wc -c) + 1 )) ;;
    esac
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
done
