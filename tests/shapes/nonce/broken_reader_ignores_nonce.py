"""Nonce in the tag name, broken reader: any nonce closes the frame.

The writer is the correct one, and the reader is strict in every other way
(one opener at the start, one closer at the very end, nothing else reading
as the token). But it finds the closing tag with a pattern that accepts any
uuid, so a frame whose closer carries another value, or a closer spliced
from a different frame, is read as valid.
"""

import os
import re
import secrets
import sys
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import attribute_keys_problem, defang, readings, tag_attributes  # noqa: E402
from framecheck_adapter import Refusal, serve  # noqa: E402

STEM = "untrusted-data"
SAFE = "untrusted_data"


def wrap(content, kind, attributes, provenance):
    problem = attribute_keys_problem(attributes, STEM)
    if problem:
        raise Refusal(problem)
    tag = f"{STEM}-{uuid.UUID(bytes=secrets.token_bytes(16), version=4)}"
    attrs = tag_attributes(kind, attributes, STEM, SAFE)
    return f"<{tag}{attrs}>\n{defang(content, STEM, SAFE)}\n</{tag}>"


UUID = "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"
OPEN = re.compile(
    rf'<untrusted-data-{UUID} kind="[^"<>\r\n]*"(?: [A-Za-z_][A-Za-z0-9_.-]*="[^"<>\r\n]*")*>\n'
)
CLOSE = re.compile(rf"\n</untrusted-data-{UUID}>\Z")


def read(text):
    head = OPEN.match(text)
    tail = CLOSE.search(text)  # the defect: any uuid closes; never compared with the opener's
    if not head or not tail or tail.start() < head.end():
        return None
    spans = readings(text, STEM)
    if len(spans) != 2 or spans[0][0] != 1 or spans[1][0] != tail.start() + 3:
        return None
    return text[head.end():tail.start()]


serve(wrap, read)
