//! The experiments `init` runs after the layout is learned: what the
//! framing writes for empty and whitespace-only content, whether it frames
//! a list of items one frame each, what its reader returns, which names
//! besides its own it treats as structure, which attributes it writes, and
//! whether some plain content comes back with no frame at all.
//!
//! Each answers one profile field from the framing's own behaviour, and
//! leaves a note saying so; an experiment the framing does not answer (an
//! error, a refusal) leaves the field at its default and says that too.

use crate::adapter::{Framing, WrapRequest};
use framecheck_core::encoding::codec::Spelling;
use framecheck_core::layout::{Layout, PartKind, Probes, Region};
use framecheck_core::target::{ReadAnswer, Segment};
use framecheck_launch::profile::{
    Consumer, EmptyContent, Encoding, FrameCount, LineSemantics, ReaderReturns, TargetProfile,
};

/// What the experiments found.
#[derive(Debug, Clone, Default)]
pub(crate) struct Observed {
    /// `frame.empty`.
    pub empty: EmptyContent,
    /// `frame.count`.
    pub count: FrameCount,
    /// Whether the adapter answers `read` on its own frame.
    pub reads: bool,
    /// `reader.returns`, when it reads.
    pub returns: ReaderReturns,
    /// A parser when the framing's own reader shows one: it answers
    /// segments, or decodes markup (entities) to give the content back.
    /// Whether a model reads the output too no experiment shows
    /// (`audience`).
    pub consumer: Consumer,
    /// `reader.lines`: how the framing's own parser splits lines, when its
    /// segments show it.
    pub lines: LineSemantics,
    /// Element or marker names the framing writes itself besides its
    /// frame's (`<note>`): content must not forge them either.
    pub reserved: Vec<String>,
    /// The attribute names the framing writes, when it writes only some
    /// (`attributes.names`); `None` when it writes any name it is given.
    pub attribute_names: Option<Vec<String>>,
    /// No attribute the framing was given reached its frame, under the
    /// probe's key or any common one: the framing does not take
    /// attributes, whatever attribute-like text (a `kind`) its head holds.
    pub attributes_dropped: bool,
    /// One line per observation, for the proposal's comments.
    pub notes: Vec<String>,
    /// The layout was learned from plain content: the framing rewrote the
    /// probe content, so its encoding is unknown.
    pub plain_layout: bool,
    /// The encodings the framing chooses among per content, when plain
    /// one-line content came out unencoded where the probes were encoded.
    pub per_content: Option<Vec<Encoding>>,
    /// Attribute names the framing writes on its own opener, declared
    /// (`attributes.extra`) when the layout was learned from plain
    /// content: a run then learns no layout, so no own attribute either.
    pub own_attributes: Vec<String>,
}

/// Runs every experiment against `framing`.
pub(crate) fn run(
    base: &TargetProfile,
    framing: &mut dyn Framing,
    probes: &Probes,
    layout: &Layout,
) -> Observed {
    let mut observed = Observed::default();
    empty(framing, &probes.requests()[0], &mut observed);
    several(base, framing, probes, &mut observed);
    reader(framing, &probes.requests()[0], layout, &mut observed);
    reserved(base, layout, &probes.requests()[0].content, &mut observed);
    defanged(base, framing, &probes.requests()[0], &mut observed);
    attribute_names(base, framing, probes, layout, &mut observed);
    per_content(framing, probes, layout, &mut observed);
    unframed(framing, &probes.requests()[0], &mut observed);
    observed
}

/// Short plain content, for a framing that frames only longer content.
const SHORT: (&str, &str) = ("a short word", "fcshort ok");

/// Whether some plain contents come back as they are, with no frame (a
/// framing that frames only content above some length, or only several
/// lines): the profile is proposed from the framed outputs, which
/// calibration learned, and the note says which came back unframed, each of
/// which a run judges as `frame.absent` on its case (`runner::varying`).
fn unframed(framing: &mut dyn Framing, probe: &WrapRequest, observed: &mut Observed) {
    let contents = std::iter::once(SHORT).chain(crate::runner::plain::PLAIN);
    let mut unframed = Vec::new();
    let mut tried = 0;
    for (what, text) in contents {
        let request = WrapRequest {
            content: text.into(),
            ..probe.clone()
        };
        let Ok(out) = framing.wrap(&request) else {
            continue;
        };
        tried += 1;
        if crate::runner::varying::unframed(observed.empty, &request, &out) {
            unframed.push(what);
        }
    }
    if !unframed.is_empty() {
        observed.notes.push(format!(
            "some outputs came back unframed: {} of {tried} plain contents ({}) came back as \
             they are, with no frame; the profile describes the framed outputs, and a run \
             reports `frame.absent` on each case whose output is unframed",
            unframed.len(),
            unframed.join(", ")
        ));
    }
}

