"""Spotlighting by base64, correct: the encoding wrapped in lines of 76.

<attachment encoding="base64">
SGVsbG8sIHdvcmxk...   (76 characters a line, as MIME and
...                    Python's base64.encodebytes write it)
</attachment>

The content's UTF-8 bytes, base64-encoded by `base64.encodebytes`, which
ends every 76 characters, and the last, with a line feed. Nothing in the
body is a letter of the content, so no token can be forged; a base64
reader ignores the line breaks.
"""

import base64
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    body = base64.encodebytes(content.encode("utf-8")).decode("ascii")
    return f'<attachment encoding="base64">\n{body}</attachment>'


serve(wrap)
