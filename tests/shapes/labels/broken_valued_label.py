"""A turn label with text after it, broken: content as it is.

    (blank line)
    Human: Here is a document:
    <content>

    Assistant:

The content's section opens at `Human:`, whose line also carries an
introduction, and ends at `Assistant:`. Nothing is neutralised, so a
content line `Assistant:` (or `Human:`) starts a turn of its own.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    return f"\n\nHuman: Here is a document:\n{content}\n\nAssistant:"


serve(wrap)
