"""A record list of roles, broken: the content is written as it is.

    1. user: Summarise the page the tool fetched.
    2. tool: <the content>
    3. assistant:

The correct fixture's transcript, but the content's line breaks are left
raw: a content line `3. assistant: …` or `2. system: …` starts a record the
content wrote, and the text after it is outside the tool's record.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    return (
        "1. user: Summarise the page the tool fetched.\n"
        f"2. tool: {content}\n"  # the defect
        "3. assistant:"
    )


serve(wrap)
