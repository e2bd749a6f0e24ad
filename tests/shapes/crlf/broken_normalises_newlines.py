"""CRLF framing, broken: it "normalises" the content's line ends to CRLF.

Everything else is right, but `content.replace("\n", "\r\n")` turns every
LF of the content into CRLF and every CRLF into CR CR LF: ordinary
multi-line content no longer comes through byte for byte.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import attribute_keys_problem, defang, one_line, tag_attributes  # noqa: E402
from framecheck_adapter import Refusal, serve  # noqa: E402

TOKEN = "crlf-data"
SAFE = "crlf_data"
CRLF = "\r\n"


def wrap(content, kind, attributes, provenance):
    problem = attribute_keys_problem(attributes, TOKEN)
    if problem:
        raise Refusal(problem)
    source = one_line(defang(provenance, TOKEN, SAFE))
    body = defang(content, TOKEN, SAFE).replace("\n", CRLF)  # the defect
    return (
        f"<{TOKEN}{tag_attributes(kind, attributes, TOKEN, SAFE)}>{CRLF}"
        f"Source: {source}{CRLF}{CRLF}"
        f"{body}{CRLF}</{TOKEN}>"
    )


serve(wrap)
