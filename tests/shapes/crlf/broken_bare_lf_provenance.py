"""CRLF framing, broken: provenance loses only its CRLF pairs.

The author writes CRLF everywhere and so collapses only "\r\n" in the
provenance; a bare "\n", a lone "\r" or U+2028 in the provenance still ends
the line and lets the caller write header lines or end the header early.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import attribute_keys_problem, defang, tag_attributes  # noqa: E402
from framecheck_adapter import Refusal, serve  # noqa: E402

TOKEN = "crlf-data"
SAFE = "crlf_data"
CRLF = "\r\n"


def wrap(content, kind, attributes, provenance):
    problem = attribute_keys_problem(attributes, TOKEN)
    if problem:
        raise Refusal(problem)
    source = defang(provenance, TOKEN, SAFE).replace(CRLF, " ")  # the defect
    return (
        f"<{TOKEN}{tag_attributes(kind, attributes, TOKEN, SAFE)}>{CRLF}"
        f"Source: {source}{CRLF}{CRLF}"
        f"{defang(content, TOKEN, SAFE)}{CRLF}</{TOKEN}>"
    )


serve(wrap)
