//! Loading and validating catalogue files.
//!
//! Every check that can be made without a target profile is made here, so a
//! catalogue that loads can always be instantiated. Each problem becomes a
//! [`CatalogueError`] with the file, line and column of the field at fault;
//! a broken file never stops the others from loading ([`load_dir`]).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_saphyr::{Location, Spanned};
use sha2::{Digest, Sha256};

use super::error::{CatalogueError, ErrorKind};
use super::model::{
    CaseSpec, Catalogue, Category, Expectation, FlagNote, Operation, RefusalPolicy, Severity,
    SourceLocation, Structure, Variant, WrapTemplate,
};
use super::nonce::NonceMode;
use super::template;
use super::variant;
use crate::profile::Capability;

/// The `schema` value every catalogue file must declare.
pub const SCHEMA: &str = "framecheck-catalogue/1";

/// Largest `repeat` a wrap input may ask for.
pub const MAX_REPEAT: u32 = 100_000;

/// Largest content, in bytes, that `repeat` may build.
pub const MAX_REPEATED_BYTES: usize = 4 * 1024 * 1024;

/// Largest literal text, in bytes, any one field of a case may hold: the
/// same bound as `repeat`, so no case is larger than a repeated one (a huge
/// literal would cost the run and its report many times its size).
pub const MAX_LITERAL_BYTES: usize = MAX_REPEATED_BYTES;

/// One catalogue file, loaded and validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogueFile {
    /// The file's category (equal to its stem).
    pub category: Category,
    /// What the category attacks.
    pub description: String,
    /// Flag explanations.
    pub notes: BTreeMap<String, FlagNote>,
    /// The written cases, in file order.
    pub cases: Vec<CaseSpec>,
    /// Line and column of each case's id, parallel to `cases`.
    id_positions: Vec<(u64, u64)>,
    /// Line and column of each note, for cross-file conflicts.
    note_positions: BTreeMap<String, (u64, u64)>,
}

/// What [`load_dir`] found: every case that loaded, and every problem.
#[derive(Debug, Clone)]
pub struct LoadOutcome {
    /// The cases of every file that loaded without errors.
    pub catalogue: Catalogue,
    /// Every problem found, in file order.
    pub errors: Vec<CatalogueError>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    schema: Spanned<String>,
    category: Spanned<String>,
    description: String,
    #[serde(default)]
    notes: BTreeMap<String, Spanned<FlagNote>>,
    cases: Vec<RawCase>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCase {
    id: Spanned<String>,
    title: Spanned<String>,
    why: Spanned<String>,
    references: Spanned<Vec<String>>,
    severity: Severity,
    #[serde(default)]
    flags: Vec<Spanned<String>>,
    op: Operation,
    #[serde(default)]
    input: Option<Spanned<RawInput>>,
    #[serde(default)]
    text: Option<Spanned<String>>,
    #[serde(default)]
    variants: Option<Vec<Spanned<String>>>,
    expect: Spanned<Expectation>,
    #[serde(default)]
    refusal: Option<RefusalPolicy>,
    #[serde(default)]
    requires: Vec<Spanned<String>>,
    #[serde(default)]
    nonce: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawInput {
    #[serde(default)]
    content: Option<Spanned<String>>,
    #[serde(default)]
    kind: Option<Spanned<String>>,
    #[serde(default)]
    attributes: SpannedPairs,
    #[serde(default)]
    provenance: Option<Spanned<String>>,
    #[serde(default)]
    repeat: Option<Spanned<u32>>,
    #[serde(default)]
    marker_kind: Option<Spanned<String>>,
}

/// A mapping kept as located key/value pairs, so a bad attribute template
/// is reported at its own key or value rather than at the whole map.
#[derive(Default)]
struct SpannedPairs(Vec<(Spanned<String>, Spanned<String>)>);

impl<'de> Deserialize<'de> for SpannedPairs {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct PairsVisitor(PhantomData<SpannedPairs>);
        impl<'de> Visitor<'de> for PairsVisitor {
            type Value = SpannedPairs;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a mapping of attribute templates")
            }
            fn visit_unit<E: serde::de::Error>(self) -> Result<SpannedPairs, E> {
                Ok(SpannedPairs::default())
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SpannedPairs, A::Error> {
                let mut pairs = Vec::new();
                while let Some(pair) = map.next_entry()? {
                    pairs.push(pair);
                }
                Ok(SpannedPairs(pairs))
            }
        }
        deserializer.deserialize_map(PairsVisitor(PhantomData))
    }
}

/// Collects a file's errors with its path.
struct Errors<'a> {
    path: &'a Path,
    list: Vec<CatalogueError>,
}

