//! The checks themselves: what the oracle concludes from a framed text or a
//! reader's answer, as [`Finding`]s.
//!
//! Security checks run once per reader level and are merged, so the same
//! problem seen at two levels is one finding listing both. Fidelity checks
//! run once, at the exact level, and only for cases that expect the content
//! back unchanged.

use std::ops::Range;

use super::regions::{Regions, INNER, OUTER};
use super::scan::{self, DelimiterKind, LiveDelimiter};
use super::tag::{self, ParsedTag};
use super::{Check, CheckClass, Excerpt, ExcerptSource, Finding};
use crate::adapter::WrapRequest;
use crate::catalogue::{ConcreteCase, Expectation, Field};
use crate::level::ReaderLevel;
use crate::profile::{Capability, TargetProfile};

/// Findings under construction: one per distinct (check, message), with the
/// levels that saw it accumulated and the strictest level's excerpt kept.
#[derive(Debug, Default)]
struct Findings(Vec<Finding>);

impl Findings {
    fn add(
        &mut self,
        check: Check,
        class: CheckClass,
        level: Option<ReaderLevel>,
        message: String,
        excerpt: Option<Excerpt>,
    ) {
        let existing = self
            .0
            .iter_mut()
            .find(|f| f.check == check && f.message == message);
        let finding = match existing {
            Some(finding) => finding,
            None => {
                self.0.push(Finding {
                    check,
                    class,
                    levels: Vec::new(),
                    message,
                    excerpt,
                });
                self.0.last_mut().expect("just pushed")
            }
        };
        if let Some(level) = level {
            if !finding.levels.contains(&level) {
                finding.levels.push(level);
                finding.levels.sort();
            }
        }
    }

    fn security(
        &mut self,
        check: Check,
        level: ReaderLevel,
        message: String,
        excerpt: Option<Excerpt>,
    ) {
        self.add(check, CheckClass::Security, Some(level), message, excerpt);
    }

    /// A security failure that does not depend on how the reader folds text.
    fn security_everywhere(&mut self, check: Check, message: String, excerpt: Option<Excerpt>) {
        for level in ReaderLevel::ALL {
            self.security(check, level, message.clone(), excerpt.clone());
        }
    }

    fn fidelity(&mut self, check: Check, message: String, excerpt: Option<Excerpt>) {
        self.add(check, CheckClass::Fidelity, None, message, excerpt);
    }
}

fn framed_excerpt(framed: &str, span: Range<usize>) -> Option<Excerpt> {
    Some(Excerpt::cut(
        ExcerptSource::Framed,
        framed,
        span.start,
        span.end,
    ))
}

fn token_name(profile: &TargetProfile, index: usize) -> String {
    profile.delimiters.all_tokens()[index].to_string()
}

/// The benign request the runner wraps once per target to learn its frame.
pub fn calibration_request() -> WrapRequest {
    WrapRequest {
        content: "framecheck calibration content.".into(),
        kind: "tool-result".into(),
        attributes: [("source".to_string(), "calibration".to_string())]
            .into_iter()
            .collect(),
        provenance: "Calibration text written by framecheck.".into(),
    }
}

/// A target's frame around a known content, split where the content sits.
/// Read cases are assembled from its pieces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Calibration {
    /// The whole framed text.
    pub framed: String,
    /// Byte offset where the content starts.
    pub body_start: usize,
    /// Byte offset where the content ends.
    pub body_end: usize,
}

impl Calibration {
    /// The frame up to where the content starts.
    pub fn head(&self) -> &str {
        &self.framed[..self.body_start]
    }

    /// The content as framed.
    pub fn body(&self) -> &str {
        &self.framed[self.body_start..self.body_end]
    }

    /// The frame after the content.
    pub fn tail(&self) -> &str {
        &self.framed[self.body_end..]
    }
}

