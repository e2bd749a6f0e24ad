//! Weaknesses: failing cases grouped into the conclusions a reviewer files.
//!
//! A seed-style framing fails hundreds of concrete cases that come down to a
//! handful of defects. A [`Weakness`] is one group: the cases whose primary
//! failed check, variant family, attacked field and attacked role agree.
//!
//! - **check**: the first failed check of the case in [`primary_order`]. A
//!   live forged delimiter is the root of a breakout, so `delimiter.census`
//!   outranks `canary.containment`, which is its consequence.
//! - **family**: [`Variant::family`] of
//!   the case's variant, except that when the written case fails the same
//!   way (same check, field and role) in its declared spelling too, the
//!   spelling is not the cause and the family is `exact`.
//! - **field**: from the case's [`AttackSite`], recorded from its templates.
//! - **role**: for checks that judge delimiter liveness
//!   ([`Check::DelimiterCensus`], [`Check::CanaryContainment`],
//!   [`Check::ReaderVerdict`]) the role is `delimiter`: one defect (a
//!   spelling left unescaped) leaves openers and closers live alike, so
//!   splitting by role would file one defect several times. The weakness
//!   still names which delimiters were live: per case, the one the check
//!   recorded on its finding (`live`, the check's own reading: reports
//!   never scan again), else the one the case's templates forge. For the other checks the role is
//!   what the field is (attribute, header or body), since the delimiter a
//!   payload carries is not what broke them.
//!
//! The id is built from those four keys alone (`delimiter.census/unicode/
//! content/delimiter`), never from counts or order, so the same defect keeps its
//! id from run to run and across targets. Each weakness names its smallest
//! case (fewest payload bytes, then id) as the one to read first.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use framecheck_core::catalogue::{
    AttackSite, ConcreteCase, DelimiterRole, Field, Input, Piece, Severity, Variant, VariantFamily,
};
use framecheck_core::gate::Gate;
use framecheck_core::level::ReaderLevel;
use framecheck_core::oracle::{Check, CheckClass};
use framecheck_launch::outcome::{CaseResult, Outcome, RunResult, Verdict};
use framecheck_launch::profile::Consumer;

use super::outputs;
use super::spelling::{self, Spelling};

/// The order in which a failing case's checks are considered for its
/// primary check: root causes before their consequences, security before
/// fidelity, the classes reported apart last: they are only considered
/// where the run's gate makes them fail (`--strict`). Each check's place is
/// its `primary_rank` in `framecheck_core::oracle::check_table`.
pub fn primary_order() -> [Check; Check::ALL.len()] {
    let mut order = Check::ALL;
    order.sort_by_key(|c| c.row().primary_rank);
    order
}

/// Where the payload of a weakness's cases sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Surface {
    /// The content.
    Content,
    /// The kind.
    Kind,
    /// An attribute key or value.
    Attributes,
    /// The provenance line.
    Provenance,
    /// A text handed to the reader.
    ReaderInput,
}

impl Surface {
    /// The stable name, used in ids.
    pub fn name(self) -> &'static str {
        match self {
            Surface::Content => "content",
            Surface::Kind => "kind",
            Surface::Attributes => "attributes",
            Surface::Provenance => "provenance",
            Surface::ReaderInput => "reader-input",
        }
    }

    fn of(field: Option<Field>) -> Surface {
        match field {
            Some(Field::Content) => Surface::Content,
            Some(Field::Kind) => Surface::Kind,
            Some(Field::Attributes) => Surface::Attributes,
            Some(Field::Provenance) => Surface::Provenance,
            None => Surface::ReaderInput,
        }
    }

    fn phrase(self) -> &'static str {
        match self {
            Surface::Content => "in the content",
            Surface::Kind => "in the kind",
            Surface::Attributes => "in an attribute",
            Surface::Provenance => "in the provenance",
            Surface::ReaderInput => "in a text given to the reader",
        }
    }
}

/// What part of the frame a weakness's cases attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    /// The closing delimiter.
    Close,
    /// The opening delimiter.
    Open,
    /// The inner element's delimiters.
    Inner,
    /// A reserved element.
    Reserved,
    /// The attribute syntax of the tag.
    Attribute,
    /// The header lines.
    Header,
    /// The body itself (fidelity, readers).
    Body,
    /// Any of the frame's delimiters: the grouping role of liveness checks,
    /// whose weakness lists the specific ones (close, open, inner, reserved).
    Delimiter,
}

