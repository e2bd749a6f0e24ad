//! The attack catalogue: the shipped files, the loader's errors, and
//! instantiation for three differently shaped targets.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use framecheck_core::catalogue::template::Placeholder;
use framecheck_core::catalogue::{
    builtin, instantiate, load_dir, load_str, select, Category, ConcreteCase, ErrorKind,
    Expectation, Field, Input, Operation, Piece, Variant,
};
use framecheck_core::level::{fold_str, ReaderLevel};
use framecheck_core::profile::{
    AttributeLayout, Capability, Delimiters, HeaderStyle, ResolvedProfile, Syntax, TagRole,
};

fn attacks() -> PathBuf {
    crate::repo().join("attacks")
}

/// A bracket-marker target in the style of the Python peer-result seed:
/// no header, no attributes, no reader.
fn bracket_profile() -> ResolvedProfile {
    let delimiters = Delimiters::simple(Syntax::BracketMarker, "A2A_RESULT_FROM_PEER");
    ResolvedProfile::builder("a2a", delimiters)
        .header(HeaderStyle::None)
        .with(|p| p.language = "python".into())
        .build()
        .unwrap()
}

/// A retrieval renderer in the style of the Go seed: `context` around
/// `source` elements that carry the attributes, `note` reserved.
fn go_profile() -> ResolvedProfile {
    let delimiters = Delimiters {
        inner: Some("source".into()),
        reserved: vec!["note".into()],
        ..Delimiters::simple(Syntax::XmlTag, "context")
    };
    ResolvedProfile::builder("go-context", delimiters)
        .header(HeaderStyle::BlankLine)
        .capabilities(&[Capability::Wrap, Capability::Attributes])
        .with(|p| {
            p.language = "go".into();
            p.attributes = AttributeLayout {
                on: TagRole::Inner,
                kind: None,
                extra: vec!["id".into()],
                names: None,
            };
        })
        .build()
        .unwrap()
}

fn profiles() -> Vec<ResolvedProfile> {
    vec![crate::reference_profile(), bracket_profile(), go_profile()]
}

/// 1-based line and column of the first occurrence of `needle`.
fn position(text: &str, needle: &str) -> (u64, u64) {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in test input"));
    let before = &text[..at];
    let line = before.matches('\n').count() as u64 + 1;
    let column = before[before.rfind('\n').map_or(0, |i| i + 1)..]
        .chars()
        .count() as u64
        + 1;
    (line, column)
}

const HEADER: &str = "schema: framecheck-catalogue/1\ncategory: breakout\ndescription: d\nnotes:\n  F:\n    description: a flag\ncases:\n";

fn case(body: &str) -> String {
    format!(
        "{HEADER}  - id: good-case\n    title: t\n    why: w\n    references: [CWE-74]\n    severity: high\n    flags: [F]\n{body}"
    )
}

/// Loads `text` as `breakout.yaml` and returns its single error.
fn single_error(text: &str) -> framecheck_core::catalogue::CatalogueError {
    let errors =
        load_str(Path::new("attacks/breakout.yaml"), text).expect_err("the input should not load");
    assert_eq!(errors.len(), 1, "{errors:#?}");
    errors.into_iter().next().unwrap()
}

/// Asserts the error is of `kind` and located where `needle` starts.
fn assert_error_at(text: &str, needle: &str, kind: ErrorKind, message_part: &str) {
    let error = single_error(text);
    let (line, column) = position(text, needle);
    assert_eq!(error.kind, kind, "{error}");
    assert_eq!((error.line, error.column), (line, column), "{error}");
    assert!(error.message.contains(message_part), "{error}");
    assert!(
        error
            .to_string()
            .starts_with(&format!("attacks/breakout.yaml:{line}:{column}: ")),
        "{error}"
    );
}

#[test]
fn shipped_catalogue_loads_with_zero_errors() {
    let outcome = load_dir(&attacks());
    let errors: Vec<String> = outcome.errors.iter().map(ToString::to_string).collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    let categories: BTreeSet<Category> =
        outcome.catalogue.cases.iter().map(|c| c.category).collect();
    assert_eq!(
        categories.len(),
        Category::ALL.len(),
        "a category has no cases"
    );
    for case in &outcome.catalogue.cases {
        for flag in &case.flags {
            assert!(
                outcome.catalogue.notes.contains_key(flag),
                "{}: {flag}",
                case.id
            );
        }
    }
}

