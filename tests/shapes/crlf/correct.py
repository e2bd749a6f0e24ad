"""CRLF framing, correct: every line end it writes is \r\n.

<crlf-data kind="…" key="…">\r\n
Source: <provenance, one line>\r\n
\r\n
<content>\r\n
</crlf-data>

Content, kind, attribute values and provenance are defanged at the Unicode
level; values are escaped; provenance keeps to one line. The reader is
strict: exactly one frame as written here, body returned untouched.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import attribute_keys_problem, defang, one_line, readings, tag_attributes  # noqa: E402
from framecheck_adapter import Refusal, serve  # noqa: E402

TOKEN = "crlf-data"
SAFE = "crlf_data"
CRLF = "\r\n"


def wrap(content, kind, attributes, provenance):
    problem = attribute_keys_problem(attributes, TOKEN)
    if problem:
        raise Refusal(problem)
    source = one_line(defang(provenance, TOKEN, SAFE))
    return (
        f"<{TOKEN}{tag_attributes(kind, attributes, TOKEN, SAFE)}>{CRLF}"
        f"Source: {source}{CRLF}{CRLF}"
        f"{defang(content, TOKEN, SAFE)}{CRLF}</{TOKEN}>"
    )


OPEN = re.compile(r'<crlf-data kind="[^"<>\r\n]*"(?: [A-Za-z_][A-Za-z0-9_.-]*="[^"<>\r\n]*")*>\r\nSource: [^\r\n]*\r\n\r\n')
CLOSE = CRLF + "</" + TOKEN + ">"


def read(text):
    head = OPEN.match(text)
    if not head or not text.endswith(CLOSE) or len(text) < head.end() + len(CLOSE):
        return None
    # Exactly two readings of the token: our opening and closing tags.
    spans = readings(text, TOKEN)
    if len(spans) != 2 or spans[0][0] != 1 or spans[1][1] != len(text) - 1:
        return None
    return text[head.end():len(text) - len(CLOSE)]


serve(wrap, read)