impl Role {
    /// The stable name, used in ids.
    pub fn name(self) -> &'static str {
        match self {
            Role::Close => "close",
            Role::Open => "open",
            Role::Inner => "inner",
            Role::Reserved => "reserved",
            Role::Attribute => "attribute",
            Role::Header => "header",
            Role::Body => "body",
            Role::Delimiter => "delimiter",
        }
    }

    fn of(site: AttackSite, check: Check, observed: Option<DelimiterRole>) -> Role {
        let liveness = matches!(
            check,
            Check::DelimiterCensus | Check::CanaryContainment | Check::ReaderVerdict
        );
        let role = observed.or(site.role);
        match (liveness.then_some(role).flatten(), site.field) {
            (Some(DelimiterRole::Close), _) => Role::Close,
            (Some(DelimiterRole::Open), _) => Role::Open,
            (Some(DelimiterRole::Inner), _) => Role::Inner,
            (Some(DelimiterRole::Reserved), _) => Role::Reserved,
            (None, Some(Field::Attributes)) => Role::Attribute,
            (None, Some(Field::Provenance | Field::Kind)) => Role::Header,
            (None, _) => Role::Body,
        }
    }

    fn phrase(self) -> &'static str {
        match self {
            Role::Close => "a closing delimiter",
            Role::Open => "an opening delimiter",
            Role::Inner => "an inner-element delimiter",
            Role::Reserved => "a reserved-element delimiter",
            Role::Attribute | Role::Header | Role::Body | Role::Delimiter => "text",
        }
    }

    /// The role a weakness is grouped by: the four delimiter roles are one.
    fn grouped(self) -> Role {
        match self {
            Role::Close | Role::Open | Role::Inner | Role::Reserved => Role::Delimiter,
            other => other,
        }
    }

    /// The delimiter's adjective, for a list of several.
    fn adjective(self) -> &'static str {
        match self {
            Role::Close => "closing",
            Role::Open => "opening",
            Role::Inner => "inner-element",
            Role::Reserved => "reserved-element",
            _ => "",
        }
    }
}

/// "a closing delimiter", or "closing and opening delimiters".
fn delimiters_phrase(roles: &[Role]) -> String {
    match roles {
        [] => "a delimiter".to_string(),
        [one] => one.phrase().to_string(),
        [init @ .., last] => {
            let init: Vec<&str> = init.iter().map(|r| r.adjective()).collect();
            format!("{} and {} delimiters", init.join(", "), last.adjective())
        }
    }
}

/// The grouping key of a weakness; its id is spelled from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct WeaknessKey {
    /// The primary failed check.
    pub check: Check,
    /// The variant family that made the cases fail.
    pub family: VariantFamily,
    /// Where the payload sits.
    pub surface: Surface,
    /// What it attacks.
    pub role: Role,
    /// A `template.control` group whose spellings read as a control string
    /// only when folded, and as no control token ([`Spelling::Folded`]):
    /// reported at its folding level (the family), not counted.
    pub folded: bool,
}

impl WeaknessKey {
    /// The stable id: `<check>/<family>/<surface>/<role>`, and `/folded`
    /// after it for a folded spelling.
    pub fn id(&self) -> String {
        format!(
            "{}/{}/{}/{}{}",
            self.check.name(),
            self.family.name(),
            self.surface.name(),
            self.role.name(),
            if self.folded { "/folded" } else { "" }
        )
    }

