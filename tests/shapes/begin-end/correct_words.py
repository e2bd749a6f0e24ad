"""Begin/end markers, correct: BEGIN PEER_MESSAGE … END PEER_MESSAGE.

Every reading of the token in the content is replaced by PEER-MESSAGE, so
neither marker can be spelled inside the body in any case or disguise.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

TOKEN = "PEER_MESSAGE"
SAFE = "PEER-MESSAGE"


def wrap(content, kind, attributes, provenance):
    return f"BEGIN {TOKEN}\n{defang(content, TOKEN, SAFE)}\nEND {TOKEN}"


serve(wrap)