/// Locates `request.content` in `framed`, which must hold it exactly once.
///
/// The error says why the frame cannot serve as a calibration, naming the
/// target's profile.
pub fn calibrate(
    profile: &TargetProfile,
    request: &WrapRequest,
    framed: &str,
) -> Result<Calibration, String> {
    if request.content.is_empty() {
        return Err("the calibration content is empty".into());
    }
    let mut found = framed.match_indices(request.content.as_str());
    let Some((start, _)) = found.next() else {
        return Err(format!(
            "target {:?} did not reproduce the calibration content {:?} in its frame",
            profile.name, request.content
        ));
    };
    if found.next().is_some() {
        return Err(format!(
            "target {:?} wrote the calibration content {:?} more than once",
            profile.name, request.content
        ));
    }
    Ok(Calibration {
        framed: framed.to_string(),
        body_start: start,
        body_end: start + request.content.len(),
    })
}

/// Judges the framed text a wrap returned: frame shape, delimiter census,
/// canary containment, header and tag integrity, and for faithful cases
/// whether content, attributes and provenance came through unchanged.
pub fn judge_wrap(
    case: &ConcreteCase,
    profile: &TargetProfile,
    request: &WrapRequest,
    framed: &str,
) -> Vec<Finding> {
    let mut findings = Findings::default();
    wrap_checks(&mut findings, case, profile, request, framed);
    findings.0
}

fn wrap_checks(
    findings: &mut Findings,
    case: &ConcreteCase,
    profile: &TargetProfile,
    request: &WrapRequest,
    framed: &str,
) {
    check_frame_shape(findings, profile, framed);
    let parsed_tag = check_tag_integrity(findings, case, profile, request, framed);
    for level in ReaderLevel::ALL {
        let regions = Regions::at(framed, profile, level);
        check_census(findings, profile, framed, level, &regions);
        check_canary(findings, case, framed, level, &regions);
        check_header_lines(findings, framed, level, &regions);
    }
    if case.expect == Expectation::Faithful {
        let exact = Regions::at(framed, profile, ReaderLevel::Exact);
        check_body_fidelity(findings, profile, request, framed, &exact);
        check_provenance_fidelity(findings, profile, request, framed, &exact);
        if let Some(tag) = &parsed_tag {
            check_attribute_fidelity(findings, profile, request, framed, tag);
        }
    }
}

fn check_frame_shape(findings: &mut Findings, profile: &TargetProfile, framed: &str) {
    let syntax = profile.delimiters.syntax;
    let outer = &profile.delimiters.token;
    let trimmed_start = framed.len() - framed.trim_start_matches(is_ascii_space).len();
    let trimmed = framed.trim_matches(is_ascii_space);
    let open = syntax.open_start(outer);
    let close = syntax.close(outer);
    if !trimmed.starts_with(&open) {
        findings.security_everywhere(
            Check::FrameShape,
            format!("the output does not begin with {open:?}"),
            framed_excerpt(framed, trimmed_start..trimmed_start),
        );
    }
    if !trimmed.ends_with(&close) {
        let end = trimmed_start + trimmed.len();
        findings.security_everywhere(
            Check::FrameShape,
            format!("the output does not end with {close:?}"),
            framed_excerpt(framed, end..end),
        );
    }
}

fn is_ascii_space(c: char) -> bool {
    c.is_ascii_whitespace()
}

/// The delimiters the framing itself must have written, at one level.
struct Expected {
    outer_open: Option<LiveDelimiter>,
    outer_close: Option<LiveDelimiter>,
    inner_open: Option<LiveDelimiter>,
    inner_close: Option<LiveDelimiter>,
}

