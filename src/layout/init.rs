//! `framecheck init`: start an adapter, calibrate it, and propose a
//! commented profile that `framecheck validate` accepts.
//!
//! Given only a command line, the delimiter grammar and token are guessed
//! from the first calibration frame (an XML-ish tag, a bracket marker, a
//! markdown fence, or BEGIN/END-style marker lines around the content);
//! given a profile, its delimiters are used. Then the layout is learned and
//! the profile is written with what calibration saw: header style and named
//! fields, padding, body encoding, which request fields reach the frame,
//! and whether the adapter answers `read`. Every guess is marked as one in
//! a comment, so the user knows what to check.

use std::fmt::Write as _;
use std::path::Path;

use super::learn::FIELD_MARKS;
use super::{learn, probes, FieldContext, FieldName, Layout, PartKind, Region};
use crate::adapter::reference::builtin_framing;
use crate::adapter::subprocess::SubprocessFraming;
use crate::adapter::{Framing, TargetError};
use crate::grammar::GrammarKind;
use crate::profile::{
    AdapterSpec, BodyEncoding, Capability, Delimiters, LoadedProfile, SubprocessSpec, TargetProfile,
};

/// Why no profile could be proposed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InitError {
    /// The adapter did not answer a calibration wrap.
    #[error("the adapter did not wrap the calibration content: {}", .0.diagnosis())]
    Wrap(TargetError),
    /// No delimiters could be recognised around the content.
    #[error("no delimiters recognised around the content in {framed:?}: write a profile with delimiters.grammar and delimiters.token and run `framecheck init PROFILE`")]
    NoDelimiters {
        /// The calibration frame.
        framed: String,
    },
    /// The layout could not be learned.
    #[error("{0}")]
    Layout(#[from] super::LayoutError),
    /// The profile's built-in target cannot be driven from `init`
    /// (`builtin: caller` is served by the process that starts framecheck).
    #[error("this profile's built-in target cannot be calibrated by `framecheck init`; only `reference`, `reference-nonce` and subprocess targets can")]
    NotInProcess,
    /// The proposal does not validate (a bug in `init`, reported as such).
    #[error("the proposed profile does not validate: {0}")]
    Invalid(String),
}

/// Proposes a profile for the adapter `command` (run in `cwd`).
pub fn propose_for_command(command: Vec<String>, cwd: &Path) -> Result<String, InitError> {
    let spec = SubprocessSpec {
        command,
        cwd: Some(cwd.to_path_buf()),
        env: Default::default(),
        timeout_ms: 5_000,
        mode: Default::default(),
        max_reply_bytes: 16 * 1024 * 1024,
    };
    let mut framing = SubprocessFraming::new(&spec, Path::new("."));
    let first = framing
        .wrap(&probes(&TargetProfile::reference()).requests()[0])
        .map_err(InitError::Wrap)?;
    let delimiters = guess_delimiters(&first).ok_or(InitError::NoDelimiters { framed: first })?;
    let profile = TargetProfile {
        name: "mine".into(),
        description: String::new(),
        language: String::new(),
        adapter: AdapterSpec::Subprocess(spec),
        delimiters,
        capabilities: vec![Capability::Wrap],
        ..TargetProfile::reference()
    };
    propose(&profile, &mut framing, true)
}

/// Proposes a profile from an existing one: its adapter and delimiters, the
/// rest learned.
pub fn propose_for_profile(loaded: &LoadedProfile) -> Result<String, InitError> {
    let builtin = match &loaded.profile.adapter {
        AdapterSpec::Builtin { builtin } => builtin_framing(builtin),
        AdapterSpec::Subprocess(_) => None,
    };
    let mut framing: Box<dyn Framing> = match (SubprocessFraming::from_profile(loaded), builtin) {
        (Some(f), _) => Box::new(f),
        (None, Some(b)) => b,
        (None, None) => return Err(InitError::NotInProcess),
    };
    propose(&loaded.profile, &mut *framing, false)
}

fn propose(
    base: &TargetProfile,
    framing: &mut dyn Framing,
    guessed: bool,
) -> Result<String, InitError> {
    let probes = probes(base);
    let mut wraps = Vec::new();
    for request in probes.requests() {
        wraps.push(framing.wrap(request).map_err(InitError::Wrap)?);
    }
    let layout = learn(base, &probes, &wraps)?;
    let reads = matches!(framing.read(&layout.sample.framed), Ok(Some(_)));
    let yaml = render(base, &layout, reads, guessed);
    TargetProfile::parse(&yaml).map_err(InitError::Invalid)?;
    Ok(yaml)
}

