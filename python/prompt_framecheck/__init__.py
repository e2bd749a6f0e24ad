"""Audit a Python framing function with framecheck, from a test, in-process.

framecheck runs its attack catalogue against ``wrap`` (and ``read``) and
judges every framed output at three reader levels. This module starts
``framecheck run --serve-stdio``, answers its protocol requests by calling
your functions in this process, and returns the parsed JSON report::

    import prompt_framecheck

    def test_my_framing():
        prompt_framecheck.assert_frames(my_wrap, read=my_read)

With no ``profile``, framecheck infers it from ``wrap`` (and ``read``)
through the same calibration experiments as ``framecheck init``, runs with
it, and shows it in the report (``Report.inferred_profile``) and in the
failure message, ready to save as a file and pass as ``profile=`` to pin.

``wrap(content, kind, attributes, provenance)`` returns the framed text; a
``wrap`` that takes fewer positional parameters (``wrap(content)``, the
usual framing function) gets only as many, the first ones, so that it can be
passed as it is;
``read(text)`` returns the body or ``None``; a reader that parses frames
into messages or fields (profile ``"reader": {"returns": "segments"}``)
returns a list of segments instead, each a dict with ``role``, ``field``
(``None`` when it has none) and ``text``. A ``wrap`` that answers a list
of messages (profile ``"wrap": {"returns": "parts"}``) returns a list of
parts, each a dict with ``role`` (``None`` when it has none) and ``text``.
A framing that writes several
frames per call (a list of sources) also passes ``wrap_many=``, a function
of a list of dicts (``content``, ``kind``, ``attributes``, ``provenance``)
returning one framed text (or, for a profile declaring parts, a list of
parts: one message per item, say), and declares ``"frame": {"count":
"several"}`` in its profile. Raise :class:`Refusal` to reject
an input on purpose. Any other exception from ``wrap`` (``SystemExit``
included) is a bug in the framing *on that input*, as a crash of a
subprocess adapter is: framecheck retries the case once and, when it raises
again, reports a ``target.fault`` finding for it with the traceback (and the
exit status, for ``SystemExit``), then goes on with the next case. A ``wrap``
that returns something other than a ``str`` is a protocol violation of that
case, shown with the value's ``repr``. An exception from ``read`` rejects the
text (``None``), its traceback printed on stderr, as the subprocess helper
does. ``KeyboardInterrupt`` stops the audit and propagates. A framing that
kills this process (``os._exit``, a crash in an extension) cannot be
reported from inside it: audit such a framing through a subprocess adapter.

The framecheck binary is found through the ``framecheck=`` argument, the
``FRAMECHECK`` environment variable, the scripts directory of this Python
(where installing the wheel, distribution ``prompt-framecheck``, puts it) or
``PATH``. The distribution and this package are not named ``framecheck``:
that name on PyPI is an unrelated project that also imports as ``framecheck``.

framecheck proves structure only: that content cannot close, forge, reopen
or rewrite the frame. Framing marks provenance; it is not a security
boundary against an adaptive attacker.
"""

import inspect
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import traceback

__all__ = ["audit", "assert_frames", "Refusal", "Report", "AuditFailure", "FramecheckError"]


class Refusal(Exception):
    """The framing rejects this input on purpose; the message says why."""


class FramecheckError(RuntimeError):
    """framecheck could not run the audit (no binary, a bad profile, a harness error)."""