fn expected_delimiters(profile: &TargetProfile, delimiters: &[LiveDelimiter]) -> Expected {
    let is = |d: &&LiveDelimiter, token, kind| d.token == token && d.kind == kind;
    let outer_open = delimiters
        .iter()
        .find(|d| is(d, OUTER, DelimiterKind::Open))
        .copied();
    let after_open = outer_open.map_or(0, |d| d.end);
    let outer_close = delimiters
        .iter()
        .rev()
        .find(|d| is(d, OUTER, DelimiterKind::Close) && d.start >= after_open)
        .copied();
    let before_close = outer_close.map_or(usize::MAX, |d| d.start);
    let (mut inner_open, mut inner_close) = (None, None);
    if profile.delimiters.inner.is_some() {
        inner_open = delimiters
            .iter()
            .find(|d| {
                is(d, INNER, DelimiterKind::Open) && d.start >= after_open && d.end <= before_close
            })
            .copied();
        let after_inner = inner_open.map_or(after_open, |d| d.end);
        inner_close = delimiters
            .iter()
            .rev()
            .find(|d| {
                is(d, INNER, DelimiterKind::Close)
                    && d.start >= after_inner
                    && d.end <= before_close
            })
            .copied();
    }
    Expected {
        outer_open,
        outer_close,
        inner_open,
        inner_close,
    }
}

fn check_census(
    findings: &mut Findings,
    profile: &TargetProfile,
    framed: &str,
    level: ReaderLevel,
    regions: &Regions,
) {
    let expected = expected_delimiters(profile, &regions.delimiters);
    let mut wanted = vec![
        (OUTER, DelimiterKind::Open, expected.outer_open),
        (OUTER, DelimiterKind::Close, expected.outer_close),
    ];
    if profile.delimiters.inner.is_some() {
        wanted.push((INNER, DelimiterKind::Open, expected.inner_open));
        wanted.push((INNER, DelimiterKind::Close, expected.inner_close));
    }
    for (token, kind, found) in &wanted {
        if found.is_none() {
            findings.security(
                Check::DelimiterCensus,
                level,
                format!(
                    "the frame's own {} `{}` delimiter is missing",
                    kind.adjective(),
                    token_name(profile, *token)
                ),
                None,
            );
        }
    }
    let real: Vec<LiveDelimiter> = wanted.iter().filter_map(|(_, _, d)| *d).collect();
    let intruders: Vec<&LiveDelimiter> = regions
        .delimiters
        .iter()
        .filter(|d| !real.contains(d))
        .collect();
    if let Some(first) = intruders.first() {
        let count = intruders.len();
        findings.security(
            Check::DelimiterCensus,
            level,
            format!(
                "{count} live delimiter{} besides the frame's own; the first is a {} `{}` delimiter",
                if count == 1 { "" } else { "s" },
                first.kind.adjective(),
                token_name(profile, first.token)
            ),
            framed_excerpt(framed, first.start..first.end),
        );
    }
}

fn is_header_field(field: &Field) -> bool {
    matches!(field, Field::Kind | Field::Attributes | Field::Provenance)
}

fn within(span: &Range<usize>, region: &Range<usize>) -> bool {
    region.start <= span.start && span.end <= region.end
}

fn check_canary(
    findings: &mut Findings,
    case: &ConcreteCase,
    framed: &str,
    level: ReaderLevel,
    regions: &Regions,
) {
    if case.canary.is_empty() {
        return;
    }
    let in_content = case.canary_fields.contains(&Field::Content);
    let in_header = case.canary_fields.iter().any(is_header_field);
    if !in_content && !in_header {
        return;
    }
    for (at, _) in framed.match_indices(case.canary.as_str()) {
        let span = at..at + case.canary.len();
        let content_ok = in_content && within(&span, &regions.content);
        let header_ok = in_header
            && (within(&span, &regions.header)
                || regions
                    .attribute_tag
                    .as_ref()
                    .is_some_and(|t| within(&span, t)));
        if content_ok || header_ok {
            continue;
        }
        let place = if span.start >= regions.content.end {
            "after the content region, outside the frame"
        } else if span.start >= regions.content.start {
            "in the content region"
        } else if span.start >= regions.header.end {
            "between the header and the content region"
        } else {
            "before the content region, in the frame's tag or header"
        };
        if in_content {
            findings.security(
                Check::CanaryContainment,
                level,
                format!("the canary planted in the content lands {place}"),
                framed_excerpt(framed, span.clone()),
            );
        }
        if in_header {
            findings.security(
                Check::HeaderIntegrity,
                level,
                format!("the canary planted in a header field lands {place}"),
                framed_excerpt(framed, span.clone()),
            );
        }
    }
}

