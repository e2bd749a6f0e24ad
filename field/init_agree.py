"""Whether `framecheck init --mcp`, given only what a user would give,
proposes for each server of the MCP matrix (issue 52) a profile whose run
agrees with the hand-triaged one.

What the user gives is the matrix row's `init` options (``field/matrix.tsv``:
the read tool, its arguments, the plant and, for a store, the write tool or
setup command and how each case starts clean) and the server's command,
which is the hand profile's ``adapter.mcp.command`` (the same words a user
types after ``--``). For each audit this script runs, in the audit's
directory::

    framecheck init --mcp OPTIONS --out field/AUDIT/init.yaml -- COMMAND

then runs that proposal and the hand profile over the whole catalogue, with
the same binary, and compares the two reports: the same
verdict (status, or unframed), the same level held, the same failing case
ids (at the ``unicode`` level, ``fail`` and ``fidelity-fail``) and the
same checks among its counted weaknesses. It also says whether the
committed report ``reports/field/AUDIT.json`` still says what the hand
profile's run does now (a report from an older catalogue does not). The
outcome of every
audit checked is written to ``field/init-agreement.tsv``, which
``field/matrix.py`` reads for the matrix's "init agreed" column, so that
column is never written by hand.

    python3 field/init_agree.py --bin target/debug/framecheck            # every audit
    python3 field/init_agree.py --bin target/debug/framecheck AUDIT ...  # only these

Runs are slow (an MCP server per case for some stores): run it one server
at a time on a loaded machine. Needs ``field/run.sh --install-only`` first.
"""

import argparse
import datetime
import json
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
FIELD = ROOT / "field"
REPORTS = ROOT / "reports" / "field"
TABLE = FIELD / "matrix.tsv"
AGREEMENT = FIELD / "init-agreement.tsv"
AGREEMENT_HEADER = (
    "# Written by field/init_agree.py (do not edit by hand): one audit of the MCP matrix a line,\n"
    "# tab-separated: audit; agrees (yes/no); the hand profile's run now, as verdict/level held/\n"
    "# failing cases/counted weakness checks; the same for init's proposal; failing case ids that\n"
    "# differ; whether the committed report says what the hand run now does; the date (UTC).\n"
)


class AgreeError(Exception):
    """An audit that could not be compared, with why."""


def matrix_options():
    """``field/matrix.tsv``'s `init` options per audit, in its order."""
    options = {}
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        options[fields[0]] = fields[3]
    return options


def summary(report):
    """A JSON run report's verdict (its status, or `unframed` for a
    framing with no frame), level held, failing case ids and the checks of
    its counted weaknesses (so an unframed server's `frame.absent`, which
    is no case, is compared too)."""
    failing = {
        r["id"]
        for r in report["results"]
        if r["verdicts"].get("unicode") in ("fail", "fidelity-fail")
    }
    verdict = "unframed" if report.get("unmarked") else report["status"]
    checks = sorted({w["check"] for w in report["weaknesses"] if w["counted"]})
    return verdict, report["summary"].get("highest_level_held"), failing, checks


def propose(binary, audit, options):
    """Runs `init --mcp` for `audit`; the proposal's path."""
    directory = FIELD / audit
    hand = yaml.safe_load((directory / "profile.yaml").read_text(encoding="utf-8"))
    command = hand["adapter"]["mcp"]["command"]
    out = directory / "init.yaml"
    argv = [binary, "init", "--mcp", *shlex.split(options), "--out", str(out), "--", *command]
    done = subprocess.run(argv, cwd=directory, capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        said = done.stderr.strip().splitlines()
        raise AgreeError(f"init exited {done.returncode}: {said[-1] if said else ''}")
    return out


def run(binary, profile, out):
    """Runs `profile` over the catalogue into `out`; its JSON report."""
    argv = [binary, "run", "--target", str(profile), "--out", str(out), "--format", "json"]
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=7200)
    reports = list(Path(out).glob("*.json"))
    if len(reports) != 1:
        raise AgreeError(f"the run of {profile.name} wrote {len(reports)} JSON reports")
    return json.loads(reports[0].read_text(encoding="utf-8"))


def compare(binary, audit, options):
    """One row of ``init-agreement.tsv`` for `audit`."""
    committed_path = REPORTS / f"{audit}.json"
    if not committed_path.is_file():
        raise AgreeError(f"no committed report at {committed_path.relative_to(ROOT)}")
    committed = summary(json.loads(committed_path.read_text(encoding="utf-8")))
    proposal = propose(binary, audit, options)
    # Both profiles run now, with the same binary and catalogue: a
    # committed report from an older catalogue would otherwise pass for a
    # disagreement (or hide one).
    with tempfile.TemporaryDirectory() as out:
        hand = summary(run(binary, FIELD / audit / "profile.yaml", Path(out) / "hand"))
        init = summary(run(binary, proposal, Path(out) / "init"))
    differ = len(hand[2] ^ init[2])
    agree = hand[0] == init[0] and hand[1] == init[1] and differ == 0 and hand[3] == init[3]
    current = "yes" if committed == hand else f"no: it says {cells(committed)}"
    today = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    return [audit, "yes" if agree else "no", cells(hand), cells(init), str(differ), current, today]


def cells(s):
    """A summary as one cell: verdict/level/failing cases/checks."""
    return f"{s[0]}/{s[1] or 'none'}/{len(s[2])}/{','.join(s[3]) or '-'}"


def recorded():
    """The rows of ``init-agreement.tsv``, by audit."""
    if not AGREEMENT.is_file():
        return {}
    rows = {}
    for line in AGREEMENT.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            fields = line.split("\t")
            rows[fields[0]] = fields
    return rows


def write(rows, order):
    lines = [rows[a] for a in order if a in rows]
    text = AGREEMENT_HEADER + "".join("\t".join(r) + "\n" for r in lines)
    AGREEMENT.write_text(text, encoding="utf-8")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=str(ROOT / "target" / "debug" / "framecheck"))
    parser.add_argument("audits", nargs="*")
    args = parser.parse_args()
    binary = str(Path(args.bin).resolve())
    options = matrix_options()
    audits = args.audits or list(options)
    rows = recorded()
    failed = 0
    for audit in audits:
        if audit not in options:
            print(f"{audit}: not in field/matrix.tsv", file=sys.stderr)
            return 2
        try:
            rows[audit] = compare(binary, audit, options[audit])
        except (AgreeError, subprocess.TimeoutExpired) as error:
            rows[audit] = [audit, "no", "-", "-", "-", "-", f"not compared: {error}"]
        print("\t".join(rows[audit]), flush=True)
        failed += rows[audit][1] != "yes"
        write(rows, list(options))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
