"""An inline pair of guillemets in running text, correct.

    The page reads Document: «<content>» (end of the page).

The content sits inside one line of prose between two distinct marks; a
reader ends the quote at the first `»` wherever it stands, not only alone
on a line. Every span the unicode level reads as `»` becomes `›`, and
every span it reads as `«` becomes `‹`, so the content can neither end
the quote nor open another.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

OPEN = "«"
CLOSE = "»"


def wrap(content, kind, attributes, provenance):
    body = defang(defang(content, CLOSE, "›"), OPEN, "‹")
    return f"The page reads Document: {OPEN}{body}{CLOSE} (end of the page)."


serve(wrap)
