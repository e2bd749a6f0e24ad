"""Python-literal body, correct: the content as `repr` writes it, in a dict.

<tool_result>
{'type': 'text', 'text': 'CONTENT AS repr() WRITES IT'}
</tool_result>

The tool result is handed on as `repr` of a dict, as many agent frameworks
do. `repr` escapes the backslash, the quote it chose and every control and
line-break character, so the literal keeps the content in one piece; it
does not touch `<`, so every reading of the token in the content (any
spelling a unicode-level reader takes for it) is replaced first.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

TOKEN = "tool_result"
SAFE = "tool-result"


def wrap(content, kind, attributes, provenance):
    record = {"type": "text", "text": defang(content, TOKEN, SAFE)}
    return f"<{TOKEN}>\n{record!r}\n</{TOKEN}>"


serve(wrap)
