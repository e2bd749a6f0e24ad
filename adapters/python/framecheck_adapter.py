"""Serve a Python framing to framecheck over its JSON-lines protocol.

Write ``wrap`` (and ``read`` if the framing has a reader), then call
``serve(wrap, read)``. The same loop serves persistent and one-shot mode.
``wrap(content, kind=..., attributes=..., provenance=...)`` returns the framed
text; ``read(text)`` returns the body or ``None``, or, for a reader that
parses frames into messages or fields (``reader.returns: segments``), a list
of dicts with ``role``, ``field`` (``None`` when it has none) and ``text``,
sent as ``{"segments": [...]}``. A framing that answers a list of messages
(``wrap.returns: parts``) returns from ``wrap`` a list of dicts with ``role``
(``None`` when it has none) and ``text``, sent as ``{"parts": [...]}``. Raise ``Refusal`` to reject
an input on purpose; any other exception from ``wrap`` is a bug: it ends the
process with a traceback on stderr, which framecheck reports as a failure.
An exception from ``read`` rejects the text (``None``), traceback on stderr:
readers raise on a malformed frame, and one that raises on the framing's own
output is still reported, as a reader rejecting it.

Raw bytes (the protocol's ``bytes`` extension, for profiles declaring the
``bytes`` capability): with ``serve(wrap, read, raw_bytes=True)``, ``wrap``
gets the raw content as ``bytes`` whenever the request carries
``content_b64``, and ``bytes`` returned by ``wrap`` go back as ``framed_b64``.

Several frames per call (profiles declaring ``frame: {count: several}``):
with ``serve(wrap, read, wrap_many=wrap_many)``, the ``wrap-many`` op calls
``wrap_many(items)`` with a list of dicts, each with ``content``, ``kind``,
``attributes`` and ``provenance`` (``content`` as ``bytes`` when the item
carries ``content_b64`` and ``raw_bytes`` is on), and sends back the one
framed text it returns (or, as for ``wrap``, the list of parts: one message
per item, say). Without ``wrap_many`` the op gets an ``error`` reply.
"""

import base64
import json
import sys
import traceback


class Refusal(Exception):
    """The framing rejects this input on purpose; the message says why."""


def _framed(rid, framed):
    if isinstance(framed, list):
        return {"id": rid, "parts": [{"role": p.get("role"), "text": p["text"]} for p in framed]}
    if isinstance(framed, (bytes, bytearray)):
        return {"id": rid, "framed_b64": base64.b64encode(framed).decode("ascii")}
    return {"id": rid, "framed": framed}


def _items(request, raw_bytes):
    """The items of a wrap-many request, or None when they are malformed."""
    items = request.get("items")
    if not isinstance(items, list) or not all(
            isinstance(i, dict) and isinstance(i.get("content"), str) for i in items):
        return None
    out = []
    for item in items:
        content = item["content"]
        if raw_bytes and isinstance(item.get("content_b64"), str):
            content = base64.b64decode(item["content_b64"], validate=True)
        out.append({"content": content, "kind": item.get("kind", ""),
                    "attributes": item.get("attributes") or {},
                    "provenance": item.get("provenance", "")})
    return out


def _answer_many(request, wrap_many, raw_bytes):
    rid = request.get("id")
    if wrap_many is None:
        return {"id": rid, "error": "unsupported op 'wrap-many'"}
    items = _items(request, raw_bytes)
    if items is None:
        return {"id": rid, "error": "invalid request: items must be a list of objects "
                                    "with a string content"}
    try:
        return _framed(rid, wrap_many(items))
    except Refusal as refusal:
        return {"id": rid, "error": str(refusal) or "refused"}


def _answer(request, wrap, read, raw_bytes=False, wrap_many=None):
    if not isinstance(request, dict):
        return {"id": None, "error": "invalid request: not a JSON object"}
    rid, op = request.get("id"), request.get("op")
    if op == "wrap-many":
        return _answer_many(request, wrap_many, raw_bytes)
    field = {"wrap": "content", "read": "text"}.get(op)
    if field is None or (op == "read" and read is None):
        return {"id": rid, "error": f"unsupported op {op!r}"}
    argument = request.get(field)
    if not isinstance(argument, str):
        return {"id": rid, "error": f"invalid request: {field} must be a string"}
    try:
        if op == "read":
            body = _read(read, argument)
            if isinstance(body, list):
                return {"id": rid, "segments": [
                    {"role": s["role"], "field": s.get("field"), "text": s["text"]}
                    for s in body]}
            return {"id": rid, "body": body}
        if raw_bytes and isinstance(request.get("content_b64"), str):
            argument = base64.b64decode(request["content_b64"], validate=True)
        framed = wrap(argument, kind=request.get("kind", ""),
                      attributes=request.get("attributes") or {},
                      provenance=request.get("provenance", ""))
        return _framed(rid, framed)
    except Refusal as refusal:
        return {"id": rid, "error": str(refusal) or "refused"}


def _read(read, text):
    try:
        return read(text)
    except Refusal:
        raise
    except Exception:  # noqa: BLE001 - a raising reader rejects the text
        traceback.print_exc(file=sys.stderr)
        return None


def serve(wrap, read=None, stdin=None, stdout=None, raw_bytes=False, wrap_many=None):
    """Answer requests from stdin on stdout until stdin closes."""
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer
    for raw in stdin:  # bytes split at b"\n" only, never at U+2028 or \r
        if not raw.strip():
            continue
        try:
            request = json.loads(raw.decode("utf-8"))
        except ValueError as malformed:  # bad UTF-8 or bad JSON
            reply = {"id": None, "error": f"invalid request: {malformed}"}
        else:
            reply = _answer(request, wrap, read, raw_bytes, wrap_many)
        # ensure_ascii keeps a lone surrogate visible as an escape, not a crash.
        stdout.write((json.dumps(reply) + "\n").encode("ascii"))
        stdout.flush()
