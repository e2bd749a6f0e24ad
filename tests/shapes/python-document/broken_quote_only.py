"""Python-literal document, broken: only the quote is escaped.

    Observation: {'url': 'https://example.com/report', 'content': '<content>', 'chars': 42}

The framing formats the literal itself and escapes `'` as `\\'`, but not
the backslash or line breaks: content's backslash before a quote turns the
escape into an escaped backslash and a live quote, and a line break ends
the one-line literal, so the dict no longer parses.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

TEMPLATE = "{'url': 'https://example.com/report', 'content': '%s', 'chars': %d}"


def wrap(content, kind, attributes, provenance):
    escaped = content.replace("'", "\\'")  # the defect
    return "Observation: " + TEMPLATE % (escaped, len(content))


serve(wrap)
