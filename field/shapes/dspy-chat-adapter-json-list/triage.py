"""Mechanical check of the json-list audit's failing cases: each output's
JSON list still parses (the content is inside a string), and after NFKC,
dropping format characters and splitting at every line break the unicode
level honours, more lines start with a `[[ ## name ## ]]` marker than the
benign output has; and no such extra line exists when splitting at LF/CRLF
and CR only (the ASCII levels)."""
import json, re, sys, unicodedata
r = json.load(open(sys.argv[1]))
MARK = re.compile(r"^[ \t]*\[\[ ## \w+ ## \]\]")
def fold(t):
    t = unicodedata.normalize("NFKC", t)
    # The level's default-ignorables (format characters, variation
    # selectors, Hangul fillers) read as nothing; its lookalike table reads
    # the white square brackets as `[` and `]` (tests/shapes/lib/fcshape.py).
    t = t.replace("\u27e6", "[").replace("\u27e7", "]")
    return "".join(c for c in t if unicodedata.category(c) != "Cf"
                   and not 0xFE00 <= ord(c) <= 0xFE0F and c not in "\u115f\u1160\u3164\uffa0")
def lines_uni(t): return t.splitlines()
def lines_ascii(t): return re.split(r"\r\n|\n|\r", t)
def markers(t, split): return sum(1 for l in split(t) if MARK.match(l))
benign = None
for x in r["results"]:
    if x["id"] == "benign-english-prose":
        benign = x["evidence"]["framed"]
bu, ba = markers(fold(benign), lines_uni), markers(benign, lines_ascii)
ok = odd = 0
for x in r["results"]:
    if x["verdicts"].get("unicode") not in ("fail", "fidelity-fail"): continue
    f = x["evidence"]["framed"]
    body = f.split("\n", 1)[1].split("\n\n[[ ## question", 1)[0]
    try:
        items = json.loads(body); parses = items[1] == x["case"]["input"]["wrap"]["content"]
    except Exception as e:
        parses = False
    u, a = markers(fold(f), lines_uni), markers(f, lines_ascii)
    if parses and u > bu and a == ba: ok += 1
    else:
        odd += 1; print("ODD", x["id"], parses, u, a)
print(f"benign markers unicode={bu} ascii={ba}; as the rule says: {ok}; other: {odd}")
