"""The Python package against toy framings, in this process, through the
real framecheck binary (FRAMECHECK, else the repository's target/ build)."""

import os
import pathlib

import pytest

import prompt_framecheck as framecheck

ROOT = pathlib.Path(__file__).resolve().parents[2]
# FRAMECHECK_FROM_INSTALL: test an installed wheel, binary and package both
# from the environment, not from the checkout.
FROM_INSTALL = bool(os.environ.get("FRAMECHECK_FROM_INSTALL"))
BINARY = None if FROM_INSTALL else os.environ.get("FRAMECHECK") or next(
    (str(p) for p in (ROOT / "target/debug/framecheck", ROOT / "target/release/framecheck")
     if p.exists()), None)
PROFILE = {"delimiters": {"syntax": "xml-tag", "token": "tool-output"},
           "header": "blank-line", "attributes": {"kind": "kind"}}

calls = []


def naive_wrap(content, kind, attributes, provenance):
    """Concatenation: no escaping at all, so content can close the frame."""
    calls.append(content)
    attrs = "".join(f' {k}="{v}"' for k, v in sorted(attributes.items()))
    return f'<tool-output kind="{kind}"{attrs}>\n{provenance}\n\n{content}\n</tool-output>'


def attribute_escaping_wrap(content, kind, attributes, provenance):
    """Escapes attribute values but still writes content raw."""
    def value(v):
        return (v.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
                .replace(">", "&gt;"))
    attrs = "".join(f' {k}="{value(v)}"' for k, v in sorted(attributes.items()))
    return f'<tool-output kind="{value(kind)}"{attrs}>\n{provenance}\n\n{content}\n</tool-output>'


def test_a_naive_framing_fails_with_a_readable_summary():
    calls.clear()
    with pytest.raises(framecheck.AuditFailure) as failure:
        framecheck.assert_frames(naive_wrap, profile=PROFILE, only=["breakout"],
                                 framecheck=BINARY)
    report = failure.value.report
    assert calls, "wrap was never called in this process"
    assert report.status == "fail"
    assert report.highest_level_held is None
    verdicts = report.verdicts()
    assert verdicts["breakout-close-mid-content"] == "fail"
    message = str(failure.value)
    assert "breakout-close-mid-content" in message
    assert "FAIL" in message or "fail" in message


def test_a_faithful_framing_passes_the_benign_cases_and_returns_the_report(tmp_path):
    report = framecheck.audit(attribute_escaping_wrap, profile=PROFILE, only=["benign"],
                              framecheck=BINARY, out=tmp_path)
    assert report.passed, str(report)
    # Every benign case passes; the raw-bytes case is skipped (the framing
    # does not declare the `bytes` capability), and says so.
    verdicts = report.verdicts()
    assert set(verdicts.values()) <= {"pass", "skipped"}
    assert "pass" in verdicts.values()
    assert all(v == "pass" for k, v in verdicts.items() if not k.startswith("benign-bytes"))
    assert (tmp_path / "python-audit.json").exists()
    assert (tmp_path / "python-audit.html").read_text().startswith("<!DOCTYPE html>")


def test_refusals_are_answered_and_other_exceptions_propagate():
    def refusing(content, kind, attributes, provenance):
        raise framecheck.Refusal("no thanks")

    report = framecheck.audit(refusing, profile=PROFILE, only=["benign-english-prose"],
                              framecheck=BINARY, check=False)
    # Benign content must be framed: refusing it is a fidelity failure.
    assert set(report.verdicts().values()) == {"fidelity-fail"}

    def buggy(content, kind, attributes, provenance):
        raise ZeroDivisionError("bug in the framing")

    with pytest.raises(ZeroDivisionError):
        framecheck.audit(buggy, profile=PROFILE, framecheck=BINARY)


def test_a_reader_is_audited_too():
    def read(text):
        head, sep, rest = text.partition("\n\n")
        if not sep or not rest.endswith("\n</tool-output>"):
            return None
        return rest[: -len("\n</tool-output>")]

    report = framecheck.audit(naive_wrap, read=read, profile=PROFILE, only=["reader"],
                              framecheck=BINARY, check=False)
    verdicts = report.verdicts()
    assert verdicts and "skipped" not in verdicts.values(), verdicts
    assert "read" in report.raw["target"]["capabilities"]


def test_a_bad_profile_is_a_clear_error():
    with pytest.raises(framecheck.FramecheckError, match="profile.yaml: line 1.*nonsense"):
        framecheck.audit(naive_wrap, profile={"delimiters": {"syntax": "nonsense"}},
                         framecheck=BINARY)


@pytest.mark.skipif(not FROM_INSTALL, reason="only when testing an installed wheel")
def test_the_wheel_supplies_both_the_package_and_the_binary():
    import sysconfig
    scripts = pathlib.Path(sysconfig.get_path("scripts"))
    assert pathlib.Path(framecheck.__file__).is_relative_to(sysconfig.get_path("purelib"))
    assert framecheck._find_binary(None) == str(scripts / "framecheck")
    assert not (pathlib.Path.cwd() / "attacks").exists(), "run outside a checkout"


def test_a_list_framing_is_audited_through_wrap_many():
    """One naive frame per item: an item's closer and opener forge a sibling."""
    def wrap_many(items):
        return "\n".join(naive_wrap(i["content"], i["kind"], i["attributes"], i["provenance"])
                         for i in items)
    profile = {**PROFILE, "frame": {"count": "several"}}
    report = framecheck.audit(naive_wrap, wrap_many=wrap_many, profile=profile,
                              only=["breakout-close-then-reopen"], check=False,
                              framecheck=BINARY)
    failing = {case: checks for case, _, checks in report.failures()}
    assert "frame.separation" in failing["breakout-close-then-reopen@middle"]
    assert "frame.separation" not in failing["breakout-close-then-reopen"]
