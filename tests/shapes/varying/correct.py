"""Always framed; one line raw, several lines as a JSON string, correct.

<tool_output>
ONE LINE OF CONTENT, DEFANGED
</tool_output>

<tool_output>
"a JSON string of content with\\nseveral lines, < > & escaped"
</tool_output>

The framing chooses the body's encoding per content (a published pattern:
a plain message as it is, anything longer as JSON), and both branches keep
the closer out: the raw branch defangs every reading of the tag at the
Unicode level, the JSON branch writes ASCII only with < > & escaped.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

TOKEN = "tool_output"
SAFE = "tool-output"


def as_json(content):
    text = json.dumps(content)  # ASCII only: every other character as \uXXXX
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def body(content):
    if "\n" in content:
        return as_json(content)
    return defang(content, TOKEN, SAFE)


def wrap(content, kind, attributes, provenance):
    return f"<{TOKEN}>\n{body(content)}\n</{TOKEN}>"


serve(wrap)
