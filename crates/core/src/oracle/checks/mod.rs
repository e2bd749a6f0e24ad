//! The checks themselves: what the oracle concludes from a framed text or a
//! reader's answer, as [`Finding`]s.
//!
//! Security checks run once per reader level and are merged, so the same
//! problem seen at two levels is one finding listing both. Fidelity checks
//! run once, at the exact level, and only for cases that expect the content
//! back unchanged. One file per check family, so each can change alone.

#[cfg(test)]
mod agreement;
mod calibration;
mod census;
mod consumers;
mod document;
mod fidelity;
mod findings;
mod header;
mod layout;
pub(super) mod nonce;
mod parts;
mod quote;
mod read;
mod records;
mod separation;
mod shape;
mod structure;
mod template;
mod tokview;

pub use calibration::{calibrate, calibration_request, Calibration, FrameUnusable, NoCalibration};
pub use consumers::{as_written, for_consumers, for_reader};
pub use document::judge_document;
pub use header::opener_own_attributes;
pub use parts::{judge_parts, render_parts, PartsError, PartsStructure};
pub use read::judge_read;
pub use separation::{judge_several, Items};
pub use structure::{
    judge_structure, observed_parser_owns, parser_answered, render_segments, Structure,
    StructureError,
};
pub use tokview::{judge_tokenizer_view, Boundaries, ViewFinding};

use std::ops::Range;

use super::regions::Regions;
use super::view::Views;
use super::{Check, CheckClass, Excerpt, ExcerptSource, Finding};
use crate::catalogue::{ConcreteCase, Expectation};
use crate::encoding;
use crate::grammar::ParsedOpener;
use crate::layout::{Layout, Match};
use crate::level::ReaderLevel;
use crate::profile::{BodyEncoding, Consumer, ReaderReturns, ResolvedProfile};
use crate::target::WrapRequest;
use fidelity::{exact_body, first_difference};
use findings::{framed_excerpt, Findings};
use layout::Shape;

/// Judges the framed text a wrap returned: frame shape, delimiter census,
/// canary containment, header and tag integrity, and for faithful cases
/// whether content, attributes and provenance came through unchanged.
/// Without a layout, the v1 shape rule applies (the output begins with the
/// opener and ends with the closer); see [`judge_wrap_in`].
pub fn judge_wrap(
    case: &ConcreteCase,
    profile: &ResolvedProfile,
    request: &WrapRequest,
    framed: &str,
) -> Vec<Finding> {
    judge_wrap_in(case, profile, None, request, framed)
}

/// [`judge_wrap`] against a calibrated layout: the shape is the layout's,
/// the framing's own constant text forges nothing, and the body is the
/// layout's content slot, compared with the content after decoding.
pub fn judge_wrap_in(
    case: &ConcreteCase,
    profile: &ResolvedProfile,
    layout: Option<&Layout>,
    request: &WrapRequest,
    framed: &str,
) -> Vec<Finding> {
    judge_wrap_counted(case, profile, layout, request, framed).0
}

/// How many live delimiters each reader level found in a framed text, the
/// framing's own constant text not counted, strictest level first; empty
/// when the text did not match its layout, so no reader looked.
pub type LiveCounts = Vec<(ReaderLevel, usize)>;

/// [`judge_wrap_in`], with the live delimiters each reader level counted
/// on the way: a search reads them as a feature of the output instead of
/// folding the text again.
pub fn judge_wrap_counted(
    case: &ConcreteCase,
    profile: &ResolvedProfile,
    layout: Option<&Layout>,
    request: &WrapRequest,
    framed: &str,
) -> (Vec<Finding>, LiveCounts) {
    let mut findings = Findings::default();
    let written = wrap_checks(&mut findings, case, profile, layout, request, framed);
    (finish(findings, profile), written.live)
}

/// What the wrap checks learned that the roundtrip checks and a search
/// need.
struct Framed<'a> {
    /// The body as written (encoded), and where it starts.
    body: Option<(&'a str, usize)>,
    /// The live delimiters each reader found.
    live: LiveCounts,
}

