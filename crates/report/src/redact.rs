//! `--reproducible` for nonce framings: the random values out of the files.
//!
//! A nonce framing writes a fresh value into every frame, so two runs of
//! the same target can never write the same report bytes while the values
//! are in it. [`redact_nonces`] replaces each value the target produced
//! with a label of the same byte length, `{nonce-1-redacted.........}`,
//! numbered by first appearance in the report. It runs after every check:
//! the oracle and the nonce probes judged the real values, and no verdict
//! or finding changes (only the text that shows them).
//!
//! What the labels keep: equal values get equal labels and different
//! values different ones, so a replayed closer still shows the number of
//! the frame it was copied from, and a reader probe's changed closer shows
//! a number of its own. Labels keep each value's length, so every excerpt's
//! byte offsets still point at the same text; excerpts are cut again from
//! the redacted text.
//!
//! What counts as a value: every nonce a live delimiter of the profile's
//! outer token carries (exact level) in a wrap's output, a reader's input
//! or output, or a nonce probe's input (built from earlier outputs), except
//! the values a catalogue case writes itself (a forged marker's fixed
//! value), which are the same on every run and stay as written. A case that
//! harvests an earlier frame's value carries a random value in its input,
//! and that value is redacted there too.

use std::collections::{BTreeMap, BTreeSet};

use framecheck_core::catalogue::{Input, Piece};
use framecheck_core::nonce::harvest::harvested_value;
use framecheck_core::nonce::is_probe;
use framecheck_core::oracle::{delimiter_nonces, Excerpt, Finding};
use framecheck_core::target::WrapRequest;
use framecheck_launch::outcome::{CaseResult, Evidence, LayoutReport, Outcome, RunResult};
use framecheck_launch::profile::TargetProfile;

/// What a report with redacted values says about them.
pub(super) const NOTE: &str = "nonce values redacted (`--reproducible`): each value the target produced is shown as a label of its length, `{nonce-N-redacted…}`, equal labels for equal values; every check saw the real values";

/// Replaces every random nonce value in `run`'s results with a stable
/// label; does nothing for a profile that declares no nonce.
pub(super) fn redact_nonces(run: &mut RunResult) {
    let sample = match &run.meta.layout {
        Some(LayoutReport::Learned { layout, .. }) => Some(layout.sample.framed.as_str()),
        _ => None,
    };
    let labels = Labels::collect(&run.meta.target, sample, &run.results);
    if labels.by_value.is_empty() {
        return;
    }
    if let Some(LayoutReport::Learned { layout, .. }) = &mut run.meta.layout {
        labels.apply(&mut layout.sample.framed);
    }
    for result in &mut run.results {
        redact_result(result, &labels);
    }
}

/// The label for the `number`th value, `len` bytes long: visibly not a
/// value of any nonce alphabet (braces), and the same length as the value.
fn label(number: usize, len: usize) -> String {
    for stem in [format!("{{nonce-{number}-redacted"), format!("{{n{number}")] {
        if stem.len() < len {
            let dots = len - stem.len() - 1;
            return format!("{stem}{}}}", ".".repeat(dots));
        }
    }
    "#".repeat(len)
}

/// Each value to replace and its label.
struct Labels {
    by_value: BTreeMap<String, String>,
    /// The distinct value lengths, for the sliding-window search.
    lengths: BTreeSet<usize>,
}

impl Labels {
    /// The values in order of first appearance: the learned layout's
    /// sample, then the results in order.
    fn collect(profile: &TargetProfile, sample: Option<&str>, results: &[CaseResult]) -> Labels {
        let mut order = Vec::new();
        let mut seen = BTreeSet::new();
        for value in sample.map_or_else(Vec::new, |text| delimiter_nonces(profile, text)) {
            if seen.insert(value.clone()) {
                order.push(value);
            }
        }
        for result in results {
            // A harvesting case's input carries the value the runner derived
            // from the earlier frame (the sample): derived again here, since
            // a near-miss value is live nowhere.
            let harvested = match (&result.case.harvest, sample) {
                (Some(harvest), Some(earlier)) => harvested_value(profile, harvest, earlier).ok(),
                _ => None,
            };
            if let Some(value) = harvested.filter(|v| !v.is_empty()) {
                if seen.insert(value.clone()) {
                    order.push(value);
                }
            }
            let probe_input = is_probe(&result.case).then(|| input_texts(&result.case.input));
            for text in probe_input
                .into_iter()
                .flatten()
                .chain(evidence_texts(&result.evidence))
            {
                for value in delimiter_nonces(profile, text) {
                    if !value.is_empty() && seen.insert(value.clone()) {
                        order.push(value);
                    }
                }
            }
        }
        let mut labels = Labels {
            by_value: BTreeMap::new(),
            lengths: order.iter().map(String::len).collect(),
        };
        let fixed = labels.fixed_values(&order, results);
        let kept = order.into_iter().filter(|v| !fixed.contains(v));
        for (i, value) in kept.enumerate() {
            let label = label(i + 1, value.len());
            labels.by_value.insert(value, label);
        }
        labels.lengths = labels.by_value.keys().map(String::len).collect();
        labels
    }

