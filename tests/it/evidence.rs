//! Evidence a reviewer can file: weaknesses grouped from failing cases,
//! the id lock and the aliases baselines map through, and `framecheck
//! verify` reproducing a report.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Output;

use framecheck::catalogue::ids::{self, Alias, IdLock};
use framecheck::catalogue::{self, ConcreteCase, Variant, VariantFamily};
use framecheck::level::ReaderLevel::{self, AsciiCaseInsensitive, Exact, Unicode};
use framecheck::oracle::{Check, CheckClass, Finding};
use framecheck::profile::TargetProfile;
use framecheck::report::{baseline, weakness};
use framecheck::runner::{CaseResult, RunMeta, RunResult};

use crate::common::judged;

fn census(levels: &[ReaderLevel]) -> Finding {
    Finding {
        consumer: Default::default(),
        check: Check::DelimiterCensus,
        class: CheckClass::Security,
        levels: levels.to_vec(),
        message: "a live delimiter".into(),
        excerpt: None,
        in_context: false,
        fault: None,
        live: None,
    }
}

fn run_of(results: Vec<CaseResult>) -> RunResult {
    RunResult {
        meta: RunMeta {
            framecheck_version: "test".into(),
            catalogue_hash: "h".into(),
            target: framecheck::envelope::reference_profile(),
            level: Unicode,
            gate: Default::default(),
            started_unix: 0,
            duration_ms: 0,
            filters: vec![],
            harness_error: None,
            manifest: None,
            layout: None,
            misfit: false,
            unmarked: false,
            passed_on_replay: 0,
            target_fault: None,
        },
        results,
        views: Vec::new(),
    }
}

/// The reference catalogue's variants of one written case.
fn variants_of(base: &str) -> Vec<ConcreteCase> {
    catalogue::instantiate(
        &catalogue::builtin(),
        &framecheck::envelope::reference_profile(),
    )
    .into_iter()
    .filter(|c| c.base_id == base)
    .collect()
}

mod weaknesses {
    use super::*;

    /// A framing that misses every Unicode spelling of its closing tag.
    fn unicode_blind(cases: &[ConcreteCase], exact_fails: bool) -> RunResult {
        run_of(
            cases
                .iter()
                .map(|c| {
                    let fails = c.variant.family() == VariantFamily::Unicode
                        || (exact_fails && c.variant == Variant::Exact);
                    let levels: &[ReaderLevel] = if c.variant == Variant::Exact {
                        &[Exact, AsciiCaseInsensitive, Unicode]
                    } else {
                        &[Unicode]
                    };
                    judged(c.clone(), if fails { vec![census(levels)] } else { vec![] })
                })
                .collect(),
        )
    }

    #[test]
    fn a_family_of_failing_variants_is_one_weakness_with_a_stable_id() {
        let cases = variants_of("breakout-close-mid-content");
        let unicode = cases
            .iter()
            .filter(|c| c.variant.family() == VariantFamily::Unicode)
            .count();
        assert!(unicode > 5, "the case expands into Unicode variants");
        let run = unicode_blind(&cases, false);
        let found = weakness::weaknesses(&run);
        assert_eq!(found.len(), 1, "{found:#?}");
        let w = &found[0];
        assert_eq!(w.id, "delimiter.census/unicode/content/delimiter");
        assert_eq!(w.delimiters, vec![weakness::Role::Close]);
        assert_eq!(w.count, unicode);
        assert_eq!(w.levels, vec![Unicode]);
        // The smallest payload represents it.
        let smallest = run
            .results
            .iter()
            .filter(|r| w.cases.contains(&r.case.id))
            .map(|r| match &r.case.input {
                catalogue::Input::Wrap(w) => w.content.len(),
                catalogue::Input::Read(_) => usize::MAX,
            })
            .min()
            .unwrap();
        let representative = run
            .results
            .iter()
            .find(|r| r.case.id == w.representative)
            .unwrap();
        match &representative.case.input {
            catalogue::Input::Wrap(w) => assert_eq!(w.content.len(), smallest),
            catalogue::Input::Read(_) => panic!("a wrap case"),
        }
        // Order and the number of cases do not change the id.
        let mut shuffled = run.clone();
        shuffled.results.reverse();
        shuffled.results.pop();
        let again = weakness::weaknesses(&shuffled);
        assert_eq!(again[0].id, w.id);
    }

    #[test]
    fn when_the_declared_spelling_fails_too_the_variants_are_not_the_cause() {
        let cases = variants_of("breakout-close-mid-content");
        let found = weakness::weaknesses(&unicode_blind(&cases, true));
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(found[0].id, "delimiter.census/exact/content/delimiter");
        assert_eq!(found[0].levels, vec![Exact, AsciiCaseInsensitive, Unicode]);
    }

