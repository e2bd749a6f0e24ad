"""Python-literal document, broken: `repr()` where `ascii()` was needed.

    Observation: {'url': 'https://example.com/report', 'content': '<content>', 'chars': 42}

`repr` escapes the quote it chose, the backslash and every line break, but
leaves printable non-ASCII raw: a fullwidth apostrophe (U+FF07) or
backslash stays in the content's string, and the unicode level reads it as
the string's end. Readers at `ascii-case-insensitive` and below see no
breakout (what smolagents and LlamaIndex observations do, field/shapes).
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    record = {
        "url": "https://example.com/report",
        "content": content,
        "chars": len(content),
    }
    return "Observation: " + repr(record)  # the defect


serve(wrap)
