"""Percent-encoded body, broken: the `%` of the content is left as it is.

<untrusted encoding="percent">
50% off%2C see %41 %3Cb%3E
</untrusted>

The writer keeps `%` raw (`quote(content, safe=" %")`, meant not to encode
text that looks encoded twice), so the reader's `unquote` decodes the
content's own `%41` as `A` and `%3C/b%3E` as `</b>`: the content does not
come back. The frame holds (no `<` of the content reaches the text), so
the failures are fidelity alone.
"""

import os
import re
import sys
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

FRAME = re.compile(r'<untrusted encoding="percent">\n([A-Za-z0-9_.~ %-]*)\n</untrusted>')


def wrap(content, kind, attributes, provenance):
    body = urllib.parse.quote(content, safe=" %")  # the defect
    return f'<untrusted encoding="percent">\n{body}\n</untrusted>'


def read(text):
    m = FRAME.fullmatch(text)
    if not m:
        return None
    try:
        return urllib.parse.unquote(m.group(1), errors="strict")
    except UnicodeDecodeError:
        return None


serve(wrap, read)
