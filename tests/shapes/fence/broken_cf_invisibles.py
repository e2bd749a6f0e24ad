"""Markdown fence, broken: runs counted after removing format characters only.

Before the longest run of "`" is measured, the content is NFKC-normalised
and every character of general category Cf (zero-width space, joiners, word
joiner, bidi controls, tag characters) is dropped, so the usual invisible
splices are counted through. The default-ignorable Hangul fillers (U+115F,
U+1160, U+3164, U+FFA0) are letters (Lo), not Cf: one of them inside a run
splits it for this count, while a Unicode-level reader skips it and reads
one run as long as the fence, which closes it. Content is otherwise written
byte for byte, as in fence/correct.py.
"""

import os
import re
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

INFO = "untrusted-text"
RUNS = re.compile(r"`+")


def seen_by_the_count(content):
    text = unicodedata.normalize("NFKC", content)
    # The defect: only Cf is invisible here; the filler letters stay.
    return "".join(c for c in text if unicodedata.category(c) != "Cf")


def wrap(content, kind, attributes, provenance):
    seen = seen_by_the_count(content)
    longest = max((len(m.group()) for m in RUNS.finditer(seen)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{INFO}\n{content}\n{fence}"


serve(wrap)