fn wrap_checks<'a>(
    findings: &mut Findings,
    case: &ConcreteCase,
    profile: &ResolvedProfile,
    layout: Option<&Layout>,
    request: &WrapRequest,
    framed: &'a str,
) -> Framed<'a> {
    // A framing that writes another frame for one-line content is judged
    // against the frame this output has (`layout::variant`).
    let layout = layout.map(|l| l.for_output(&request.content, framed));
    let matched = match layout {
        Some(l) => match layout::check_layout(findings, profile, l, request, framed) {
            Shape::Empty => {
                return Framed {
                    body: Some(("", 0)),
                    live: LiveCounts::new(),
                }
            }
            Shape::Missing => {
                return Framed {
                    body: None,
                    live: LiveCounts::new(),
                }
            }
            Shape::Matched(m) => Some(m),
        },
        None => None,
    };
    // The content slot as written, when the output fits its layout.
    let fitted = matched.as_ref().filter(|m| m.mismatch.is_none());
    let (mut own, framing_own) = set_aside(profile, layout, matched.as_ref(), fitted, framed.len());
    // A body quoted line by line, as this output is written: a marker on
    // a quoted line is quoted data.
    let quote = quote::prefix_of(profile, layout, fitted, &request.content, framed);
    own.extend(quote::quoted_slot_lines(profile, quote, fitted, framed));
    let views = Views::excluding(framed, profile, &own);
    if layout.is_none() {
        shape::check_frame_shape(findings, &views, framed);
    }
    let parsed_tag = header::check_tag_integrity(findings, case, profile, layout, request, &views);
    let judged = levels(profile);
    nonce::check_matched(findings, profile, &views);
    nonce::check_confusables(findings, profile, &views, &judged);
    // A control string is read by a model's tokenizer and chat template, at
    // every level; a parser reads the frame's own grammar, and a control
    // string is text to it. So it is judged for a model consumer alone: a
    // model that reads a parser's output too is a consumer the profile
    // declares (`consumers: [model, parser]`), judged in its own pass.
    if profile.reader.consumer == Consumer::Model {
        template::check_control_strings(findings, profile, &views, &framing_own);
    }
    let slot = (fitted, quote);
    level_checks(findings, case, profile, &views, &judged, slot, framed);
    let exact = &views.exact().regions;
    let body = body_of(profile, layout, matched.as_ref(), framed, exact);
    if case.expect == Expectation::Faithful {
        faithful_checks(
            findings,
            profile,
            layout,
            (request, framed),
            body,
            (exact, parsed_tag.as_ref()),
        );
        if let (Some(l), Some(m)) = (layout, fitted) {
            fidelity::check_echo_fidelity(findings, request, framed, &m.echoes, l.marking());
        }
    }
    let live = views
        .levels
        .iter()
        .map(|v| (v.level(), v.regions.delimiters.len()))
        .collect();
    Framed {
        body: Some(body),
        live,
    }
}

/// What a faithful case's output must carry: the content (decoded), the
/// provenance and the supplied attributes.
fn faithful_checks(
    findings: &mut Findings,
    profile: &ResolvedProfile,
    layout: Option<&Layout>,
    (request, framed): (&WrapRequest, &str),
    body: (&str, usize),
    (exact, parsed_tag): (&Regions, Option<&ParsedOpener>),
) {
    // A framing that chooses its encoding per content is judged in the
    // one this output has.
    let (encoding, mark) = layout.map_or((BodyEncoding::None.into(), "^".into()), |l| {
        (l.encoding_for(body.0, &request.content), l.marking())
    });
    // A reader that answers with segments decides what the content
    // became: `reader.structure` compares the content's segment with
    // the content, whatever escaping the writer used on the way.
    if profile.reader.returns != ReaderReturns::Segments {
        fidelity::check_body_fidelity(findings, request, framed, body, encoding, mark);
    }
    fidelity::check_provenance_fidelity(findings, profile, request, framed, (exact, parsed_tag));
    if let Some(tag) = parsed_tag {
        fidelity::check_attribute_fidelity(findings, profile, request, framed, tag);
    }
}