class Report:
    """A framecheck JSON report (schema ``framecheck-report/1``), parsed.

    ``raw`` is the whole report as a dict; the attributes are the parts a
    test usually wants. ``text`` is framecheck's own one-screen summary.
    """

    def __init__(self, raw, text="", inferred_profile=None):
        self.raw = raw
        self.text = text
        #: The profile YAML framecheck inferred when none was given, else ``None``.
        self.inferred_profile = inferred_profile
        self.status = raw["status"]
        self.exit_code = raw["exit_code"]
        self.level = raw["level"]
        self.summary = raw["summary"]
        self.highest_level_held = self.summary.get("highest_level_held")

    @property
    def passed(self):
        """True when every must-hold case passed at the decision level."""
        return self.status == "pass"

    def verdicts(self):
        """``{case id: verdict}`` at the report's decision level."""
        return {r["id"]: r["verdicts"][self.level] for r in self.raw["results"]}

    def failures(self):
        """The cases that fail at the decision level: ``(id, verdict, checks)``."""
        out = []
        for result in self.raw["results"]:
            verdict = result["verdicts"][self.level]
            if verdict in ("fail", "fidelity-fail", "error"):
                findings = result["outcome"].get("findings") or []
                checks = sorted({f["check"] for f in findings
                                 if f["class"] == "fidelity" or self.level in f["levels"]})
                out.append((result["id"], verdict, checks))
        return out

    def __str__(self):
        lines = [self.text.rstrip() or f"framecheck: {self.status} at level {self.level}"]
        failing = self.failures()
        if failing:
            lines.append(f"{len(failing)} failing cases, first ones:")
            for case_id, verdict, checks in failing[:10]:
                lines.append(f"  {verdict:13} {case_id}  {', '.join(checks)}")
        if self.inferred_profile:
            lines.append("\nNo profile was given; framecheck inferred this one (save it as "
                         "a file and pass profile='that.yaml' to pin it):\n")
            lines.append(self.inferred_profile.rstrip())
        return "\n".join(lines)


class AuditFailure(AssertionError):
    """The framing failed the audit; ``report`` holds the evidence."""

    def __init__(self, report):
        super().__init__(str(report))
        self.report = report


def assert_frames(wrap, read=None, profile=None, **options):
    """Audits ``wrap``/``read`` and raises :class:`AuditFailure` unless it passes."""
    return audit(wrap, read=read, profile=profile, check=True, **options)


def audit(wrap, read=None, profile=None, *, level="unicode", only=(), check=True,
          framecheck=None, out=None, wrap_many=None):
    """Runs framecheck against ``wrap`` (and ``read``) in this process.

    ``profile`` is a path to a profile YAML file, or a dict of profile fields
    (at least ``delimiters``); ``name``, ``language``, ``adapter`` and
    ``capabilities`` default sensibly. Without it the profile is inferred
    from the framing (``framecheck run --serve-stdio --infer``). ``only`` narrows the cases (ids,
    categories or globs). With ``check`` (the default) a failing audit raises
    :class:`AuditFailure`; otherwise the :class:`Report` is returned either
    way. ``out`` keeps the reports (JSON and HTML) in that directory.
    ``wrap_many`` answers the ``wrap-many`` op for a profile declaring
    ``frame: {count: several}``.
    """
    binary = _find_binary(framecheck)
    with tempfile.TemporaryDirectory(prefix="framecheck-") as scratch:
        out_dir = os.path.join(scratch, "reports")
        command = [binary, "run", "--serve-stdio", "--level", level,
                   "--out", out_dir, "--format", "json"]
        command += _target_arguments(profile, read is not None, scratch)
        if out is not None:
            command += ["--format", "html"]
        for pattern in only:
            command += ["--only", pattern]
        with tempfile.TemporaryFile() as stderr:
            code = _serve(command, (wrap, read, wrap_many), stderr)
            stderr.seek(0)
            text = stderr.read().decode("utf-8", "replace")
        written = sorted(os.listdir(out_dir)) if os.path.isdir(out_dir) else []
        reports = [name for name in written if name.endswith(".json")]
        if code not in (0, 1) or len(reports) != 1:
            raise FramecheckError(f"framecheck exited {code}:\n{text.strip()}")
        with open(os.path.join(out_dir, reports[0]), encoding="utf-8") as f:
            report = Report(json.load(f), text, _inferred_profile(out_dir, written))
        if out is not None:
            os.makedirs(out, exist_ok=True)
            for name in written:
                shutil.copy(os.path.join(out_dir, name), os.path.join(out, name))
    if check and not report.passed:
        raise AuditFailure(report)
    return report