/// Whether the framing encodes only the content that needs it: plain
/// one-line content (words and spaces) is wrapped, and when the body is
/// that content as it is, where the layout's encoding would have changed
/// it (a JSON string's quotes), the framing chooses per content. The body
/// is compared as written, not decoded: a JSON decoder also reads a bare
/// word as a string, so decoding would not tell the two apart.
fn per_content(
    framing: &mut dyn Framing,
    probes: &Probes,
    layout: &Layout,
    observed: &mut Observed,
) {
    if !layout.per_content.is_empty() {
        // Calibration already found some probes as written and others
        // encoded (the layout's choice).
        observed.per_content = Some(layout.per_content.clone());
        observed.notes.push(format!(
            "body.encoding: per content, because some calibration probes came out as they are \
             and others {}; each output is judged in the first listed encoding that explains it",
            layout.encoding
        ));
        return;
    }
    let plain = probes.plain();
    let plain = &plain.requests()[0];
    let encoded =
        framecheck_core::encoding::encode(layout.encoding, &plain.content, layout.marking());
    // A quote leaves one line as it is: what tells is the frame around it.
    let quotes = layout
        .encoding
        .layers()
        .into_iter()
        .any(|e| e.codec().quotes_lines());
    if layout.encoding.is_none() || (encoded == plain.content && !quotes) {
        return;
    }
    let Ok(out) = framing.wrap(plain) else {
        return;
    };
    if quotes {
        // One line in another frame than the quote's, as it is (`«…»`
        // inline, a block for more): that output is no quote to leave.
        if layout.matches(&out).mismatch.is_some() && out.contains(&plain.content) {
            choose_per_content(layout, observed, "as it is, outside the quote,");
        }
        return;
    }
    if body_written(layout, &out) != Some(plain.content.as_str())
        || unmarked_spelling(layout.encoding, &plain.content)
    {
        return;
    }
    choose_per_content(layout, observed, "as it is");
}

/// Whether `content` as it is, is one writer's spelling of it in
/// `encoding`: an encoding that puts no quotes of its own around the body
/// and whose writers differ in what they leave unescaped
/// ([`Spelling::Loose`]; a `percent` writer keeping spaces, as `quote`
/// with `safe=" "` does) reads plain words back as themselves, so a plain
/// body shows no choice. A JSON or Python string shows one by its quotes.
fn unmarked_spelling(encoding: Encoding, content: &str) -> bool {
    matches!(
        encoding.outer.codec().spelling(),
        Spelling::Loose { quotes: [], .. }
    ) && framecheck_core::encoding::faithful(encoding, content, content, "")
}

/// Declares the choice per content: as written first, then the layout's
/// encoding; `how` says how plain one-line content came out.
fn choose_per_content(layout: &Layout, observed: &mut Observed, how: &str) {
    observed.per_content = Some(vec![Encoding::default(), layout.encoding]);
    observed.notes.push(format!(
        "body.encoding: per content, because plain one-line content came out {how} while \
         the probes (quotes, `&`, `<`, a line break) came out {}; each output is judged in \
         the first listed encoding that explains it",
        layout.encoding
    ));
}

/// Metadata keys retrieval and tool framings commonly write.
const COMMON_KEYS: [&str; 20] = [
    "title",
    "source",
    "url",
    "id",
    "name",
    "section",
    "author",
    "path",
    "uri",
    "type",
    "date",
    "file",
    "index",
    "subject",
    "sender",
    "from",
    "channel",
    "tool",
    "query",
    "description",
];

