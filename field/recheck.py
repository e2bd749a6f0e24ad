"""Re-run each field audit's sampled findings against the package itself.

For every audit, takes the sample ``field/triage.py --sample`` draws (the
same seeded draw), starts the audit's adapter as its report records it
(``target.adapter``: the command and its ``cwd``, relative to the profile's
directory, speaking docs/protocol.md), and for each sampled case:

- sends the case's ``wrap`` request again and says whether the package's
  output is byte for byte the report's evidence (``reproduced``);
- where the audit declares the ``read`` capability, hands that output to the
  package's own reader or parser and prints its answer (the body, or the
  segments), so the finding can be judged against what the package itself
  makes of the output.

A read case's text is handed to the reader again. It prints the finding's
message and excerpt beside that; the judgement
(``confirmed`` or ``refuted``) is recorded by hand in ``field/recheck.tsv``
with what was re-run. A case run as one item among siblings (``@first``…)
and a case of an MCP server (no adapter of ours to talk to) are re-run as
the whole case, through a one-case ``framecheck run --only CASE`` of the
audit's profile: the server is started, the content planted and read back
as the audit did, and the output that run records is compared with the
report's evidence the same way. Needs the packages ``field/run.sh
--install-only`` installs, and a framecheck binary (``$FRAMECHECK``, else
``target/release/framecheck``, else ``target/debug/framecheck``).

    python3 field/recheck.py [AUDIT...]
"""

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import triage  # noqa: E402


# A per-call nonce (OpenClaw's 16 hex characters, Supabase's UUID) differs
# on every call: outputs are compared with such runs set aside.
NONCE = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,}")


# A server that fetches the planted page names the loopback port the run's
# page server got, which differs on every run.
PORT = re.compile(r"(127\.0\.0\.1|localhost):\d+")


def same_output(framed, evidence):
    if "framed" in evidence.get("bounded", {}):
        return "evidence bounded"
    if framed == evidence["framed"]:
        return True
    if framed is None:
        return False
    recorded = evidence["framed"] or ""
    if NONCE.sub("<nonce>", framed) == NONCE.sub("<nonce>", recorded):
        return "True, per-call nonce set aside"
    if PORT.sub("<port>", framed) == PORT.sub("<port>", recorded):
        return "True, the loopback port set aside"
    return False


def reader_as_recorded(answer, evidence):
    """Whether the reader's answer is the one the report's evidence records
    (segments as the report renders them: one compact JSON object a line)."""
    recorded = evidence.get("reader") or {}
    body = recorded.get("body") if recorded.get("answer") == "accepted" else None
    if "segments" in answer:
        rendered = "".join(
            json.dumps({"role": s["role"], "field": s.get("field"), "text": s["text"]},
                       ensure_ascii=False, separators=(",", ":")) + "\n"
            for s in answer["segments"])
        return rendered == body
    return answer.get("body") == body


def start(audit, adapter):
    cwd = (triage.ROOT / "field" / audit / adapter.get("cwd", ".")).resolve()
    return subprocess.Popen(adapter["command"], cwd=cwd, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, encoding="utf-8")


def ask(process, request):
    process.stdin.write(json.dumps(request) + "\n")
    process.stdin.flush()
    return json.loads(process.stdout.readline())


def framecheck_binary():
    given = os.environ.get("FRAMECHECK")
    if given:
        return given
    for build in ("release", "debug"):
        path = triage.ROOT / "target" / build / "framecheck"
        if path.exists():
            return str(path)
    sys.exit("recheck.py: no framecheck binary: set FRAMECHECK or build one")


def rerun_case(audit, case):
    """The case's result as a one-case framecheck run of the audit's profile
    records it now, or None (the run wrote no result for it)."""
    profile = triage.ROOT / "field" / audit / "profile.yaml"
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([framecheck_binary(), "run", "--target", str(profile), "--only", case,
                        "--format", "json", "--out", out],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)
        written = list(Path(out).glob("*.json"))
        if not written:
            return None
        rerun = json.loads(written[0].read_text(encoding="utf-8"))
    return next((r for r in rerun["results"] if r["id"] == case), None)


def announce(audit, result, check):
    """Prints the sampled finding's line: its message and excerpt."""
    finding = next(f for f in result["outcome"]["findings"] if names(f, check))
    excerpt = (finding.get("excerpt") or {}).get("context")
    print(f"{audit}\t{result['id']}\t{check}\t{finding['message']}\texcerpt {excerpt!r}")


def recheck_by_run(audit, result, check):
    """Re-runs a whole case (an MCP server's, or one among siblings) and
    says whether the package's output is the report's evidence again."""
    case = result["id"]
    again = rerun_case(audit, case)
    if again is None:
        print("  re-run as a one-case framecheck run: no result written")
        return
    framed = again["evidence"].get("framed")
    print(f"  re-run as a one-case framecheck run: reproduced: "
          f"{same_output(framed, result['evidence'])}")
    found = any(names(f, check) for f in again["outcome"].get("findings", []))
    print(f"  the same check reported again: {found}")


def recheck(audit, report, pairs):
    adapter = report["target"]["adapter"]
    results = {r["id"]: r for r in report["results"]}
    can_read = "read" in report["target"].get("capabilities", [])
    if "command" not in adapter:
        for case, check in pairs:
            announce(audit, results[case], check)
            recheck_by_run(audit, results[case], check)
        return
    process = start(audit, adapter)
    try:
        for n, (case, check) in enumerate(pairs, 1):
            result = results[case]
            wrap = result["case"]["input"].get("wrap")
            announce(audit, result, check)
            if wrap is None and can_read and result["evidence"].get("read_text") is not None:
                answer = ask(process, {"id": 2 * n, "op": "read",
                                       "text": result["evidence"]["read_text"]})
                answer.pop("id", None)
                print(f"  read case re-read: {json.dumps(answer, ensure_ascii=False)}")
                print(f"  reader answer as recorded: {reader_as_recorded(answer, result['evidence'])}")
                continue
            if wrap is None or "@" in case:
                recheck_by_run(audit, result, check)
                continue
            reply = ask(process, {"id": 2 * n, "op": "wrap", **wrap})
            framed = reply.get("framed")
            print(f"  reproduced: {same_output(framed, result['evidence'])}")
            if can_read and framed is not None:
                answer = ask(process, {"id": 2 * n + 1, "op": "read", "text": framed})
                answer.pop("id", None)
                print(f"  the package's reader answers: {json.dumps(answer, ensure_ascii=False)}")
                print(f"  reader answer as recorded: {reader_as_recorded(answer, result['evidence'])}")
    finally:
        process.stdin.close()
        process.kill()


def names(finding, unit):
    """Whether ``finding`` is the report's tally ``unit``: ``check``, or
    ``check/consumer`` where the profile declares several consumers."""
    check, _, consumer = unit.partition("/")
    return finding["check"] == check and consumer in ("", finding.get("consumer"))


def main():
    wanted = set(sys.argv[1:])
    rules = triage.load_rules()
    for path in sorted(triage.REPORTS.glob("*.json")):
        report = json.loads(path.read_text(encoding="utf-8"))
        audit = report["target"]["name"]
        if wanted and audit not in wanted:
            continue
        verdicts, _ = triage.triage_audit(audit, report, rules, [])
        recheck(audit, report, triage.sample(audit, verdicts))


if __name__ == "__main__":
    main()
