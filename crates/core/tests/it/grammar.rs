//! Profile v2 delimiters (grammar, templates, nonce) from YAML, and the
//! grammar-specific catalogue cases: each grammar's attacks exist in the
//! shipped catalogue and instantiate for that grammar only.

use framecheck_core::catalogue::{builtin, instantiate};
use framecheck_core::grammar::{Form, GrammarKind};
use framecheck_core::profile::ResolvedProfile;

fn profile(delimiters: &str) -> Result<ResolvedProfile, String> {
    ResolvedProfile::parse(&format!(
        "name: t\nadapter: {{ builtin: reference }}\ndelimiters: {delimiters}\ncapabilities: [wrap, read]\n"
    ))
    .map_err(|e| e.to_string())
}

#[test]
fn v1_syntax_key_is_an_alias_of_grammar() {
    let v1 = profile("{ syntax: bracket-marker, token: TOK }").unwrap();
    let v2 = profile("{ grammar: bracket-marker, token: TOK }").unwrap();
    assert_eq!(v1, v2);
    assert_eq!(v1.delimiters.grammar, GrammarKind::BracketMarker);
}

#[test]
fn each_grammar_shape_from_the_contract_loads_and_renders() {
    let cases = [
        (
            "{ grammar: begin-end, token: EXTERNAL_CONTENT, open: '<<<{token}>>>', close: '<<<END_{token}>>>' }",
            "<<<EXTERNAL_CONTENT>>>",
            "<<<END_EXTERNAL_CONTENT>>>",
        ),
        (
            "{ grammar: begin-end, token: DOC, open: 'BEGIN {token}', close: 'END {token}' }",
            "BEGIN DOC",
            "END DOC",
        ),
        (
            "{ grammar: begin-end, token: KEY, open: '-----BEGIN {token}-----', close: '-----END {token}-----' }",
            "-----BEGIN KEY-----",
            "-----END KEY-----",
        ),
        ("{ grammar: fence, token: text }", "```text", "```"),
        ("{ grammar: fence, token: '' }", "```", "```"),
        (
            "{ grammar: xml-tag, token: 'untrusted-data-{nonce}', nonce: { alphabet: hex, min_length: 16 } }",
            "<untrusted-data-0123456789abcdef>",
            "</untrusted-data-0123456789abcdef>",
        ),
    ];
    for (yaml, open, close) in cases {
        let p = profile(yaml).unwrap_or_else(|e| panic!("{yaml}: {e}"));
        let g = p.grammar();
        assert_eq!(g.render(Form::Open, 0).plain(), open, "{yaml}");
        assert_eq!(g.render(Form::Close, 0).plain(), close, "{yaml}");
    }
}

#[test]
fn bad_delimiters_are_clear_errors() {
    let cases = [
        (
            "{ grammar: begin-end, token: T }",
            "needs both `open` and `close`",
        ),
        (
            "{ grammar: xml-tag, token: T, open: '<{token}>', close: '</{token}>' }",
            "apply only to grammar begin-end",
        ),
        (
            "{ grammar: begin-end, token: T, open: '<<<>>>', close: '<<<END_{token}>>>' }",
            "needs {token} exactly once",
        ),
        (
            "{ grammar: xml-tag, token: 'x-{nonce}' }",
            "`nonce:` is not declared",
        ),
        (
            "{ grammar: fence, token: t, inner: u }",
            "no inner or reserved tokens",
        ),
        ("{ grammar: xml-tag, token: '' }", "must be printable ASCII"),
        (
            "{ grammar: xml-tag, token: 'a`b' }",
            "must be printable ASCII",
        ),
        ("{ grammar: hexagon, token: t }", "hexagon"),
        ("{ grammar: section, token: t }", "needs `marker`"),
        (
            "{ grammar: xml-tag, token: t, marker: label }",
            "applies only to grammar section",
        ),
        ("{ grammar: section, marker: box, token: t }", "box"),
        (
            "{ grammar: xml-tag, token: 'x-{nonce}', nonce: { alphabet: emoji } }",
            "emoji",
        ),
    ];
    for (yaml, want) in cases {
        let error = profile(yaml).expect_err(yaml);
        assert!(error.contains(want), "{yaml}: {error}");
    }
}

