"""YAML document, correct: a record written the way a YAML dumper writes it.

    tool: fetch
    result: <content, plain or double-quoted>
    chars: 42

The content is one string value at `/result`; `chars` changes with it.
Like `yaml.safe_dump`, the framing writes the content as a plain scalar
only when nothing in it is YAML syntax (letters, digits, spaces and `.,`,
not a word a reader resolves to another type), and otherwise as a
double-quoted scalar, escaped as JSON escapes a string with `ensure_ascii`
(a JSON string is a YAML double-quoted scalar): no line break, quote,
`: `, `#` or non-ASCII character is left raw. (Standard library only, as
every fixture here; `yaml.safe_dump` itself is checked the same way by
hand, see the shapes README.)
"""

import json
import re
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9.,]*( [A-Za-z0-9.,]+)*")
# Words YAML 1.1 or 1.2 readers resolve to booleans or null.
TYPED = {"true", "false", "yes", "no", "on", "off", "y", "n", "null", "none"}


def scalar(content):
    if PLAIN.fullmatch(content) and content.lower() not in TYPED:
        return content
    return json.dumps(content)


def wrap(content, kind, attributes, provenance):
    return f"tool: fetch\nresult: {scalar(content)}\nchars: {len(content)}\n"


serve(wrap)