    /// The values among `candidates` that a catalogue case writes in its
    /// own input: the same on every run, so not redacted. Not a case that
    /// harvests (`nonce: replayed` and the like): the runner wrote an
    /// earlier frame's random value into its input.
    fn fixed_values(&self, candidates: &[String], results: &[CaseResult]) -> BTreeSet<String> {
        let wanted: BTreeSet<&str> = candidates.iter().map(String::as_str).collect();
        let mut fixed = BTreeSet::new();
        let written = |r: &&CaseResult| !is_probe(&r.case) && r.case.harvest.is_none();
        for result in results.iter().filter(written) {
            for text in input_texts(&result.case.input) {
                self.for_each_hit(text, |at, len| {
                    if let Some(value) = wanted.get(&text[at..at + len]) {
                        fixed.insert((*value).to_owned());
                    }
                    false
                });
            }
        }
        fixed
    }

    /// Calls `hit(start, len)` for every window of a known length that
    /// starts on a character boundary; a `true` answer skips past the
    /// window (a replacement was made).
    fn for_each_hit(&self, text: &str, mut hit: impl FnMut(usize, usize) -> bool) {
        let mut at = 0;
        'outer: while at < text.len() {
            if text.is_char_boundary(at) {
                for &len in self.lengths.iter().rev() {
                    if text.is_char_boundary((at + len).min(text.len()))
                        && at + len <= text.len()
                        && hit(at, len)
                    {
                        at += len;
                        continue 'outer;
                    }
                }
            }
            at += 1;
        }
    }

    /// `text` with every known value replaced by its label.
    fn apply(&self, text: &mut String) {
        let mut out = String::new();
        let mut copied = 0;
        self.for_each_hit(text, |at, len| {
            match self.by_value.get(&text[at..at + len]) {
                Some(label) => {
                    out.push_str(&text[copied..at]);
                    out.push_str(label);
                    copied = at + len;
                    true
                }
                None => false,
            }
        });
        if copied > 0 {
            out.push_str(&text[copied..]);
            *text = out;
        }
    }
}

/// The strings a case's input carries.
fn input_texts(input: &Input) -> Vec<&str> {
    match input {
        Input::Wrap(request) => request_texts(request),
        Input::Read(pieces) => pieces
            .iter()
            .filter_map(|piece| match piece {
                Piece::Literal(text) => Some(text.as_str()),
                _ => None,
            })
            .collect(),
    }
}

fn request_texts(request: &WrapRequest) -> Vec<&str> {
    let mut texts = vec![
        request.content.as_str(),
        request.kind.as_str(),
        request.provenance.as_str(),
    ];
    for (key, value) in &request.attributes {
        texts.push(key);
        texts.push(value);
    }
    texts
}

fn evidence_texts(evidence: &Evidence) -> impl Iterator<Item = &str> {
    [
        evidence.framed.as_deref(),
        evidence.read_text.as_deref(),
        evidence.read_body.as_ref().and_then(Option::as_deref),
        evidence.parts.as_deref(),
    ]
    .into_iter()
    .flatten()
}

fn redact_result(result: &mut CaseResult, labels: &Labels) {
    match &mut result.case.input {
        Input::Wrap(request) => redact_request(request, labels),
        Input::Read(pieces) => {
            for piece in pieces {
                if let Piece::Literal(text) = piece {
                    labels.apply(text);
                }
            }
        }
    }
    let evidence = &mut result.evidence;
    for text in [
        &mut evidence.framed,
        &mut evidence.read_text,
        &mut evidence.parts,
    ]
    .into_iter()
    .flatten()
    {
        labels.apply(text);
    }
    if let Some(Some(body)) = &mut evidence.read_body {
        labels.apply(body);
    }
    match &mut result.outcome {
        Outcome::Judged { findings } => {
            for finding in findings {
                redact_finding(finding, &result.evidence, labels);
            }
        }
        Outcome::Refused { reason, .. } | Outcome::Unplanted { reason } => labels.apply(reason),
        Outcome::Error {
            reason,
            stderr_tail,
            fault,
        } => {
            labels.apply(reason);
            labels.apply(stderr_tail);
            if let Some(fault) = fault {
                redact_fault(fault, labels);
            }
        }
        _ => {}
    }
}

/// A fault's offending line and stderr tail can echo the input.
fn redact_fault(fault: &mut framecheck_core::target::Fault, labels: &Labels) {
    if let Some(line) = &mut fault.offending_line {
        labels.apply(line);
    }
    labels.apply(&mut fault.stderr_tail);
}

fn redact_request(request: &mut WrapRequest, labels: &Labels) {
    labels.apply(&mut request.content);
    labels.apply(&mut request.kind);
    labels.apply(&mut request.provenance);
    let attributes = std::mem::take(&mut request.attributes);
    for (mut key, mut value) in attributes {
        labels.apply(&mut key);
        labels.apply(&mut value);
        request.attributes.insert(key, value);
    }
}

/// The message redacted, and the excerpt cut again from the redacted text
/// it points into (the offsets still hold: labels keep lengths).
fn redact_finding(finding: &mut Finding, evidence: &Evidence, labels: &Labels) {
    labels.apply(&mut finding.message);
    let Some(excerpt) = &mut finding.excerpt else {
        return;
    };
    match evidence.text_of(excerpt.text) {
        Some(text) if excerpt.end <= text.len() => {
            *excerpt = Excerpt::cut(excerpt.text, text, excerpt.start, excerpt.end);
        }
        _ => labels.apply(&mut excerpt.context),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_keep_the_length_and_leave_every_alphabet() {
        for (number, len) in [(1, 32), (1211, 32), (3, 16), (12, 8), (5, 3), (1, 2)] {
            let label = label(number, len);
            assert_eq!(label.len(), len, "{label}");
            assert!(!label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'));
        }
        assert_eq!(label(7, 32), "{nonce-7-redacted..............}");
    }
}