impl Errors<'_> {
    fn at(&mut self, location: &Location, kind: ErrorKind, message: impl Into<String>) {
        self.list.push(CatalogueError {
            path: self.path.to_path_buf(),
            line: location.line(),
            column: location.column(),
            kind,
            message: message.into(),
        });
    }
}

/// Loads and validates one catalogue file's text. `path_label` names the
/// file in errors and case locations, and its stem must equal the file's
/// `category`. Every problem in the file is reported, not just the first.
pub fn load_str(path_label: &Path, text: &str) -> Result<CatalogueFile, Vec<CatalogueError>> {
    let raw: RawFile = match serde_saphyr::from_str_with_options(text, crate::yaml::options()) {
        Ok(raw) => raw,
        Err(error) => {
            let (line, column) = crate::yaml::position(&error).unwrap_or((0, 0));
            return Err(vec![CatalogueError {
                path: path_label.to_path_buf(),
                line,
                column,
                kind: ErrorKind::Yaml,
                message: crate::yaml::message(&error),
            }]);
        }
    };
    let mut errors = Errors {
        path: path_label,
        list: Vec::new(),
    };
    let category = check_header(&raw, path_label, &mut errors);
    let (cases, id_positions) = validate_cases(&raw, category, &mut errors);
    if !errors.list.is_empty() {
        return Err(errors.list);
    }
    Ok(CatalogueFile {
        category,
        description: raw.description,
        note_positions: raw
            .notes
            .iter()
            .map(|(k, v)| (k.clone(), (v.referenced.line(), v.referenced.column())))
            .collect(),
        notes: raw.notes.into_iter().map(|(k, v)| (k, v.value)).collect(),
        cases,
        id_positions,
    })
}

/// Checks the file's `schema` and `category` (which must name the file);
/// an unknown category falls back to one so the cases are still checked.
fn check_header(raw: &RawFile, path_label: &Path, errors: &mut Errors<'_>) -> Category {
    if raw.schema.value != SCHEMA {
        errors.at(
            &raw.schema.referenced,
            ErrorKind::Schema,
            format!("schema is {:?}; expected {SCHEMA:?}", raw.schema.value),
        );
    }
    let stem = path_label
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    let category = Category::ALL
        .into_iter()
        .find(|c| c.name() == raw.category.value);
    match category {
        None => errors.at(
            &raw.category.referenced,
            ErrorKind::Category,
            format!(
                "unknown category {:?}; known: {}",
                raw.category.value,
                Category::ALL.map(Category::name).join(", ")
            ),
        ),
        Some(c) if c.name() != stem => errors.at(
            &raw.category.referenced,
            ErrorKind::Category,
            format!(
                "category {:?} differs from the file name {stem:?}",
                raw.category.value
            ),
        ),
        Some(_) => {}
    }
    category.unwrap_or(Category::Breakout)
}

/// Validates every case in file order, reporting repeated ids; returns the
/// valid cases with the line and column of each one's id.
fn validate_cases(
    raw: &RawFile,
    category: Category,
    errors: &mut Errors<'_>,
) -> (Vec<CaseSpec>, Vec<(u64, u64)>) {
    let mut seen: BTreeMap<String, Location> = BTreeMap::new();
    let mut cases = Vec::new();
    let mut id_positions = Vec::new();
    for raw_case in &raw.cases {
        let id = &raw_case.id;
        if let Some(first) = seen.get(&id.value) {
            errors.at(
                &id.referenced,
                ErrorKind::DuplicateId,
                format!(
                    "duplicate id {:?}; first defined at {}:{}:{}",
                    id.value,
                    errors.path.display(),
                    first.line(),
                    first.column()
                ),
            );
        } else {
            seen.insert(id.value.clone(), id.referenced);
        }
        if let Some(case) = validate_case(raw_case, category, &raw.notes, errors) {
            cases.push(case);
            id_positions.push((id.referenced.line(), id.referenced.column()));
        }
    }
    (cases, id_positions)
}

fn valid_id(id: &str) -> bool {
    let mut chars = id.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_lowercase() || c.is_ascii_digit())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' || c == '-')
}

/// A template field of a case, parsed, with where it was written.
struct Field<'a> {
    name: &'static str,
    text: &'a Spanned<String>,
}

