//! Black-box attack search: mutate catalogue payloads, run them through any
//! target, and keep the inputs that break the frame.
//!
//! A fixed catalogue finds only the breakouts someone thought of. The search
//! takes every security case that wraps content, applies one to three random
//! mutation operators to the delimiters in its input (case flips, invisible
//! splices, lookalike letters and brackets, whitespace inside delimiters,
//! line-break variants, nesting, duplication, splitting a delimiter between an
//! attribute and the content), and asks the oracle about the result.
//!
//! A failing mutant counts as **new** when the mutation caused the failure:
//! the catalogue case it grew from passes that check unmutated on this
//! target. Only the first failure per signature (the failed check plus the
//! set of operator families that produced it) is kept. Each new failure is
//! shrunk (delta debugging over the characters of each field, keeping the same
//! check failing at the same level) and written out as a ready-to-commit
//! catalogue case.
//!
//! Runs are deterministic for a given `--seed`: the generator is a SplitMix64
//! stream. A time budget truncates that stream at a machine-dependent point; a
//! case budget does not.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::adapter::{Framing, TargetError, WrapRequest};
use crate::catalogue::{Category, ConcreteCase, Expectation, Field, Input, Operation};
use crate::grammar::Form;
use crate::level::ReaderLevel;
use crate::oracle::{self, Check, CheckClass, Finding};
use crate::profile::{Capability, TargetProfile};

/// How long a search may run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// At most this many mutants (shrinking not counted).
    Cases(u64),
    /// At most this much wall time, shrinking included.
    Time(Duration),
}

impl std::str::FromStr for Budget {
    type Err = String;

    /// `500` is a number of mutants; `60s` or `2m` a time budget.
    fn from_str(text: &str) -> Result<Budget, String> {
        let text = text.trim();
        let (number, unit) = text.split_at(
            text.find(|c: char| !c.is_ascii_digit())
                .unwrap_or(text.len()),
        );
        let value: u64 = number.parse().map_err(|_| {
            format!("budget {text:?}: expected a number of cases, or seconds like 60s")
        })?;
        match unit {
            "" => Ok(Budget::Cases(value)),
            "s" => Ok(Budget::Time(Duration::from_secs(value))),
            "m" => Ok(Budget::Time(Duration::from_secs(value * 60))),
            _ => Err(format!("budget {text:?}: unit must be s or m")),
        }
    }
}

/// Search settings.
#[derive(Debug, Clone)]
pub struct SearchOptions {
    /// Mutants or time.
    pub budget: Budget,
    /// Seed of the mutation stream.
    pub seed: u64,
    /// Level at which a mutant must fail to count.
    pub level: ReaderLevel,
    /// Most target calls spent shrinking one finding.
    pub shrink_calls: usize,
    /// Stop after this many new findings.
    pub max_findings: usize,
}

/// One new failing input, shrunk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchFinding {
    /// Stable id derived from the target and the shrunk input.
    pub id: String,
    /// The catalogue case the mutant grew from.
    pub seed_case: String,
    /// Its category.
    pub category: Category,
    /// Operators applied, in order.
    pub operators: Vec<String>,
    /// The shrunk request.
    pub request: WrapRequest,
    /// The canary planted in the request, if any.
    pub canary: Option<String>,
    /// Fields that carried the canary.
    pub canary_fields: Vec<Field>,
    /// What the oracle found on the shrunk request.
    pub finding: Finding,
}

/// What a search did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchReport {
    /// Target name.
    pub target: String,
    /// Seed used.
    pub seed: u64,
    /// Level a failure had to reach.
    pub level: ReaderLevel,
    /// Mutants tried.
    pub mutants_tried: u64,
    /// Mutants that failed a security check (new or not).
    pub mutants_failing: u64,
    /// Target errors (crash, timeout) met while searching.
    pub target_errors: u64,
    /// Catalogue cases that already fail a security check unmutated, as
    /// `case id: check`; mutants of these failing the same check are not new.
    pub known_failures: Vec<String>,
    /// New failures, shrunk.
    pub findings: Vec<SearchFinding>,
    /// Wall time in milliseconds.
    pub duration_ms: u64,
}