def _serve(command, framing, stderr):
    """Starts framecheck and answers its requests until it exits; its exit code."""
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=stderr)
    try:
        for raw in proc.stdout:  # split at b"\n" only
            reply = _answer(json.loads(raw.decode("utf-8")), *framing)
            try:
                # ensure_ascii: a lone surrogate travels as an escape, not a crash.
                proc.stdin.write((json.dumps(reply) + "\n").encode("ascii"))
                proc.stdin.flush()
            except BrokenPipeError:
                break  # framecheck is gone; its exit code says why
    except BaseException:
        # Ctrl-C (or a bug in this module; the framing's own exceptions are
        # faults of their inputs): stop serving, let framecheck end the
        # run, and let the exception reach the caller.
        proc.stdin.close()
        proc.stdout.close()
        proc.wait()
        raise
    try:
        proc.stdin.close()
    except BrokenPipeError:
        pass
    return proc.wait()


def _answer(request, wrap, read, wrap_many=None):
    rid, op = request.get("id"), request.get("op")
    if op == "wrap-many" and wrap_many is not None:
        items = [{"content": i["content"], "kind": i.get("kind", ""),
                  "attributes": i.get("attributes") or {},
                  "provenance": i.get("provenance", "")} for i in request["items"]]
        return _framed(rid, "wrap_many", lambda: wrap_many(items))
    if op == "wrap":
        arguments = (request["content"], request.get("kind", ""),
                     request.get("attributes") or {}, request.get("provenance", ""))
        return _framed(rid, "wrap", lambda: wrap(*arguments[:_positional_arity(wrap)]))
    if op == "read" and read is not None:
        return _read(rid, read, request["text"])
    return {"id": rid, "error": f"unsupported op {op!r}"}