/// Guesses the grammar and token from the text around the calibration
/// content's first and last marker words.
pub fn guess_delimiters(framed: &str) -> Option<Delimiters> {
    let start = framed.find("fcbodya")?;
    let end = framed[start..].find("fcbodyz").map(|i| start + i)?;
    let (head, tail) = (&framed[..start], &framed[end..]);
    guess_tag(head, tail, '<', '>', GrammarKind::XmlTag)
        .or_else(|| guess_tag(head, tail, '[', ']', GrammarKind::BracketMarker))
        .or_else(|| guess_fence(head))
        .or_else(|| guess_begin_end(head, tail))
}

/// `<name …>` before and `</name>` after (or the bracket-marker twin): the
/// last opener before the content whose closer follows it. When a field
/// the framing writes (provenance, an attribute) sits outside that element
/// but inside an enclosing one (`<document><source>…</source>
/// <document_content>…</document_content></document>`), the frame is the
/// innermost element holding the fields too, and the element around the
/// content is its `inner` one: the fields are then judged as the frame's
/// header, not as text outside the frame.
fn guess_tag(
    head: &str,
    tail: &str,
    open: char,
    close: char,
    grammar: GrammarKind,
) -> Option<Delimiters> {
    let name_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':');
    // Elements around the content, innermost first: (name, opener offset,
    // end of the closer in the tail).
    let mut around: Vec<(String, usize, usize)> = Vec::new();
    for (at, _) in head
        .match_indices(open)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
    {
        let name: String = head[at + 1..]
            .chars()
            .take_while(|&c| name_char(c))
            .collect();
        let closer = format!("{open}/{name}{close}");
        if name.is_empty() || around.iter().any(|(n, _, _)| *n == name) {
            continue;
        }
        if let Some(end) = tail.find(&closer).map(|i| i + closer.len()) {
            around.push((name, at, end));
        }
    }
    let (innermost, _, _) = around.first()?;
    let first_field = FIELD_MARKS.iter().filter_map(|m| head.find(m)).min();
    let last_field = FIELD_MARKS.iter().filter_map(|m| tail.rfind(m)).max();
    let holds_fields = |&&(_, at, end): &&(String, usize, usize)| {
        first_field.is_none_or(|f| at < f) && last_field.is_none_or(|f| f < end)
    };
    let frame = around.iter().find(holds_fields).unwrap_or(&around[0]);
    let mut delimiters = Delimiters::simple(grammar, &frame.0);
    if frame.0 != *innermost {
        delimiters.inner = Some(innermost.clone());
    }
    Some(delimiters)
}

/// A fence line (3+ backticks or tildes, then an info string) right before
/// the content.
fn guess_fence(head: &str) -> Option<Delimiters> {
    let line = head.strip_suffix('\n')?.rsplit('\n').next()?;
    let run = line.chars().take_while(|&c| c == '`' || c == '~').count();
    (run >= 3).then(|| Delimiters::simple(GrammarKind::Fence, line[run..].trim()))
}

/// Marker lines: the line after the content holds `END` and a name that the
/// line before it holds too (`<<<NAME>>>` / `<<<END_NAME>>>`, `BEGIN NAME` /
/// `END NAME`).
fn guess_begin_end(head: &str, tail: &str) -> Option<Delimiters> {
    let close_line = tail.lines().map(str::trim).find(|l| l.contains("END"))?;
    let words = |l: &str| -> Vec<String> {
        l.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .filter(|w| !w.is_empty() && *w != "BEGIN" && *w != "END")
            .map(|w| w.trim_start_matches("END_").to_string())
            .collect()
    };
    // The nearest line before the content sharing a name with the END line
    // (header lines may sit between the marker and the content).
    let (open_line, token) = head.lines().rev().map(str::trim).find_map(|line| {
        let token = words(line)
            .into_iter()
            .find(|w| words(close_line).contains(w))?;
        Some((line, token))
    })?;
    let open = open_line.replacen(&token, "{token}", 1);
    let close = close_line.replacen(&token, "{token}", 1);
    Some(Delimiters {
        open: Some(open),
        close: Some(close),
        ..Delimiters::simple(GrammarKind::BeginEnd, &token)
    })
}