/// Runs the search. `cases` are the catalogue's cases instantiated for
/// `profile`; the security cases among them that wrap content are the seeds.
pub fn search(
    cases: &[ConcreteCase],
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    options: &SearchOptions,
    cancel: &AtomicBool,
) -> SearchReport {
    let started = Instant::now();
    let deadline = match options.budget {
        Budget::Time(limit) => Some(started + limit),
        Budget::Cases(_) => None,
    };
    let out_of_time =
        || deadline.is_some_and(|d| Instant::now() >= d) || cancel.load(Ordering::SeqCst);

    let seeds: Vec<&ConcreteCase> = cases
        .iter()
        .filter(|c| {
            c.expect == Expectation::Hold
                && matches!(c.operation, Operation::Wrap | Operation::Roundtrip)
                && matches!(c.input, Input::Wrap(_))
                && c.requires.iter().all(|cap| profile.can(*cap))
        })
        .collect();

    let mut known: BTreeSet<(String, Check)> = BTreeSet::new();
    let mut target_errors = 0;
    for case in &seeds {
        if out_of_time() {
            break;
        }
        if let Input::Wrap(request) = &case.input {
            match security_findings(case, profile, framing, request, options.level) {
                Ok(findings) => {
                    for finding in findings {
                        known.insert((case.id.clone(), finding.check));
                    }
                }
                Err(_) => target_errors += 1,
            }
        }
    }

    let mut rng = SplitMix64(options.seed);
    let mut report = SearchReport {
        target: profile.name.clone(),
        seed: options.seed,
        level: options.level,
        mutants_tried: 0,
        mutants_failing: 0,
        target_errors,
        known_failures: known
            .iter()
            .map(|(id, check)| format!("{id}: {check}"))
            .collect(),
        findings: Vec::new(),
        duration_ms: 0,
    };
    let mut found_signatures = BTreeSet::new();
    // Tokens as an attacker writes them (a nonce part as a sample value).
    let grammar = profile.delimiters.grammar();
    let tokens: Vec<String> = (0..profile.delimiters.all_tokens().len())
        .map(|i| grammar.render(Form::Token, i).plain())
        .collect();
    while !seeds.is_empty() && !out_of_time() && report.findings.len() < options.max_findings {
        if let Budget::Cases(limit) = options.budget {
            if report.mutants_tried >= limit {
                break;
            }
        }
        let case = seeds[rng.below(seeds.len())];
        let Input::Wrap(original) = &case.input else {
            continue;
        };
        let mut request = original.clone();
        let mut operators = Vec::new();
        for _ in 0..1 + rng.below(3) {
            if let Some(name) = mutate(&mut request, &tokens, profile, &mut rng) {
                operators.push(name);
            }
        }
        if operators.is_empty() {
            continue;
        }
        report.mutants_tried += 1;
        let findings = match security_findings(case, profile, framing, &request, options.level) {
            Ok(findings) => findings,
            Err(_) => {
                report.target_errors += 1;
                continue;
            }
        };
        let Some(finding) = findings.into_iter().next() else {
            continue;
        };
        report.mutants_failing += 1;
        let families: BTreeSet<&'static str> = operators.iter().map(|o| family(o)).collect();
        let sig = signature(finding.check, &families);
        // New means the mutation caused the failure: the seed case passes
        // this check unmutated. One finding per signature keeps it readable.
        if known.contains(&(case.id.clone(), finding.check)) || found_signatures.contains(&sig) {
            continue;
        }
        let budget = options.shrink_calls;
        let (request, finding) = shrink(
            case,
            profile,
            framing,
            request,
            finding,
            options.level,
            budget,
            &out_of_time,
        );
        found_signatures.insert(sig);
        let id = finding_id(&profile.name, &request);
        // Different mutants often shrink to the same input.
        if report.findings.iter().any(|f| f.id == id) {
            continue;
        }
        report.findings.push(SearchFinding {
            id,
            seed_case: case.id.clone(),
            category: case.category,
            operators: operators.iter().map(|s| s.to_string()).collect(),
            canary: (!case.canary_fields.is_empty()).then(|| case.canary.clone()),
            canary_fields: case.canary_fields.clone(),
            request,
            finding,
        });
    }
    report.duration_ms = started.elapsed().as_millis() as u64;
    report
}