    #[test]
    fn families_agree_with_the_levels_and_groups_variants_are_written_with() {
        for variant in Variant::ALL {
            let expected = match variant.min_level() {
                Exact if variant == Variant::Exact => VariantFamily::Exact,
                Exact => VariantFamily::Spacing,
                AsciiCaseInsensitive => VariantFamily::Case,
                Unicode => VariantFamily::Unicode,
            };
            assert_eq!(variant.family(), expected, "{variant:?}");
        }
        for (group, family) in [
            ("case", VariantFamily::Case),
            ("unicode", VariantFamily::Unicode),
        ] {
            let members = catalogue::variant::expand_name(group).unwrap();
            assert!(members.iter().all(|v| v.family() == family), "{group}");
        }
    }

    #[test]
    fn the_role_is_the_delimiter_the_evidence_shows_live() {
        // A forged complete frame carries an opener and a closer; its
        // template names the closer. A framing that neutralises closers only
        // leaves the opener live, and the weakness must say so.
        let case = variants_of("forgery-complete-frame")
            .into_iter()
            .find(|c| c.variant == Variant::Exact)
            .unwrap();
        assert_eq!(case.site.role, Some(catalogue::DelimiterRole::Close));
        let framed = "<framecheck-untrusted>\nx <framecheck-untrusted> y\n</framecheck-untrusted>";
        // The census finding as the oracle makes it: it records the
        // delimiter it found live, and the weakness reads that record.
        let framecheck::catalogue::Input::Wrap(request) = &case.input else {
            panic!("a wrap case")
        };
        let profile = framecheck::envelope::reference_profile();
        let finding = framecheck::oracle::judge_wrap(&case, &profile, request, framed)
            .into_iter()
            .find(|f| f.check == Check::DelimiterCensus && f.excerpt.is_some())
            .expect("the census sees the forged opener");
        let mut result = judged(case.clone(), vec![finding]);
        result.evidence.framed = Some(framed.to_string());
        let found = weakness::weaknesses(&run_of(vec![result.clone()]));
        assert_eq!(found[0].id, "delimiter.census/exact/content/delimiter");
        assert_eq!(found[0].delimiters, vec![weakness::Role::Open]);
        assert!(
            found[0].statement.contains("an opening delimiter live"),
            "{}",
            found[0].statement
        );
        // Without the evidence, the template's role stands.
        let mut bare = judged(case, vec![census(&[Exact, AsciiCaseInsensitive, Unicode])]);
        let found = weakness::weaknesses(&run_of(vec![bare.clone()]));
        assert_eq!(found[0].delimiters, vec![weakness::Role::Close]);
        // One defect that leaves openers live in one case and closers in
        // another is one weakness naming both, not two.
        bare.case.id.push_str("-again");
        let found = weakness::weaknesses(&run_of(vec![result, bare]));
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(
            found[0].delimiters,
            vec![weakness::Role::Close, weakness::Role::Open]
        );
        assert!(
            found[0]
                .statement
                .contains("closing and opening delimiters live"),
            "{}",
            found[0].statement
        );
    }

    #[test]
    fn passing_runs_have_no_weaknesses() {
        let cases = variants_of("breakout-close-mid-content");
        let run = run_of(cases.into_iter().map(|c| judged(c, vec![])).collect());
        assert!(weakness::weaknesses(&run).is_empty());
    }
}

mod id_lock {
    use super::*;

