r'''A TOML table, the content in a multi-line basic string, broken: a triple
quote in the content is left raw.

    [search_result]
    rank = 1
    body = """
    <content, backslashes doubled>
    """

The framing doubles every backslash, so no escape of the content is read,
but writes quotes as they are: a `"""` in the content ends the string, and
what follows it is TOML's own text (a forged key, a forged table).
'''

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    text = content.replace("\\", "\\\\")  # the defect: `"""` is left raw
    return '[search_result]\nrank = 1\nbody = """\n' + text + '\n"""\n'


serve(wrap)
