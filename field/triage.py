"""Count the hand triage of the field audits against their reports.

Reads every ``reports/field/<audit>.json`` (schema 1.6 or later: the
counting unit of docs/report-schema.md, "Counting") and the rules in
``field/triage.tsv``: one line per rule, tab-separated,

    audit  weakness  case-glob  verdict  reason

``weakness`` is the id of one counted weakness of that audit's report
(``weaknesses[]`` with ``counted: true``): one cause, so no rule is broader
than one cause. ``case-glob`` narrows it to the cases whose id matches
(``*`` for all of them). ``verdict`` is ``true`` (a weakness of the audited
code) or ``false`` (framecheck reports it for a consumer or a reading the
evidence shows unfooled: a framecheck defect), and ``reason`` names the
paragraph of field/TRIAGE.md that argues it. The first matching rule wins.
A rule that matches no case of its weakness, or a case every earlier rule
already took, is an error: it says nothing about the reports as they are.

The unit is the reports' own. A weakness is one counted weakness; a finding
is one (case, check) pair the report counts (``results[].tally.findings``:
at the decision level, a finding linked to its cause in the same case and
the findings reported apart not counted), and in an audit whose profile
declares several consumers one (case, check, consumer) triple: the tally
key is then ``check/consumer`` (schema 1.8), so a case that fools the model
and the parser is a finding for each. Each finding belongs to the
weakness the report names for it (``tally.findings``: its case's weakness
of the same check, else the case's primary weakness).

Each audit's triage also records re-checked cases in ``field/recheck.tsv``:

    audit  case  check  outcome  how

one line per case re-checked against the package itself (``outcome``
``confirmed`` or ``refuted``; ``how`` says what was re-run). ``check`` is
the report's tally key (``check``, or ``check/consumer`` with several
consumers); a bare check names the one consumer's finding of that check in
the case when there is only one. The script
draws each audit's sample (``SAMPLE`` counted findings, a seeded draw per
audit, so it is the same sample on every run of the same report), and
fails when an audit with findings has no recorded re-check, when a
recorded one is not a counted finding of the report, or when a re-check
contradicts the rule that classifies it (refuted but triaged true, or
confirmed but triaged false).

    python3 field/triage.py              # from the repository root
    python3 field/triage.py --sample     # also print each audit's draw
    python3 field/triage.py --rules R.tsv --rechecks C.tsv   # other files
    python3 field/triage.py --reports DIR   # other reports (the tests')
"""

import collections
import fnmatch
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REPORTS = ROOT / "reports" / "field"
RULES = ROOT / "field" / "triage.tsv"
RECHECKS = ROOT / "field" / "recheck.tsv"
SAMPLE = 3


def rows(path, width, check):
    """The data lines of a TSV file: ``(line number, fields)``."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != width or not check(fields):
            sys.exit(f"{path}:{number}: expected {width} tab-separated fields ({line!r})")
        yield number, fields


def load_rules():
    return [
        {"line": n, "audit": f[0], "weakness": f[1], "glob": f[2], "verdict": f[3], "reason": f[4]}
        for n, f in rows(RULES, 5, lambda f: f[3] in ("true", "false"))
    ]


def load_rechecks():
    return [
        {"line": n, "audit": f[0], "case": f[1], "check": f[2], "outcome": f[3], "how": f[4]}
        for n, f in rows(RECHECKS, 5, lambda f: f[3] in ("confirmed", "refuted"))
    ]


def counted_findings(report):
    """Every counted finding as (case, unit), the unit the tally's key
    (``check`` or ``check/consumer``), with the id of the weakness the
    report says it belongs to (``results[].tally.findings``)."""
    for result in report["results"]:
        tally = result.get("tally")
        if tally is None:
            sys.exit(f"{report['target']['name']}: report has no `tally` (schema before 1.6): "
                     "regenerate it with field/run.sh")
        for check, weakness in tally["findings"].items():
            yield result["id"], check, weakness


def triage_audit(audit, report, rules, errors):
    """Classifies the audit's findings; returns its weakness and finding verdicts."""
    own = [r for r in rules if r["audit"] == audit]
    weakness_ids = {w["id"] for w in report.get("weaknesses", []) if w.get("counted", True)}
    for rule in own:
        if rule["weakness"] not in weakness_ids:
            errors.append(f"{RULES}:{rule['line']}: {audit} has no counted weakness "
                          f"{rule['weakness']!r}: the rule matches nothing")
    used = collections.Counter()
    verdicts = {}
    findings = collections.Counter()
    for case, check, weakness in counted_findings(report):
        if weakness is None:
            errors.append(f"{audit}: {case} {check}: a counted finding in no counted weakness")
            continue
        rule = next((r for r in own if r["weakness"] == weakness
                     and fnmatch.fnmatchcase(case, r["glob"])), None)
        if rule is None:
            errors.append(f"UNCLASSIFIED {audit} {weakness} {case} {check}")
            continue
        used[rule["line"]] += 1
        verdicts[(case, check)] = rule["verdict"]
        findings[(weakness, rule["verdict"], rule["reason"])] += 1
    for rule in own:
        if rule["weakness"] in weakness_ids and not used[rule["line"]]:
            errors.append(f"{RULES}:{rule['line']}: matches no counted finding of "
                          f"{audit} {rule['weakness']} {rule['glob']!r}")
    return verdicts, findings