/// Validates one case, reporting every problem; `None` if it has any.
fn validate_case(
    raw: &RawCase,
    category: Category,
    notes: &BTreeMap<String, Spanned<FlagNote>>,
    errors: &mut Errors<'_>,
) -> Option<CaseSpec> {
    let before = errors.list.len();
    let here = raw.id.referenced;
    check_descriptive_fields(raw, notes, errors);
    check_shape(raw, errors);
    let fields = template_fields(raw, errors);
    let (uses_delimiter, mut structure) = check_templates(&fields, errors);
    let variants = parse_variants(raw, uses_delimiter, errors);
    let requires = parse_requirements(raw, &mut structure, errors);
    let nonce = parse_nonce_mode(raw, uses_delimiter, errors);
    if nonce.is_some() {
        structure.insert(Structure::Nonce);
    }
    if errors.list.len() > before {
        return None;
    }
    let expect = raw.expect.value;
    let refusal = raw.refusal.unwrap_or(match expect {
        Expectation::Faithful | Expectation::Accept => RefusalPolicy::Forbidden,
        _ => RefusalPolicy::Allowed,
    });
    Some(CaseSpec {
        id: raw.id.value.clone(),
        category,
        title: raw.title.value.clone(),
        why: raw.why.value.clone(),
        references: raw.references.value.clone(),
        flags: raw.flags.iter().map(|f| f.value.clone()).collect(),
        severity: raw.severity,
        operation: raw.op,
        wrap: raw.input.as_ref().map(|input| wrap_template(&input.value)),
        text: raw.text.as_ref().map(|t| t.value.clone()),
        variants,
        expect,
        refusal,
        requires: requires.into_iter().collect(),
        structure: structure.into_iter().collect(),
        nonce,
        source: SourceLocation {
            file: errors.path.to_path_buf(),
            line: here.line(),
        },
    })
}

/// Checks the fields that describe a case rather than drive it: the id's
/// grammar, non-empty title, why and references, and explained flags.
fn check_descriptive_fields(
    raw: &RawCase,
    notes: &BTreeMap<String, Spanned<FlagNote>>,
    errors: &mut Errors<'_>,
) {
    let id = &raw.id.value;
    if !valid_id(id) {
        errors.at(
            &raw.id.referenced,
            ErrorKind::InvalidId,
            format!("id {id:?} must match [a-z0-9][a-z0-9.-]*"),
        );
    }
    for (name, field) in [("title", &raw.title), ("why", &raw.why)] {
        if field.value.trim().is_empty() {
            errors.at(
                &field.referenced,
                ErrorKind::Value,
                format!("{name} is empty"),
            );
        }
    }
    if raw.references.value.is_empty() {
        errors.at(
            &raw.references.referenced,
            ErrorKind::Value,
            "references is empty; cite at least one CWE, OWASP entry or paper",
        );
    }
    for flag in &raw.flags {
        if !notes.contains_key(&flag.value) {
            errors.at(
                &flag.referenced,
                ErrorKind::Flag,
                format!(
                    "flag {:?} is not explained in this file's notes",
                    flag.value
                ),
            );
        }
    }
}

/// Checks that the case has the fields its operation takes, and an
/// expectation that applies to that operation.
fn check_shape(raw: &RawCase, errors: &mut Errors<'_>) {
    let here = raw.id.referenced;
    let is_read = raw.op == Operation::Read;
    match (&raw.input, &raw.text, is_read) {
        (Some(input), _, true) => errors.at(
            &input.referenced,
            ErrorKind::Shape,
            "a read case takes `text`, not `input`",
        ),
        (_, Some(text), false) => errors.at(
            &text.referenced,
            ErrorKind::Shape,
            "`text` is for read cases; a wrap or roundtrip case takes `input`",
        ),
        (_, None, true) => errors.at(&here, ErrorKind::Shape, "a read case needs `text`"),
        (None, _, false) => errors.at(
            &here,
            ErrorKind::Shape,
            "a wrap or roundtrip case needs `input`",
        ),
        _ => {}
    }
    let expect = raw.expect.value;
    let fits = match expect {
        Expectation::Hold | Expectation::Faithful => !is_read,
        Expectation::Reject | Expectation::Accept => is_read,
        Expectation::Acceptable => true,
    };
    if !fits {
        errors.at(
            &raw.expect.referenced,
            ErrorKind::Shape,
            format!(
                "expect {:?} does not apply to op {:?}: wrap and roundtrip cases expect hold, faithful or acceptable; read cases reject, accept or acceptable",
                expect, raw.op
            ),
        );
    }
}

