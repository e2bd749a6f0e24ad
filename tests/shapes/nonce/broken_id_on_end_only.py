"""Begin/end markers with a per-call id, broken: the id is on the END marker alone.

<<<EXTERNAL_CONTENT>>>
CONTENT
<<<END_EXTERNAL_CONTENT id="{32 hex}">>>

The id is 128 bits from `secrets`, new for every call, and the content is
written raw, relying on it. But the opener does not carry it, so a reader
has no value to check an END marker against: the content's own
`<<<END_EXTERNAL_CONTENT id="...">>>`, with any id (or the one copied from
an earlier frame), ends the frame. With the id on both markers the same
raw content would be held by the id.
"""

import os
import secrets
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

TOKEN = "EXTERNAL_CONTENT"


def wrap(content, kind, attributes, provenance):
    nonce = secrets.token_hex(16)
    return f'<<<{TOKEN}>>>\n{content}\n<<<END_{TOKEN} id="{nonce}">>>'  # the defect


serve(wrap)
