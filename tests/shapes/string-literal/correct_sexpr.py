r"""An S-expression with the content as its string, correct.

    (tool-result (name web-search) (text "<content escaped>"))

The content is the text of a Lisp/EDN string literal, which a backslash
escapes: the framing doubles every backslash, writes `"` as `\"`, and
writes every other character a reader could fold to a quote or a
backslash (every non-ASCII character, and every control character but the
line breaks, which an S-expression string holds raw) as `\uXXXX`, a
character beyond the BMP as its UTF-16 pair. So no quote of the content
ends the string at any level.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def char(c):
    if c in '\\"':
        return "\\" + c
    if c == "\n" or " " <= c <= "~":
        return c
    data = c.encode("utf-16-be")
    return "".join(
        "\\u%02x%02x" % (data[i], data[i + 1]) for i in range(0, len(data), 2)
    )


def wrap(content, kind, attributes, provenance):
    text = "".join(char(c) for c in content)
    return '(tool-result (name web-search) (text "' + text + '"))'


serve(wrap)