/// The checks each `judged` reader level makes in its own view of the
/// output: the census of live delimiters, the canary, header lines, and
/// forged records and quote lines in the content slot (the one the layout
/// `fitted`, else the content region this reader found); the quote's
/// lines are held to `quote`, the prefix of the output's quoted body
/// ([`quote::prefix_of`]).
fn level_checks(
    findings: &mut Findings,
    case: &ConcreteCase,
    profile: &ResolvedProfile,
    views: &Views,
    judged: &[ReaderLevel],
    (fitted, quote): (Option<&Match>, Option<&str>),
    framed: &str,
) {
    let echoes: Vec<Range<usize>> = fitted
        .iter()
        .flat_map(|m| m.echoes.iter())
        .filter(|(_, echo)| echo.framed)
        .map(|(span, _)| span.clone())
        .collect();
    for view in views.levels.iter().filter(|v| judged.contains(&v.level())) {
        let (level, regions) = (view.level(), &view.regions);
        census::check_census(findings, profile, &*views.grammar, view);
        census::check_canary(findings, case, framed, level, (regions, &echoes));
        header::check_header_lines(findings, framed, view.folded.reader, regions);
        let slot = || fitted.map_or_else(|| regions.content.clone(), |m| m.content.clone());
        if let Some(records) = &profile.records {
            let model = profile.reader.consumer == Consumer::Model;
            records::check_forged_records(findings, records, model, view, slot());
        }
        if let Some(prefix) = quote {
            quote::check_quote(findings, prefix, view, slot());
        }
    }
}

/// The spans the checks set aside in an output: the framing's own text
/// outside the frame, which is never a forged delimiter; and everything the
/// request did not write, where no control string is "from the input" (a
/// `Human:` label the framing writes is its own). An output its layout does
/// not fit (`fitted` is `None`) keeps the first for both: its content slot
/// is not known.
fn set_aside(
    profile: &ResolvedProfile,
    layout: Option<&Layout>,
    matched: Option<&Match>,
    fitted: Option<&Match>,
    len: usize,
) -> (Vec<Range<usize>>, Vec<Range<usize>>) {
    let own = match (layout, matched) {
        (Some(l), Some(m)) if profile.delimiters.grammar.is_open_only() => {
            m.own_text_open_only(l, len)
        }
        (Some(l), Some(m)) => m.own_text(l, len),
        _ => Vec::new(),
    };
    let not_input = match (layout, fitted) {
        (Some(l), Some(m)) => template::outside(&m.input_spans(l), len),
        _ => own.clone(),
    };
    (own, not_input)
}

/// The reader levels security checks run at: a parser reads bytes exactly,
/// so a frame it consumes is judged at the exact level only (and what fails
/// there fails for every level, see [`finish`]).
fn levels(profile: &ResolvedProfile) -> Vec<ReaderLevel> {
    match profile.reader.consumer {
        Consumer::Parser => vec![ReaderLevel::Exact],
        Consumer::Model => ReaderLevel::ALL.to_vec(),
    }
}

/// The findings, with a parser-consumed frame's exact-level failures
/// holding at every level: the parser is the reader, whatever level the run
/// decides at.
fn finish(findings: Findings, profile: &ResolvedProfile) -> Vec<Finding> {
    let mut findings = findings.0;
    if profile.reader.consumer == Consumer::Parser {
        for f in findings
            .iter_mut()
            .filter(|f| f.class == CheckClass::Security && f.levels.contains(&ReaderLevel::Exact))
        {
            f.levels = ReaderLevel::ALL.to_vec();
        }
    }
    findings
}

/// The body as written and where it starts: the layout's content slot when
/// the output fits the layout, else the exact-level content region with the
/// padding stripped once from each end.
fn body_of<'a>(
    profile: &ResolvedProfile,
    layout: Option<&Layout>,
    matched: Option<&Match>,
    framed: &'a str,
    exact: &Regions,
) -> (&'a str, usize) {
    match matched {
        Some(m) if m.mismatch.is_none() => (&framed[m.content.clone()], m.content.start),
        _ => {
            let padding = profile
                .padding_override()
                .or(layout.map(|l| l.padding.lead.as_str()))
                .unwrap_or("\n");
            exact_body(padding, framed, exact)
        }
    }
}

/// Judges a wrap and the reader's answer to that very output: every
/// [`judge_wrap`] finding, then whether the reader returns the framed body
/// (and, for faithful cases, the original content) without a live delimiter.
pub fn judge_roundtrip(
    case: &ConcreteCase,
    profile: &ResolvedProfile,
    request: &WrapRequest,
    framed: &str,
    body: Option<&str>,
) -> Vec<Finding> {
    judge_roundtrip_in(case, profile, None, request, framed, body)
}

