//! Outer-layer breakouts end to end: the `chat-template` catalogue category
//! against a framing that neutralises control strings (the reference) and
//! one that does not, under the default gate, `--strict`, and a declared
//! chat-template context.

use framecheck::adapter::reference::Reference;
use framecheck::adapter::{Framing, TargetError, WrapRequest};
use framecheck::catalogue;
use framecheck::chat_template::{Family, SpecialTokens, TemplateContext};
use framecheck::envelope::{self, NOTICE, PROVENANCE_LABEL, TOKEN};
use framecheck::gate::Gate;
use framecheck::level::ReaderLevel::Unicode;
use framecheck::oracle::{Check, CheckClass};
use framecheck::profile::{Capability, TargetProfile};
use framecheck::runner::{self, CaseResult, RunOptions, RunResult, Verdict};

/// The reference envelope's format, token defanging and escaping, without
/// its chat-template neutralisation: a framing that is right about its own
/// frame and lets control strings through.
struct PassesControlStrings;

fn escape_value(value: &str) -> String {
    envelope::defang(value)
        .chars()
        .map(|c| match c {
            '&' => "&amp;".to_string(),
            '"' => "&quot;".to_string(),
            '<' => "&lt;".to_string(),
            '>' => "&gt;".to_string(),
            c if envelope::is_line_break(c) => format!("&#{};", c as u32),
            c => c.to_string(),
        })
        .collect()
}

impl Framing for PassesControlStrings {
    fn wrap(&mut self, r: &WrapRequest) -> Result<String, TargetError> {
        let mut attrs = format!(" kind=\"{}\"", escape_value(&r.kind));
        for (key, value) in &r.attributes {
            attrs.push_str(&format!(" {key}=\"{}\"", escape_value(value)));
        }
        let provenance: String = envelope::defang(&r.provenance)
            .chars()
            .map(|c| if envelope::is_line_break(c) { ' ' } else { c })
            .collect();
        Ok(format!(
            "<{TOKEN}{attrs}>\n{PROVENANCE_LABEL}{provenance}\n{NOTICE}\n\n{}\n</{TOKEN}>",
            envelope::defang(&r.content)
        ))
    }

    fn read(&mut self, _: &str) -> Result<Option<String>, TargetError> {
        Err(TargetError::failed("no reader"))
    }
}

fn profile(context: TemplateContext) -> TargetProfile {
    framecheck::envelope::reference_profile()
        .edit(|p| {
            p.capabilities.retain(|&c| c != Capability::Read);
            p.chat_template = context;
        })
        .unwrap()
}

fn run_chat_template(framing: &mut dyn Framing, profile: &TargetProfile, gate: Gate) -> RunResult {
    let built = catalogue::builtin();
    let cases = catalogue::select(
        catalogue::instantiate(&built, profile),
        &["chat-template".to_string()],
    )
    .unwrap();
    assert!(cases.len() >= 20, "the category has its cases");
    let options = RunOptions {
        gate,
        catalogue_hash: built.hash.clone(),
        ..RunOptions::default()
    };
    runner::run(&cases, profile, framing, &options, &mut |_| {})
}

fn outer_layer(result: &CaseResult) -> bool {
    result
        .findings_at(Unicode)
        .iter()
        .any(|f| f.check == Check::TemplateControl)
}

fn get<'a>(run: &'a RunResult, id: &str) -> &'a CaseResult {
    run.results
        .iter()
        .find(|r| r.case.id == id)
        .unwrap_or_else(|| panic!("no case {id}"))
}

#[test]
fn a_framing_that_neutralises_control_strings_passes_even_strict() {
    let profile = framecheck::envelope::reference_profile();
    let run = run_chat_template(&mut Reference, &profile, Gate::Strict);
    for result in &run.results {
        assert_eq!(
            result.verdict(Unicode, Gate::Strict),
            Verdict::Pass,
            "{}: {:?}",
            result.case.id,
            result.outcome
        );
        assert!(!outer_layer(result), "{}", result.case.id);
    }
}

#[test]
fn one_that_does_not_is_reported_by_default_and_fails_strict_for_that_check_alone() {
    let profile = profile(TemplateContext::default());
    let default = run_chat_template(&mut PassesControlStrings, &profile, Gate::Default);
    let strict = run_chat_template(&mut PassesControlStrings, &profile, Gate::Strict);
    let reported: Vec<&str> = default
        .results
        .iter()
        .filter(|r| outer_layer(r))
        .map(|r| r.case.id.as_str())
        .collect();
    for id in [
        "tpl-chatml-in-content",
        "tpl-llama3-in-content",
        "tpl-llama2-in-content",
        "tpl-gemma-in-content",
        "tpl-endoftext-in-content",
        "tpl-human-assistant-in-content",
        "tpl-alpaca-in-content",
        "tpl-chatml-upper-case",
        "tpl-chatml-fullwidth",
        "tpl-chatml-zero-width",
        "tpl-llama2-lower-case",
        "tpl-llama2-fullwidth-brackets",
        "tpl-human-marker-crlf",
        "tpl-human-marker-line-separator",
        "tpl-llama2-in-attribute-value",
        "tpl-chatml-in-provenance",
        "tpl-gemma-in-provenance",
    ] {
        assert!(reported.contains(&id), "{id} not reported: {reported:?}");
    }
    // Escaping `<` and `>` in values, and line breaks in the provenance,
    // already neutralise these: nothing readable, nothing reported.
    for id in [
        "tpl-chatml-in-attribute-value",
        "tpl-llama3-in-kind",
        "tpl-human-marker-in-provenance",
        "tpl-benign-template-words",
    ] {
        assert!(!reported.contains(&id), "{id} reported");
    }
    for result in &default.results {
        assert_eq!(
            result.verdict(Unicode, Gate::Default),
            Verdict::Pass,
            "{}",
            result.case.id
        );
        for finding in result.findings_at(Unicode) {
            assert_eq!(finding.class, CheckClass::OuterLayer, "{}", result.case.id);
        }
    }
    for result in &strict.results {
        let want = if outer_layer(result) {
            Verdict::Fail
        } else {
            Verdict::Pass
        };
        assert_eq!(
            result.verdict(Unicode, Gate::Strict),
            want,
            "{}",
            result.case.id
        );
    }
    assert_eq!(framecheck::report::Summary::of(&default).exit_code(), 0);
    assert_eq!(framecheck::report::Summary::of(&strict).exit_code(), 1);
}