#[test]
fn grammar_attacks_exist_and_apply_to_their_grammar_only() {
    let catalogue = builtin();
    let fence = profile("{ grammar: fence, token: text }").unwrap();
    let markers = profile(
        "{ grammar: begin-end, token: DOC, open: '<<<{token}>>>', close: '<<<END_{token}>>>' }",
    )
    .unwrap();
    let section = profile("{ grammar: section, marker: field-marker, token: context }").unwrap();
    let xml = crate::reference_profile();
    let ids = |p: &ResolvedProfile| -> Vec<String> {
        instantiate(&catalogue, p)
            .into_iter()
            .map(|c| c.base_id)
            .collect()
    };
    let (fence_ids, marker_ids, xml_ids) = (ids(&fence), ids(&markers), ids(&xml));
    let section_ids = ids(&section);
    for (p, own, others) in [
        (&fence, &fence_ids, [&marker_ids, &xml_ids, &section_ids]),
        (&markers, &marker_ids, [&fence_ids, &xml_ids, &section_ids]),
        (&section, &section_ids, [&fence_ids, &xml_ids, &marker_ids]),
    ] {
        let attacks = p.grammar().attacks();
        assert!(!attacks.is_empty());
        for attack in attacks {
            assert!(own.iter().any(|id| id == attack.case), "{}", attack.case);
            for other in others {
                assert!(!other.iter().any(|id| id == attack.case), "{}", attack.case);
            }
        }
    }
    assert!(xml.grammar().attacks().is_empty());
}

// ---------------------------------------------------------------------------
// In-process framings of the new shapes, correct and broken, judged on the
// whole shipped catalogue.

use std::collections::BTreeMap;

use framecheck_core::catalogue::Input;
use framecheck_core::level::{fold_char, ReaderLevel};
use framecheck_core::oracle::{judge_wrap, Finding};
use framecheck_core::target::WrapRequest;

/// Every wrap and roundtrip case the target can run, with the findings for
/// what `wrap` writes (roundtrip cases are judged on the wrap alone).
fn judge_all(
    profile: &ResolvedProfile,
    wrap: &dyn Fn(&WrapRequest) -> String,
) -> BTreeMap<String, Vec<Finding>> {
    let mut out = BTreeMap::new();
    for case in instantiate(&builtin(), profile) {
        let Input::Wrap(request) = &case.input else {
            continue;
        };
        if !case.requires.iter().all(|c| profile.can(*c)) {
            continue;
        }
        let framed = wrap(request);
        out.insert(
            case.id.clone(),
            judge_wrap(&case, profile, request, &framed),
        );
    }
    out
}

/// The cases with a finding that fails the default gate: outer-layer
/// findings (chat-template control strings these framings do not claim to
/// neutralise) are reported, not failing.
fn failing(results: &BTreeMap<String, Vec<Finding>>) -> Vec<&str> {
    results
        .iter()
        .filter(|(_, f)| {
            f.iter().any(|f| {
                framecheck_core::gate::Gate::Default.fails(f)
                    || f.class == framecheck_core::oracle::CheckClass::Fidelity
            })
        })
        .map(|(id, _)| id.as_str())
        .collect()
}

/// Whether a Unicode reader reads `c` as `target` (ignorables read as nothing).
fn reads_as(c: char, target: char) -> bool {
    fold_char(c, ReaderLevel::Unicode) == target.to_string()
}

fn is_invisible(c: char) -> bool {
    fold_char(c, ReaderLevel::Unicode).is_empty()
}

/// The longest run of characters a Unicode reader reads as backticks.
fn longest_backtick_run(content: &str) -> usize {
    let (mut best, mut run) = (0, 0);
    for c in content.chars() {
        if reads_as(c, '`') {
            run += 1;
            best = best.max(run);
        } else if !is_invisible(c) {
            run = 0;
        }
    }
    best
}

fn fence_profile() -> ResolvedProfile {
    profile("{ grammar: fence, token: text }").unwrap()
}

/// A careful fence: longer than every backtick run in the content.
fn careful_fence(request: &WrapRequest) -> String {
    let fence = "`".repeat(longest_backtick_run(&request.content).max(2) + 1);
    format!("{fence}text\n{}\n{fence}", request.content)
}

#[test]
fn a_fence_longer_than_every_run_passes_the_whole_catalogue() {
    let results = judge_all(&fence_profile(), &careful_fence);
    assert!(results.len() > 100, "{} cases", results.len());
    assert!(results.contains_key("fence-longer-run"));
    assert_eq!(failing(&results), Vec::<&str>::new());
}

