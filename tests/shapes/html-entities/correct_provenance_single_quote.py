"""HTML-entity body read by a model, its provenance in a single-quoted attribute, correct.

<external_content source='PROVENANCE'>
CONTENT with & < > as &amp; &lt; &gt;, every other reading of the tag name defanged
</external_content>

The correct twin of broken_provenance_single_quote.py: the framing quotes
the provenance with `'`, so it escapes `'` (as `&#39;`) as well as `&`,
`"`, `<`, `>` and every line break. Nothing in the provenance can end the
value, so every quote and bracket in it stays text of the value.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang, escape_attribute  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

TOKEN = "external_content"
SAFE = "external_conten_t"


def escape_text(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def escape_single_quoted(value):
    return escape_attribute(value).replace("'", "&#39;")


def wrap(content, kind, attributes, provenance):
    body = defang(escape_text(content), TOKEN, SAFE)
    source = defang(escape_single_quoted(provenance), TOKEN, SAFE)
    return f"<{TOKEN} source='{source}'>\n{body}\n</{TOKEN}>"


serve(wrap)
