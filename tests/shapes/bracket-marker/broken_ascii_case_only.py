"""Bracket markers, broken: neutralises ASCII spellings of the token only.

A case-insensitive regular expression over ASCII rewrites TOOL_OUTPUT in
any letter case. That holds for a byte reader and a case-insensitive one;
a zero-width character, a fullwidth or Cyrillic letter in the token slips
past the pattern and still reads as the marker at the Unicode level.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

TOKEN = "TOOL_OUTPUT"
MARKER = re.compile(r"TOOL_OUTPUT", re.IGNORECASE | re.ASCII)  # the defect: ASCII only


def wrap(content, kind, attributes, provenance):
    return f"[{TOKEN}]\n{MARKER.sub('TOOL-OUTPUT', content)}\n[/{TOKEN}]"


serve(wrap)