    fn published() -> BTreeSet<String> {
        let root = crate::common::repo();
        let mut profiles = vec![framecheck::envelope::reference_profile().framing];
        for entry in std::fs::read_dir(root.join("targets")).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "yaml") {
                profiles.push(TargetProfile::load(&path).unwrap().profile.framing);
            }
        }
        ids::published_ids(&catalogue::builtin(), &profiles, &profiles[0])
    }

    /// Regenerate with `cargo run -- ids --write` after adding cases; a
    /// removal needs a `retired` line, a rename an `alias` line.
    #[test]
    fn no_published_id_or_variant_disappears() {
        let lock = ids::parse(ids::BUILTIN_LOCK).expect("attacks/ids.lock parses");
        assert!(lock.cases.len() > 1000, "the lock holds the catalogue");
        let missing = ids::check(&lock, &published());
        assert!(
            missing.is_empty(),
            "published ids gone without a `retired` line or an alias in attacks/ids.lock: {missing:#?}"
        );
    }

    #[test]
    fn removal_fails_unless_retired_or_aliased_and_additions_never_fail() {
        let lock = ids::parse("variant exact\ncase a\ncase b~zw\n").unwrap();
        let now: BTreeSet<String> = ["a", "b~zw", "c"].map(String::from).into();
        assert!(ids::check(&lock, &now).is_empty(), "an added id is fine");
        let now: BTreeSet<String> = ["a".to_string()].into();
        assert_eq!(ids::check(&lock, &now).cases, ["b~zw"]);
        let retired = ids::parse("case a\ncase b~zw\nretired b~zw\n").unwrap();
        assert!(ids::check(&retired, &now).is_empty());
        let renamed = ids::parse("case a\ncase b~zw\nalias variant zw zero-width\n").unwrap();
        let now: BTreeSet<String> = ["a", "b~zero-width"].map(String::from).into();
        assert!(ids::check(&renamed, &now).is_empty());
        let gone_variant = ids::parse("variant no-such-variant\n").unwrap();
        assert_eq!(
            ids::check(&gone_variant, &BTreeSet::new()).variants,
            ["no-such-variant"]
        );
        assert!(ids::parse("case\n").is_err());
    }

    #[test]
    fn regenerating_keeps_retired_and_alias_lines() {
        let previous = IdLock {
            retired: ["old".to_string()].into(),
            aliases: vec![Alias::Case {
                old: "x".into(),
                new: "y".into(),
            }],
            ..IdLock::default()
        };
        let current: BTreeSet<String> = ["y".to_string()].into();
        let text = ids::render(&previous, &current);
        let back = ids::parse(&text).unwrap();
        assert_eq!(back.retired, previous.retired);
        assert_eq!(back.aliases, previous.aliases);
        assert_eq!(back.cases, current);
        assert!(back.variants.contains("zero-width"));
    }

    #[test]
    fn a_renamed_variant_keeps_baseline_comparison_working() {
        let renamed = |id: &str, new_variant: &str| {
            let mut case = variants_of("breakout-close-mid-content")
                .into_iter()
                .find(|c| c.id == id)
                .unwrap();
            case.id = format!("{}~{new_variant}", case.base_id);
            case
        };
        let old = run_of(vec![judged(
            renamed("breakout-close-mid-content~zero-width", "zero-width"),
            vec![census(&[Unicode])],
        )]);
        // The variant is renamed `zwsp` in a later catalogue.
        let new = run_of(vec![judged(
            renamed("breakout-close-mid-content~zero-width", "zwsp"),
            vec![census(&[Unicode])],
        )]);
        let plain = baseline::diff(&old, &new, Unicode);
        assert_eq!(
            plain.new_failures.len(),
            1,
            "without the alias: a new failure"
        );
        assert_eq!(plain.removed_cases.len(), 1);
        let aliases = [Alias::Variant {
            old: "zero-width".into(),
            new: "zwsp".into(),
        }];
        let mapped = baseline::diff_with_aliases(&old, &new, Unicode, &aliases);
        assert!(!mapped.is_regression(), "{mapped:#?}");
        assert!(mapped.removed_cases.is_empty());
        assert_eq!(mapped.still_failing.len(), 1);
        assert_eq!(
            mapped.aliased,
            [(
                "breakout-close-mid-content~zero-width".to_string(),
                "breakout-close-mid-content~zwsp".to_string()
            )]
        );
        // And the report says so.
        let text = framecheck::report::markdown::render_with_baseline(&new, Some(&mapped));
        assert!(text.contains("renamed through the aliases"), "{text}");
    }
}

mod verify {
    use super::*;
    use crate::common::framecheck;

