"""Begin/end markers with a matching per-call id, correct.

<<<EXTERNAL_CONTENT id="{32 hex}">>>
CONTENT
<<<END_EXTERNAL_CONTENT id="{the same 32 hex}">>>

The id is 128 bits from `secrets`, new for every call, and written on both
markers. As defence in depth, every reading of the token in the content is
defanged too, so a marker without the id (or with a guessed one) is not
live either.
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


def wrap(content, kind, attributes, provenance):
    nonce = secrets.token_hex(16)
    body = defang(content, TOKEN, SAFE)
    return f'<<<{TOKEN} id="{nonce}">>>\n{body}\n<<<END_{TOKEN} id="{nonce}">>>'


serve(wrap)
