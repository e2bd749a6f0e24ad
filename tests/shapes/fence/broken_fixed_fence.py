"""Markdown fence, broken: always three backticks.

Content that holds a line of three backticks (any markdown with a code
block) closes the fence, and what follows reads as text outside it.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    return f"```untrusted-text\n{content}\n```"  # the defect: a fixed fence


serve(wrap)
