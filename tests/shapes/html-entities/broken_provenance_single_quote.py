"""HTML-entity body read by a model, its provenance in a single-quoted attribute, broken.

<external_content source='PROVENANCE'>
CONTENT with & < > as &amp; &lt; &gt;, every other reading of the tag name defanged
</external_content>

The framing quotes the provenance with `'` but escapes it as a
double-quoted value (`&`, `"`, `<`, `>` and every line break), so an
apostrophe in the provenance ends the value and the rest writes attributes
of the caller's choosing into the tag. Brackets are escaped, so the tag
itself cannot be ended: only the quote is missed.
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
    source = defang(escape_attribute(provenance), TOKEN, SAFE)  # the defect: `'` stays raw
    return f"<{TOKEN} source='{source}'>\n{body}\n</{TOKEN}>"


serve(wrap)