#[test]
fn shipped_catalogue_is_large_enough() {
    let catalogue = builtin();
    assert!(
        catalogue.cases.len() >= 120,
        "only {} written cases",
        catalogue.cases.len()
    );
    let concrete = instantiate(&catalogue, &crate::reference_profile());
    assert!(
        concrete.len() >= 400,
        "only {} concrete cases",
        concrete.len()
    );
}

#[test]
fn builtin_equals_the_files_on_disk() {
    // Relative, so case locations read `attacks/<file>` like the built-in's:
    // from the repository's root, where cargo does not start this crate's
    // tests. Every other test in this binary names its files absolutely, so
    // the working directory is this test's alone to change.
    std::env::set_current_dir(crate::repo()).unwrap();
    let outcome = load_dir(Path::new("attacks"));
    assert!(outcome.errors.is_empty());
    assert_eq!(builtin(), outcome.catalogue);
    assert_eq!(builtin().hash.len(), 64);
    assert!(builtin().hash.chars().all(|c| c.is_ascii_hexdigit()));
}

#[test]
fn hash_covers_every_byte_of_every_file() {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(attacks()).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
    }
    let same = load_dir(dir.path());
    assert_eq!(same.catalogue.hash, builtin().hash);
    let benign = dir.path().join("benign.yaml");
    let mut text = std::fs::read_to_string(&benign).unwrap();
    text.push_str("\n# a trailing comment\n");
    std::fs::write(&benign, text).unwrap();
    let changed = load_dir(dir.path());
    assert!(changed.errors.is_empty());
    assert_ne!(changed.catalogue.hash, builtin().hash);
    assert_eq!(
        changed.catalogue.cases,
        builtin()
            .cases
            .iter()
            .map(|c| {
                let mut c = c.clone();
                c.source.file = dir.path().join(c.source.file.file_name().unwrap());
                c
            })
            .collect::<Vec<_>>()
    );
}

#[test]
fn a_well_formed_case_loads_with_defaults() {
    let text =
        case("    op: wrap\n    input:\n      content: \"x {close} {canary}\"\n    expect: hold\n");
    let file = load_str(Path::new("attacks/breakout.yaml"), &text).unwrap();
    let spec = &file.cases[0];
    assert_eq!(spec.variants, vec![Variant::Exact]);
    assert_eq!(
        spec.refusal,
        framecheck_core::catalogue::RefusalPolicy::Allowed
    );
    assert_eq!(spec.source.line, position(&text, "id: good-case").0);
    let faithful = case("    op: roundtrip\n    input:\n      content: x\n    expect: faithful\n");
    let file = load_str(Path::new("attacks/breakout.yaml"), &faithful).unwrap();
    assert_eq!(
        file.cases[0].refusal,
        framecheck_core::catalogue::RefusalPolicy::Forbidden
    );
}

#[test]
fn unknown_fields_are_errors_at_their_position() {
    let in_case =
        case("    op: wrap\n    input: {content: x}\n    expect: hold\n    colour: red\n");
    assert_error_at(&in_case, "colour", ErrorKind::Yaml, "colour");
    let in_input =
        case("    op: wrap\n    input:\n      content: x\n      provenence: y\n    expect: hold\n");
    assert_error_at(&in_input, "provenence", ErrorKind::Yaml, "provenence");
    let at_top = format!("{HEADER}  []\nauthor: me\n").replace("cases:\n  []", "cases: []");
    assert_error_at(&at_top, "author", ErrorKind::Yaml, "author");
}

#[test]
fn each_malformed_template_is_reported_where_it_is_wrong() {
    let wrap = |content: &str| {
        case(&format!(
            "    op: wrap\n    input:\n      content: \"{content}\"\n    expect: hold\n"
        ))
    };
    assert_error_at(
        &wrap("a {clsoe} b"),
        "\"a {clsoe}",
        ErrorKind::Template,
        "clsoe",
    );
    assert_error_at(
        &wrap("a {close b"),
        "\"a {close b",
        ErrorKind::Template,
        "unclosed",
    );
    assert_error_at(&wrap("a } b"), "\"a } b", ErrorKind::Template, "unmatched");
    assert_error_at(
        &wrap("{frame} b"),
        "\"{frame} b",
        ErrorKind::Template,
        "frame piece",
    );
}