def _positional_arity(function, most=4):
    """How many of the ``most`` request fields ``function`` takes by position:
    all of them when it takes ``*args`` or its signature cannot be read (a
    builtin), else its positional parameters, so ``wrap(content)`` works as
    it is. A function that needs more than it can be given fails on its first
    call with Python's own ``TypeError``, reported as that case's fault."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return most
    positional = 0
    for parameter in parameters:
        if parameter.kind is inspect.Parameter.VAR_POSITIONAL:
            return most
        if parameter.kind in (inspect.Parameter.POSITIONAL_ONLY,
                              inspect.Parameter.POSITIONAL_OR_KEYWORD):
            positional += 1
    return min(positional, most)


def _framed(rid, name, call):
    """The reply to a wrap: the framed text, a refusal, or the fault the
    framing made on this input (it raised, exited or returned no ``str``)."""
    try:
        framed = call()
    except Refusal as refusal:
        return {"id": rid, "error": str(refusal) or "refused"}
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
        return _fault(rid, "crash", f"{name} called sys.exit({exit_.code!r})",
                      exit_status=f"exit status: {code}", stderr=_traceback(exit_))
    except Exception as error:  # noqa: BLE001 - a bug in the framing on this input
        return _fault(rid, "crash", f"{name} raised {type(error).__name__}: {error}",
                      stderr=_traceback(error))
    if isinstance(framed, list):
        parts = _parts(framed)
        if parts is None:
            return _fault(rid, "protocol-violation",
                          f"{name} returned a list that is not of parts "
                          "(dicts with str or None role, str text)",
                          offending_line=repr(framed)[:400])
        return {"id": rid, "parts": parts}
    if not isinstance(framed, str):
        return _fault(rid, "protocol-violation",
                      f"{name} returned {type(framed).__name__}, not str",
                      offending_line=repr(framed)[:400])
    return {"id": rid, "framed": framed}


def _parts(items):
    """``items`` as protocol parts, or ``None`` when one is malformed."""
    parts = []
    for item in items:
        if not isinstance(item, dict):
            return None
        role, text = item.get("role"), item.get("text")
        if (role is not None and not isinstance(role, str)) or not isinstance(text, str):
            return None
        parts.append({"role": role, "text": text})
    return parts


def _read(rid, read, text):
    """The reply to a read: a reader that raises rejects the text."""
    try:
        body = read(text)
    except Refusal as refusal:
        return {"id": rid, "error": str(refusal) or "refused"}
    except Exception:  # noqa: BLE001 - readers in the field raise on a malformed frame
        traceback.print_exc(file=sys.stderr)
        return {"id": rid, "body": None}
    if isinstance(body, list):
        segments = _segments(body)
        if segments is None:
            return _fault(rid, "protocol-violation",
                          "read returned a list that is not of segments "
                          "(dicts with str role, str or None field, str text)",
                          offending_line=repr(body)[:400])
        return {"id": rid, "segments": segments}
    if body is not None and not isinstance(body, str):
        return _fault(rid, "protocol-violation",
                      f"read returned {type(body).__name__}, not str, None or a list of segments",
                      offending_line=repr(body)[:400])
    return {"id": rid, "body": body}


def _segments(items):
    """``items`` as protocol segments, or ``None`` when one is malformed."""
    segments = []
    for item in items:
        if not isinstance(item, dict):
            return None
        role, field, text = item.get("role"), item.get("field"), item.get("text")
        if not isinstance(role, str) or not isinstance(text, str):
            return None
        if field is not None and not isinstance(field, str):
            return None
        segments.append({"role": role, "field": field, "text": text})
    return segments


def _traceback(error):
    """The traceback of ``error`` from the framing's frame on: this module's
    frames (the call through the protocol) say nothing about the bug."""
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(error), error, tb))


def _fault(rid, kind, reason, **facts):
    """A ``fault`` reply (docs/protocol.md, "The calling process as the target")."""
    return {"id": rid, "fault": {"kind": kind, "reason": reason, **facts}}


def _target_arguments(profile, has_read, scratch):
    """The arguments naming the profile: ``--target`` and a file, or, with
    no profile, ``--infer`` (framecheck infers it from the framing)."""
    if profile is None:
        return ["--infer", "python-audit", "--language", "python"]
    return ["--target", _profile_file(profile, has_read, scratch)]


def _inferred_profile(out_dir, written):
    """The profile YAML ``--infer`` wrote beside the reports, else ``None``."""
    for name in written:
        if name.endswith(".profile.yaml"):
            with open(os.path.join(out_dir, name), encoding="utf-8") as f:
                return f.read()
    return None


def _profile_file(profile, has_read, scratch):
    """A profile path for ``--target``: the given one, or a dict written out.

    JSON is YAML, so a dict is written as JSON without a YAML library.
    """
    if not isinstance(profile, dict):
        return os.fspath(profile)
    capabilities = ["wrap", "attributes", "provenance", "kind"] + (["read"] if has_read else [])
    merged = {"name": "python-audit", "language": "python", "adapter": {"builtin": "caller"},
              "capabilities": capabilities, **profile}
    path = os.path.join(scratch, "profile.yaml")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(merged, f)
    return path


def _binary_name(system=os.name):
    """The binary's file name: Windows' wheel installs ``framecheck.exe``."""
    return "framecheck.exe" if system == "nt" else "framecheck"


def _find_binary(explicit):
    candidates = [explicit, os.environ.get("FRAMECHECK")]
    scripts = sysconfig.get_path("scripts")
    if scripts:
        candidates.append(os.path.join(scripts, _binary_name()))
    candidates.append(shutil.which("framecheck"))
    for candidate in candidates:
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    raise FramecheckError("no framecheck binary: install the prompt-framecheck wheel, "
                          "cargo install --path <checkout>, or set "
                          "FRAMECHECK=/path/to/framecheck")