/// Gathers every template field of a case in the order their errors are
/// reported (input fields, then `text`, then attributes), checking
/// `repeat` on the way since it bounds the content.
fn template_fields<'a>(raw: &'a RawCase, errors: &mut Errors<'_>) -> Vec<Field<'a>> {
    let mut fields: Vec<Field<'_>> = Vec::new();
    let mut attribute_fields = Vec::new();
    if let Some(input) = &raw.input {
        let input = &input.value;
        let named = [
            ("content", &input.content),
            ("kind", &input.kind),
            ("provenance", &input.provenance),
        ];
        for (name, text) in named {
            if let Some(text) = text {
                fields.push(Field { name, text });
            }
        }
        for (key, value) in &input.attributes.0 {
            attribute_fields.push(Field {
                name: "attribute key",
                text: key,
            });
            attribute_fields.push(Field {
                name: "attribute value",
                text: value,
            });
        }
        if let Some(repeat) = &input.repeat {
            check_repeat(input, repeat, errors);
        }
    }
    if let Some(text) = &raw.text {
        fields.push(Field { name: "text", text });
    }
    fields.extend(attribute_fields);
    fields
}

/// Bounds `repeat` both by count and by the bytes it would build.
fn check_repeat(input: &RawInput, repeat: &Spanned<u32>, errors: &mut Errors<'_>) {
    let content_len = input.content.as_ref().map_or(0, |c| c.value.len());
    if repeat.value == 0 || repeat.value > MAX_REPEAT {
        errors.at(
            &repeat.referenced,
            ErrorKind::Value,
            format!("repeat must be between 1 and {MAX_REPEAT}"),
        );
    } else if content_len.saturating_mul(repeat.value as usize) > MAX_REPEATED_BYTES {
        errors.at(
            &repeat.referenced,
            ErrorKind::Value,
            format!("repeated content would exceed {MAX_REPEATED_BYTES} bytes"),
        );
    }
}