/// When the probe's attribute did not reach the frame, a wrap with the
/// common metadata keys, each with its own marker value: the keys whose
/// values appear are the names the framing writes (`attributes.names`).
fn attribute_names(
    base: &TargetProfile,
    framing: &mut dyn Framing,
    probes: &Probes,
    layout: &Layout,
    observed: &mut Observed,
) {
    let probe = &probes.requests()[0];
    let Some(value) = probe.attributes.values().next() else {
        return;
    };
    if layout.sample.framed.contains(value.as_str()) {
        // The probe used a name the profile declares: the set stands.
        observed.attribute_names = base.attributes.names.clone();
        return;
    }
    let marker = |i: usize| format!("fcname{i}q");
    let request = WrapRequest {
        attributes: COMMON_KEYS
            .iter()
            .enumerate()
            .map(|(i, k)| (k.to_string(), marker(i)))
            .collect(),
        ..probe.clone()
    };
    let Ok(out) = framing.wrap(&request) else {
        return;
    };
    let mut found: Vec<(usize, String)> = COMMON_KEYS
        .iter()
        .enumerate()
        .filter_map(|(i, k)| out.find(&marker(i)).map(|at| (at, k.to_string())))
        .collect();
    if found.is_empty() {
        observed.notes.push(
            "attributes: the framing wrote none of the attributes it was given; if it writes a \
             fixed set, declare attributes.names"
                .into(),
        );
        observed.attributes_dropped = true;
        return;
    }
    found.sort();
    let names: Vec<String> = found.into_iter().map(|(_, k)| k).collect();
    observed.notes.push(format!(
        "attributes.names: {names:?}, the keys among common metadata names whose values the \
         framing wrote (it dropped the probe's own key)"
    ));
    observed.attribute_names = Some(names);
}