/// The first line break (as `level` reads line breaks) inside a quoted value
/// of the tag at `span`. Breaks between attributes are the framing's own
/// layout; a break inside a value came from the caller's data.
fn line_break_in_quoted_value(
    framed: &str,
    span: Range<usize>,
    level: ReaderLevel,
) -> Option<Range<usize>> {
    let mut quote: Option<char> = None;
    for (i, c) in framed[span.clone()].char_indices() {
        let at = span.start + i;
        match quote {
            None if c == '"' || c == '\'' => quote = Some(c),
            Some(q) if c == q => quote = None,
            Some(_) => {
                if let Some(len) = super::regions::line_break_at(framed, at, level) {
                    return Some(at..at + len);
                }
            }
            None => {}
        }
    }
    None
}

fn check_header_lines(
    findings: &mut Findings,
    framed: &str,
    level: ReaderLevel,
    regions: &Regions,
) {
    let mut tags: Vec<(&str, &Range<usize>)> = Vec::new();
    if let Some(t) = &regions.outer_tag {
        tags.push(("outer opening tag", t));
    }
    if let Some(t) = &regions.attribute_tag {
        if Some(t) != regions.outer_tag.as_ref() {
            tags.push(("attribute-carrying tag", t));
        }
    }
    for (what, span) in tags {
        if let Some(brk) = line_break_in_quoted_value(framed, span.clone(), level) {
            findings.security(
                Check::HeaderIntegrity,
                level,
                format!("an attribute value in the {what} contains a line break"),
                framed_excerpt(framed, brk),
            );
        }
    }
    if !regions.header_terminated {
        let at = regions.outer_tag.as_ref().map_or(0, |t| t.end);
        findings.security(
            Check::HeaderIntegrity,
            level,
            "no blank line ends the header".into(),
            framed_excerpt(framed, at..at),
        );
    }
}

fn check_tag_integrity(
    findings: &mut Findings,
    case: &ConcreteCase,
    profile: &TargetProfile,
    request: &WrapRequest,
    framed: &str,
) -> Option<ParsedTag> {
    let level = ReaderLevel::Exact;
    let syntax = profile.delimiters.syntax;
    let token = profile.attribute_token();
    let open = scan::live_delimiters(framed, syntax, &[token], level)
        .into_iter()
        .find(|d| d.kind == DelimiterKind::Open)?;
    let parsed = match tag::parse_attributes(framed, open.start..open.end, syntax) {
        Ok(parsed) => parsed,
        Err(error) => {
            findings.security_everywhere(
                Check::TagIntegrity,
                format!(
                    "the opening `{token}` tag does not parse: expected {}",
                    error.reason
                ),
                framed_excerpt(framed, error.at..error.at),
            );
            return None;
        }
    };
    let supplied: Vec<&String> = if profile.can(Capability::Attributes) {
        request.attributes.keys().collect()
    } else {
        Vec::new()
    };
    let kind_name = profile
        .attributes
        .kind
        .as_ref()
        .filter(|_| profile.can(Capability::Kind));
    let expected = |name: &str| {
        supplied.iter().any(|k| k.as_str() == name)
            || kind_name.is_some_and(|k| k == name)
            || profile.attributes.extra.iter().any(|e| e == name)
    };
    check_duplicate_names(findings, framed, &parsed);
    let mut seen: Vec<&str> = Vec::new();
    for attribute in &parsed.attributes {
        let span = attribute.at..attribute.at + attribute.name.len();
        seen.push(&attribute.name);
        if !expected(&attribute.name) {
            findings.security_everywhere(
                Check::TagIntegrity,
                format!("attribute injected: {:?} was not supplied", attribute.name),
                framed_excerpt(framed, span),
            );
        }
    }
    if case.expect == Expectation::Faithful {
        for key in supplied.iter().filter(|k| tag::is_plain_name(k)) {
            if !seen.contains(&key.as_str()) {
                findings.fidelity(
                    Check::TagIntegrity,
                    format!("supplied attribute {key:?} is missing from the tag"),
                    framed_excerpt(framed, parsed.span.clone()),
                );
            }
        }
    }
    Some(parsed)
}

