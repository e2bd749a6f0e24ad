"""Count the hand triage of the field audits against their reports.

Reads every ``reports/field/<audit>.json`` and the rules in
``field/triage.tsv``: one line per rule, tab-separated,

    audit  category  check  case-glob  verdict  reason

where ``verdict`` is ``true`` (a weakness of the audited code) or ``false``
(a framecheck defect), ``case-glob`` matches the concrete case id (``*`` for
every case of that category and check), and ``reason`` names the paragraph
of field/TRIAGE.md that argues it. The first matching rule wins.

A finding is one (case, check) pair with a finding at the decision level
(security findings at that level, and fidelity findings). Findings of class
``confusable`` (``nonce.confusable``: a marker spelled like the frame's own
with another or no nonce) fail no case and are not weaknesses; they are
counted apart and not triaged. The script prints
each audit's check groups with their counts and verdicts, every finding no
rule classifies (and exits 1 if there is one), and the false-finding share:
false findings / all findings.

    python3 field/triage.py            # from the repository root
"""

import collections
import fnmatch
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REPORTS = ROOT / "reports" / "field"
RULES = ROOT / "field" / "triage.tsv"


def load_rules():
    rules = []
    for number, line in enumerate(RULES.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 6 or fields[4] not in ("true", "false"):
            sys.exit(f"{RULES}:{number}: expected 6 tab-separated fields with verdict true|false")
        rules.append(fields)
    return rules


def findings(report):
    level = report["level"]
    for result in report["results"]:
        outcome = result["outcome"]
        for finding in outcome.get("findings") or []:
            if finding["class"] == "confusable":
                continue
            counted = finding["class"] == "fidelity" or level in finding.get("levels", [])
            if counted:
                yield result["case"]["category"], finding["check"], result["id"]


def classify(rules, audit, category, check, case):
    for r_audit, r_category, r_check, r_glob, verdict, reason in rules:
        if (r_audit, r_category, r_check) == (audit, category, check) and fnmatch.fnmatchcase(case, r_glob):
            return verdict, reason
    return None, None


def main():
    rules = load_rules()
    totals = collections.Counter()
    unclassified = []
    for path in sorted(REPORTS.glob("*.json")):
        report = json.loads(path.read_text(encoding="utf-8"))
        audit = report["target"]["name"] if isinstance(report.get("target"), dict) else path.stem
        groups = collections.Counter()
        for category, check, case in findings(report):
            verdict, reason = classify(rules, audit, category, check, case)
            if verdict is None:
                unclassified.append((audit, category, check, case))
                continue
            groups[(category, check, verdict, reason)] += 1
            totals[verdict] += 1
        confusables = sum(
            1
            for result in report["results"]
            for finding in result["outcome"].get("findings") or []
            if finding["class"] == "confusable"
        )
        print(f"{audit}: harness error {report.get('harness_error')!r}, "
              f"confusables (not triaged) {confusables}")
        for (category, check, verdict, reason), count in sorted(groups.items()):
            print(f"  {category:22} {check:20} {verdict:5} {count:5}  {reason}")
    for audit, category, check, case in unclassified:
        print(f"UNCLASSIFIED {audit} {category} {check} {case}")
    all_findings = totals["true"] + totals["false"]
    share = totals["false"] / all_findings if all_findings else 0.0
    print(f"findings: {all_findings}, true {totals['true']}, false {totals['false']}, "
          f"false share {share:.2%}, unclassified {len(unclassified)}")
    return 1 if unclassified else 0


if __name__ == "__main__":
    sys.exit(main())
