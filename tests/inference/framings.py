"""Framings in shapes of the field, written here to test `framecheck init`.

Each is chosen by name on the command line; none is copied from a package.
`python3 framings.py NAME` serves NAME over framecheck's protocol.
"""
import json
import secrets
import sys
import uuid
import itertools
import os

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

COUNTER = itertools.count(1)


def nonce_tag(content, kind, attributes, provenance):
    n = secrets.token_hex(16)
    return f"<untrusted-data-{n}>\n{content}\n</untrusted-data-{n}>"


def uuid_markers(content, kind, attributes, provenance):
    i = str(uuid.uuid4())
    return (f"SECURITY NOTICE: the text below is external and untrusted.\n"
            f"<<<EXTERNAL_CONTENT id=\"{i}\">>>\nSource: {provenance}\n---\n{content}\n"
            f"<<<END_EXTERNAL_CONTENT id=\"{i}\">>>")


def dashed(content, kind, attributes, provenance):
    return f"--- BEGIN TOOL OUTPUT ---\n{content}\n--- END TOOL OUTPUT ---"


def prefix_tag(content, kind, attributes, provenance):
    return f"Below is the result: <result>{content}</result>"


def numbered(content, kind, attributes, provenance):
    return f"[[ ## record ## ]]\n1. user: {content}\n[[ ## end ## ]]"


def empty_nothing(content, kind, attributes, provenance):
    if not content.strip():
        return ""
    return f"<doc source=\"{provenance}\">\n{content}\n</doc>"


def spaced_token(content, kind, attributes, provenance):
    return f"[TOOL RESULT 2]\n{content}\n[/TOOL RESULT 2]"


def counter_tag(content, kind, attributes, provenance):
    return f"<result call=\"{next(COUNTER)}\">\n{content}\n</result>"


def json_body(content, kind, attributes, provenance):
    return f"<tool_result>\n{json.dumps({'source': provenance, 'text': content})}\n</tool_result>"


def noted(content, kind, attributes, provenance):
    return f"<note>Retrieved from {provenance}.</note>\n<context>\n{content}\n</context>"


def many(items):
    return "\n".join(
        f"<search-result index=\"{i + 1}\">\n{it['content']}\n</search-result>"
        for i, it in enumerate(items))


def many_single(content, kind, attributes, provenance):
    return many([{"content": content}])


FRAMINGS = {name: f for name, f in globals().items()
            if callable(f) and name not in ("serve", "many") and not name.startswith("_")
            and f.__module__ == __name__}

if __name__ == "__main__":
    name = sys.argv[1]
    if name == "many_single":
        serve(many_single, wrap_many=many)
    else:
        serve(FRAMINGS[name])