#[test]
fn a_fixed_fence_fails_the_fence_attacks() {
    let fixed = |r: &WrapRequest| format!("```text\n{}\n```", r.content);
    let results = judge_all(&fence_profile(), &fixed);
    let failed = failing(&results);
    for id in [
        "fence-longer-run",
        "fence-indented-closer",
        "fence-unterminated-opener",
    ] {
        assert!(failed.contains(&id), "{id} passed: {failed:?}");
    }
    // A backtick fence is not closed by tildes.
    assert!(!failed.contains(&"fence-tilde-run"), "{failed:?}");
    let checks: Vec<&str> = results["fence-longer-run"]
        .iter()
        .map(|f| f.check.name())
        .collect();
    assert!(checks.contains(&"delimiter.census") && checks.contains(&"canary.containment"));
}

/// A fence lengthened past every run of characters that read as a
/// backtick, but measured before invisible characters are dropped: a run
/// split by U+200B, or by the Hangul filler letters, reads as one to a
/// model. Only the split-run case and the ignorable-letters variants (which
/// split the fence runs they forge) find it, and only at the unicode level
/// (the defect is Unicode-only).
#[test]
fn a_fence_measured_with_invisibles_fails_only_the_split_run_cases_at_unicode() {
    let split_unseen = |r: &WrapRequest| {
        let (mut longest, mut run) = (0, 0);
        for c in r.content.chars() {
            run = if reads_as(c, '`') { run + 1 } else { 0 };
            longest = longest.max(run);
        }
        let fence = "`".repeat(longest.max(2) + 1);
        format!("{fence}text\n{}\n{fence}", r.content)
    };
    let results = judge_all(&fence_profile(), &split_unseen);
    let failed = failing(&results);
    assert!(
        failed.contains(&"unicode-fence-run-split-by-invisible"),
        "{failed:?}"
    );
    assert!(
        failed.contains(&"breakout-close-mid-content~ignorable-letters"),
        "{failed:?}"
    );
    for id in &failed {
        let split = *id == "unicode-fence-run-split-by-invisible";
        assert!(split || id.ends_with("~ignorable-letters"), "{id}");
        for finding in &results[*id] {
            assert_eq!(finding.levels, vec![ReaderLevel::Unicode], "{finding:?}");
        }
    }
}

fn marker_profile() -> ResolvedProfile {
    profile("{ grammar: begin-end, token: DOC, open: '<<<{token}>>>', close: '<<<END_{token}>>>' }")
        .unwrap()
}

/// Breaks every run of three characters a Unicode reader reads as `<`, so
/// no marker of the `<<<…>>>` shape can appear in the content.
fn careful_markers(request: &WrapRequest) -> String {
    let chars: Vec<char> = request.content.chars().collect();
    let mut out = String::new();
    let mut run: Vec<usize> = Vec::new();
    let mut broken = vec![false; chars.len()];
    for (i, &c) in chars.iter().enumerate() {
        if reads_as(c, '<') {
            run.push(i);
            if run.len() >= 3 {
                run.iter().for_each(|&j| broken[j] = true);
            }
        } else if !is_invisible(c) {
            run.clear();
        }
    }
    for (i, &c) in chars.iter().enumerate() {
        out.push(if broken[i] { '(' } else { c });
    }
    format!("<<<DOC>>>\n{out}\n<<<END_DOC>>>")
}

#[test]
fn markers_that_break_every_reading_pass_the_whole_catalogue() {
    let results = judge_all(&marker_profile(), &careful_markers);
    assert!(results.contains_key("begin-end-end-marker-spoof~lower"));
    assert_eq!(failing(&results), Vec::<&str>::new());
}

#[test]
fn removing_only_the_exact_end_marker_fails_its_spellings() {
    let exact_only = |r: &WrapRequest| {
        let content = r
            .content
            .replace("<<<END_DOC>>>", "")
            .replace("<<<DOC>>>", "");
        format!("<<<DOC>>>\n{content}\n<<<END_DOC>>>")
    };
    let results = judge_all(&marker_profile(), &exact_only);
    let failed = failing(&results);
    assert!(
        !failed.contains(&"begin-end-end-marker-spoof"),
        "{failed:?}"
    );
    for id in [
        "begin-end-end-marker-spoof~lower",
        "begin-end-end-marker-spoof~spaced",
        "begin-end-end-marker-spoof~zero-width",
        "begin-end-end-marker-spoof~cyrillic",
        "begin-end-end-marker-spoof~fullwidth",
    ] {
        assert!(failed.contains(&id), "{id} passed");
    }
    let levels = &results["begin-end-end-marker-spoof~lower"][0].levels;
    assert_eq!(
        levels,
        &vec![ReaderLevel::AsciiCaseInsensitive, ReaderLevel::Unicode]
    );
}