#[test]
fn each_case_of_the_wrong_shape_is_reported_where_it_is_wrong() {
    let text_on_wrap =
        case("    op: wrap\n    input: {content: x}\n    text: \"{frame}\"\n    expect: hold\n");
    assert_error_at(&text_on_wrap, "\"{frame}\"", ErrorKind::Shape, "`text`");
    let input_on_read = case(
        "    op: read\n    input:\n      content: x\n    text: \"{frame}\"\n    expect: reject\n",
    );
    assert_error_at(&input_on_read, "content: x", ErrorKind::Shape, "`input`");
    let read_without_text = case("    op: read\n    expect: reject\n");
    assert_error_at(
        &read_without_text,
        "good-case",
        ErrorKind::Shape,
        "needs `text`",
    );
    let wrong_expectation = case("    op: read\n    text: \"{frame}\"\n    expect: hold\n");
    assert_error_at(
        &wrong_expectation,
        "hold",
        ErrorKind::Shape,
        "does not apply",
    );
}

#[test]
fn each_unknown_name_or_bad_value_is_reported_where_it_is_wrong() {
    let unknown_flag = case("    op: wrap\n    input: {content: x}\n    expect: hold\n")
        .replace("flags: [F]", "flags: [F, Nope]");
    assert_error_at(&unknown_flag, "Nope", ErrorKind::Flag, "Nope");
    let unknown_variant = case("    op: wrap\n    input: {content: \"{close}\"}\n    variants: [exact, upside-down]\n    expect: hold\n");
    assert_error_at(
        &unknown_variant,
        "upside-down",
        ErrorKind::Variant,
        "upside-down",
    );
    let nothing_to_vary = case("    op: wrap\n    input: {content: \"{canary}\"}\n    variants: [case]\n    expect: hold\n");
    assert_error_at(
        &nothing_to_vary,
        "good-case",
        ErrorKind::Variant,
        "delimiter placeholder",
    );
    let unknown_requirement = case(
        "    op: wrap\n    input: {content: x}\n    expect: hold\n    requires: [telepathy]\n",
    );
    assert_error_at(
        &unknown_requirement,
        "telepathy",
        ErrorKind::Requirement,
        "telepathy",
    );
    let huge_repeat = case(
        "    op: wrap\n    input:\n      content: x\n      repeat: 100000000\n    expect: hold\n",
    );
    assert_error_at(&huge_repeat, "100000000", ErrorKind::Value, "repeat");
    let bad_id = case("    op: wrap\n    input: {content: x}\n    expect: hold\n")
        .replace("good-case", "Bad_Case");
    assert_error_at(&bad_id, "Bad_Case", ErrorKind::InvalidId, "Bad_Case");
    let no_references = case("    op: wrap\n    input: {content: x}\n    expect: hold\n")
        .replace("references: [CWE-74]", "references: []");
    assert_error_at(&no_references, "[]", ErrorKind::Value, "references");
    let bad_attribute_key = case("    op: wrap\n    input:\n      content: x\n      attributes:\n        ok: fine\n        \"k{nope}\": v\n    expect: hold\n");
    assert_error_at(
        &bad_attribute_key,
        "\"k{nope}\"",
        ErrorKind::Template,
        "attribute key",
    );
    let unknown_nonce_mode = case(
        "    op: wrap\n    input: {content: \"{close}\"}\n    nonce: psychic\n    expect: hold\n",
    );
    assert_error_at(
        &unknown_nonce_mode,
        "psychic",
        ErrorKind::Value,
        "nonce mode",
    );
    let nonce_without_delimiter =
        case("    op: wrap\n    input: {content: x}\n    nonce: bare\n    expect: hold\n");
    assert_error_at(
        &nonce_without_delimiter,
        "bare",
        ErrorKind::Value,
        "no delimiter",
    );
}

#[test]
fn file_level_problems_are_located() {
    let wrong_category = case("    op: wrap\n    input: {content: x}\n    expect: hold\n")
        .replace("category: breakout", "category: forgery");
    assert_error_at(&wrong_category, "forgery", ErrorKind::Category, "file name");
    let unknown_category = case("    op: wrap\n    input: {content: x}\n    expect: hold\n")
        .replace("category: breakout", "category: mischief");
    assert_error_at(
        &unknown_category,
        "mischief",
        ErrorKind::Category,
        "mischief",
    );
    let wrong_schema = case("    op: wrap\n    input: {content: x}\n    expect: hold\n")
        .replace("framecheck-catalogue/1", "framecheck-catalogue/9");
    assert_error_at(
        &wrong_schema,
        "framecheck-catalogue/9",
        ErrorKind::Schema,
        "schema",
    );
    let syntax = "schema: framecheck-catalogue/1\ncategory: breakout\ndescription: [unclosed\n";
    let error = single_error(syntax);
    assert_eq!(error.kind, ErrorKind::Yaml);
    assert!(error.line >= 3, "{error}");
}