    /// One line saying what is wrong, from the key and, for the delimiter
    /// role, the delimiters seen live.
    pub fn statement(&self, delimiters: &[Role]) -> String {
        let spelling = match (self.family, self.folded) {
            (VariantFamily::Case, true) => "case-folded (the ascii-case-insensitive level)",
            (VariantFamily::Unicode, true) => {
                "folded as Unicode (invisible, compatibility or lookalike characters, or \
                 Unicode line breaks: the unicode level)"
            }
            (VariantFamily::Exact, _) => "as declared",
            (VariantFamily::Spacing, _) => "spelled with spaces",
            (VariantFamily::Case, _) => "spelled in another ASCII case",
            (VariantFamily::Unicode, _) => {
                "respelled in Unicode (invisible, compatibility or lookalike characters)"
            }
        };
        let surface = self.surface.phrase();
        match self.role {
            Role::Close | Role::Open | Role::Inner | Role::Reserved | Role::Delimiter => {
                let role = match self.role {
                    Role::Delimiter => delimiters_phrase(delimiters),
                    one => one.phrase().to_string(),
                };
                let is = if delimiters.len() > 1 { "are" } else { "is" };
                match self.check {
                    Check::ReaderVerdict => format!(
                        "The reader accepts a body in which {role} {is} live, from delimiters \
                         {spelling} {surface}."
                    ),
                    Check::CanaryContainment => format!(
                        "Delimiters {spelling} {surface} let planted text escape its region \
                         ({role} {is} taken as real)."
                    ),
                    _ => format!(
                        "Delimiters {spelling} {surface} leave {role} live in the framed output."
                    ),
                }
            }
            Role::Attribute | Role::Header | Role::Body if self.folded => {
                let views: Vec<&str> = spelling::asked_views().iter().map(|v| v.name()).collect();
                format!(
                    "Text {surface} reads as a chat-template control string or turn marker only \
                     when {spelling}; no tokenizer view asked ({}) turns it into a control token.",
                    views.join(", ")
                )
            }
            Role::Attribute | Role::Header | Role::Body => {
                let effect = self.check.row().effect;
                format!("Text {surface} {effect}.")
            }
        }
    }
}

/// One weakness of a run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Weakness {
    /// Stable id, derived from the key.
    pub id: String,
    /// The primary failed check.
    pub check: Check,
    /// Security, fidelity, or a class reported apart (outer-layer).
    pub class: CheckClass,
    /// Whether it counts as a weakness: false for a `template.control`
    /// group of folded spellings ([`Spelling::Folded`]), reported at its
    /// folding level apart from the weaknesses.
    pub counted: bool,
    /// Whether its cases fail under the run's gate. An outer-layer
    /// weakness under the default gate is reported, not failing (unless the
    /// target's declared context makes it fail).
    pub fails: bool,
    /// The variant family.
    pub family: VariantFamily,
    /// Where the payload sits.
    pub field: Surface,
    /// What it attacks.
    pub role: Role,
    /// For the `delimiter` role, the delimiters seen live (close, open,
    /// inner, reserved); empty otherwise.
    pub delimiters: Vec<Role>,
    /// One line saying what is wrong.
    pub statement: String,
    /// The id of the smallest case (fewest payload bytes, then id).
    pub representative: String,
    /// The highest severity among the cases.
    pub severity: Severity,
    /// Number of cases.
    pub count: usize,
    /// Number of distinct outputs among them, each case's canary set aside
    /// ([`super::outputs`]): cases whose outputs differ only in their
    /// canary show the model one thing.
    pub outputs: usize,
    /// The variant cases whose output, canary set aside, is their base
    /// case's: the framing normalised the variant away, so it shows nothing
    /// its base case does not.
    pub same_as_base: Vec<String>,
    /// The reader levels the primary check fails at, over all the cases;
    /// empty for fidelity weaknesses, which hold at every level.
    pub levels: Vec<ReaderLevel>,
    /// The variants seen, in canonical order.
    pub variants: Vec<Variant>,
    /// Every case id, in run order.
    pub cases: Vec<String>,
    /// The consumer of the output its findings fool (`reader.consumers`);
    /// with several, its id ends in the consumer's name.
    pub consumer: Consumer,
}

impl Weakness {
    /// A title in a reviewer's words, led by what passes and where ("Fullwidth
    /// spellings of the closing delimiter in the content are left live"); the
    /// id and the statement stay for machines and for detail.
    pub fn title(&self) -> String {
        let surface = self.field.phrase();
        let title = match self.role {
            Role::Close | Role::Open | Role::Inner | Role::Reserved | Role::Delimiter => {
                let (what, plural) = the_delimiters(&self.delimiters);
                match self.family {
                    VariantFamily::Exact => {
                        let is = if plural { "are" } else { "is" };
                        format!("{what} {surface} {is} written through as declared")
                    }
                    _ => format!(
                        "{} spellings of {what} {surface} are left live",
                        spellings_phrase(&self.variants)
                    ),
                }
            }
            // A folded group's spellings are folded forms of the written
            // case, not catalogue variants: the family names the fold.
            Role::Attribute | Role::Header | Role::Body if !self.counted => format!(
                "{}-folded spellings of a chat-template control string {surface} pass (read as \
                 no control token)",
                match self.family {
                    VariantFamily::Case => "case",
                    _ => "Unicode",
                }
            ),
            Role::Attribute | Role::Header | Role::Body => {
                format!("text {surface} {}", self.check.row().effect)
            }
        };
        capitalised(&title)
    }
}

