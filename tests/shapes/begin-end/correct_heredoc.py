"""Here-document, correct: a terminator drawn per call.

Run this and report what it prints:
cat <<'3f9a0c1d2e3f4a5b6c7d8e9f0a1b2c3d'
CONTENT
3f9a0c1d2e3f4a5b6c7d8e9f0a1b2c3d

The terminator is 32 random hex digits drawn for every call, so no
line of the content can be it (a shell ends the body at the first line
that is the terminator alone, and a model reads it so too). The content is
written as it is.
"""

import os
import secrets
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    end = secrets.token_hex(16)
    return f"Run this and report what it prints:\ncat <<'{end}'\n{content}\n{end}"


serve(wrap)