#[test]
fn several_errors_in_one_file_are_all_reported() {
    let text = case("    op: wrap\n    input: {content: \"{nope}\"}\n    variants: [sideways]\n    expect: hold\n    requires: [magic]\n");
    let errors = load_str(Path::new("attacks/breakout.yaml"), &text).unwrap_err();
    let kinds: Vec<ErrorKind> = errors.iter().map(|e| e.kind).collect();
    assert!(kinds.contains(&ErrorKind::Template), "{kinds:?}");
    assert!(kinds.contains(&ErrorKind::Variant), "{kinds:?}");
    assert!(kinds.contains(&ErrorKind::Requirement), "{kinds:?}");
}

#[test]
fn duplicate_ids_name_both_places() {
    let one = "    op: wrap\n    input: {content: x}\n    expect: hold\n";
    let text = format!("{}  - id: good-case\n    title: t2\n    why: w\n    references: [CWE-74]\n    severity: low\n{one}", case(one));
    let error = single_error(&text);
    assert_eq!(error.kind, ErrorKind::DuplicateId);
    let second_line = text
        .match_indices("id: good-case")
        .nth(1)
        .map(|(at, _)| text[..at].matches('\n').count() as u64 + 1);
    assert_eq!(Some(error.line), second_line, "{error}");
    let (first_line, first_column) = position(&text, "good-case");
    assert!(
        error.message.contains(&format!(
            "attacks/breakout.yaml:{first_line}:{first_column}"
        )),
        "{error}"
    );

    // Across files: both files load, the second copy is reported with the first's place.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("breakout.yaml"), case(one)).unwrap();
    std::fs::write(
        dir.path().join("forgery.yaml"),
        case(one).replace("category: breakout", "category: forgery"),
    )
    .unwrap();
    let outcome = load_dir(dir.path());
    assert_eq!(outcome.errors.len(), 1, "{:?}", outcome.errors);
    let error = &outcome.errors[0];
    assert_eq!(error.kind, ErrorKind::DuplicateId);
    assert!(error.path.ends_with("forgery.yaml"), "{error}");
    assert!(error.message.contains("breakout.yaml:"), "{error}");
    assert_eq!(outcome.catalogue.cases.len(), 1);
}

#[test]
fn conflicting_flag_notes_across_files_are_errors() {
    let one = "    op: wrap\n    input: {content: x}\n    expect: hold\n";
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("breakout.yaml"), case(one)).unwrap();
    std::fs::write(
        dir.path().join("forgery.yaml"),
        case(one)
            .replace("category: breakout", "category: forgery")
            .replace("good-case", "other-case")
            .replace("a flag", "a different meaning"),
    )
    .unwrap();
    let outcome = load_dir(dir.path());
    assert_eq!(outcome.errors.len(), 1, "{:?}", outcome.errors);
    assert_eq!(outcome.errors[0].kind, ErrorKind::Flag);
}

#[test]
fn a_broken_file_does_not_stop_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let good = case("    op: wrap\n    input: {content: \"{close}\"}\n    expect: hold\n");
    std::fs::write(dir.path().join("breakout.yaml"), &good).unwrap();
    std::fs::write(dir.path().join("forgery.yaml"), "schema: [\n").unwrap();
    std::fs::write(dir.path().join("README.md"), "not a catalogue").unwrap();
    let outcome = load_dir(dir.path());
    assert_eq!(outcome.errors.len(), 1);
    assert!(outcome.errors[0].path.ends_with("forgery.yaml"));
    assert_eq!(outcome.catalogue.cases.len(), 1);
    assert_eq!(outcome.catalogue.cases[0].id, "good-case");

    let missing = load_dir(&dir.path().join("nowhere"));
    assert_eq!(missing.errors[0].kind, ErrorKind::Io);
    assert!(missing.catalogue.cases.is_empty());
}

