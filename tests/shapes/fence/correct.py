"""Markdown fence, correct: the fence is longer than any backtick run.

```untrusted-text            (as many backticks as needed, at least three)
CONTENT
```

The fence is one backtick longer than the longest run of characters a
Unicode-level reader takes for backticks anywhere in the content (fullwidth
backticks, invisible characters inside a run), so no line of content can
close it. Content is otherwise written byte for byte.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import fold_char  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

INFO = "untrusted-text"


def longest_run(text, mark):
    """Longest run of characters that read as `mark`; invisible ones do not break it."""
    longest = run = 0
    for ch in text:
        seen = fold_char(ch)
        if seen == "":
            continue
        for c in seen:
            run = run + 1 if c == mark else 0
            longest = max(longest, run)
    return longest


def wrap(content, kind, attributes, provenance):
    fence = "`" * max(3, longest_run(content, "`") + 1)
    return f"{fence}{INFO}\n{content}\n{fence}"


serve(wrap)