def sample(audit, verdicts):
    """The audit's seeded draw of counted findings to re-check."""
    pool = sorted(verdicts)
    return random.Random(audit).sample(pool, min(SAMPLE, len(pool)))


def recheck_verdict(verdicts, case, check):
    """The triage verdict of the finding a re-check names: its exact unit,
    else the one consumer's finding of that check in the case."""
    if (case, check) in verdicts:
        return verdicts[(case, check)]
    named = [v for (c, unit), v in verdicts.items()
             if c == case and unit.split("/")[0] == check]
    return named[0] if len(named) == 1 else None


def check_rechecks(audit, verdicts, rechecks, errors):
    own = [r for r in rechecks if r["audit"] == audit]
    if verdicts and not own:
        errors.append(f"{audit}: no re-checked case in {RECHECKS.name}")
    for r in own:
        verdict = recheck_verdict(verdicts, r["case"], r["check"])
        where = f"{RECHECKS}:{r['line']}"
        if verdict is None:
            errors.append(f"{where}: {r['case']} {r['check']} is not a counted finding of {audit}")
        elif (r["outcome"] == "refuted") != (verdict == "false"):
            errors.append(f"{where}: re-check {r['outcome']}, but triage.tsv says {verdict}")
    return len(own)


def main():
    global RULES, RECHECKS, REPORTS
    args = sys.argv[1:]
    show_sample = "--sample" in args
    # Other rule and re-check files (the tests' way to show a rule that
    # matches nothing, or a re-check that contradicts its rule, fails).
    for flag in ("--rules", "--rechecks"):
        if flag in args:
            path = Path(args[args.index(flag) + 1])
            RULES, RECHECKS = (path, RECHECKS) if flag == "--rules" else (RULES, path)
    if "--reports" in args:
        REPORTS = Path(args[args.index("--reports") + 1])
    rules = load_rules()
    rechecks = load_rechecks()
    errors = []
    totals = collections.Counter()
    weakness_totals = collections.Counter()
    audits = set()
    for path in sorted(REPORTS.glob("*.json")):
        report = json.loads(path.read_text(encoding="utf-8"))
        audit = report["target"]["name"]
        audits.add(audit)
        verdicts, findings = triage_audit(audit, report, rules, errors)
        counts = report.get("counts", {})
        print(f"{audit}: harness error {report.get('harness_error')!r}; "
              f"{counts.get('weaknesses', 0)} weaknesses, {counts.get('findings', 0)} findings "
              f"({counts.get('linked', 0)} linked, {counts.get('apart', 0)} apart, "
              f"{counts.get('folded_spellings', 0)} folded spelling groups: not counted)")
        weakness_verdicts = {}
        for (weakness, verdict, reason), count in sorted(findings.items()):
            print(f"  {weakness:48} {verdict:5} {count:6}  {reason}")
            weakness_verdicts.setdefault(weakness, set()).add(verdict)
            totals[verdict] += count
        for verdict_set in weakness_verdicts.values():
            # A weakness some of whose cases are false is counted false:
            # it is not wholly a weakness of the audited code.
            weakness_totals["false" if "false" in verdict_set else "true"] += 1
        rechecked = check_rechecks(audit, verdicts, rechecks, errors)
        print(f"  re-checked cases recorded: {rechecked}")
        if show_sample:
            for case, check in sample(audit, verdicts):
                print(f"  sample: {case} {check}")
    for rule in rules:
        if rule["audit"] not in audits:
            errors.append(f"{RULES}:{rule['line']}: no report for audit {rule['audit']!r}")
    for error in errors:
        print(error)
    all_findings = totals["true"] + totals["false"]
    share = totals["false"] / all_findings if all_findings else 0.0
    all_weaknesses = weakness_totals["true"] + weakness_totals["false"]
    print(f"weaknesses: {all_weaknesses}, true {weakness_totals['true']}, "
          f"false {weakness_totals['false']}")
    print(f"findings: {all_findings}, true {totals['true']}, false {totals['false']}, "
          f"false share {share:.2%}, errors {len(errors)}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