/// Names of elements (or bracket markers) the framing writes around the
/// content besides its own delimiters: siblings like `<note>` or
/// `<source>`, which a forgery in the content could pass for. `sent` is
/// the probe content the layout's sample holds.
fn reserved(base: &TargetProfile, layout: &Layout, sent: &str, observed: &mut Observed) {
    let Some((open, close)) = base.delimiters.grammar.shape().element_brackets() else {
        return;
    };
    // Only the framing's constant text outside the frame: a name the probe
    // content carries may be a quote of it, and an element inside the
    // frame (a header's `<note>`) is read by the census as a forgery once
    // reserved, so it is said, not declared. The content as sent counts
    // too: a title line echoing it outside the frame writes its `<i>` raw
    // where the body escapes it.
    let probe = &layout.sample.framed[layout.sample.slot.clone()];
    let own = own_tokens(base);
    let mut fixed = Vec::new();
    for part in layout.parts() {
        match (&part.kind, part.region) {
            (PartKind::Fixed { text }, region) if region.is_outside() => fixed.push(text.as_str()),
            (PartKind::Fixed { text }, Region::Header) if foreign_markup(text, open, &own) => {
                observed.notes.push(format!(
                    "the header holds the framing's own markup ({:?}): declare its names in \
                     delimiters.reserved only if content must not forge them",
                    text.trim()
                ));
            }
            _ => {}
        }
    }
    for text in fixed {
        for (at, _) in text.match_indices(open) {
            let rest = text[at + 1..].trim_start_matches('/');
            let name: String = rest
                .chars()
                .take_while(|&c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
                .collect();
            let named = rest[name.len()..].starts_with([close, ' ', '\n', '/']);
            let fresh = !own.contains(&name.to_ascii_lowercase())
                && !observed.reserved.contains(&name)
                && ![probe, sent]
                    .iter()
                    .any(|p| p.contains(&format!("{open}{name}")));
            if named && fresh && name.chars().any(|c| c.is_ascii_alphabetic()) {
                observed.notes.push(format!(
                    "reserved: {name:?}, an element the framing writes itself beside its frame"
                ));
                observed.reserved.push(name);
            }
        }
    }
}

/// Whether `text` opens an element (or marker) that is none of the frame's
/// own: an inner element's opener in the header is the frame's.
fn foreign_markup(text: &str, open: char, own: &[String]) -> bool {
    let lower = text.to_ascii_lowercase();
    let name_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.');
    lower.match_indices(open).any(|(at, _)| {
        let rest = lower[at + 1..].trim_start_matches('/');
        !own.iter().any(|t| {
            rest.strip_prefix(t.as_str())
                .is_some_and(|after| !after.starts_with(name_char))
        })
    })
}

/// The frame's own tokens, lowercase, and each without its nonce: a closer
/// that lacks the nonce is the frame's (judged by the nonce checks), not a
/// sibling.
fn own_tokens(base: &TargetProfile) -> Vec<String> {
    base.delimiters
        .all_tokens()
        .iter()
        .flat_map(|t| {
            let bare = t.replace(framecheck_core::grammar::token::NONCE, "");
            [
                t.to_string(),
                bare.trim_matches(['-', '_', '.', ':']).to_string(),
            ]
        })
        .map(|t| t.to_ascii_lowercase())
        .collect()
}

/// Element names a framing may treat as structure besides its frame's:
/// the chat roles and the names prompt templates give their sections.
const STRUCTURE_NAMES: [&str; 14] = [
    "system",
    "user",
    "assistant",
    "developer",
    "tool",
    "human",
    "ai",
    "model",
    "function",
    "instructions",
    "context",
    "document",
    "message",
    "data",
];

/// A name no framing treats as structure: the experiment's control.
const CONTROL_NAME: &str = "fcplainq";

/// Content holding `<name>…</name>` for each structure name and for the
/// control: a name whose opener the framing alters while it writes the
/// control's as given is one its own neutraliser treats as structure, so
/// content must not forge it (`delimiters.reserved`). A framing that
/// alters every element (an entity encoding) or none shows nothing.
fn defanged(
    base: &TargetProfile,
    framing: &mut dyn Framing,
    probe: &WrapRequest,
    observed: &mut Observed,
) {
    let Some((open, close)) = base.delimiters.grammar.shape().element_brackets() else {
        return;
    };
    let own = own_tokens(base);
    let element = |name: &str| format!("{open}{name}{close}x{open}/{name}{close}");
    let names: Vec<&str> = STRUCTURE_NAMES
        .into_iter()
        .filter(|n| !own.contains(&n.to_string()) && !observed.reserved.iter().any(|r| r == n))
        .collect();
    let content = names
        .iter()
        .chain([&CONTROL_NAME])
        .map(|n| element(n))
        .collect::<Vec<_>>()
        .join(" ");
    let request = WrapRequest {
        content,
        ..probe.clone()
    };
    let Ok(out) = framing.wrap(&request) else {
        return;
    };
    if !out.contains(&element(CONTROL_NAME)) {
        return;
    }
    for name in names {
        if !out.contains(&format!("{open}{name}{close}")) {
            observed.notes.push(format!(
                "reserved: {name:?}, because the framing neutralised {open}{name}{close} in \
                 content while it wrote {open}{CONTROL_NAME}{close} as given"
            ));
            observed.reserved.push(name.to_string());
        }
    }
}

/// Empty content, then whitespace-only content: an empty output for the
/// first is `frame.empty: nothing`, for both `frame.empty: blank` (the
/// framing skips blank content; nothing of it is lost). Whitespace that
/// comes back as it was given is that content unframed (a framing that
/// frames only some content), not skipped: it is no `blank`, and the empty
/// output for empty content is then that same unframing, no promise of
/// `nothing`: `frame.empty` stays `frame`, and a run reports it as it
/// reports every other unframed output (`frame.absent`).
fn empty(framing: &mut dyn Framing, probe: &WrapRequest, observed: &mut Observed) {
    let with = |content: &str| WrapRequest {
        content: content.into(),
        ..probe.clone()
    };
    let Ok(empty) = framing.wrap(&with("")) else {
        observed
            .notes
            .push("frame.empty: the framing refused or failed on empty content".into());
        return;
    };
    if !empty.trim().is_empty() {
        return;
    }
    let blank = " \t\n ";
    let blank_out = framing.wrap(&with(blank));
    if matches!(&blank_out, Ok(out) if out == blank) {
        observed.notes.push(
            "frame.empty: frame, because whitespace-only content came back as it was given, \
             unframed: the framing frames only some content, and its empty output for empty \
             content is that content unframed too (a run reports it, frame.absent)"
                .into(),
        );
    } else if matches!(blank_out, Ok(out) if out.trim().is_empty()) {
        observed.empty = EmptyContent::Blank;
        observed.notes.push(
            "frame.empty: blank, because empty and whitespace-only content both gave an \
             empty output; declare `nothing` if whitespace-only content must be framed \
             (dropping it is then a frame.shape finding)"
                .into(),
        );
    } else {
        observed.empty = EmptyContent::Nothing;
        observed.notes.push(
            "frame.empty: nothing, because empty content gave an empty output (whitespace-only \
             content was framed)"
                .into(),
        );
    }
}

/// A list of two probe items through `wrap-many`: one frame per item, in
/// order, is `frame.count: several`.
fn several(
    base: &TargetProfile,
    framing: &mut dyn Framing,
    probes: &Probes,
    observed: &mut Observed,
) {
    let items = [probes.requests()[0].clone(), probes.requests()[2].clone()];
    let Ok(out) = framing.wrap_many(&items) else {
        return;
    };
    let token = base
        .delimiters
        .token
        .replace(framecheck_core::grammar::token::NONCE, "");
    let first = out.find("fcbodya1");
    let second = out.find("fcbodya2");
    let framed_apart = match (first, second) {
        (Some(a), Some(b)) if a < b => out[a..b].contains(token.as_str()),
        _ => false,
    };
    if framed_apart {
        observed.count = FrameCount::Several;
        observed.notes.push(
            "frame.count: several, because wrap-many framed two items apart, in order".into(),
        );
    }
}

/// A reader that answered the framing's own frame with segments: it parses
/// the frame (a program reads it), and the structure is learned from that
/// answer at every run, not written into the profile.
fn segments_reader(segments: &[Segment], observed: &mut Observed) {
    observed.reads = true;
    observed.returns = ReaderReturns::Segments;
    observed.consumer = Consumer::Parser;
    observed.notes.push(format!(
        "reader.returns: segments, and a parser among the consumers, because read answered the \
         framing's own frame with {} segments (roles {}); the structure a benign frame reads \
         back as is learned from that answer at every run",
        segments.len(),
        segments
            .iter()
            .map(|s| s.role.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    ));
}

/// Where the framing's own parser splits lines, from its frame read again
/// with one line feed at a time written otherwise: a parser that splits at
/// U+2028 (as `str.splitlines()` does) reads the same segments when that
/// LF is a U+2028 and other segments when it is a space; one that splits
/// at LF alone reads other segments (or none) either way, and one that
/// reads the same segments with the LF a space does not split there at all
/// (an XML parser), so no line break is structure to it.
fn line_semantics(
    framing: &mut dyn Framing,
    framed: &str,
    segments: &[Segment],
    observed: &mut Observed,
) {
    /// At most this many line feeds are tried: a frame's own structure
    /// shows in its first lines.
    const TRIED: usize = 16;
    let benign: Vec<_> = segments.iter().map(|s| (&s.role, &s.field)).collect();
    let mut same = |text: String| match framing.read_answer(&text) {
        Ok(ReadAnswer::Segments(s)) => s
            .iter()
            .map(|s| (&s.role, &s.field))
            .eq(benign.iter().copied()),
        _ => false,
    };
    let splits = framed.match_indices('\n').take(TRIED).any(|(at, _)| {
        let written = |by: &str| format!("{}{by}{}", &framed[..at], &framed[at + 1..]);
        same(written("\u{2028}")) && !same(written(" "))
    });
    if splits {
        observed.lines = LineSemantics::Unicode;
        observed.notes.push(
            "reader.lines: unicode, because the reader read the framing's own frame with one of \
             its line feeds written as U+2028 into the same segments, and written as a space into \
             others: it splits lines at U+2028 as str.splitlines() does"
                .into(),
        );
    }
}

/// The reader on the framing's own frame: the body as written, or the
/// decoded content, or segments. A reader that rejects its framing's own
/// frame of the calibration content is still a reader (`read` answered, and
/// a run reports the rejection), so what it returns is learned from the
/// frame of a plainer content it reads ([`plainer_read_back`]).
fn reader(
    framing: &mut dyn Framing,
    probe: &WrapRequest,
    layout: &Layout,
    observed: &mut Observed,
) {
    let sample = &layout.sample;
    let read_back = match framing.read_answer(&sample.framed) {
        Ok(ReadAnswer::Rejected) => {
            observed.reads = true;
            let Some(read_back) = plainer_read_back(framing, probe, layout) else {
                observed.notes.push(
                    "capabilities: read, because the adapter answers read, although its reader \
                     rejected the framing's own frame of every calibration content tried (a run \
                     reports each rejection)"
                        .into(),
                );
                return;
            };
            observed.notes.push(format!(
                "capabilities: read, because the adapter answers read; its reader rejected the \
                 framing's own frame of the calibration content and read the frame of that \
                 content without {:?}, from which what it returns is learned (a run reports \
                 the rejection)",
                read_back.without
            ));
            read_back
        }
        Ok(answer) => ReadBack {
            framed: sample.framed.clone(),
            content: probe.content.clone(),
            written: Some(sample.framed[sample.slot.clone()].to_string()),
            answer,
            without: String::new(),
        },
        // No reader: the adapter does not answer read.
        Err(_) => return,
    };
    read_body(framing, probe, layout, read_back, observed);
}

/// A frame the reader answered: the framed text, the content it framed,
/// the body as written where the layout finds it, the reader's answer,
/// and which characters the content was stripped of (none for the
/// calibration sample).
struct ReadBack {
    framed: String,
    content: String,
    written: Option<String>,
    answer: ReadAnswer,
    without: String,
}

/// The calibration content stripped of one of its characters that are not
/// letters, digits or spaces at a time (a quote, `&`, `<`, a line break),
/// then of all of them, each wrapped and read back: the first frame the
/// reader answers, with its body as the layout finds it. A reader that is
/// strict where its writer is not (a raw `"` ends the value its parser
/// reads) rejects only the frames holding what the writer left raw.
fn plainer_read_back(
    framing: &mut dyn Framing,
    probe: &WrapRequest,
    layout: &Layout,
) -> Option<ReadBack> {
    let mut special: Vec<char> = probe
        .content
        .chars()
        .filter(|c| !c.is_alphanumeric() && *c != ' ')
        .collect();
    special.sort_unstable();
    special.dedup();
    let each = special.iter().map(|c| vec![*c]);
    for without in each.chain(std::iter::once(special.clone())) {
        let content: String = probe
            .content
            .chars()
            .filter(|c| !without.contains(c))
            .collect();
        let request = WrapRequest {
            content: content.clone(),
            ..probe.clone()
        };
        let Ok(framed) = framing.wrap(&request) else {
            continue;
        };
        match framing.read_answer(&framed) {
            Ok(ReadAnswer::Rejected) | Err(_) => continue,
            Ok(answer) => {
                return Some(ReadBack {
                    written: body_written(layout, &framed).map(str::to_string),
                    framed,
                    content,
                    answer,
                    without: without.iter().collect(),
                })
            }
        }
    }
    None
}

/// The body of `framed` as the layout finds it, padding stripped; `None`
/// when the output does not fit the layout.
fn body_written<'a>(layout: &Layout, framed: &'a str) -> Option<&'a str> {
    let matched = layout.matches(framed);
    if matched.mismatch.is_some() {
        return None;
    }
    let body = &framed[matched.content];
    let body = body
        .strip_prefix(layout.padding.lead.as_str())
        .unwrap_or(body);
    Some(
        body.strip_suffix(layout.padding.trail.as_str())
            .unwrap_or(body),
    )
}