#[test]
fn an_alias_bomb_is_rejected() {
    let mut text = String::from("a0: &a0 [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n");
    for i in 1..10 {
        let p = i - 1;
        text.push_str(&format!(
            "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
        ));
    }
    text.push_str(
        "schema: framecheck-catalogue/1\ncategory: breakout\ndescription: *a9\ncases: []\n",
    );
    let error = single_error(&text);
    assert_eq!(error.kind, ErrorKind::Yaml, "{error}");
}

fn placeholder_texts() -> Vec<String> {
    Placeholder::ALL.iter().map(|p| p.to_string()).collect()
}

fn all_text(case: &ConcreteCase) -> String {
    match &case.input {
        Input::Wrap(request) => {
            let mut s = format!(
                "{}\u{0}{}\u{0}{}",
                request.content, request.kind, request.provenance
            );
            for (k, v) in &request.attributes {
                s.push_str(&format!("\u{0}{k}\u{0}{v}"));
            }
            s
        }
        Input::Read(pieces) => pieces
            .iter()
            .map(|p| match p {
                Piece::Literal(l) => l.as_str(),
                _ => "",
            })
            .collect(),
    }
}

#[test]
fn instantiation_resolves_every_placeholder_and_plants_canaries() {
    let catalogue = builtin();
    let placeholders = placeholder_texts();
    for profile in profiles() {
        let cases = instantiate(&catalogue, &profile);
        assert!(cases.len() > 100, "{}: {}", profile.name, cases.len());
        let ids: BTreeSet<&str> = cases.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids.len(), cases.len(), "{}: duplicate ids", profile.name);
        for case in &cases {
            let text = all_text(case);
            for p in &placeholders {
                assert!(
                    !text.contains(p.as_str()),
                    "{} {}: {p} left",
                    profile.name,
                    case.id
                );
            }
            let spec = catalogue
                .cases
                .iter()
                .find(|s| s.id == case.base_id)
                .unwrap();
            let wrote_canary = spec.wrap.as_ref().is_some_and(|w| {
                w.content.contains("{canary}")
                    || w.kind.as_deref().unwrap_or("").contains("{canary}")
                    || w.provenance.as_deref().unwrap_or("").contains("{canary}")
                    || w.attributes
                        .iter()
                        .any(|(k, v)| k.contains("{canary}") || v.contains("{canary}"))
            }) || spec.text.as_deref().unwrap_or("").contains("{canary}");
            assert_eq!(
                text.contains(&case.canary),
                wrote_canary,
                "{} {}",
                profile.name,
                case.id
            );
            assert!(case.canary.len() >= 8);
            for token in profile.delimiters.all_tokens() {
                assert!(
                    !fold_str(&case.canary, ReaderLevel::Unicode)
                        .contains(&fold_str(token, ReaderLevel::Unicode)),
                    "{}: canary reads as a token",
                    case.id
                );
            }
            if let Input::Wrap(request) = &case.input {
                for field in &case.canary_fields {
                    let holds = match field {
                        Field::Content => request.content.contains(&case.canary),
                        Field::Kind => request.kind.contains(&case.canary),
                        Field::Provenance => request.provenance.contains(&case.canary),
                        Field::Attributes => request
                            .attributes
                            .iter()
                            .any(|(k, v)| k.contains(&case.canary) || v.contains(&case.canary)),
                    };
                    assert!(
                        holds,
                        "{} {}: canary not in {field:?}",
                        profile.name, case.id
                    );
                }
            } else {
                assert!(case.canary_fields.is_empty());
                assert!(case.requires.contains(&Capability::Read));
            }
            assert_eq!(case.min_level, case.variant.min_level());
            let expected_id = if case.variant == Variant::Exact {
                case.base_id.clone()
            } else {
                format!("{}~{}", case.base_id, case.variant.name())
            };
            assert_eq!(case.id, expected_id);
        }
    }
}

#[test]
fn instantiation_is_deterministic_and_in_catalogue_order() {
    let catalogue = builtin();
    let a = instantiate(&catalogue, &crate::reference_profile());
    let b = instantiate(&catalogue, &crate::reference_profile());
    assert_eq!(a, b);
    let order: Vec<&str> = catalogue.cases.iter().map(|c| c.id.as_str()).collect();
    let mut last = 0;
    for case in &a {
        let at = order.iter().position(|id| *id == case.base_id).unwrap();
        assert!(at >= last, "{} out of order", case.id);
        last = at;
    }
}

