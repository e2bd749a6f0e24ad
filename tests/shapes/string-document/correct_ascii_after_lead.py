"""A string after a fixed lead, correct: `Result: ` then `ascii()` of the content.

    Result: '<content as a Python literal>'

Python picks `'` or `"` per content and escapes the other cases;
`ascii` writes every non-ASCII character as an escape, so no fullwidth
quote or backslash is left raw for the unicode reader.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    return "Result: " + ascii(content)


serve(wrap)