/// What the reader's answer on `read_back` shows: segments (a parser),
/// the original content decoded from a body written otherwise (and a
/// parser when it decodes markup), or the body as written.
fn read_body(
    framing: &mut dyn Framing,
    probe: &WrapRequest,
    layout: &Layout,
    read_back: ReadBack,
    observed: &mut Observed,
) {
    let body = match read_back.answer {
        ReadAnswer::Body(body) => body,
        ReadAnswer::Segments(segments) => {
            segments_reader(&segments, observed);
            return line_semantics(framing, &read_back.framed, &segments, observed);
        }
        ReadAnswer::Rejected => return,
    };
    observed.reads = true;
    let content = &read_back.content;
    let written_otherwise = read_back.written.as_deref() != Some(content.as_str());
    let decodes = if written_otherwise {
        body.trim() == content.trim()
    } else {
        decodes_when_escaped(framing, probe, content, layout)
    };
    if decodes || decodes_unknown_rewrite(framing, probe, &body) {
        observed.returns = ReaderReturns::Content;
        let written = if layout.encoding.is_none() {
            "in a way no body encoding explains".to_string()
        } else {
            layout.encoding.to_string()
        };
        observed.notes.push(format!(
            "reader.returns: content, because read gave back the original content while the \
             body is written {written}"
        ));
        // The framing ships a program that parses its markup back into the
        // content: the frame is written for that parser, which reads
        // `&lt;` as text, where a model may read it as `<`.
        if layout
            .encoding
            .layers()
            .iter()
            .any(|l| l.codec().model_may_decode())
        {
            observed.consumer = Consumer::Parser;
            observed.notes.push(
                "reader: a parser among the consumers, because the framing's own reader decodes \
                 the entities of its markup"
                    .into(),
            );
        }
    } else if !layout.encoding.is_none() {
        observed
            .notes
            .push("reader.returns: body, because read gave back the body as written".into());
    }
}

