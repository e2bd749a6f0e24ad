"""Markdown fence, broken: counts ASCII backticks only.

The fence is lengthened past the longest run of "`" found by a regular
expression. Fullwidth backticks (U+FF40), or a zero-width space inside a
run, are not counted, yet a Unicode-level reader reads them as a fence.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

RUNS = re.compile(r"`+")


def wrap(content, kind, attributes, provenance):
    longest = max((len(m.group()) for m in RUNS.finditer(content)), default=0)  # the defect
    fence = "`" * max(3, longest + 1)
    return f"{fence}untrusted-text\n{content}\n{fence}"


serve(wrap)