/// "the closing delimiter", or "the opening and closing delimiters", and
/// whether that is more than one.
fn the_delimiters(roles: &[Role]) -> (String, bool) {
    let adjectives: Vec<&str> = roles.iter().map(|r| r.adjective()).collect();
    match adjectives[..] {
        [] => ("a delimiter".to_string(), false),
        [one] => (format!("the {one} delimiter"), false),
        [ref init @ .., last] => (
            format!("the {} and {last} delimiters", init.join(", ")),
            true,
        ),
    }
}

/// The variants by name in plain words: two named, the rest counted.
fn spellings_phrase(variants: &[Variant]) -> String {
    let plain: Vec<&str> = variants.iter().map(|v| v.plain()).collect();
    match plain[..] {
        [] => "respelled".to_string(),
        [one] => one.to_string(),
        [one, two] => format!("{one} and {two}"),
        [one, two, ref rest @ ..] => format!("{one}, {two} and {} other", rest.len()),
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// The primary failed check of a case at `level` under `gate`, if it fails
/// there. Findings the gate does not fail on are not considered.
pub fn primary_check(result: &CaseResult, level: ReaderLevel, gate: Gate) -> Option<Check> {
    if !matches!(
        result.verdict(level, gate),
        Verdict::Fail | Verdict::FidelityFail
    ) {
        return None;
    }
    if let Outcome::Refused { .. } = result.outcome {
        return Some(Check::Fidelity);
    }
    let found: BTreeSet<Check> = result
        .findings_at(level)
        .iter()
        .filter(|f| f.class == CheckClass::Fidelity || gate.fails(f))
        .map(|f| f.check)
        .collect();
    Some(
        primary_order()
            .into_iter()
            .find(|c| found.contains(c))
            .unwrap_or(Check::Fidelity),
    )
}

/// The checks of a case's findings at `level` whose class forms a weakness
/// whatever the case's verdict: an outer-layer finding joins the
/// `template.control` weakness and a host-framed one the `frame.absent`
/// weakness, so the class is reported even where the gate does not fail on
/// it.
fn reported_whatever_the_gate(result: &CaseResult, level: ReaderLevel) -> BTreeSet<Check> {
    result
        .findings_at(level)
        .iter()
        .filter(|f| matches!(f.class, CheckClass::OuterLayer | CheckClass::HostFramed))
        .map(|f| f.check)
        .collect()
}

/// The lowest folding level of a case whose `template.control` findings at
/// `level` are all folded spellings ([`Spelling::Folded`]); `None` when one
/// of them is read as it is written (or a view reads it as a control
/// token), or there is none.
fn folded_level(result: &CaseResult, level: ReaderLevel) -> Option<ReaderLevel> {
    let mut lowest: Option<ReaderLevel> = None;
    for finding in result.findings_at(level) {
        if finding.check != Check::TemplateControl {
            continue;
        }
        match spelling::spelling(result, finding) {
            Spelling::Read => return None,
            Spelling::Folded(l) => lowest = Some(lowest.map_or(l, |low| low.min(l))),
        }
    }
    lowest
}

/// The variant family a folding level stands for, in a folded weakness's
/// id: what the level folds.
fn folding_family(level: ReaderLevel) -> VariantFamily {
    match level {
        ReaderLevel::Exact => VariantFamily::Exact,
        ReaderLevel::AsciiCaseInsensitive => VariantFamily::Case,
        ReaderLevel::Unicode => VariantFamily::Unicode,
    }
}

/// The delimiter that was actually live, for a `delimiter.census` or
/// `reader.verdict` finding: the one the check recorded on the finding
/// ([`framecheck_core::oracle::live::LiveEvidence`]). A case can carry several
/// delimiters (a forged frame has an opener and a closer) and the framing
/// may neutralise some of them, so the template alone cannot say which one
/// broke the frame, and a weakness's statement must be true. `None` when
/// the finding records none (then the template's role is used).
fn observed_role(result: &CaseResult, check: Check, level: ReaderLevel) -> Option<DelimiterRole> {
    if !matches!(check, Check::DelimiterCensus | Check::ReaderVerdict) {
        return None;
    }
    let finding = result
        .findings_at(level)
        .into_iter()
        .find(|f| f.check == check)?;
    Some(finding.live?.role)
}

/// The payload size of a case, in bytes: what "smallest" means.
fn payload_len(case: &ConcreteCase) -> usize {
    match &case.input {
        Input::Wrap(request) => request.input_len(),
        Input::Read(pieces) => pieces
            .iter()
            .map(|p| match p {
                Piece::Literal(text) => text.len(),
                _ => 0,
            })
            .sum(),
    }
}

/// The weaknesses of `run` at its level: counted ones first (folded
/// spellings last), security first, then by severity, then by count
/// (largest first), then by id. Outer-layer and host-framed findings form
/// weaknesses of their own class whether or not the gate fails them.
pub fn weaknesses(run: &RunResult) -> Vec<Weakness> {
    let consumers = run.meta.target.reader.consumers();
    if let [only] = consumers[..] {
        return weaknesses_of(run, &run.results, only, false);
    }
    // Several consumers of one output: each consumer's weaknesses come from
    // the findings that name it, so a case that fools the model and not the
    // parser is a model weakness only. A refusal names no consumer: the
    // framing refused, whoever reads, so it is the first consumer's alone
    // (as a fidelity finding both see is, `oracle::for_consumers`).
    let mut all = Vec::new();
    for (n, &consumer) in consumers.iter().enumerate() {
        let results: Vec<CaseResult> = run
            .results
            .iter()
            .filter(|r| n == 0 || matches!(r.outcome, Outcome::Judged { .. }))
            .map(|r| r.for_consumer(consumer))
            .collect();
        all.extend(weaknesses_of(run, &results, consumer, true));
    }
    sorted(all)
}

/// The weaknesses `results` show, all fooling `consumer`; `named` puts the
/// consumer in each id, where a run has several.
fn weaknesses_of(
    run: &RunResult,
    results: &[CaseResult],
    consumer: Consumer,
    named: bool,
) -> Vec<Weakness> {
    let level = run.meta.level;
    let gate = run.meta.gate;
    let key_of = |result: &CaseResult, check: Check| {
        let folded = (check == Check::TemplateControl)
            .then(|| folded_level(result, level))
            .flatten();
        WeaknessKey {
            check,
            family: folded.map_or(result.case.variant.family(), folding_family),
            surface: Surface::of(result.case.site.field),
            role: Role::of(result.case.site, check, observed_role(result, check, level)),
            folded: folded.is_some(),
        }
    };
    // Each failing case's key, with the family still its variant's own,
    // then each case's outer-layer or host-framed key when that was not
    // its primary.
    // The specific delimiter role of each (case, check), before grouping.
    let mut keyed: Vec<(WeaknessKey, &CaseResult)> = Vec::new();
    let mut seen: BTreeMap<(&str, Check), Role> = BTreeMap::new();
    for result in results {
        let primary = primary_check(result, level, gate);
        let apart = reported_whatever_the_gate(result, level);
        for check in primary
            .into_iter()
            .chain(apart.into_iter().filter(|&c| Some(c) != primary))
        {
            let mut key = key_of(result, check);
            seen.insert((result.case.id.as_str(), check), key.role);
            key.role = key.role.grouped();
            keyed.push((key, result));
        }
    }
    let bases = outputs::base_outputs(
        results,
        &outputs::variant_bases(keyed.iter().map(|(_, r)| *r)),
    );
    let out: Vec<Weakness> = grouped(keyed)
        .into_iter()
        .map(|(key, cases)| {
            let delimiters: BTreeSet<Role> = cases
                .iter()
                .filter_map(|r| seen.get(&(r.case.id.as_str(), key.check)))
                .filter(|role| key.role == Role::Delimiter && role.grouped() == Role::Delimiter)
                .copied()
                .collect();
            let delimiters: Vec<Role> = delimiters.into_iter().collect();
            let mut weakness = build(key, &cases, &delimiters, level, gate);
            (weakness.outputs, weakness.same_as_base) = outputs::distinct(&cases, &bases);
            weakness.consumer = consumer;
            if named {
                weakness.id = format!("{}/{}", weakness.id, consumer.name());
            }
            weakness
        })
        .collect();
    sorted(out)
}

/// The keyed cases grouped by key. The declared spelling's own key, per
/// written case, decides a variant's family: a variant that fails the same
/// way as its exact spelling is not failing because of its spelling.
fn grouped(keyed: Vec<(WeaknessKey, &CaseResult)>) -> BTreeMap<WeaknessKey, Vec<&CaseResult>> {
    let exact: BTreeMap<&str, WeaknessKey> = keyed
        .iter()
        .filter(|(_, r)| r.case.variant == Variant::Exact)
        .map(|(key, r)| (r.case.base_id.as_str(), *key))
        .collect();
    let mut groups: BTreeMap<WeaknessKey, Vec<&CaseResult>> = BTreeMap::new();
    for (mut key, result) in keyed {
        if exact.get(result.case.base_id.as_str())
            == Some(&WeaknessKey {
                family: VariantFamily::Exact,
                ..key
            })
        {
            key.family = VariantFamily::Exact;
        }
        groups.entry(key).or_default().push(result);
    }
    groups
}

/// Counted weaknesses first, then by class, severity (highest first),
/// number of cases (most first) and id.
fn sorted(mut out: Vec<Weakness>) -> Vec<Weakness> {
    out.sort_by(|a, b| {
        (
            !a.counted,
            a.class,
            std::cmp::Reverse(a.severity),
            std::cmp::Reverse(a.count),
            &a.id,
        )
            .cmp(&(
                !b.counted,
                b.class,
                std::cmp::Reverse(b.severity),
                std::cmp::Reverse(b.count),
                &b.id,
            ))
    });
    out
}

fn build(
    key: WeaknessKey,
    cases: &[&CaseResult],
    delimiters: &[Role],
    level: ReaderLevel,
    gate: Gate,
) -> Weakness {
    let mut levels = BTreeSet::new();
    // A refusal has no finding: it is a fidelity failure.
    let mut class = None;
    let mut fails = false;
    for result in cases {
        for finding in result.findings_at(level) {
            if finding.check == key.check {
                levels.extend(finding.levels.iter().copied());
                class = Some(class.map_or(finding.class, |c: CheckClass| c.min(finding.class)));
                fails |= finding.class == CheckClass::Fidelity || gate.fails(finding);
            }
        }
    }
    let class = class.unwrap_or(CheckClass::Fidelity);
    fails |= class == CheckClass::Fidelity;
    let representative = cases
        .iter()
        .min_by(|a, b| (payload_len(&a.case), &a.case.id).cmp(&(payload_len(&b.case), &b.case.id)))
        .map(|r| r.case.id.clone())
        .unwrap_or_default();
    let variants: BTreeSet<Variant> = cases.iter().map(|r| r.case.variant).collect();
    let mut variants: Vec<Variant> = variants.into_iter().collect();
    variants.sort_by_key(|v| Variant::ALL.iter().position(|x| x == v));
    Weakness {
        id: key.id(),
        check: key.check,
        class,
        counted: !key.folded,
        fails,
        family: key.family,
        field: key.surface,
        role: key.role,
        delimiters: delimiters.to_vec(),
        statement: key.statement(delimiters),
        representative,
        severity: cases
            .iter()
            .map(|r| r.case.severity)
            .max()
            .unwrap_or(Severity::Info),
        count: cases.len(),
        outputs: 0,
        same_as_base: Vec::new(),
        levels: levels.into_iter().collect(),
        variants,
        cases: cases.iter().map(|r| r.case.id.clone()).collect(),
        consumer: Consumer::default(),
    }
}

/// The levels of a weakness in words, for the human formats.
pub fn levels_text(weakness: &Weakness) -> String {
    if weakness.levels.is_empty() {
        return "every level".to_string();
    }
    weakness
        .levels
        .iter()
        .map(|l| l.name())
        .collect::<Vec<_>>()
        .join(", ")
}
