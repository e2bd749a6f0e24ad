"""HTML-entity body read back by a parser, correct.

<document kind="…" key="…">
CONTENT with & < > as &amp; &lt; &gt;
</document>

The frame's consumer is a parser (an XML chat template turned into
messages), so what matters is what the parser reads: with every `&`, `<` and
`>` of the content escaped, nothing in the body is markup. The reader is that
parser, strict: one element, no raw markup or unknown entity in the body,
entities decoded once, the original content returned.
"""

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
ENTITY = re.compile(r"&(?:(amp|lt|gt|quot|apos)|#([0-9]{1,7})|#x([0-9a-fA-F]{1,6}));")
NAMED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}


def decode_entity(match):
    name, dec, hexa = match.groups()
    if name:
        return NAMED[name]
    code = int(dec) if dec else int(hexa, 16)
    if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
        raise ValueError("bad character reference")
    return chr(code)


def read(text):
    head = OPEN.match(text)
    if not head or not text.endswith(CLOSE) or len(text) < head.end() + len(CLOSE):
        return None
    body = text[head.end():len(text) - len(CLOSE)]
    if "<" in body or ">" in body:
        return None  # markup in the body: not one element as written
    if ENTITY.sub("", body).count("&"):
        return None  # an ampersand that starts no entity
    try:
        return ENTITY.sub(decode_entity, body)
    except ValueError:
        return None


serve(wrap, read)
