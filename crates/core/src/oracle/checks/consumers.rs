//! Several consumers of one output (`reader.consumers`): the model that
//! reads a frame now, the parser that reads it back later. Each consumer's
//! checks judge the same output as a profile naming that consumer alone
//! would ([`crate::profile::ReaderSection::for_consumer`]), and each
//! finding names the consumer it fools. What depends on no consumer (a
//! fidelity finding: the content changed on the way) is reported once,
//! for the first consumer that found it, so two consumers do not count one
//! change twice. A read case hands the framing's reader a text of its own:
//! it is the parser's alone ([`for_reader`]). A check that runs once on
//! the output as written, for every consumer at once (parts, an absent
//! frame, a target fault, a harvested nonce replayed, the nonce probes),
//! has its findings handed to the consumers they concern ([`as_written`]).

use crate::level::ReaderLevel;
use crate::oracle::{CheckClass, Finding};
use crate::profile::{Consumer, ResolvedProfile};

/// Runs `judge` once for each consumer `profile` declares, model first, on
/// a profile naming that consumer alone, and names the consumer on each
/// finding it returns. A profile with one consumer is judged as it is.
pub fn for_consumers(
    profile: &ResolvedProfile,
    mut judge: impl FnMut(&ResolvedProfile) -> Vec<Finding>,
) -> Vec<Finding> {
    let consumers = profile.reader.consumers();
    if let [only] = consumers[..] {
        return named(judge(profile), only);
    }
    let mut all: Vec<Finding> = Vec::new();
    for consumer in consumers {
        let alone = profile.for_consumer(consumer);
        for finding in named(judge(&alone), consumer) {
            let repeated = finding.class != CheckClass::Security
                && all.iter().any(|kept| same_but_consumer(kept, &finding));
            if !repeated {
                all.push(finding);
            }
        }
    }
    all
}

/// Runs `judge` for the consumer that is the framing's reader, for a case
/// that hands the reader a text of its own (a read case): with several
/// consumers that is the parser, the one that reads the frame back; with
/// one, the profile as it is.
pub fn for_reader(
    profile: &ResolvedProfile,
    mut judge: impl FnMut(&ResolvedProfile) -> Vec<Finding>,
) -> Vec<Finding> {
    let consumers = profile.reader.consumers();
    match consumers[..] {
        [only] => named(judge(profile), only),
        _ => {
            let alone = profile.for_consumer(Consumer::Parser);
            named(judge(&alone), Consumer::Parser)
        }
    }
}

/// The findings of a check that judged the output as written once, for
/// every consumer of `profile` (with the profile's own reading), each
/// handed to the consumers it concerns, in the profile's order:
///
/// - a parser that answers with segments is observed, not modelled: its
///   own answers are the evidence of whether it is fooled, so it gets only
///   what [`super::observed_parser_owns`] keeps (as
///   [`super::parser_answered`] keeps from its wraps' findings): no
///   finding of a check that reads the text, and no security finding of a
///   check that did not judge its answer (a `parts.structure` finding is
///   about the messages the model reads);
/// - a parser reads bytes exactly: a security finding judged for another
///   consumer is the parser's only where it holds at the exact level, and
///   then at every level (as a parser's own checks report it);
/// - a finding of another class (a fault, a fidelity finding) is the
///   framing's, whoever reads it: reported once, for the first consumer
///   it concerns, as [`for_consumers`] reports one.
///
/// A finding no declared consumer is concerned by is dropped: the
/// evidence shows every consumer unfooled by it.
pub fn as_written(profile: &ResolvedProfile, findings: Vec<Finding>) -> Vec<Finding> {
    let consumers = profile.reader.consumers();
    let mut out = Vec::new();
    for finding in findings {
        for &consumer in &consumers {
            if let Some(own) = concerns(profile, consumer, &finding) {
                out.push(own);
                if finding.class != CheckClass::Security {
                    break;
                }
            }
        }
    }
    out
}

/// `finding`, judged once on the output as written, as `consumer`'s own
/// ([`as_written`]); `None` when it does not concern that consumer.
fn concerns(profile: &ResolvedProfile, consumer: Consumer, finding: &Finding) -> Option<Finding> {
    let mut own = Finding {
        consumer,
        ..finding.clone()
    };
    if consumer != Consumer::Parser {
        return Some(own);
    }
    if super::structure::parser_observed(profile) && !super::observed_parser_owns(finding) {
        return None;
    }
    if finding.class == CheckClass::Security {
        if !finding.levels.contains(&ReaderLevel::Exact) {
            return None;
        }
        own.levels = ReaderLevel::ALL.to_vec();
    }
    Some(own)
}

/// `findings`, each naming `consumer`.
fn named(mut findings: Vec<Finding>, consumer: Consumer) -> Vec<Finding> {
    for finding in &mut findings {
        finding.consumer = consumer;
    }
    findings
}

