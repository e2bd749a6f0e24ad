"""Begin/end markers, correct: <<<EXTERNAL_CONTENT>>> … <<<END_EXTERNAL_CONTENT>>>.

Every reading of the token in the content (any case, spaced, invisible
characters spliced in, fullwidth, lookalikes) is replaced by
EXTERNAL-CONTENT, so no spelling of either marker survives in the body.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

TOKEN = "EXTERNAL_CONTENT"
SAFE = "EXTERNAL-CONTENT"


def wrap(content, kind, attributes, provenance):
    body = defang(content, TOKEN, SAFE)
    return f"<<<{TOKEN}>>>\n{body}\n<<<END_{TOKEN}>>>"


serve(wrap)
