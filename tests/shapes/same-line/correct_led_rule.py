'''A rule after a lead, correct: `Text: """` before, `"""` alone after.

    Text: """
    <content>
    """

Every span the unicode level reads as three double quotes is broken with a
hyphen, repeatedly, so no content line reads as the closing rule (nor as
the opening line, which ends with it).
'''

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

RULE = '"""'
BROKEN = '"-"'


def wrap(content, kind, attributes, provenance):
    return f"Text: {RULE}\n{defang(content, RULE, BROKEN)}\n{RULE}"


serve(wrap)
