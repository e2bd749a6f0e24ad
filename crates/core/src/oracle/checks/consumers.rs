//! Several consumers of one output (`reader.consumers`): the model that
//! reads a frame now, the parser that reads it back later. Each consumer's
//! checks judge the same output as a profile naming that consumer alone
//! would ([`crate::profile::ReaderSection::for_consumer`]), and each
//! finding names the consumer it fools. What depends on no consumer (a
//! fidelity finding: the content changed on the way) is reported once,
//! for the first consumer that found it, so two consumers do not count one
//! change twice. A read case hands the framing's reader a text of its own:
//! it is the parser's alone ([`for_reader`]).

use crate::oracle::{CheckClass, Finding};
use crate::profile::{Consumer, TargetProfile};

/// Runs `judge` once for each consumer `profile` declares, model first, on
/// a profile naming that consumer alone, and names the consumer on each
/// finding it returns. A profile with one consumer is judged as it is.
pub fn for_consumers(
    profile: &TargetProfile,
    mut judge: impl FnMut(&TargetProfile) -> Vec<Finding>,
) -> Vec<Finding> {
    let consumers = profile.reader.consumers();
    if let [only] = consumers[..] {
        return named(judge(profile), only);
    }
    let mut all: Vec<Finding> = Vec::new();
    for consumer in consumers {
        let mut alone = profile.clone();
        alone.reader = profile.reader.for_consumer(consumer);
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
    profile: &TargetProfile,
    mut judge: impl FnMut(&TargetProfile) -> Vec<Finding>,
) -> Vec<Finding> {
    let consumers = profile.reader.consumers();
    match consumers[..] {
        [only] => named(judge(profile), only),
        _ => {
            let mut alone = profile.clone();
            alone.reader = profile.reader.for_consumer(Consumer::Parser);
            named(judge(&alone), Consumer::Parser)
        }
    }
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
            assert_eq!(alone, &profile);
            vec![finding(Check::CanaryContainment, CheckClass::Security)]
        });
        assert_eq!(findings[0].consumer, Consumer::Parser);
    }
}