/// Writes the proposed profile as commented YAML.
fn render(base: &TargetProfile, layout: &Layout, reads: bool, guessed: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Proposed by `framecheck init`. Check every line marked GUESS;"
    );
    let _ = writeln!(out, "# `framecheck validate` accepts this file as it is.");
    let _ = writeln!(
        out,
        "# The layout framecheck learned (fixed text as written):"
    );
    for line in layout.template().lines() {
        let _ = writeln!(out, "#   {line}");
    }
    let _ = writeln!(out, "name: {}", base.name);
    if let AdapterSpec::Subprocess(spec) = &base.adapter {
        let command = serde_json::to_string(&spec.command).unwrap_or_default();
        let _ = writeln!(out, "adapter:\n  command: {command}");
        if let Some(cwd) = &spec.cwd {
            let _ = writeln!(
                out,
                "  cwd: {}  # relative to this file's directory once saved",
                yaml_str(&cwd.display().to_string())
            );
        }
        let _ = writeln!(out, "  timeout_ms: {}", spec.timeout_ms);
    } else if let AdapterSpec::Builtin { builtin } = &base.adapter {
        let _ = writeln!(out, "adapter: {{ builtin: {} }}", yaml_str(builtin));
    }
    write_delimiters(&mut out, &base.delimiters, guessed);
    write_header(&mut out, layout);
    write_body(&mut out, layout);
    let fields = fields_seen(layout);
    let kind_attr = super::learn::kind_attribute(&layout.sample.framed);
    let attrs_written = layout.head.iter().any(|p| {
        matches!(
            &p.kind,
            PartKind::Field {
                name: FieldName::Attributes,
                ..
            }
        )
    }) || fields
        .iter()
        .any(|(n, _, _)| matches!(n, FieldName::Attribute(_)));
    if let Some(kind) = &kind_attr {
        let _ = writeln!(out, "attributes: {{ on: outer, kind: {} }}", yaml_str(kind));
    } else {
        let _ = writeln!(out, "attributes: {{ on: outer }}");
    }
    let mut capabilities = vec!["wrap"];
    if reads {
        capabilities.push("read");
    }
    if attrs_written {
        capabilities.push("attributes");
    }
    if fields.iter().any(|(n, _, _)| *n == FieldName::Provenance) {
        capabilities.push("provenance");
    }
    if fields.iter().any(|(n, _, _)| *n == FieldName::Kind) || kind_attr.is_some() {
        capabilities.push("kind");
    }
    let _ = writeln!(
        out,
        "# Seen in calibration: which request fields reached the frame, and whether `read` answered."
    );
    let _ = writeln!(out, "capabilities: [{}]", capabilities.join(", "));
    out
}

fn write_delimiters(out: &mut String, d: &Delimiters, guessed: bool) {
    let mark = if guessed { "  # GUESS" } else { "" };
    let _ = writeln!(out, "delimiters:");
    let _ = writeln!(out, "  grammar: {}{mark}", d.grammar.name());
    let _ = writeln!(out, "  token: {}{mark}", yaml_str(&d.token));
    if let (Some(open), Some(close)) = (&d.open, &d.close) {
        let _ = writeln!(out, "  open: {}{mark}", yaml_str(open));
        let _ = writeln!(out, "  close: {}{mark}", yaml_str(close));
    }
    if let Some(inner) = &d.inner {
        let _ = writeln!(out, "  inner: {}{mark}", yaml_str(inner));
    }
    if let Some(nonce) = &d.nonce {
        // The profile's own declaration, as serde writes it.
        let spec = serde_json::to_string(nonce).unwrap_or_default();
        let _ = writeln!(out, "  nonce: {spec}");
    }
}

fn write_header(out: &mut String, layout: &Layout) {
    let header: String = layout
        .head
        .iter()
        .filter(|p| p.region == Region::Header)
        .map(|p| match &p.kind {
            PartKind::Fixed { text } => text.clone(),
            _ => "x".into(),
        })
        .collect();
    let lines: Vec<&str> = header.lines().collect();
    let separator = lines
        .iter()
        .rev()
        .find(|l| !l.trim().is_empty() && l.chars().all(|c| "-=_*".contains(c)) && l.len() >= 3);
    let names: Vec<(FieldName, String)> = fields_seen(layout)
        .into_iter()
        .filter_map(|(n, c, _)| match c {
            FieldContext::HeaderLine(line) => Some((n, line)),
            _ => None,
        })
        .collect();
    // Lines after the opener's own line, up to the content.
    let header_lines = lines.len().saturating_sub(1);
    let style = if let Some(sep) = separator {
        format!("{{ style: separator, separator: {}", yaml_str(sep))
    } else if header.contains("\n\n") || header.contains("\r\n\r\n") {
        "{ style: blank-line".to_string()
    } else if header_lines > 0 {
        format!("{{ style: lines, lines: {header_lines}")
    } else {
        "{ style: none".to_string()
    };
    let mut fields = Vec::new();
    for (name, line) in names {
        match name {
            FieldName::Provenance => fields.push(format!("provenance: {}", yaml_str(&line))),
            FieldName::Kind => fields.push(format!("kind: {}", yaml_str(&line))),
            _ => {}
        }
    }
    let fields = if fields.is_empty() {
        String::new()
    } else {
        format!(", fields: {{ {} }}", fields.join(", "))
    };
    let _ = writeln!(
        out,
        "header: {style}{fields} }}  # GUESS from the text between opener and content"
    );
}

