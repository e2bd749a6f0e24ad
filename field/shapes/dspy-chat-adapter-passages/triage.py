"""Mechanical check of the passages audit's failing cases (field/TRIAGE.md,
dspy-passages-breaks-other-than-lf). For each failing case, at the first
level it fails at, split the output as that level splits (exact: LF, CRLF;
ascii-case-insensitive: and a lone CR; unicode: and VT, FF, NEL, U+2028,
U+2029, after NFKC, dropping format characters and reading the white square
brackets as `[` and `]`, as the level's lookalike table does): the output has
more `[N] ` lines at the left margin than the benign list (3), or a
non-blank line inside the `«««` block without the four spaces.

    python3 field/shapes/dspy-chat-adapter-passages/triage.py \\
        reports/field/dspy-chat-adapter-passages.json
"""
import json, re, sys, unicodedata
from collections import Counter

LEVELS = ["exact", "ascii-case-insensitive", "unicode"]
REC = re.compile(r"^\[\d+\] ")


def split(t, level):
    if level == "exact":
        pat = r"\r\n|\n"
    elif level == "ascii-case-insensitive":
        pat = r"\r\n|\n|\r"
    else:
        t = unicodedata.normalize("NFKC", t).replace("\u27e6", "[").replace("\u27e7", "]")
        t = "".join(c for c in t if unicodedata.category(c) != "Cf")
        pat = "\r\n|\n|\r|\x0b|\x0c|\x85|\u2028|\u2029"
    return re.split(pat, t)


def judge(t, level):
    """The `[N] ` lines at the left margin, and the unquoted lines in the block."""
    lines = split(t, level)
    recs = sum(1 for l in lines if REC.match(l))
    inblock, unquoted = False, 0
    for l in lines:
        if REC.match(l) and l.endswith("«««"):
            inblock = True
        elif inblock and l == "»»»":
            inblock = False
        elif inblock and l.strip() and not l.startswith("    "):
            unquoted += 1
    return recs, unquoted


r = json.load(open(sys.argv[1]))
ok = odd = 0
kinds = Counter()
for x in r["results"]:
    failing = [l for l in LEVELS if x["verdicts"].get(l) in ("fail", "fidelity-fail")]
    if not failing:
        continue
    recs, unquoted = judge(x["evidence"]["framed"], failing[0])
    if recs > 3 or unquoted > 0:
        ok += 1
        kinds[(failing[0], "forged [N]" if recs > 3 else "", "unquoted" if unquoted else "")] += 1
    else:
        odd += 1
        print("ODD", x["id"], failing[0], recs, unquoted)
print(f"as the rule says: {ok}; other: {odd}; {dict(kinds)}")