/// Wraps `request` and returns the security findings at `level`.
fn security_findings(
    case: &ConcreteCase,
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    request: &WrapRequest,
    level: ReaderLevel,
) -> Result<Vec<Finding>, TargetError> {
    let framed = match framing.wrap(request) {
        Ok(framed) => framed,
        // Refusing a hostile input is a pass, not an error.
        Err(TargetError::Refused(_)) => return Ok(Vec::new()),
        Err(error) => return Err(error),
    };
    Ok(oracle::judge_wrap(case, profile, request, &framed)
        .into_iter()
        .filter(|f| f.class == CheckClass::Security && f.levels.contains(&level))
        .collect())
}

fn signature(check: Check, families: &BTreeSet<&'static str>) -> String {
    let families: Vec<&str> = families.iter().copied().collect();
    format!("{}[{}]", check.name(), families.join("+"))
}

fn family(operator: &str) -> &'static str {
    match operator {
        "case-flip" => "case",
        "splice-invisible" => "invisible",
        "lookalike-letter" => "lookalike",
        "bracket-lookalike" => "bracket",
        "whitespace-in-delimiter" => "whitespace",
        "line-break" => "line-break",
        "nest" => "nest",
        "duplicate" => "duplicate",
        "split-across-attribute" => "split",
        _ => "other",
    }
}

const INVISIBLES: &[char] = &[
    '\u{200B}',
    '\u{200C}',
    '\u{200D}',
    '\u{2060}',
    '\u{00AD}',
    '\u{FEFF}',
    '\u{034F}',
    '\u{180B}',
    '\u{FE0F}',
    '\u{200E}',
    '\u{202E}',
    '\u{2066}',
    '\u{E0020}',
    '\u{E0061}',
    '\u{E007F}',
    '\u{3164}',
];
const LINE_BREAKS: &[&str] = &[
    "\r\n", "\r", "\u{2028}", "\u{2029}", "\u{85}", "\u{0B}", "\n\n", "\u{0C}",
];
const SPACES: &[char] = &[' ', '\t', '\u{A0}', '\u{3000}', '\u{2009}', '\n'];

/// Lookalikes for an ASCII letter, any of which a Unicode reader folds back.
fn letter_lookalikes(c: char) -> Vec<char> {
    let mut out = Vec::new();
    if c.is_ascii_graphic() {
        out.push(char::from_u32(c as u32 + 0xFEE0).unwrap_or(c)); // fullwidth
    }
    if c.is_ascii_alphabetic() {
        let (upper_base, lower_base) = (c.is_ascii_uppercase(), c as u32);
        // Mathematical alphanumeric blocks that NFKC folds to ASCII.
        for block in [0x1D400u32, 0x1D434, 0x1D468, 0x1D5A0, 0x1D5D4, 0x1D670] {
            let offset = if upper_base {
                lower_base - 'A' as u32
            } else {
                26 + lower_base - 'a' as u32
            };
            if let Some(m) = char::from_u32(block + offset) {
                if crate::level::fold_char(m, ReaderLevel::Unicode)
                    == c.to_ascii_lowercase().to_string()
                {
                    out.push(m);
                }
            }
        }
        let circled = if upper_base {
            0x24B6 + lower_base - 'A' as u32
        } else {
            0x24D0 + lower_base - 'a' as u32
        };
        out.extend(char::from_u32(circled));
    }
    // Any non-ASCII character whose reading is this letter (Cyrillic, Greek…).
    for candidate in "аеорсхуіјѕһԁԛԝвкмнтАЕОРСХУІЈЅВКМНТαειοκνρτυχΑΕΙΟΚΡΤΧΖΒıɑɡ‐−ſK".chars()
    {
        if crate::level::fold_char(candidate, ReaderLevel::Unicode)
            == c.to_ascii_lowercase().to_string()
        {
            out.push(candidate);
        }
    }
    out
}

fn bracket_lookalikes(c: char) -> &'static [char] {
    match c {
        '<' => &['‹', '❮', '⟨', '〈', '＜', '﹤', '˂', 'ᐸ'],
        '>' => &['›', '❯', '⟩', '〉', '＞', '﹥', '˃', 'ᐳ'],
        '[' => &['［', '⟦', '〔', '⁅'],
        ']' => &['］', '⟧', '〕', '⁆'],
        '/' => &['∕', '⁄', '／', '⧸', '╱'],
        _ => &[],
    }
}

