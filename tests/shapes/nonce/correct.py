"""Per-call random nonce in the tag name, correct.

<untrusted-data-{uuid} kind="…" key="…">
CONTENT
</untrusted-data-{uuid}>

The uuid comes from `secrets` (122 random bits), new for every call. As
defence in depth, every reading of `untrusted-data` in the content and the
values is defanged, so neither the real marker (should a caller ever learn
it) nor a nonce-less copy of it is live. The reader insists that opener and
closer carry the same nonce and that nothing else reads as the token.
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


def nonce():
    return str(uuid.UUID(bytes=secrets.token_bytes(16), version=4))


def wrap(content, kind, attributes, provenance):
    problem = attribute_keys_problem(attributes, STEM)
    if problem:
        raise Refusal(problem)
    tag = f"{STEM}-{nonce()}"
    attrs = tag_attributes(kind, attributes, STEM, SAFE)
    return f"<{tag}{attrs}>\n{defang(content, STEM, SAFE)}\n</{tag}>"


UUID = "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"
OPEN = re.compile(
    rf'<untrusted-data-({UUID}) kind="[^"<>\r\n]*"(?: [A-Za-z_][A-Za-z0-9_.-]*="[^"<>\r\n]*")*>\n'
)


def read(text):
    head = OPEN.match(text)
    if not head:
        return None
    close = f"\n</{STEM}-{head.group(1)}>"
    if not text.endswith(close) or len(text) < head.end() + len(close):
        return None
    # Exactly two readings of the stem: the opener's and the matching closer's.
    spans = readings(text, STEM)
    if len(spans) != 2 or spans[0][0] != 1 or spans[1][0] != len(text) - len(close) + 3:
        return None
    return text[head.end():len(text) - len(close)]


serve(wrap, read)