/// Parses every template field; returns whether any uses a delimiter
/// placeholder (which variants need) and the structure the placeholders
/// require of a target.
fn check_templates(fields: &[Field<'_>], errors: &mut Errors<'_>) -> (bool, BTreeSet<Structure>) {
    let mut uses_delimiter = false;
    let mut structure = BTreeSet::new();
    for field in fields {
        if field.text.value.len() > MAX_LITERAL_BYTES {
            errors.at(
                &field.text.referenced,
                ErrorKind::Value,
                format!(
                    "{} is {} bytes; a case field may hold at most {MAX_LITERAL_BYTES} (use repeat for long content)",
                    field.name,
                    field.text.value.len()
                ),
            );
            continue;
        }
        match template::parse(&field.text.value) {
            Err(error) => errors.at(
                &field.text.referenced,
                ErrorKind::Template,
                format!("{}: {error}", field.name),
            ),
            Ok(segments) => {
                for placeholder in template::placeholders(&segments) {
                    if placeholder.is_frame_piece() && field.name != "text" {
                        errors.at(
                            &field.text.referenced,
                            ErrorKind::Template,
                            format!(
                                "{}: {placeholder} is a frame piece and may only appear in a read case's `text`",
                                field.name
                            ),
                        );
                    }
                    uses_delimiter |= placeholder.delimiter().is_some();
                    structure.extend(Structure::needed_by(placeholder));
                }
            }
        }
    }
    (uses_delimiter, structure)
}

/// Expands the case's variant names and groups, in [`Variant::ALL`] order;
/// no `variants` field means the exact case only.
fn parse_variants(raw: &RawCase, uses_delimiter: bool, errors: &mut Errors<'_>) -> Vec<Variant> {
    let here = raw.id.referenced;
    let mut variants = BTreeSet::new();
    match &raw.variants {
        None => {
            variants.insert(Variant::Exact);
        }
        Some(names) => {
            for name in names {
                match variant::expand_name(&name.value) {
                    Some(expanded) => variants.extend(expanded),
                    None => errors.at(
                        &name.referenced,
                        ErrorKind::Variant,
                        format!(
                            "unknown variant or group {:?}; known: {}",
                            name.value,
                            variant::known_names()
                        ),
                    ),
                }
            }
            if names.is_empty() {
                errors.at(&here, ErrorKind::Variant, "variants is empty");
            }
            if variants.iter().any(|v| *v != Variant::Exact) && !uses_delimiter {
                errors.at(
                    &here,
                    ErrorKind::Variant,
                    "variants other than exact need a delimiter placeholder to vary",
                );
            }
        }
    }
    let mut variants: Vec<Variant> = variants.into_iter().collect();
    variants.sort_by_key(|v| Variant::ALL.iter().position(|x| x == v));
    variants
}

/// The case's nonce mode: a known name, on a case with a delimiter
/// placeholder to spell it in.
fn parse_nonce_mode(
    raw: &RawCase,
    uses_delimiter: bool,
    errors: &mut Errors<'_>,
) -> Option<NonceMode> {
    let name = raw.nonce.as_ref()?;
    let Some(mode) = NonceMode::from_name(&name.value) else {
        let known = NonceMode::ALL.map(NonceMode::name).join(", ");
        errors.at(
            &name.referenced,
            ErrorKind::Value,
            format!("unknown nonce mode {:?}; known: {known}", name.value),
        );
        return None;
    };
    if !uses_delimiter {
        errors.at(
            &name.referenced,
            ErrorKind::Value,
            format!("nonce mode {mode} on a case with no delimiter placeholder to spell it in"),
        );
        return None;
    }
    Some(mode)
}

/// Sorts `requires` into capabilities (returned) and structure (added to
/// what the templates already require).
fn parse_requirements(
    raw: &RawCase,
    structure: &mut BTreeSet<Structure>,
    errors: &mut Errors<'_>,
) -> BTreeSet<Capability> {
    let mut requires = BTreeSet::new();
    for name in &raw.requires {
        match parse_requirement(&name.value) {
            Some(Requirement::Capability(c)) => {
                requires.insert(c);
            }
            Some(Requirement::Structure(s)) => {
                structure.insert(s);
            }
            None => errors.at(
                &name.referenced,
                ErrorKind::Requirement,
                format!(
                    "unknown requirement {:?}; known: wrap, read, attributes, provenance, kind, bytes, header, inner, reserved, fence-grammar, begin-end-grammar, section-grammar, nonce",
                    name.value
                ),
            ),
        }
    }
    requires
}

/// The validated input without its locations.
fn wrap_template(input: &RawInput) -> WrapTemplate {
    WrapTemplate {
        content: input
            .content
            .as_ref()
            .map(|c| c.value.clone())
            .unwrap_or_default(),
        kind: input.kind.as_ref().map(|k| k.value.clone()),
        attributes: input
            .attributes
            .0
            .iter()
            .map(|(k, v)| (k.value.clone(), v.value.clone()))
            .collect(),
        provenance: input.provenance.as_ref().map(|p| p.value.clone()),
        repeat: input.repeat.as_ref().map_or(1, |r| r.value),
        marker_kind: input.marker_kind.as_ref().map(|k| k.value.clone()),
    }
}

enum Requirement {
    Capability(Capability),
    Structure(Structure),
}

fn parse_requirement(name: &str) -> Option<Requirement> {
    Some(match name {
        "wrap" => Requirement::Capability(Capability::Wrap),
        "read" => Requirement::Capability(Capability::Read),
        "attributes" => Requirement::Capability(Capability::Attributes),
        "provenance" => Requirement::Capability(Capability::Provenance),
        "kind" => Requirement::Capability(Capability::Kind),
        "bytes" => Requirement::Capability(Capability::Bytes),
        _ => Requirement::Structure(Structure::parse(name)?),
    })
}

/// Loads every `*.yaml` file in `dir`. Files that fail contribute errors
/// and no cases; the others load regardless.
///
/// The catalogue's cases follow the category order of [`Category::ALL`];
/// its hash covers the files' bytes in file-name order.
pub fn load_dir(dir: &Path) -> LoadOutcome {
    let mut errors = Vec::new();
    let io_error = |path: &Path, message: String| CatalogueError {
        path: path.to_path_buf(),
        line: 0,
        column: 0,
        kind: ErrorKind::Io,
        message,
    };
    let mut paths: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "yaml") && p.is_file())
            .collect(),
        Err(e) => {
            errors.push(io_error(dir, e.to_string()));
            Vec::new()
        }
    };
    paths.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
    if paths.is_empty() && errors.is_empty() {
        errors.push(io_error(dir, "no *.yaml catalogue files".into()));
    }
    let mut files = Vec::new();
    for path in paths {
        match std::fs::read(&path) {
            Ok(bytes) => files.push((path, bytes)),
            Err(e) => errors.push(io_error(&path, e.to_string())),
        }
    }
    let mut outcome = load_files(&files);
    errors.append(&mut outcome.errors);
    outcome.errors = errors;
    outcome
}

