"""HTML-entity body, broken reader: decodes until no entity is left.

The writer is the correct one. The reader "makes sure" the text is fully
decoded by unescaping until nothing changes, so content that itself holds
an entity (HTML source, "&amp;" in a URL) is decoded twice and comes back
altered.
"""

import html
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import attribute_keys_problem, tag_attributes  # noqa: E402
from framecheck_adapter import Refusal, serve  # noqa: E402

TOKEN = "document"
SAFE = "documen_t"


def escape_text(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def wrap(content, kind, attributes, provenance):
    problem = attribute_keys_problem(attributes, TOKEN)
    if problem:
        raise Refusal(problem)
    attrs = tag_attributes(kind, attributes, TOKEN, SAFE)
    return f"<{TOKEN}{attrs}>\n{escape_text(content)}\n</{TOKEN}>"


OPEN = re.compile(r'<document kind="[^"<>]*"(?: [A-Za-z_][A-Za-z0-9_.-]*="[^"<>]*")*>\n')
CLOSE = "\n</document>"


def read(text):
    head = OPEN.match(text)
    if not head or not text.endswith(CLOSE) or len(text) < head.end() + len(CLOSE):
        return None
    body = text[head.end():len(text) - len(CLOSE)]
    if "<" in body or ">" in body:
        return None
    decoded = html.unescape(body)
    while html.unescape(decoded) != decoded:  # the defect: decodes more than once
        decoded = html.unescape(decoded)
    return decoded


serve(wrap, read)
