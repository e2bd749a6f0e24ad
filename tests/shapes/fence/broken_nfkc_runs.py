"""Markdown fence, broken: backtick runs counted after NFKC only.

The content is NFKC-normalised before the longest run of "`" is measured,
so fullwidth backticks (U+FF40) are counted; but NFKC keeps invisible
characters, so a zero-width space or word joiner inside a run splits it in
two short ones. A Unicode-level reader does not see the invisible
character and reads one run as long as the fence, which closes it. Content
is otherwise written byte for byte, as in fence/correct.py.
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


def wrap(content, kind, attributes, provenance):
    seen = unicodedata.normalize("NFKC", content)  # the defect: invisible characters kept
    longest = max((len(m.group()) for m in RUNS.finditer(seen)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{INFO}\n{content}\n{fence}"


serve(wrap)