/// Two attributes with the same name, as each level's reader compares
/// names. An XML parser compares names byte for byte, so `Kind="system"`
/// beside the framing's own `kind="tool-result"` is a well-formed tag to the
/// exact reader; an HTML parser lowercases names and keeps the first, and a
/// model has no rule at all for which of two `kind`s is the frame's. So a
/// duplicate counts from the first level whose folding makes the names
/// equal: the caller's `KIND` shadows the framing's own kind for every
/// reader that folds case.
fn check_duplicate_names(findings: &mut Findings, framed: &str, parsed: &ParsedTag) {
    for level in ReaderLevel::ALL {
        let mut seen: Vec<String> = Vec::new();
        for attribute in &parsed.attributes {
            let folded = crate::level::fold_str(&attribute.name, level);
            if seen.contains(&folded) {
                let span = attribute.at..attribute.at + attribute.name.len();
                findings.security(
                    Check::TagIntegrity,
                    level,
                    format!("attribute {:?} appears twice", attribute.name),
                    framed_excerpt(framed, span),
                );
            }
            seen.push(folded);
        }
    }
}

fn strip_padding<'a>(region: &'a str, padding: &str) -> (&'a str, usize) {
    if padding.is_empty() {
        return (region, 0);
    }
    let (body, lead) = match region.strip_prefix(padding) {
        Some(rest) => (rest, padding.len()),
        None => (region, 0),
    };
    (body.strip_suffix(padding).unwrap_or(body), lead)
}

/// The body a reader should return: the exact-level content region with the
/// profile's padding stripped once from each end, and where it starts.
fn exact_body<'a>(profile: &TargetProfile, framed: &'a str, exact: &Regions) -> (&'a str, usize) {
    let (body, lead) = strip_padding(&framed[exact.content.clone()], &profile.body_padding);
    (body, exact.content.start + lead)
}

fn first_difference(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}

fn check_body_fidelity(
    findings: &mut Findings,
    profile: &TargetProfile,
    request: &WrapRequest,
    framed: &str,
    exact: &Regions,
) {
    let (body, body_at) = exact_body(profile, framed, exact);
    if body == request.content {
        return;
    }
    let at = body_at + first_difference(body, &request.content);
    let message = if body.trim() == request.content.trim() {
        "the framed body differs from the content only in leading or trailing whitespace"
    } else {
        "the framed body differs from the content"
    };
    findings.fidelity(
        Check::Fidelity,
        message.into(),
        framed_excerpt(framed, at..at),
    );
}

fn check_provenance_fidelity(
    findings: &mut Findings,
    profile: &TargetProfile,
    request: &WrapRequest,
    framed: &str,
    exact: &Regions,
) {
    if !profile.can(Capability::Provenance) || request.provenance.is_empty() {
        return;
    }
    if !framed[exact.header.clone()].contains(&request.provenance) {
        findings.fidelity(
            Check::Fidelity,
            "the provenance does not appear verbatim in the header".into(),
            framed_excerpt(framed, exact.header.clone()),
        );
    }
}

fn check_attribute_fidelity(
    findings: &mut Findings,
    profile: &TargetProfile,
    request: &WrapRequest,
    framed: &str,
    tag: &ParsedTag,
) {
    let value_of = |name: &str| {
        tag.attributes
            .iter()
            .find(|a| a.name == name)
            .map(|a| (a.value.as_str(), a.at))
    };
    if profile.can(Capability::Attributes) {
        for (key, value) in request
            .attributes
            .iter()
            .filter(|(k, _)| tag::is_plain_name(k))
        {
            if let Some((written, at)) = value_of(key) {
                if written != value {
                    findings.fidelity(
                        Check::Fidelity,
                        format!("attribute {key:?} does not carry the supplied value"),
                        framed_excerpt(framed, at..at + key.len()),
                    );
                }
            }
        }
    }
    if let Some(kind_name) = profile
        .attributes
        .kind
        .as_ref()
        .filter(|_| profile.can(Capability::Kind))
    {
        match value_of(kind_name) {
            Some((written, _)) if written == request.kind => {}
            Some((_, at)) => findings.fidelity(
                Check::Fidelity,
                format!("the kind attribute {kind_name:?} does not carry the supplied kind"),
                framed_excerpt(framed, at..at + kind_name.len()),
            ),
            None if request.kind.is_empty() => {}
            None => findings.fidelity(
                Check::Fidelity,
                format!("the kind attribute {kind_name:?} is missing"),
                framed_excerpt(framed, tag.span.clone()),
            ),
        }
    }
}

