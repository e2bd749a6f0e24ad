//! Outputs with the canary set aside: which failing cases show the same
//! thing.
//!
//! Each case plants its own canary, so two cases whose framed outputs
//! differ only in it put the same text in front of the model: one output,
//! not two. A framing that strips zero-width characters turns every
//! zero-width variant of a case back into that case; its output is then
//! "the same output as its base case", and the variant shows nothing the
//! base case does not.
//!
//! An output is what the case's evidence holds of what the framing
//! answered: the framed text, the parts of a parts answer, or (for a reader
//! case) the text given and the reader's answer. A case with none of these
//! is its own output. Only outputs the report kept whole are compared: one
//! cut to its two ends for size (`evidence.bounded` in the JSON report) is
//! compared as its ends, which can only make two cases look different.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use framecheck_core::catalogue::Variant;
use framecheck_core::outcome::CaseResult;

/// What stands in for the canary when outputs are compared.
const CANARY: &str = "\u{FFFC}canary\u{FFFC}";

/// The output of `result` with its canary set aside, `None` when the
/// evidence holds no output.
///
/// The answer is written once, from the evidence: a framed output can be
/// the size of the run's largest case, and a copy made only to be replaced
/// would be a second one alive at the same time (issue 56, peak memory).
pub fn output(result: &CaseResult) -> Option<String> {
    let evidence = &result.evidence;
    let text: Cow<'_, str> = match (&evidence.parts, &evidence.framed, &evidence.read_text) {
        (Some(parts), _, _) => Cow::Borrowed(parts),
        (None, Some(framed), _) => Cow::Borrowed(framed),
        (None, None, Some(read)) => {
            let answer = match &evidence.read_body {
                Some(Some(body)) => body.as_str(),
                Some(None) => "\u{FFFC}rejected\u{FFFC}",
                None => "\u{FFFC}not read\u{FFFC}",
            };
            Cow::Owned(format!("{read}\u{FFFC}{answer}"))
        }
        (None, None, None) => return None,
    };
    let canary = &result.case.canary;
    Some(if canary.is_empty() {
        text.into_owned()
    } else {
        text.replace(canary.as_str(), CANARY)
    })
}

/// Each written case's output (its `exact` variant's), by base id, for the
/// base ids in `wanted`: the bases of the variant cases a comparison will
/// ask about. Only those are kept, since each is a copy of an output, and
/// a run whose cases all pass (or fail only as written) needs none.
pub fn base_outputs<'a>(
    results: &'a [CaseResult],
    wanted: &BTreeSet<&str>,
) -> BTreeMap<&'a str, String> {
    results
        .iter()
        .filter(|r| r.case.variant == Variant::Exact)
        .filter(|r| wanted.contains(r.case.base_id.as_str()))
        .filter_map(|r| Some((r.case.base_id.as_str(), output(r)?)))
        .collect()
}

/// The base ids of the variant cases among `cases`: the bases whose
/// outputs [`distinct`] compares them with.
pub fn variant_bases<'a>(cases: impl IntoIterator<Item = &'a CaseResult>) -> BTreeSet<&'a str> {
    cases
        .into_iter()
        .filter(|r| r.case.variant != Variant::Exact)
        .map(|r| r.case.base_id.as_str())
        .collect()
}

/// Among `cases`: how many distinct outputs they show, and the ids of the
/// variants whose output is their base case's (`bases`, from
/// [`base_outputs`] for at least [`variant_bases`] of `cases`), in order.
pub fn distinct(cases: &[&CaseResult], bases: &BTreeMap<&str, String>) -> (usize, Vec<String>) {
    let mut seen: BTreeMap<String, ()> = BTreeMap::new();
    let mut unkept = 0;
    let mut same_as_base = Vec::new();
    for result in cases {
        let Some(text) = output(result) else {
            unkept += 1;
            continue;
        };
        if result.case.variant != Variant::Exact
            && bases.get(result.case.base_id.as_str()) == Some(&text)
        {
            same_as_base.push(result.case.id.clone());
        }
        seen.insert(text, ());
    }
    (seen.len() + unkept, same_as_base)
}

#[cfg(test)]
mod tests {
    use super::*;
    use framecheck_core::outcome::{Evidence, Outcome};

    fn result(id: &str, variant: Variant, canary: &str, framed: &str) -> CaseResult {
        let mut case = framecheck_core::catalogue::instantiate(
            &framecheck_core::catalogue::builtin(),
            &framecheck_envelope::reference_profile(),
        )
        .into_iter()
        .next()
        .expect("a case");
        case.id = id.into();
        case.base_id = id.split('~').next().unwrap_or(id).into();
        case.variant = variant;
        case.canary = canary.into();
        CaseResult {
            case,
            outcome: Outcome::Judged {
                findings: Vec::new(),
            },
            evidence: Evidence {
                framed: Some(framed.into()),
                ..Evidence::default()
            },
            elapsed_us: 0,
        }
    }

    #[test]
    fn outputs_that_differ_only_in_the_canary_are_one() {
        let zw = Variant::ALL
            .into_iter()
            .find(|v| *v != Variant::Exact)
            .expect("a variant");
        let results = [
            result("a", Variant::Exact, "C1", "<t>C1 </t></t>"),
            result("a~v", zw, "C2", "<t>C2 </t></t>"),
            result("b", Variant::Exact, "C3", "<t>C3 </T></t>"),
            result("b~v", zw, "C4", "<t>C4 </T\u{200B}></t>"),
        ];
        let bases = base_outputs(&results, &variant_bases(&results));
        let all: Vec<&CaseResult> = results.iter().collect();
        let (outputs, same) = distinct(&all, &bases);
        assert_eq!(outputs, 3);
        assert_eq!(same, ["a~v"]);
        // Without the canary set aside, every output is distinct.
        let mut kept = results.clone();
        for r in &mut kept {
            r.case.canary.clear();
        }
        let bases = base_outputs(&kept, &variant_bases(&kept));
        let all: Vec<&CaseResult> = kept.iter().collect();
        assert_eq!(distinct(&all, &bases), (4, Vec::<String>::new()));
    }
}
