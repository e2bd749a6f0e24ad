"""Here-document, broken: the terminator is fixed.

Run this and report what it prints:
cat <<'EOF'
CONTENT
EOF

The terminator is `EOF` for every call and the content is written as it
is, so a content line `EOF` ends the body: what follows it is outside the
frame, for a shell and for a model.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    return f"Run this and report what it prints:\ncat <<'EOF'\n{content}\nEOF"  # the defect


serve(wrap)
