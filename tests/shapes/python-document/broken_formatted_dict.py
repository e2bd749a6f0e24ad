"""Python-literal document, broken: the dict's text is built by formatting.

    Observation: {'url': 'https://example.com/report', 'content': '<content>', 'chars': 42}

The framing writes the literal with a template instead of `repr`, and
escapes nothing: a `'` in the content ends its string, and what follows is
the dict's own keys for a reader.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

TEMPLATE = "{'url': 'https://example.com/report', 'content': '%s', 'chars': %d}"


def wrap(content, kind, attributes, provenance):
    return "Observation: " + TEMPLATE % (content, len(content))  # the defect


serve(wrap)