/// Loads already-read files (path label, bytes), given in file-name order.
pub fn load_files(files: &[(PathBuf, Vec<u8>)]) -> LoadOutcome {
    let mut hasher = Sha256::new();
    let mut errors = Vec::new();
    let mut loaded = Vec::new();
    for (path, bytes) in files {
        hasher.update(bytes);
        match load_bytes(path, bytes) {
            Ok(file) => loaded.push((path.clone(), file)),
            Err(mut file_errors) => errors.append(&mut file_errors),
        }
    }
    loaded.sort_by_key(|(_, file)| file.category);

    let mut notes = BTreeMap::new();
    let mut ids = BTreeMap::new();
    let mut cases = Vec::new();
    for (path, file) in loaded {
        merge_notes(&path, &file, &mut notes, &mut errors);
        merge_cases(&path, file, &mut ids, &mut cases, &mut errors);
    }
    let hash = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    LoadOutcome {
        catalogue: Catalogue {
            hash,
            notes: notes.into_iter().map(|(k, (n, _, _))| (k, n)).collect(),
            cases,
        },
        errors,
    }
}

/// Each flag note seen so far, with the file and position that first gave it.
type SeenNotes = BTreeMap<String, (FlagNote, PathBuf, (u64, u64))>;

/// Each case id seen so far, with the file and position that first gave it.
type SeenIds = BTreeMap<String, (PathBuf, (u64, u64))>;

/// Loads one file's bytes, which must be UTF-8.
fn load_bytes(path: &Path, bytes: &[u8]) -> Result<CatalogueFile, Vec<CatalogueError>> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        vec![CatalogueError {
            path: path.to_path_buf(),
            line: 0,
            column: 0,
            kind: ErrorKind::Io,
            message: format!("not UTF-8: {e}"),
        }]
    })?;
    load_str(path, text)
}

/// Adds a file's flag notes to the catalogue's; a flag explained two
/// different ways across files is an error (one flag, one meaning).
fn merge_notes(
    path: &Path,
    file: &CatalogueFile,
    notes: &mut SeenNotes,
    errors: &mut Vec<CatalogueError>,
) {
    for (name, note) in &file.notes {
        let position = file.note_positions.get(name).copied().unwrap_or((0, 0));
        match notes.get(name) {
            Some((first, first_path, first_pos)) if first != note => {
                errors.push(CatalogueError {
                    path: path.to_path_buf(),
                    line: position.0,
                    column: position.1,
                    kind: ErrorKind::Flag,
                    message: format!(
                        "flag {name:?} is explained differently at {}:{}:{}; one flag, one meaning",
                        first_path.display(),
                        first_pos.0,
                        first_pos.1
                    ),
                });
            }
            Some(_) => {}
            None => {
                notes.insert(name.clone(), (note.clone(), path.to_path_buf(), position));
            }
        }
    }
}

/// Adds a file's cases to the catalogue's, dropping (and reporting) any
/// whose id an earlier file already used.
fn merge_cases(
    path: &Path,
    file: CatalogueFile,
    ids: &mut SeenIds,
    cases: &mut Vec<CaseSpec>,
    errors: &mut Vec<CatalogueError>,
) {
    for (case, position) in file.cases.into_iter().zip(file.id_positions) {
        if let Some((first_path, first_pos)) = ids.get(&case.id) {
            errors.push(CatalogueError {
                path: path.to_path_buf(),
                line: position.0,
                column: position.1,
                kind: ErrorKind::DuplicateId,
                message: format!(
                    "duplicate id {:?}; first defined at {}:{}:{}",
                    case.id,
                    first_path.display(),
                    first_pos.0,
                    first_pos.1
                ),
            });
            continue;
        }
        ids.insert(case.id.clone(), (path.to_path_buf(), position));
        cases.push(case);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_follow_the_grammar() {
        for good in ["a", "0", "breakout-close.mid", "x9-1"] {
            assert!(valid_id(good), "{good}");
        }
        for bad in ["", "-a", ".a", "A", "a_b", "a~b", "a b", "é"] {
            assert!(!valid_id(bad), "{bad}");
        }
    }
}
