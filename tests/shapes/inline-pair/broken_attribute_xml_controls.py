"""Content in an XML attribute value, read back by an XML parser, broken: controls.

    <document source="web" text="<content: & < > " as entities, tab, LF, CR as &#9; &#10; &#13;>"/>

The frame is an inline pair: the opener `text="`, the closer the value's
quote. Every `&`, `<`, `>` and `"` of the content is written as an entity,
and every tab, line feed and carriage return as a character reference: an
XML parser reads a raw one in an attribute value as a space (XML 1.0,
section 3.3.3), so the value carries them only so. The reader is
`xml.etree.ElementTree`, the parser the frame is written for.

Broken: XML 1.0 cannot carry the other C0 controls (NUL, BEL, ESC …) or
U+FFFE, raw or as references, and the framing writes them raw, so the
parser rejects a document whose content holds one: that content does not
read back. Nothing breaks out; every escape it writes is one XML needs.
"""

import os
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

REFERENCES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;",
              "\t": "&#9;", "\n": "&#10;", "\r": "&#13;"}


def escape_value(text):
    return "".join(REFERENCES.get(c, c) for c in text)  # the defect: other controls raw


def wrap(content, kind, attributes, provenance):
    return f'<document source="web" text="{escape_value(content)}"/>'


def read(text):
    element = ET.fromstring(text)
    if element.tag != "document" or set(element.attrib) != {"source", "text"}:
        return None
    return element.get("text")


serve(wrap, read)