fn write_body(out: &mut String, layout: &Layout) {
    let _ = writeln!(
        out,
        "# padding learned: before {:?}, after {:?}; declare body.padding only to override it.",
        layout.padding.lead, layout.padding.trail
    );
    let _ = writeln!(
        out,
        "body: {{ encoding: {} }}  # GUESS: the encoding under which the content was found",
        layout.encoding.name()
    );
    if layout.encoding != BodyEncoding::None {
        let _ = writeln!(
            out,
            "# If the reader decodes, declare it: reader: {{ returns: content, consumer: model }}"
        );
    }
}

/// Every field the layout saw, with how it is set.
fn fields_seen(layout: &Layout) -> Vec<(FieldName, FieldContext, ())> {
    layout
        .parts()
        .filter_map(|p| match &p.kind {
            PartKind::Field { name, context } => Some((name.clone(), context.clone(), ())),
            _ => None,
        })
        .collect()
}

/// A YAML double-quoted string.
fn yaml_str(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delimiters_are_guessed_from_the_calibration_frame() {
        let tag =
            guess_delimiters("Data: <x-data id=\"1\">\nfcbodya1 … fcbodyz1\n</x-data>").unwrap();
        assert_eq!(
            (tag.grammar, tag.token.as_str()),
            (GrammarKind::XmlTag, "x-data")
        );
        let marker = guess_delimiters("[PEER]\nfcbodya1 x fcbodyz1\n[/PEER]").unwrap();
        assert_eq!(marker.grammar, GrammarKind::BracketMarker);
        let fence = guess_delimiters("````text\nfcbodya1 x fcbodyz1\n````").unwrap();
        assert_eq!(
            (fence.grammar, fence.token.as_str()),
            (GrammarKind::Fence, "text")
        );
        let be =
            guess_delimiters("<<<EXTERNAL>>>\nfcbodya1 x fcbodyz1\n<<<END_EXTERNAL>>>").unwrap();
        assert_eq!(be.grammar, GrammarKind::BeginEnd);
        assert_eq!(be.open.as_deref(), Some("<<<{token}>>>"));
        assert_eq!(be.close.as_deref(), Some("<<<END_{token}>>>"));
        assert!(guess_delimiters("fcbodya1 x fcbodyz1").is_none());
    }

    #[test]
    fn the_frame_is_the_innermost_element_that_holds_the_fields_too() {
        // The provenance sits beside the content element: the frame is the
        // element around both, the content's element its inner one.
        let docs = "<documents>\n<document index=\"1\">\n<source>fcprovq7</source>\n\
                    <document_content>\nfcbodya1 x fcbodyz1\n</document_content>\n\
                    </document>\n</documents>";
        let d = guess_delimiters(docs).unwrap();
        assert_eq!(d.token, "document");
        assert_eq!(d.inner.as_deref(), Some("document_content"));
        // Fields inside the content's own element, or none at all: the
        // innermost element is the frame, as before.
        let own = "<outer>\n<doc source=\"fcprovq7\">\nfcbodya1 x fcbodyz1\n</doc>\n</outer>";
        let d = guess_delimiters(own).unwrap();
        assert_eq!((d.token.as_str(), d.inner), ("doc", None));
        let plain = "<outer><doc>fcbodya1 x fcbodyz1</doc></outer>";
        assert_eq!(guess_delimiters(plain).unwrap().token, "doc");
        // A field after the content, outside its element but inside the
        // enclosing one.
        let after = "<item><body>fcbodya1 x fcbodyz1</body><from>fcprovq7</from></item>";
        let d = guess_delimiters(after).unwrap();
        assert_eq!(
            (d.token.as_str(), d.inner.as_deref()),
            ("item", Some("body"))
        );
    }
}