/// Judges a reader's answer to `text`: `body` is what it returned
/// (`None`: it rejected the text). What must happen depends on
/// `case.expect`; whatever it is, a body carrying a live delimiter fails at
/// the levels where the delimiter is live.
pub fn judge_read(
    case: &ConcreteCase,
    profile: &TargetProfile,
    text: &str,
    body: Option<&str>,
) -> Vec<Finding> {
    let mut findings = Findings::default();
    match (case.expect, body) {
        (Expectation::Reject, Some(_)) => {
            let outer = &profile.delimiters.token;
            for level in ReaderLevel::ALL
                .into_iter()
                .filter(|&l| l >= case.min_level)
            {
                // Point at the second frame, the usual reason for rejecting.
                let opens: Vec<LiveDelimiter> =
                    scan::live_delimiters(text, profile.delimiters.syntax, &[outer], level)
                        .into_iter()
                        .filter(|d| d.kind == DelimiterKind::Open)
                        .collect();
                let at = opens.get(1).map_or(0..0, |d| d.start..d.end);
                findings.security(
                    Check::ReaderVerdict,
                    level,
                    "the reader returned a body for a text that is not exactly one frame".into(),
                    Some(Excerpt::cut(
                        ExcerptSource::ReadInput,
                        text,
                        at.start,
                        at.end,
                    )),
                );
            }
        }
        (Expectation::Accept, None) => findings.fidelity(
            Check::ReaderVerdict,
            "the reader rejected a valid frame".into(),
            None,
        ),
        _ => {}
    }
    if let Some(body) = body {
        check_body_delimiters(&mut findings, profile, body);
    }
    findings.0
}

fn check_body_delimiters(findings: &mut Findings, profile: &TargetProfile, body: &str) {
    let tokens = profile.delimiters.all_tokens();
    for level in ReaderLevel::ALL {
        let live = scan::live_delimiters(body, profile.delimiters.syntax, &tokens, level);
        if let Some(first) = live.first() {
            findings.security(
                Check::ReaderVerdict,
                level,
                "the reader returned a body carrying a live delimiter".into(),
                Some(Excerpt::cut(
                    ExcerptSource::ReadBody,
                    body,
                    first.start,
                    first.end,
                )),
            );
        }
    }
}

/// Judges a wrap and the reader's answer to that very output: every
/// [`judge_wrap`] finding, then whether the reader returns the framed body
/// (and, for faithful cases, the original content) without a live delimiter.
pub fn judge_roundtrip(
    case: &ConcreteCase,
    profile: &TargetProfile,
    request: &WrapRequest,
    framed: &str,
    body: Option<&str>,
) -> Vec<Finding> {
    let mut findings = Findings::default();
    wrap_checks(&mut findings, case, profile, request, framed);
    let Some(body) = body else {
        findings.fidelity(
            Check::Roundtrip,
            "the reader rejects the writer's own frame".into(),
            None,
        );
        return findings.0;
    };
    let exact = Regions::at(framed, profile, ReaderLevel::Exact);
    let (framed_body, body_at) = exact_body(profile, framed, &exact);
    if body != framed_body {
        let at = body_at + first_difference(framed_body, body);
        findings.fidelity(
            Check::Roundtrip,
            "the reader returns something other than the framed body".into(),
            framed_excerpt(framed, at..at),
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
    check_body_delimiters(&mut findings, profile, body);
    findings.0
}