#[test]
fn the_exact_variant_writes_the_profiles_own_delimiters() {
    let catalogue = builtin();
    for profile in profiles() {
        let (l, r) = brackets(profile.delimiters.grammar);
        let close = format!("{l}/{}{r}", profile.delimiters.token);
        let cases = instantiate(&catalogue, &profile);
        let case = cases
            .iter()
            .find(|c| c.id == "breakout-close-mid-content")
            .unwrap();
        let Input::Wrap(request) = &case.input else {
            panic!()
        };
        assert!(request.content.contains(&close), "{}", request.content);
        assert_eq!(request.kind, "tool-result");
        assert_eq!(request.provenance, "Fetched by framecheck.");
        assert_eq!(case.canary_fields, vec![Field::Content]);
        let after_close = &request.content[request.content.find(&close).unwrap()..];
        assert!(
            after_close.contains(&case.canary),
            "canary must follow the forged close"
        );
    }
}

#[test]
fn structure_and_variants_filter_per_profile() {
    let catalogue = builtin();
    let ids = |profile: &ResolvedProfile| -> BTreeSet<String> {
        instantiate(&catalogue, profile)
            .into_iter()
            .map(|c| c.id)
            .collect()
    };
    let reference = ids(&crate::reference_profile());
    let bracket = ids(&bracket_profile());
    let go = ids(&go_profile());
    // Inner and reserved placeholders need the structure.
    assert!(go.contains("breakout-inner-close"));
    assert!(go.contains("forgery-reserved-element"));
    assert!(!reference.contains("breakout-inner-close"));
    assert!(!bracket.contains("forgery-reserved-element"));
    // Header requirements.
    assert!(reference.contains("forgery-provenance-line-after-blank"));
    assert!(!bracket.contains("forgery-provenance-line-after-blank"));
    // Variants that change nothing are not instantiated.
    assert!(reference.contains("breakout-close-mid-content~upper"));
    assert!(!bracket.contains("breakout-close-mid-content~upper"));
    assert!(bracket.contains("breakout-close-mid-content~lower"));
    assert!(!go.contains("breakout-close-mid-content~dash-lookalike"));
    assert!(reference.contains("breakout-close-mid-content~dash-lookalike"));
    assert!(!go.contains("breakout-close-mid-content~ligature"));
}

#[test]
fn capabilities_go_into_requires_instead_of_filtering() {
    let cases = instantiate(&builtin(), &bracket_profile());
    let read = cases
        .iter()
        .find(|c| c.id == "reader-two-frames-adjacent")
        .unwrap();
    assert_eq!(read.operation, Operation::Read);
    assert_eq!(read.requires, vec![Capability::Read]);
    let attr = cases.iter().find(|c| c.id == "attr-value-lf").unwrap();
    assert!(attr.requires.contains(&Capability::Attributes));
    assert_eq!(attr.canary_fields, vec![Field::Attributes]);
    // A payload in the provenance needs a target that writes provenance.
    let prov = cases
        .iter()
        .find(|c| c.id == "breakout-close-in-provenance")
        .unwrap();
    assert!(prov.requires.contains(&Capability::Provenance));
    assert_eq!(prov.canary_fields, vec![Field::Provenance]);
    // Roundtrip does not require a reader: the runner degrades it to a wrap.
    let roundtrip = cases
        .iter()
        .find(|c| c.id == "breakout-close-at-start")
        .unwrap();
    assert_eq!(roundtrip.operation, Operation::Roundtrip);
    assert!(roundtrip.requires.is_empty());
}

#[test]
fn read_texts_keep_frame_pieces_for_the_runner() {
    let cases = instantiate(&builtin(), &crate::reference_profile());
    let case = cases
        .iter()
        .find(|c| c.id == "reader-close-inside-body~zero-width")
        .unwrap();
    let Input::Read(pieces) = &case.input else {
        panic!()
    };
    assert_eq!(pieces.first(), Some(&Piece::FrameHead));
    assert_eq!(pieces.last(), Some(&Piece::FrameTail));
    let Piece::Literal(middle) = &pieces[1] else {
        panic!("{pieces:?}")
    };
    assert!(
        middle.contains("</framecheck\u{200B}-untrusted>"),
        "{middle:?}"
    );
    assert!(middle.contains(&case.canary));
    assert_eq!(case.expect, Expectation::Reject);
    assert_eq!(case.min_level, ReaderLevel::Unicode);
}

