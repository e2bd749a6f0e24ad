"""JSON document, broken: the content is written raw into a JSON template.

    {"source": "tool", "content": "<content>", "chars": 42}

Nothing is escaped: a quote in the content ends its string, and what
follows is the document's own keys for a reader.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

TEMPLATE = '{"source": "tool", "content": "%s", "chars": %d}'


def wrap(content, kind, attributes, provenance):
    return TEMPLATE % (content, len(content))  # the defect


serve(wrap)
