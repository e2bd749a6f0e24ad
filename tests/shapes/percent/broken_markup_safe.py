"""Percent-encoded body, broken: `<`, `>` and `/` kept readable.

<untrusted encoding="percent">
Hello%2C world <b>hi</b>%0Anext line
</untrusted>

The writer passes `safe=" /<>"` to `quote` so that markup in the content
stays legible, and so the content's own `</untrusted>` is written as it is:
a live closer of the frame.
"""

import os
import sys
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    body = urllib.parse.quote(content, safe=" /<>")  # the defect
    return f'<untrusted encoding="percent">\n{body}\n</untrusted>'


serve(wrap)
