"""Framings in shapes of the field, written here to test `framecheck init`.

Each is chosen by name on the command line; none is copied from a package.
`python3 framings.py NAME` serves NAME over framecheck's protocol.
"""
import html
import json
import re
import secrets
import sys
import urllib.parse
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
    if not content:
        return ""
    return f"<doc source=\"{provenance}\">\n{content}\n</doc>"


def blank_nothing(content, kind, attributes, provenance):
    # Blank tool results are skipped, whitespace-only ones included.
    if not content.strip():
        return ""
    return f"<doc source=\"{provenance}\">\n{content}\n</doc>"


def spaced_token(content, kind, attributes, provenance):
    return f"[TOOL RESULT 2]\n{content}\n[/TOOL RESULT 2]"


def counter_tag(content, kind, attributes, provenance):
    return f"<result call=\"{next(COUNTER)}\">\n{content}\n</result>"


def json_body(content, kind, attributes, provenance):
    return f"<tool_result>\n{json.dumps({'source': provenance, 'text': content})}\n</tool_result>"


def json_rpc(content, kind, attributes, provenance):
    # A JSON-RPC result whose value is itself a JSON document: the content
    # is a JSON string inside a JSON string, and nothing is neutralised.
    inner = json.dumps({"text": content})
    return f"<tool_result>\n{json.dumps({'jsonrpc': '2.0', 'result': inner})}\n</tool_result>"


def _ascii_json(text):
    # A JSON string with `<`, `>`, `&` written as \u escapes (non-ASCII is
    # escaped by json.dumps itself): no bracket of the content survives.
    return json.dumps(text).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def json_rpc_safe(content, kind, attributes, provenance):
    inner = "{\"text\": " + _ascii_json(content) + "}"
    return f"<tool_result>\n{json.dumps({'jsonrpc': '2.0', 'result': inner})}\n</tool_result>"


def json_rpc_raw_backslash(content, kind, attributes, provenance):
    # The inner JSON string is written by hand and forgets the backslash:
    # a `\` of the content comes out as an escape of what follows it.
    escaped = json.dumps(content.replace("\\", "\u0000"))[1:-1]
    inner = '{"text": "' + escaped.replace("\\u0000", "\\").replace("<", "\\u003c") \
        .replace(">", "\\u003e").replace("&", "\\u0026") + '"}'
    return f"<tool_result>\n{json.dumps({'jsonrpc': '2.0', 'result': inner})}\n</tool_result>"


def json_when_needed(content, kind, attributes, provenance):
    # Raw unless the content holds a character it must escape; then an
    # ASCII-only JSON string with its brackets escaped.
    plain = content.isascii() and not any(c in content for c in '\n\r"\\<>&')
    body = content if plain else _ascii_json(content)
    return f"<tool_result>\n{body}\n</tool_result>"


def json_multiline(content, kind, attributes, provenance):
    # One line raw, with nothing neutralised; several lines as a safe JSON
    # string.
    body = _ascii_json(content) if "\n" in content else content
    return f"<tool_result>\n{body}\n</tool_result>"


def noted(content, kind, attributes, provenance):
    return f"<note>Retrieved from {provenance}.</note>\n<context>\n{content}\n</context>"


def many(items):
    return "\n".join(
        f"<search-result index=\"{i + 1}\">\n{it['content']}\n</search-result>"
        for i, it in enumerate(items))


def many_single(content, kind, attributes, provenance):
    return many([{"content": content}])


def role_defanged(content, kind, attributes, provenance):
    # Only the chat-role tags it knows are neutralised; other markup stays.
    content = re.sub(r"<(/?(?:system|assistant)\b)", r"&lt;\1", content, flags=re.I)
    return f"<tool_output>\n{content}\n</tool_output>"


def nested_message(content, kind, attributes, provenance):
    # A chat message holding one text part; empty content, no part.
    part = f"<text>{html.escape(content, quote=False)}</text>" if content else ""
    return f'<message role="tool">{part}</message>'


def nested_always(content, kind, attributes, provenance):
    return f'<message role="tool"><text>{html.escape(content, quote=False)}</text></message>'


def _read_nested(text):
    match = re.fullmatch(r'<message role="tool"><text>(.*)</text></message>', text, re.S)
    if match is None:
        raise ValueError("not one message")
    return html.unescape(match.group(1))


def subject_attr(content, kind, attributes, provenance):
    # Writes the one metadata key it knows by name and drops the rest.
    subject = html.escape(attributes.get("subject", ""))
    return f'<email subject="{subject}">\n{content}\n</email>'


def percent_reader(content, kind, attributes, provenance):
    # Percent-encoding (every character but letters, digits, `-._~` and
    # spaces as %XX of its UTF-8 bytes), an attribute of the framing's own,
    # and a reader that decodes: framecheck's `percent` body encoding.
    return f'<untrusted encoding="percent">\n{urllib.parse.quote(content, safe=" ")}\n</untrusted>'


def equals_reader(content, kind, attributes, provenance):
    # An encoding no body encoding of framecheck's explains (the same
    # escapes as percent_reader, spelled `=XX`), an attribute of the
    # framing's own, and a reader that decodes.
    body = urllib.parse.quote(content, safe=" ").replace("%", "=")
    return f'<untrusted encoding="equals">\n{body}\n</untrusted>'


def _read_percent(text):
    match = re.fullmatch(r'<untrusted encoding="percent">\n([^<\n]*)\n</untrusted>', text)
    if match is None:
        raise ValueError("not one frame")
    return urllib.parse.unquote(match.group(1), errors="strict")


def _read_equals(text):
    match = re.fullmatch(r'<untrusted encoding="equals">\n([^<\n]*)\n</untrusted>', text)
    if match is None:
        raise ValueError("not one frame")
    return urllib.parse.unquote(match.group(1).replace("=", "%"), errors="strict")


FRAMINGS = {name: f for name, f in globals().items()
            if callable(f) and name not in ("serve", "many") and not name.startswith("_")
            and f.__module__ == __name__}

if __name__ == "__main__":
    name = sys.argv[1]
    # Each start is logged where the test asks, to count adapter starts.
    if os.environ.get("FRAMINGS_START_LOG"):
        with open(os.environ["FRAMINGS_START_LOG"], "a") as log:
            log.write(name + "\n")
    if name == "many_single":
        serve(many_single, wrap_many=many)
    elif name == "nested_message":
        serve(nested_message, read=_read_nested)
    elif name == "percent_reader":
        serve(percent_reader, read=_read_percent)
    elif name == "equals_reader":
        serve(equals_reader, read=_read_equals)
    else:
        serve(FRAMINGS[name])