/// Whether two findings say the same thing, whoever they name.
fn same_but_consumer(a: &Finding, b: &Finding) -> bool {
    Finding {
        consumer: b.consumer,
        ..a.clone()
    } == *b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::ReaderLevel;
    use crate::oracle::Check;
    use crate::profile::TestTarget as TargetProfile;

    fn finding(check: Check, class: CheckClass) -> Finding {
        Finding {
            consumer: Consumer::Model,
            check,
            class,
            levels: vec![ReaderLevel::Exact],
            message: "m".into(),
            excerpt: None,
            in_context: false,
            fault: None,
            live: None,
        }
    }

    fn with_reader(reader: &str) -> TargetProfile {
        let reference = include_str!("../../../../../targets/reference.yaml");
        TargetProfile::parse(&format!("{reference}\nreader: {reader}\n")).unwrap()
    }

    /// Each consumer is judged alone, and its findings name it; a fidelity
    /// finding both consumers see is reported once, a security one for each.
    #[test]
    fn each_consumer_is_judged_alone_and_named() {
        let profile = with_reader("{ consumers: [model, parser] }");
        let mut seen = Vec::new();
        let findings = for_consumers(&profile, |alone| {
            seen.push(alone.reader.consumers());
            vec![
                finding(Check::DelimiterCensus, CheckClass::Security),
                finding(Check::Fidelity, CheckClass::Fidelity),
            ]
        });
        assert_eq!(seen, [vec![Consumer::Model], vec![Consumer::Parser]]);
        let named: Vec<(Check, Consumer)> =
            findings.iter().map(|f| (f.check, f.consumer)).collect();
        assert_eq!(
            named,
            [
                (Check::DelimiterCensus, Consumer::Model),
                (Check::Fidelity, Consumer::Model),
                (Check::DelimiterCensus, Consumer::Parser),
            ]
        );
    }

    /// A read case is the reader's: with several consumers, the parser's
    /// alone.
    #[test]
    fn a_read_case_is_judged_for_the_parser() {
        let profile = with_reader("{ consumers: [model, parser] }");
        let findings = for_reader(&profile, |alone| {
            assert_eq!(alone.reader.consumers(), [Consumer::Parser]);
            vec![finding(Check::ReaderVerdict, CheckClass::Security)]
        });
        assert_eq!(findings.len(), 1);
        assert_eq!(findings[0].consumer, Consumer::Parser);
    }

    /// One consumer: the profile as it is, its findings naming it.
    #[test]
    fn one_consumer_is_the_profile_itself() {
        let profile = with_reader("{ consumer: parser }");
        let findings = for_consumers(&profile, |alone| {
            assert_eq!(alone, &profile.framing);
            vec![finding(Check::CanaryContainment, CheckClass::Security)]
        });
        assert_eq!(findings[0].consumer, Consumer::Parser);
    }

    fn at(check: Check, class: CheckClass, levels: &[ReaderLevel]) -> Finding {
        Finding {
            levels: levels.to_vec(),
            ..finding(check, class)
        }
    }

    fn named_checks(findings: &[Finding]) -> Vec<(Check, Consumer, Vec<ReaderLevel>)> {
        findings
            .iter()
            .map(|f| (f.check, f.consumer, f.levels.clone()))
            .collect()
    }

    /// A finding judged once on the output as written goes to each
    /// consumer it concerns: a parser that answers with segments is
    /// observed, so neither a text check's finding nor a security finding
    /// about the parts the model reads is its, and a target fault is
    /// reported once, for the first consumer.
    #[test]
    fn once_judged_findings_skip_an_observed_parser() {
        use ReaderLevel::{Exact, Unicode};
        let profile = with_reader("{ returns: segments, consumers: [model, parser] }")
            .edit(|p| {
                p.capabilities = vec![
                    crate::profile::Capability::Wrap,
                    crate::profile::Capability::Read,
                ];
            })
            .unwrap();
        let replay = at(Check::NonceReplay, CheckClass::Security, &[Exact]);
        let parts = at(Check::PartsStructure, CheckClass::Security, &[Exact]);
        let fault = at(Check::TargetFault, CheckClass::Fault, &ReaderLevel::ALL);
        let found = as_written(&profile, vec![replay.clone(), parts, fault]);
        assert_eq!(
            named_checks(&found),
            [
                (Check::NonceReplay, Consumer::Model, vec![Exact]),
                (Check::PartsStructure, Consumer::Model, vec![Exact]),
                (
                    Check::TargetFault,
                    Consumer::Model,
                    ReaderLevel::ALL.to_vec()
                ),
            ]
        );
        // The parser alone, observed: neither the replay nor the parts
        // finding is its; a fault is the framing's, whoever reads it.
        let alone = with_reader("{ returns: segments, consumer: parser }")
            .edit(|p| {
                p.capabilities = profile.capabilities.clone();
            })
            .unwrap();
        let parts = at(Check::PartsStructure, CheckClass::Security, &[Exact]);
        let fault = at(Check::TargetFault, CheckClass::Fault, &ReaderLevel::ALL);
        let found = as_written(&alone, vec![replay, parts, fault]);
        assert_eq!(
            named_checks(&found),
            [(
                Check::TargetFault,
                Consumer::Parser,
                ReaderLevel::ALL.to_vec()
            )]
        );
        // Without the read capability nothing observes the parser.
        let unread = with_reader("{ returns: segments, consumer: parser }")
            .edit(|p| {
                p.capabilities = vec![crate::profile::Capability::Wrap];
            })
            .unwrap();
        let replay = at(Check::NonceReplay, CheckClass::Security, &[Exact, Unicode]);
        assert_eq!(as_written(&unread, vec![replay]).len(), 1);
    }

    /// A modelled parser reads bytes exactly: a finding judged for the
    /// model is the parser's too only where it holds at the exact level.
    #[test]
    fn once_judged_findings_reach_a_modelled_parser_at_the_exact_level() {
        use ReaderLevel::{Exact, Unicode};
        let profile = with_reader("{ returns: content, consumers: [model, parser] }");
        let exact = at(Check::NonceReplay, CheckClass::Security, &[Exact, Unicode]);
        let folded = at(Check::FrameAbsent, CheckClass::Security, &[Unicode]);
        let found = as_written(&profile, vec![exact, folded]);
        assert_eq!(
            named_checks(&found),
            [
                (Check::NonceReplay, Consumer::Model, vec![Exact, Unicode]),
                (
                    Check::NonceReplay,
                    Consumer::Parser,
                    ReaderLevel::ALL.to_vec()
                ),
                (Check::FrameAbsent, Consumer::Model, vec![Unicode]),
            ]
        );
    }
}