/// Characters body encodings write otherwise (a backslash, quotes, a
/// backtick, markup, a line break), for [`decodes_when_escaped`].
const OFTEN_ESCAPED: [char; 7] = ['\\', '"', '\'', '`', '&', '<', '\n'];

/// Whether the reader decodes what its writer escapes, asked when the
/// calibration body was written as the content (nothing in it escaped),
/// so that its read-back says nothing either way: `content` with one of
/// [`OFTEN_ESCAPED`] after its first word, wrapped; when the writer does
/// not write that character as sent and the reader gives the content
/// back, it returns the content. Taken for one returning the body, every
/// case's decoded content would be judged as a body it let through.
fn decodes_when_escaped(
    framing: &mut dyn Framing,
    probe: &WrapRequest,
    content: &str,
    layout: &Layout,
) -> bool {
    if layout.encoding.is_none() || !content.contains(' ') {
        return false;
    }
    for c in OFTEN_ESCAPED {
        let sent = content.replacen(' ', &format!(" {c} "), 1);
        let request = WrapRequest {
            content: sent.clone(),
            ..probe.clone()
        };
        let Ok(framed) = framing.wrap(&request) else {
            continue;
        };
        if framed.contains(&sent) {
            continue;
        }
        return matches!(framing.read_answer(&framed), Ok(ReadAnswer::Body(b)) if b.trim() == sent.trim());
    }
    false
}

