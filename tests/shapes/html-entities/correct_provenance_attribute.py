"""HTML-entity body read by a model, its provenance in an attribute, correct.

<external_content source="PROVENANCE">
CONTENT with & < > as &amp; &lt; &gt;, every other reading of the tag name defanged
</external_content>

The framing writes the request's provenance as an attribute of its own
choosing (`source`), escaped as an attribute value, and no other attribute.
`source` is the framing's name, not one the content or the caller wrote, so
its presence in every frame is no injection. The body escapes `&`, `<` and
`>`, and every spelling of the tag name a reader level folds to it
(fullwidth, lookalike, invisible characters) is replaced, so no closer is
live at any level.
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


def wrap(content, kind, attributes, provenance):
    body = defang(escape_text(content), TOKEN, SAFE)
    source = defang(escape_attribute(provenance), TOKEN, SAFE)
    return f'<{TOKEN} source="{source}">\n{body}\n</{TOKEN}>'


serve(wrap)
