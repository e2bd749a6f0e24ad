"""Nonce in the tag name, broken: the "nonce" is a per-process counter.

It is formatted like a uuid, but an attacker who has seen one frame, or who
simply counts, knows the next closing tag. Everything else is as in the
correct framing.
"""

import itertools
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import attribute_keys_problem, defang, tag_attributes  # noqa: E402
from framecheck_adapter import Refusal, serve  # noqa: E402

STEM = "untrusted-data"
SAFE = "untrusted_data"
CALLS = itertools.count(1)


def nonce():
    n = next(CALLS)  # the defect: sequential, not random
    return f"00000000-0000-4000-8000-{n:012x}"


def wrap(content, kind, attributes, provenance):
    problem = attribute_keys_problem(attributes, STEM)
    if problem:
        raise Refusal(problem)
    tag = f"{STEM}-{nonce()}"
    attrs = tag_attributes(kind, attributes, STEM, SAFE)
    return f"<{tag}{attrs}>\n{defang(content, STEM, SAFE)}\n</{tag}>"


serve(wrap)
