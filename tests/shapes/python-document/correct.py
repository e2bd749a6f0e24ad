"""Python-literal document, correct: `ascii()` of a record after a lead.

    Observation: {'url': 'https://example.com/report', 'content': '<content>', 'chars': 42}

A tool's record handed on as a Python literal, as agent frameworks write an
observation. The content is one string value at `/content`; `chars`
changes with it, and a `truncated` key is added only for long content
(both are the framing's own, never a finding). `ascii` picks the quote per
string as `repr` does, escapes that quote, the backslash and every control
and line-break character, and writes every non-ASCII character as an
escape, so no character a reader folds to a quote is left raw either.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

LIMIT = 200


def wrap(content, kind, attributes, provenance):
    record = {
        "url": "https://example.com/report",
        "content": content,
        "chars": len(content),
    }
    if len(content) > LIMIT:
        record["truncated"] = False
    return "Observation: " + ascii(record)


serve(wrap)
