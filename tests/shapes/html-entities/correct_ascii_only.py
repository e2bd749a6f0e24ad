"""HTML-entity body read by a model, correct: an ASCII-only page.

<page>
caf&#233; &lt;b&gt; &#20250;&#35758; &amp; more
</page>

`html.escape` then `.encode("ascii", "xmlcharrefreplace")`: `& < > " '`
as entities, and every character past ASCII as a numeric reference, as an
ASCII-only writer must. No `<` of the content is written, and no
lookalike of one (a fullwidth bracket is a reference too). Each reference
reads back as exactly the character it replaced, so none of them is a
change: the body is the content, entity-escaped.
"""

import html
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    body = html.escape(content).encode("ascii", "xmlcharrefreplace").decode("ascii")
    return f"<page>\n{body}\n</page>"


serve(wrap)