/// [`judge_roundtrip`] against a calibrated layout. A reader declared to
/// return content (`reader.returns: content`) must return the decoded body.
pub fn judge_roundtrip_in(
    case: &ConcreteCase,
    profile: &ResolvedProfile,
    layout: Option<&Layout>,
    request: &WrapRequest,
    framed: &str,
    body: Option<&str>,
) -> Vec<Finding> {
    let layout = layout.map(|l| l.for_output(&request.content, framed));
    let mut findings = Findings::default();
    let written = wrap_checks(&mut findings, case, profile, layout, request, framed);
    let Some(body) = body else {
        findings.fidelity(
            Check::Roundtrip,
            "the reader rejects the writer's own frame".into(),
            None,
        );
        return finish(findings, profile);
    };
    if let Some((framed_body, body_at)) = written.body {
        check_reader_returns(
            &mut findings,
            profile,
            layout,
            framed,
            framed_body,
            body_at,
            body,
        );
    }
    if case.expect == Expectation::Faithful && body != request.content {
        let at = first_difference(body, &request.content);
        findings.fidelity(
            Check::Roundtrip,
            "the reader does not return the original content".into(),
            Some(Excerpt::cut(ExcerptSource::ReadBody, body, at, at)),
        );
    }
    if profile.reader.returns == ReaderReturns::Body {
        let grammar = profile.grammar();
        read::check_body_delimiters(&mut findings, profile, &*grammar, framed, body);
    }
    finish(findings, profile)
}

/// The reader returns what its contract says: the framed body as written,
/// or (`returns: content`) the body decoded.
fn check_reader_returns(
    findings: &mut Findings,
    profile: &ResolvedProfile,
    layout: Option<&Layout>,
    framed: &str,
    framed_body: &str,
    body_at: usize,
    body: &str,
) {
    let expected = match (profile.reader.returns, layout) {
        (ReaderReturns::Segments, _) => return,
        (ReaderReturns::Body, _) | (ReaderReturns::Content, None) => framed_body.into(),
        (ReaderReturns::Content, Some(l)) => {
            let encoding = l.encoding_for(framed_body, body);
            match encoding::decode(encoding, framed_body, l.marking()) {
                Ok(decoded) => decoded,
                // A lossy or undecodable body: nothing to compare with.
                Err(_) => return,
            }
        }
    };
    if body != expected {
        let at = body_at + first_difference(&expected, body).min(framed_body.len());
        let what = match profile.reader.returns {
            ReaderReturns::Body => "the reader returns something other than the framed body",
            ReaderReturns::Content => "the reader returns something other than the decoded body",
            // Segments are judged by `reader.structure`, not here.
            ReaderReturns::Segments => return,
        };
        findings.fidelity(
            Check::Roundtrip,
            what.into(),
            framed_excerpt(framed, at..at),
        );
    }
}

/// `framed` read at `level`, all of it the frame's content region: the view
/// the unit tests of the line-start checks (records, quote) judge.
#[cfg(test)]
fn whole_view(framed: &str, level: ReaderLevel) -> super::view::View<'_> {
    super::view::View {
        folded: crate::reader::Reader::new(level).fold(framed),
        regions: Regions {
            delimiters: vec![],
            outer_tag: None,
            attribute_tag: None,
            header_terminated: true,
            header: 0..0,
            content: 0..framed.len(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn some_findings() -> Findings {
        let mut findings = Findings::default();
        findings.security(
            Check::CanaryContainment,
            ReaderLevel::Exact,
            "a".into(),
            None,
        );
        findings.security(
            Check::DelimiterCensus,
            ReaderLevel::Unicode,
            "b".into(),
            None,
        );
        findings.fidelity(Check::Fidelity, "c".into(), None);
        findings
    }

    fn levels_of(findings: &[Finding]) -> Vec<Vec<ReaderLevel>> {
        findings.iter().map(|f| f.levels.clone()).collect()
    }

    #[test]
    fn a_parser_reads_its_exact_level_security_failures_at_every_level() {
        let profile = crate::profile::reference_for_tests()
            .edit(|p| {
                p.reader.consumer = Consumer::Parser;
            })
            .unwrap();
        assert_eq!(
            levels_of(&finish(some_findings(), &profile)),
            [
                ReaderLevel::ALL.to_vec(),
                vec![ReaderLevel::Unicode],
                vec![]
            ]
        );
    }

    #[test]
    fn a_model_keeps_the_levels_each_failure_was_seen_at() {
        let profile = crate::profile::reference_for_tests()
            .edit(|p| {
                p.reader.consumer = Consumer::Model;
            })
            .unwrap();
        assert_eq!(
            levels_of(&finish(some_findings(), &profile)),
            [vec![ReaderLevel::Exact], vec![ReaderLevel::Unicode], vec![]]
        );
    }
}