/// Byte ranges of ASCII case-insensitive token occurrences in `text`.
fn token_spans(text: &str, tokens: &[String]) -> Vec<std::ops::Range<usize>> {
    let lower = text.to_ascii_lowercase();
    let mut spans = Vec::new();
    for token in tokens {
        let needle = token.to_ascii_lowercase();
        let mut from = 0;
        while let Some(at) = lower[from..].find(&needle) {
            let start = from + at;
            spans.push(start..start + needle.len());
            from = start + needle.len();
        }
    }
    spans.sort_by_key(|r| r.start);
    spans
}

/// Applies one random operator to one field of `request`; returns its name,
/// or `None` when it found nothing to change.
fn mutate(
    request: &mut WrapRequest,
    tokens: &[String],
    profile: &TargetProfile,
    rng: &mut SplitMix64,
) -> Option<&'static str> {
    let grammar = profile.delimiters.grammar();
    let brackets = grammar.render(Form::Open, 0).brackets();
    let operator = rng.below(9);
    if operator == 8 {
        return split_across_attribute(request, tokens, profile, rng);
    }
    // Pick a field that mentions a token (content most of the time).
    let mut fields: Vec<&mut String> = vec![
        &mut request.content,
        &mut request.provenance,
        &mut request.kind,
    ];
    fields.extend(request.attributes.values_mut());
    let candidates: Vec<usize> = (0..fields.len())
        .filter(|&i| !token_spans(fields[i], tokens).is_empty())
        .collect();
    let field = if candidates.is_empty() {
        0
    } else {
        candidates[rng.below(candidates.len())]
    };
    let text = &mut *fields[field];
    let spans = token_spans(text, tokens);
    match operator {
        0 => {
            let span = spans.get(rng.below(spans.len().max(1)))?.clone();
            let flipped: String = text[span.clone()]
                .chars()
                .map(|c| {
                    if rng.below(2) == 0 {
                        c.to_ascii_uppercase()
                    } else {
                        c.to_ascii_lowercase()
                    }
                })
                .collect();
            if flipped == text[span.clone()] {
                return None;
            }
            text.replace_range(span, &flipped);
            Some("case-flip")
        }
        1 => {
            let span = spans.get(rng.below(spans.len().max(1)))?.clone();
            let at = span.start + 1 + rng.below(span.len().saturating_sub(1).max(1));
            let at = floor_boundary(text, at.min(span.end));
            text.insert(at, INVISIBLES[rng.below(INVISIBLES.len())]);
            Some("splice-invisible")
        }
        2 => {
            let span = spans.get(rng.below(spans.len().max(1)))?.clone();
            let letters: Vec<(usize, char)> = text[span.clone()]
                .char_indices()
                .filter(|(_, c)| !letter_lookalikes(*c).is_empty())
                .map(|(i, c)| (span.start + i, c))
                .collect();
            let (at, c) = *letters.get(rng.below(letters.len().max(1)))?;
            let options = letter_lookalikes(c);
            let replacement = options[rng.below(options.len())];
            text.replace_range(at..at + c.len_utf8(), &replacement.to_string());
            Some("lookalike-letter")
        }
        3 => {
            let span = spans.get(rng.below(spans.len().max(1)))?.clone();
            let (open, _) = brackets?;
            let before = text[..span.start].trim_end_matches([' ', '/']);
            let last = before.chars().next_back().filter(|&c| c == open)?;
            let bracket_at = before.len() - last.len_utf8();
            let choice = bracket_lookalikes(open);
            text.replace_range(
                bracket_at..bracket_at + 1,
                &choice[rng.below(choice.len())].to_string(),
            );
            Some("bracket-lookalike")
        }
        4 => {
            let span = spans.get(rng.below(spans.len().max(1)))?.clone();
            let at = if rng.below(2) == 0 {
                span.start
            } else {
                span.end
            };
            text.insert(at, SPACES[rng.below(SPACES.len())]);
            Some("whitespace-in-delimiter")
        }
        5 => {
            let breaks: Vec<usize> = text.match_indices('\n').map(|(i, _)| i).collect();
            let at = *breaks.get(rng.below(breaks.len().max(1)))?;
            text.replace_range(at..at + 1, LINE_BREAKS[rng.below(LINE_BREAKS.len())]);
            Some("line-break")
        }
        6 => {
            let token = rng.below(tokens.len());
            let (open, close) = (
                grammar.render(Form::Open, token).plain(),
                grammar.render(Form::Close, token).plain(),
            );
            *text = format!("{open}\n{text}\n{close}");
            Some("nest")
        }
        _ => {
            let span = spans.get(rng.below(spans.len().max(1)))?.clone();
            let (open, close) = brackets?;
            let start = text[..span.start].rfind(open).unwrap_or(span.start);
            let end = text[span.end..]
                .find(close)
                .map(|i| span.end + i + 1)
                .unwrap_or(span.end);
            let copy = text[start..end].to_string();
            text.insert_str(end, &copy);
            Some("duplicate")
        }
    }
}

