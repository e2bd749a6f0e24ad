"""Begin/end markers with an id, broken: one id for the process's lifetime.

The id is random, but drawn once at start-up and written on every frame:
an attacker who has seen one frame (an earlier tool result echoed back, a
log) knows the id of every later one. Content is still defanged, so a copied
END marker is not live here; the defect is the reused id itself, which
framecheck sees by wrapping the same input twice.
"""

import os
import secrets
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

TOKEN = "EXTERNAL_CONTENT"
SAFE = "EXTERNAL-CONTENT"
NONCE = secrets.token_hex(16)  # the defect: drawn once, reused for every frame


def wrap(content, kind, attributes, provenance):
    body = defang(content, TOKEN, SAFE)
    return f'<<<{TOKEN} id="{NONCE}">>>\n{body}\n<<<END_{TOKEN} id="{NONCE}">>>'


serve(wrap)