#[test]
fn a_context_that_parses_special_tokens_fails_by_default() {
    let parsed = profile(TemplateContext {
        families: vec![Family::ChatMl, Family::HumanAssistant],
        special_tokens: SpecialTokens::Parsed,
    });
    let run = run_chat_template(&mut PassesControlStrings, &parsed, Gate::Default);
    let verdict = |id: &str| get(&run, id).verdict(Unicode, Gate::Default);
    // Exactly spelled special tokens of a declared family become control
    // tokens; turn markers of a declared family are its turns as text.
    assert_eq!(verdict("tpl-chatml-in-content"), Verdict::Fail);
    assert_eq!(verdict("tpl-human-assistant-in-content"), Verdict::Fail);
    assert_eq!(verdict("tpl-human-marker-crlf"), Verdict::Fail);
    // A tokenizer matches special tokens byte for byte: other spellings
    // stay reported; other families are not the stack's.
    assert_eq!(verdict("tpl-chatml-upper-case"), Verdict::Pass);
    assert_eq!(verdict("tpl-chatml-fullwidth"), Verdict::Pass);
    assert_eq!(verdict("tpl-gemma-in-content"), Verdict::Pass);
    assert!(outer_layer(get(&run, "tpl-gemma-in-content")));
    // Declared, but the stack keeps special tokens as text.
    let text = profile(TemplateContext {
        families: vec![Family::ChatMl],
        special_tokens: SpecialTokens::Text,
    });
    let run = run_chat_template(&mut PassesControlStrings, &text, Gate::Default);
    assert_eq!(
        get(&run, "tpl-chatml-in-content").verdict(Unicode, Gate::Default),
        Verdict::Pass
    );
}

/// Tokenizer views over the same two runs: the framing that neutralises
/// control strings leaves none that a tokenizer parses as a control token;
/// the one that does not leaves `<|endoftext|>` a control token in both
/// OpenAI encodings. The views change no verdict: `--strict` still fails
/// the second for `template.control` alone, the first not at all.
#[cfg(feature = "tokenizers")]
#[test]
fn tokenizer_views_find_control_tokens_only_where_they_were_not_neutralised() {
    use framecheck::tokview::TokenizerView;
    let views = TokenizerView::load_all(&["tok:cl100k".into(), "tok:o200k".into()], None).unwrap();
    let profile = profile(TemplateContext::default());
    let good = run_chat_template(&mut Reference, &profile, Gate::Strict);
    for report in framecheck::outcome::judge_run(&good, &views) {
        assert!(report.judged > 0);
        assert!(
            report.findings.is_empty(),
            "{}: {:?}",
            report.view,
            report.findings
        );
    }
    let bad = run_chat_template(&mut PassesControlStrings, &profile, Gate::Strict);
    let verdicts_before: Vec<Verdict> = bad
        .results
        .iter()
        .map(|r| r.verdict(Unicode, Gate::Strict))
        .collect();
    let reports = framecheck::outcome::judge_run(&bad, &views);
    for (report, id) in reports.iter().zip([100257u32, 199999]) {
        let endoftext = report
            .findings
            .iter()
            .find(|f| f.case == "tpl-endoftext-in-content")
            .unwrap_or_else(|| panic!("{}: {:?}", report.view, report.findings));
        assert_eq!(endoftext.ids, [id]);
        assert_eq!(endoftext.class, CheckClass::OuterLayer);
        // ChatML's strings are not control tokens in the public encodings.
        assert!(!report
            .findings
            .iter()
            .any(|f| f.case == "tpl-chatml-in-content"));
    }
    let failing: Vec<&CaseResult> = bad
        .results
        .iter()
        .filter(|r| r.verdict(Unicode, Gate::Strict) == Verdict::Fail)
        .collect();
    assert!(!failing.is_empty());
    for result in failing {
        for finding in result.findings_at(Unicode) {
            assert_eq!(finding.check, Check::TemplateControl, "{}", result.case.id);
        }
    }
    let verdicts_after: Vec<Verdict> = bad
        .results
        .iter()
        .map(|r| r.verdict(Unicode, Gate::Strict))
        .collect();
    assert_eq!(verdicts_before, verdicts_after);
}
