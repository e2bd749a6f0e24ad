"""Percent-encoded body, correct: `urllib.parse.quote(content, safe=" ")` in an element.

<untrusted encoding="percent">
Hello%2C world %3Cb%3Ehi%3C%2Fb%3E%0Anext line
</untrusted>

Every byte of the content's UTF-8 but letters, digits, `-._~` and the space
is written as `%XX`: no `<`, no line break and no non-ASCII character of
the content reaches the text, so no spelling of the closer can be formed.
The reader is strict: the body on one line, nothing in it that `quote`
would not write, decoded once with `unquote`.
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
    body = urllib.parse.quote(content, safe=" ")
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
