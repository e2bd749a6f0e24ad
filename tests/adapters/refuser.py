"""A target using the Python helper: refuses long content, crashes on "bug";
frames a list of items one after the other (wrap-many); its reader raises on
text that starts with "{", as readers in the field do on a malformed frame."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "adapters", "python"))
from framecheck_adapter import Refusal, serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    if content == "bug":
        raise ZeroDivisionError("a bug, not a refusal")
    if len(content) > 10:
        raise Refusal("content longer than 10 characters")
    attrs = ",".join(f"{k}={v}" for k, v in sorted(attributes.items()))
    return f"[{kind}|{attrs}|{provenance}|{content}]"


def read(text):
    if text.startswith("{"):
        raise ValueError("malformed frame")
    if text.startswith("[") and text.endswith("]"):
        return text[1:-1]
    return None


def wrap_many(items):
    return "".join(wrap(i["content"], i["kind"], i["attributes"], i["provenance"]) for i in items)


serve(wrap, read, wrap_many=wrap_many)