    fn report_of(target: &str, out: &Path) -> std::path::PathBuf {
        let output = framecheck(&[
            "run",
            "--target",
            target,
            "--only",
            "breakout-close-*",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        out.join(format!("{target}.json"))
    }

    fn verify(report: &Path) -> Output {
        framecheck(&["verify", report.to_str().unwrap()])
    }

    #[test]
    fn a_report_reproduces_and_a_tampered_one_does_not() {
        let dir = tempfile::tempdir().unwrap();
        for target in ["reference", "reference-subprocess"] {
            let report = report_of(target, dir.path());
            let value: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
            let manifest = &value["manifest"];
            assert_eq!(manifest["profile_hash"].as_str().unwrap().len(), 64);
            assert!(manifest["command_line"].as_array().unwrap().len() > 3);
            assert_eq!(
                manifest["framecheck_commit"],
                framecheck::manifest::COMMIT,
                "the build script recorded the commit"
            );
            let markdown = std::fs::read_to_string(report.with_extension("md")).unwrap();
            assert!(
                markdown.contains("built from commit") && markdown.contains("command line:"),
                "the Markdown report shows the manifest"
            );
            let output = verify(&report);
            let text = String::from_utf8_lossy(&output.stdout);
            assert_eq!(output.status.code(), Some(0), "{target}: {text}");
            assert!(text.contains("reproduced"), "{text}");

            // A recorded verdict the target does not give: not reproduced.
            let mut tampered = value.clone();
            tampered["results"][0]["outcome"] = serde_json::json!({
                "status": "judged",
                "findings": [{
                    "check": "delimiter.census", "class": "security",
                    "levels": ["unicode"], "message": "forged", "excerpt": null
                }]
            });
            let path = dir.path().join(format!("{target}-tampered.json"));
            std::fs::write(&path, serde_json::to_string(&tampered).unwrap()).unwrap();
            let output = verify(&path);
            let text = String::from_utf8_lossy(&output.stdout);
            assert_eq!(output.status.code(), Some(1), "{target}: {text}");
            assert!(text.contains("NOT reproduced"), "{text}");
        }
    }

    /// A report records the profile's directory absolutely, so `verify`
    /// re-runs a subprocess target (its `cwd` relative to the profile) from
    /// any directory; without it (a `--reproducible` report), the
    /// profile's path is resolved from the current directory, as the run
    /// named it.
    #[test]
    fn a_report_is_verified_from_any_directory() {
        let dir = tempfile::tempdir().unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        let report = report_of("reference-subprocess", dir.path());
        let verify_in = |cwd: &Path, report: &Path| {
            crate::common::framecheck_in(cwd, &["verify", report.to_str().unwrap()])
        };
        let output = verify_in(elsewhere.path(), &report);
        let said = crate::common::text(&output);
        assert_eq!(output.status.code(), Some(0), "{said}");
        assert!(said.contains("reproduced"), "{said}");

        let mut value: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
        let recorded = value["manifest"]["profile_dir"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(Path::new(&recorded).is_absolute(), "{recorded}");
        value["manifest"]
            .as_object_mut()
            .unwrap()
            .remove("profile_dir");
        let bare = dir.path().join("without-dir.json");
        std::fs::write(&bare, serde_json::to_string(&value).unwrap()).unwrap();
        let output = verify_in(elsewhere.path(), &bare);
        let said = crate::common::text(&output);
        assert_eq!(output.status.code(), Some(2), "{said}");
        assert!(said.contains("adapter.cwd"), "{said}");
        let output = verify_in(crate::common::repo(), &bare);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{}",
            crate::common::text(&output)
        );
    }

    #[test]
    fn compare_counts_changed_and_missing_verdicts_but_not_new_cases() {
        let cases = variants_of("breakout-close-mid-content");
        let pass = |c: &ConcreteCase| judged(c.clone(), vec![]);
        let recorded = run_of(cases[..3].iter().map(pass).collect());
        let mut rerun = run_of(cases[..4].iter().map(pass).collect());
        let same = framecheck::report::verify::compare(&recorded, &rerun);
        assert!(same.identical());
        assert_eq!((same.compared, same.added.len()), (3, 1));
        rerun.results[1] = judged(cases[1].clone(), vec![census(&[Unicode])]);
        let changed = framecheck::report::verify::compare(&recorded, &rerun);
        assert!(!changed.identical());
        assert_eq!(changed.changed[0].id, cases[1].id);
        assert_eq!(changed.changed[0].level, Unicode);
        rerun.results.remove(0);
        let missing = framecheck::report::verify::compare(&recorded, &rerun);
        assert_eq!(missing.missing, [cases[0].id.clone()]);
    }

    #[test]
    fn a_profile_declares_its_source_and_packages() {
        let yaml = "name: mine\nadapter: { command: [python3, x.py] }\n\
            delimiters: { syntax: xml-tag, token: tool-output }\ncapabilities: [wrap]\n\
            source: { path: src/frame.py, line: 12 }\n\
            packages: [{ name: my-framing, version: \"1.4.2\" }]\n";
        let profile = TargetProfile::parse(yaml).unwrap();
        let source = profile.source.clone().unwrap();
        assert_eq!(
            (source.path.as_str(), source.line),
            ("src/frame.py", Some(12))
        );
        let loaded = framecheck::profile::LoadedProfile {
            profile,
            dir: ".".into(),
        };
        let manifest = framecheck::manifest::collect(&loaded, None, "c", None, vec![]);
        assert_eq!(manifest.target.packages[0].version, "1.4.2");
        let interpreter = manifest.target.interpreter.unwrap();
        assert_eq!(interpreter.program, "python3");
        assert!(!interpreter.version.is_empty());
        let bad = yaml.replace("line: 12", "lines: 12");
        assert!(
            TargetProfile::parse(&bad).is_err(),
            "unknown fields are errors"
        );
    }

    #[test]
    fn a_report_without_a_manifest_is_a_harness_error() {
        let dir = tempfile::tempdir().unwrap();
        let report = report_of("reference", dir.path());
        let mut value: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
        value.as_object_mut().unwrap().remove("manifest");
        std::fs::write(&report, serde_json::to_string(&value).unwrap()).unwrap();
        assert_eq!(verify(&report).status.code(), Some(2));
    }
}