/// Moves the start of a delimiter from the content into an attribute value,
/// for framings that write attributes next to the content.
fn split_across_attribute(
    request: &mut WrapRequest,
    tokens: &[String],
    profile: &TargetProfile,
    rng: &mut SplitMix64,
) -> Option<&'static str> {
    if !profile.can(Capability::Attributes) {
        return None;
    }
    let span = token_spans(&request.content, tokens).into_iter().next()?;
    let grammar = profile.delimiters.grammar();
    let (open, _) = grammar.render(Form::Open, 0).brackets()?;
    let start = request.content[..span.start]
        .rfind(open)
        .unwrap_or(span.start);
    let cut = floor_boundary(&request.content, span.start + rng.below(span.len().max(1)));
    let head = request.content[start..cut].to_string();
    request.content.replace_range(start..cut, "");
    request
        .attributes
        .entry("title".to_string())
        .or_default()
        .push_str(&head);
    Some("split-across-attribute")
}

fn floor_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Delta debugging over each field's characters: drop chunks while the same
/// check still fails at `level`.
#[allow(clippy::too_many_arguments)]
fn shrink(
    case: &ConcreteCase,
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    mut request: WrapRequest,
    mut finding: Finding,
    level: ReaderLevel,
    mut calls: usize,
    out_of_time: &dyn Fn() -> bool,
) -> (WrapRequest, Finding) {
    let check = finding.check;
    let canary = case.canary.clone();
    let field_count = 3 + request.attributes.len();
    for field in 0..field_count {
        let mut chunk = field_text(&mut request, field)
            .chars()
            .count()
            .div_ceil(2)
            .max(1);
        while chunk >= 1 && calls > 0 && !out_of_time() {
            let mut changed = false;
            let mut at = 0;
            loop {
                let chars: Vec<char> = field_text(&mut request, field).chars().collect();
                if at >= chars.len() || calls == 0 {
                    break;
                }
                let end = (at + chunk).min(chars.len());
                let candidate: String = chars[..at].iter().chain(&chars[end..]).collect();
                // The canary marks where the attacker's text lands; keep it whole.
                if !canary.is_empty()
                    && field_text(&mut request, field).contains(&canary)
                    && !candidate.contains(&canary)
                {
                    at = end;
                    continue;
                }
                let mut trial = request.clone();
                *field_text(&mut trial, field) = candidate;
                calls -= 1;
                match security_findings(case, profile, framing, &trial, level) {
                    Ok(findings) => match findings.into_iter().find(|f| f.check == check) {
                        Some(f) => {
                            request = trial;
                            finding = f;
                            changed = true;
                        }
                        None => at = end,
                    },
                    Err(_) => at = end,
                }
            }
            if !changed {
                if chunk == 1 {
                    break;
                }
                chunk = chunk.div_ceil(2);
            }
        }
    }
    (request, finding)
}

fn field_text(request: &mut WrapRequest, field: usize) -> &mut String {
    match field {
        0 => &mut request.content,
        1 => &mut request.provenance,
        2 => &mut request.kind,
        n => request
            .attributes
            .values_mut()
            .nth(n - 3)
            .expect("field index in range"),
    }
}

fn finding_id(target: &str, request: &WrapRequest) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(serde_json::to_vec(request).unwrap_or_default());
    let hex: String = digest.iter().take(4).map(|b| format!("{b:02x}")).collect();
    format!("search-{target}-{hex}")
}

