"""Content in an XML attribute value, read back by a parser, correct.

    <document source="web" text="<content, entity-escaped>"/>

The frame is an inline pair: the opener `text="`, the closer the value's
quote. Every `&`, `<`, `>` and `"` of the content is written as an entity,
so no content ends the value or writes markup. The reader is the parser
the frame is written for, strict: one empty element, the value's entities
decoded once, the original content returned.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}


def escape_value(text):
    return "".join(ENTITIES.get(c, c) for c in text)


def wrap(content, kind, attributes, provenance):
    return f'<document source="web" text="{escape_value(content)}"/>'


ELEMENT = re.compile(r'<document source="web" text="([^"<>]*)"/>', re.DOTALL)
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
    element = ELEMENT.fullmatch(text)
    if not element:
        return None  # not one element with these two attributes
    value = element.group(1)
    if ENTITY.sub("", value).count("&"):
        return None  # an ampersand that starts no entity
    try:
        return ENTITY.sub(decode_entity, value)
    except ValueError:
        return None


serve(wrap, read)
