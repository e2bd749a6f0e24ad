r"""A Lua assignment with the content as a long string, broken: the level
counts only `]]`.

    page = [[<content>]]      (no `]]` in the content)
    page = [=[<content>]=]    (a `]]` in it)

The framing raises the level to one when the content holds `]]` and looks
at no other closer, so content holding both `]]` and `]=]` is ended by its
`]=]`, and content holding `]=]` alone has no effect on the level.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    eq = "=" if "]]" in content else ""  # the defect
    return "page = [" + eq + "[" + content + "]" + eq + "]"


serve(wrap)