/// Whether the reader undoes a rewrite no encoding explains: the layout
/// was learned from plain content (`body`, read from its sample, is not the
/// probe's), yet the framing's own frame of the probe, which does not hold
/// the probe's content as sent, reads back as exactly that content. Such a
/// reader decodes (percent-encoding, say), so it returns the content; taken
/// for one returning the body, every case's decoded content would be judged
/// as a body the reader let through.
fn decodes_unknown_rewrite(framing: &mut dyn Framing, probe: &WrapRequest, body: &str) -> bool {
    if body.trim() == probe.content.trim() {
        return false;
    }
    let Ok(framed) = framing.wrap(probe) else {
        return false;
    };
    !framed.contains(probe.content.as_str())
        && matches!(framing.read_answer(&framed), Ok(ReadAnswer::Body(b)) if b == probe.content)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adapter::TargetError;

    /// Frames content of `min` characters or more; shorter content comes
    /// back as it was given, unframed; blank content gives `blank_out`.
    struct Gated {
        min: usize,
        blank_out: Option<&'static str>,
    }

    impl Framing for Gated {
        fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
            let content = &request.content;
            if let Some(out) = self.blank_out.filter(|_| content.trim().is_empty()) {
                return Ok(out.to_string());
            }
            Ok(if content.chars().count() < self.min {
                content.clone()
            } else {
                format!("<t>\n{content}\n</t>")
            })
        }
        fn read(&mut self, _: &str) -> Result<Option<String>, TargetError> {
            Ok(None)
        }
    }

    fn observed_empty(framing: &mut Gated) -> EmptyContent {
        let mut observed = Observed::default();
        empty(framing, &WrapRequest::default(), &mut observed);
        observed.empty
    }

    /// Whitespace given back unframed is not skipped: only an output with
    /// nothing of it (empty, or other whitespace) is `blank` (issue 57).
    /// Nor is the empty output for empty content then `nothing`: it is the
    /// same content unframed (varying/broken_length_gated's hand profile
    /// keeps `frame.empty: frame`, and its `benign-empty-content` fails
    /// `frame.absent`, which `nothing` accepted).
    #[test]
    fn whitespace_given_back_as_it_was_is_not_blank() {
        let mut gated = Gated {
            min: 40,
            blank_out: None,
        };
        assert_eq!(observed_empty(&mut gated), EmptyContent::Frame);
        for out in ["", "\n"] {
            let mut skips = Gated {
                min: 0,
                blank_out: Some(out),
            };
            assert_eq!(observed_empty(&mut skips), EmptyContent::Blank, "{out:?}");
        }
    }
}
