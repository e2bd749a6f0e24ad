"""Begin/end markers, broken: neutralises ASCII spellings only.

A case-insensitive regular expression over ASCII rewrites BEGIN/END
PEER_MESSAGE in any letter case and spacing. Holds for a byte reader and a
case-insensitive one; a zero-width character, a fullwidth or Cyrillic letter
in the token slips past the pattern and is still read as the marker.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

TOKEN = "PEER_MESSAGE"
MARKER = re.compile(r"PEER_MESSAGE", re.IGNORECASE | re.ASCII)  # the defect: ASCII only


def wrap(content, kind, attributes, provenance):
    return f"BEGIN {TOKEN}\n{MARKER.sub('PEER-MESSAGE', content)}\nEND {TOKEN}"


serve(wrap)