/// Live delimiters as the oracle defines them, written naively here so the
/// catalogue's own benign cases are checked independently of the oracle.
fn has_live_delimiter(text: &str, syntax: Syntax, token: &str, level: ReaderLevel) -> bool {
    let folded: Vec<char> = fold_str(text, level).chars().collect();
    let token: Vec<char> = fold_str(token, level).chars().collect();
    let (open, _) = brackets(syntax);
    let ws = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r');
    for start in 0..folded.len() {
        if folded[start] != open {
            continue;
        }
        let mut i = start + 1;
        while i < folded.len() && ws(folded[i]) {
            i += 1;
        }
        if i < folded.len() && folded[i] == '/' {
            i += 1;
        }
        while i < folded.len() && ws(folded[i]) {
            i += 1;
        }
        if folded[i..].starts_with(&token) {
            let next = folded.get(i + token.len());
            if !next.is_some_and(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | ':')) {
                return true;
            }
        }
    }
    false
}

#[test]
fn benign_cases_carry_no_delimiter_of_any_common_token() {
    let tokens = [
        "framecheck-untrusted",
        "namzu-untrusted",
        "A2A_RESULT_FROM_PEER",
        "context",
        "source",
        "note",
        "untrusted",
        "document",
        "tool-result",
        "data",
    ];
    for profile in profiles() {
        for case in instantiate(&builtin(), &profile) {
            if case.category != Category::Benign {
                continue;
            }
            assert_eq!(case.expect, Expectation::Faithful, "{}", case.id);
            let text = all_text(&case);
            for token in tokens {
                for syntax in [Syntax::XmlTag, Syntax::BracketMarker] {
                    assert!(
                        !has_live_delimiter(&text, syntax, token, ReaderLevel::Unicode),
                        "{}: live {token:?} delimiter",
                        case.id
                    );
                }
                // A framing may defang bare readings of its token; benign
                // content must not contain any, or fidelity fails for a
                // correct framing.
                assert!(
                    !fold_str(&text, ReaderLevel::Unicode)
                        .contains(&fold_str(token, ReaderLevel::Unicode))
                        || !profile.delimiters.all_tokens().contains(&token),
                    "{}: reads as {token:?}",
                    case.id
                );
            }
        }
    }
}

#[test]
fn the_live_delimiter_helper_can_fail() {
    let level = ReaderLevel::Unicode;
    assert!(has_live_delimiter(
        "a < / context >",
        Syntax::XmlTag,
        "context",
        level
    ));
    assert!(has_live_delimiter(
        "[/ＮＯＴＥ]",
        Syntax::BracketMarker,
        "note",
        level
    ));
    assert!(!has_live_delimiter(
        "<contextual>",
        Syntax::XmlTag,
        "context",
        level
    ));
}

#[test]
fn attack_cases_use_a_delimiter_or_a_line_break() {
    // Every non-benign wrap case must carry something a framing has to
    // neutralise; otherwise it can only ever pass.
    for spec in builtin().cases {
        if spec.category == Category::Benign || spec.operation == Operation::Read {
            continue;
        }
        let wrap = spec.wrap.as_ref().unwrap();
        let mut text = format!(
            "{}{}{}",
            wrap.content,
            wrap.kind.clone().unwrap_or_default(),
            wrap.provenance.clone().unwrap_or_default()
        );
        for (k, v) in &wrap.attributes {
            text.push_str(k);
            text.push_str(v);
        }
        let interesting = text.contains("{token}")
            || ["{close", "{open", "{inner_", "{reserved_"]
                .iter()
                .any(|p| text.contains(p))
            // The characters closers end with: a tag's `>`, a quote, an
            // entity's `&`, a bracket marker's or a long bracket's `]`.
            || text.contains([
                '\n', '\r', '\u{2028}', '\u{85}', '"', '\'', '>', '&', '\u{b}', ']',
            ])
            // A line break a parser that splits like str.splitlines() honours
            // (record forgery: FF, FS, GS, RS, U+2029 too).
            || text.contains(framecheck_core::profile::UNICODE_LINE_BREAKS)
            // A chat-template control string, in any spelling a reader folds.
            || framecheck_core::chat_template::CONTROL_STRINGS.iter().any(|c| {
                let unicode = framecheck_core::level::ReaderLevel::Unicode;
                framecheck_core::level::fold_str(&text, unicode)
                    .contains(&framecheck_core::level::fold_str(c.text, unicode))
            })
            || wrap.provenance.as_deref() == Some("")
            || wrap
                .attributes
                .keys()
                .any(|k| k.is_empty() || k.contains(' '))
            // A key that collides with a name framings write themselves.
            || wrap.attributes.keys().any(|k| {
                ["kind", "id", "nonce", "type"]
                    .iter()
                    .any(|own| k.eq_ignore_ascii_case(own))
            })
            // Keys that are one name to a reader that folds case.
            || {
                let folded: std::collections::BTreeSet<String> =
                    wrap.attributes.keys().map(|k| k.to_ascii_lowercase()).collect();
                folded.len() < wrap.attributes.len()
            };
        assert!(interesting, "{} attacks nothing", spec.id);
    }
}

