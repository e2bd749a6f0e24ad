"""Markdown fence, broken: a tilde fence lengthened past backtick runs.

The author switched the fence character to "~" but kept the length rule
written for backticks, so a line of tildes in the content closes the fence.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

RUNS = re.compile(r"`+")  # the defect: should count runs of "~"


def wrap(content, kind, attributes, provenance):
    longest = max((len(m.group()) for m in RUNS.finditer(content)), default=0)
    fence = "~" * max(3, longest + 1)
    return f"{fence}untrusted-text\n{content}\n{fence}"


serve(wrap)