/// Renders the findings as catalogue files, one per category:
/// `(category, yaml)`. Literal braces are escaped and the canary becomes the
/// `{canary}` placeholder, so the cases load with the rest of the catalogue.
pub fn to_catalogue_files(report: &SearchReport) -> Vec<(Category, String)> {
    let mut by_category: BTreeMap<Category, Vec<&SearchFinding>> = BTreeMap::new();
    for finding in &report.findings {
        by_category
            .entry(finding.category)
            .or_default()
            .push(finding);
    }
    by_category
        .into_iter()
        .map(|(category, findings)| {
            let mut yaml = String::new();
            let _ = writeln!(yaml, "# Found by `framecheck search --target {} --seed {}`.", report.target, report.seed);
            let _ = writeln!(yaml, "schema: framecheck-catalogue/1");
            let _ = writeln!(yaml, "category: {}", category.name());
            let _ = writeln!(
                yaml,
                "description: Failing inputs found by black-box search against {}, shrunk.",
                json(&report.target)
            );
            let _ = writeln!(yaml, "notes:\n  SearchFound:\n    description: Found by framecheck search, not written by hand.");
            let _ = writeln!(yaml, "cases:");
            for finding in findings {
                let templ = |s: &str| {
                    let escaped = s.replace('{', "{{").replace('}', "}}");
                    match &finding.canary {
                        Some(c) => escaped.replace(c.as_str(), "{canary}"),
                        None => escaped,
                    }
                };
                let _ = writeln!(yaml, "  - id: {}", finding.id);
                let _ = writeln!(
                    yaml,
                    "    title: {}",
                    json(&format!("{} via {}", finding.finding.check, finding.operators.join(" + ")))
                );
                let _ = writeln!(yaml, "    why: {}", json(&finding.finding.message));
                let _ = writeln!(yaml, "    references: [CWE-74, OWASP-LLM01:2025]");
                let _ = writeln!(yaml, "    severity: high");
                let _ = writeln!(yaml, "    flags: [SearchFound]");
                let _ = writeln!(yaml, "    op: wrap");
                let _ = writeln!(yaml, "    input:");
                let _ = writeln!(yaml, "      content: {}", json(&templ(&finding.request.content)));
                let _ = writeln!(yaml, "      kind: {}", json(&templ(&finding.request.kind)));
                let _ = writeln!(yaml, "      provenance: {}", json(&templ(&finding.request.provenance)));
                if finding.request.attributes.is_empty() {
                    let _ = writeln!(yaml, "      attributes: {{}}");
                } else {
                    let _ = writeln!(yaml, "      attributes:");
                    for (key, value) in &finding.request.attributes {
                        let _ = writeln!(yaml, "        {}: {}", json(&templ(key)), json(&templ(value)));
                    }
                }
                let requires: Vec<&str> = [
                    (!finding.request.attributes.is_empty(), "attributes"),
                    (finding.canary_fields.contains(&Field::Provenance), "provenance"),
                    (finding.canary_fields.contains(&Field::Kind), "kind"),
                ]
                .iter()
                .filter(|(needed, _)| *needed)
                .map(|(_, name)| *name)
                .collect();
                if !requires.is_empty() {
                    let _ = writeln!(yaml, "    requires: [{}]", requires.join(", "));
                }
                let _ = writeln!(yaml, "    expect: hold");
            }
            (category, yaml)
        })
        .collect()
}

/// A YAML double-quoted scalar: JSON string syntax is valid YAML.
fn json(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".into())
}

/// Markdown summary of a search for the report folder.
pub fn render_markdown(report: &SearchReport) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# framecheck search: {}\n", report.target);
    let _ = writeln!(
        md,
        "Seed {}, level {}, {} mutants tried in {} ms, {} failing, {} target errors, **{} new failure signature(s)**.\n",
        report.seed, report.level, report.mutants_tried, report.duration_ms, report.mutants_failing, report.target_errors,
        report.findings.len()
    );
    let _ = writeln!(
        md,
        "Catalogue failures already known on this target (mutants of these do not count as new): {}\n",
        report.known_failures.len()
    );
    for finding in &report.findings {
        let _ = writeln!(md, "## {}\n", finding.id);
        let _ = writeln!(
            md,
            "- grew from `{}` by {}",
            finding.seed_case,
            finding.operators.join(" + ")
        );
        let _ = writeln!(
            md,
            "- check `{}` at {:?}: {}",
            finding.finding.check, finding.finding.levels, finding.finding.message
        );
        let _ = writeln!(
            md,
            "- shrunk content: `{}`\n",
            finding.request.content.escape_default()
        );
    }
    md
}

/// A small deterministic generator (SplitMix64); no dependency needed.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}
