"""A JSON string after a label, broken: its line breaks are left raw.

    Observation: "<content as a JSON string, each LF written as it is>"
    Thought:

The framing of correct_after_label.py, but each content line is written
as a JSON string's inside and the lines are joined with a raw LF, for a
log that reads well. A lenient JSON reader (Python's
`json.loads(strict=False)`) still gets the content back whole, so the body
is faithful; but a content line can now start, and a line `Thought:` in
the content reads as the framing's own next label.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    lines = [json.dumps(line)[1:-1] for line in content.split("\n")]
    body = "\n".join(lines)  # the defect: LF left raw between escaped lines
    return f'Observation: "{body}"\nThought:'


serve(wrap)
