"""YAML document, broken at the unicode level: non-ASCII left raw in a single-quoted scalar.

    tool: fetch
    result: '<content>'
    chars: 42

The framing writes the content as `yaml.safe_dump(..., allow_unicode=True)`
does for text a plain scalar cannot hold: single-quoted, every `'` doubled
and every line break written as an empty line, when the text is printable
and no line starts or ends with a space; double-quoted, escaped as
`json.dumps` escapes with `ensure_ascii`, otherwise. Every ASCII quote,
backslash and control is escaped, but a printable fullwidth apostrophe
stays raw in the single-quoted scalar, which the unicode level reads as
the scalar's end.
"""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

# Text a single-quoted scalar cannot hold as it is: controls but LF, DEL and
# C1, the line breaks YAML 1.1 knows besides LF, surrogates, U+FFFE, U+FFFF.
NOT_SINGLE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufffe\uffff]")


def single_quoted(content):
    lines = content.split("\n")
    if NOT_SINGLE.search(content) or any(l != l.strip(" ") for l in lines):
        return None
    # A run of line breaks folds to one fewer: each is written with one more.
    breaks = re.sub("\n+", lambda m: m.group() + "\n  ", content.replace("'", "''"))
    return "'" + breaks + "'"  # the defect: a fullwidth apostrophe is left raw


def wrap(content, kind, attributes, provenance):
    result = single_quoted(content) or json.dumps(content)
    return f"tool: fetch\nresult: {result}\nchars: {len(content)}\n"


serve(wrap)
