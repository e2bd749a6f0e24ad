"""Begin/end markers, correct: a ChatML tool turn whose special tokens are
removed from the content until none is left.

    <|im_start|>tool
    {content, every reading of <|im_start|> and <|im_end|> removed, repeatedly}<|im_end|>
    <|im_start|>assistant

Removal runs until the content stops changing, so the halves around a
removed token can never join into a new one (`<|im_<|im_end|>end|>`).
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import fold, fold_char  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

SPECIAL = ("<|im_start|>", "<|im_end|>")


def spans(text, special):
    """Source spans reading as `special` once folded, spaces and tabs skipped."""
    folded = [(f, i) for i, ch in enumerate(text) if ch not in " \t" for f in fold_char(ch)]
    needle, found, i = fold(special), [], 0
    while i + len(needle) <= len(folded):
        if "".join(f for f, _ in folded[i : i + len(needle)]) == needle:
            found.append((folded[i][1], folded[i + len(needle) - 1][1] + 1))
            i += len(needle)
        else:
            i += 1
    return found


def strip_once(text):
    """Removes every reading of each special token, one pass per token."""
    for special in SPECIAL:
        for start, end in reversed(spans(text, special)):
            text = text[:start] + text[end:]
    return text


def wrap(content, kind, attributes, provenance):
    body = strip_once(content)
    while strip_once(body) != body:
        body = strip_once(body)
    return f"<|im_start|>tool\n{body}<|im_end|>\n<|im_start|>assistant\n"


serve(wrap)