#[test]
fn select_matches_ids_base_ids_categories_and_globs() {
    let cases = instantiate(&builtin(), &crate::reference_profile());
    let total = cases.len();
    let by_id = select(cases.clone(), &["breakout-close-mid-content~upper".into()]).unwrap();
    assert_eq!(by_id.len(), 1);
    let by_base = select(cases.clone(), &["breakout-close-mid-content".into()]).unwrap();
    assert!(by_base.len() > 10);
    assert!(by_base
        .iter()
        .all(|c| c.base_id == "breakout-close-mid-content"));
    let by_category = select(cases.clone(), &["reader".into()]).unwrap();
    assert!(!by_category.is_empty());
    assert!(by_category.iter().all(|c| c.category == Category::Reader));
    let by_glob = select(cases.clone(), &["*~fullwidth".into(), "benign-*".into()]).unwrap();
    assert!(by_glob
        .iter()
        .all(|c| c.id.ends_with("~fullwidth") || c.base_id.starts_with("benign-")));
    assert!(by_glob.iter().any(|c| c.category == Category::Benign));
    assert!(by_glob.iter().any(|c| c.variant == Variant::Fullwidth));
    assert_eq!(select(cases.clone(), &[]).unwrap().len(), total);
    assert!(select(cases.clone(), &["no-such-case".into()])
        .unwrap()
        .is_empty());
    let error = select(cases, &["breakout-[".into()]).unwrap_err();
    assert!(error.to_string().contains("breakout-["), "{error}");
}

/// A report names a case run among siblings `id@position`; that id, copied
/// from a report, must select the case, or `--only` says "no case matches"
/// for an id the run itself printed (found re-checking a field audit).
#[test]
fn select_takes_a_report_id_with_its_position() {
    let cases = instantiate(&builtin(), &crate::reference_profile());
    let id = "breakout-close-mid-content~upper";
    for pattern in [
        format!("{id}@first"),
        format!("{id}@last"),
        "breakout-close-mid-*@middle".into(),
    ] {
        let kept = select(cases.clone(), std::slice::from_ref(&pattern)).unwrap();
        assert!(kept.iter().any(|c| c.id == id), "{pattern}");
    }
}

/// A target with a fixed attribute schema gets the attacks mapped onto its
/// own names, and no case that needs keys it never writes.
#[test]
fn fixed_attribute_names_remap_keys_and_drop_key_attacks() {
    let fixed = go_profile()
        .edit(|p| p.attributes.names = Some(vec!["title".into(), "section".into()]))
        .unwrap();
    let open = instantiate(&builtin(), &go_profile());
    let cases = instantiate(&builtin(), &fixed);
    let mut mapped = 0;
    for case in &cases {
        if let Input::Wrap(request) = &case.input {
            for key in request.attributes.keys() {
                assert!(key == "title" || key == "section", "{}: {key:?}", case.id);
            }
            mapped += usize::from(!request.attributes.is_empty());
        }
    }
    assert!(mapped > 10, "attribute attacks still apply: {mapped}");
    // Key-injection cases only make sense where the target takes any key.
    assert!(open.iter().any(|c| c.id == "attr-key-quote"));
    assert!(!cases.iter().any(|c| c.id == "attr-key-quote"));
    assert!(cases.len() < open.len());
}

/// The bracket pair of a tag grammar, written out here rather than taken
/// from the crate, so the test's naive matcher stays independent of it.
fn brackets(syntax: Syntax) -> (char, char) {
    match syntax {
        Syntax::BracketMarker => ('[', ']'),
        _ => ('<', '>'),
    }
}
