//! Grammar `section`: open-only section markers, where a section ends where
//! the next marker begins (issue 32).
//!
//! A framing of this kind writes no closer: `[[ ## context ## ]]` opens the
//! content's section and the next marker (`[[ ## question ## ]]`) or the end
//! of the text ends it. The marker's shape is one of a closed set of styles
//! ([`SectionMarker`]), declared in the profile as `delimiters.marker`:
//!
//! - `field-marker`: `[[ ## name ## ]]`, first on its line (after spaces),
//!   any word as the name, text after it on the line belonging to the
//!   section. The shape is distinctive, and a consumer that splits at it
//!   (a field adapter's parser) splits at every name, so every name is a
//!   marker.
//! - `heading`: a Markdown heading, up to three columns of indentation,
//!   one to six `#`,
//!   spaces, the name, then nothing but spaces or a colon on its line.
//! - `label`: `Name:` first on its line, the value after the colon.
//!
//! A heading's or label's name may be a phrase (`Execution logs:`, `Last
//! output from code snippet:`): words joined by single spaces in the
//! declaration. A heading's name is its whole text, so it may hold
//! punctuation too (`#### Retrieved page (untrusted)`). The byte readers compare that one space; the Unicode
//! reader reads any run of spaces and tabs between the words as the same
//! name. A field marker's name is one word, as its parser splits it.
//!
//! Headings and labels are ordinary prose in most text, so only the
//! declared names are markers: the token (the content's section) and the
//! `reserved` names (the framing's other sections, and the roles its
//! consumer gives, `system`). A marker is live only at the start of a line
//! as the reader splits lines (a Unicode reader also at U+2028, NEL, VT,
//! FF), its characters folded by the reader: the same text in the middle
//! of a line is content, never a finding.
//!
//! A marker naming the token opens a section (the frame's opener); any
//! other marker ends the content's section, so it is reported as the
//! outer token's closer: what a reader inside the frame takes for the end.

use serde::{Deserialize, Serialize};

use super::token::{is_token_char, match_token, COUNTER};
use super::{
    Around, DelimiterKind, Delimiters, Extras, Fields, ForgedLines, Form, Grammar, GrammarAttack,
    GrammarError, GrammarKind, Guess, LiveDelimiter, Piece, Shape, Spelling, Vocabulary, MASK,
};
use crate::level::ReaderLevel;
use crate::reader::Folded;

/// How a section marker is spelled: the profile's `delimiters.marker`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SectionMarker {
    /// `[[ ## name ## ]]` (a field adapter's marker), any word as the name.
    FieldMarker,
    /// A Markdown heading naming a declared section: `### Context`.
    Heading,
    /// A declared name and a colon first on a line: `Context: value`.
    Label,
}

impl SectionMarker {
    /// Every style.
    pub const ALL: [SectionMarker; 3] = [
        SectionMarker::FieldMarker,
        SectionMarker::Heading,
        SectionMarker::Label,
    ];

    /// The stable name, as written in profiles.
    pub fn name(self) -> &'static str {
        match self {
            SectionMarker::FieldMarker => "field-marker",
            SectionMarker::Heading => "heading",
            SectionMarker::Label => "label",
        }
    }
}

/// The name a rendered closer uses when no other section is declared: a
/// field-marker reader splits at any name.
const NEXT_NAME: &str = "next";

const ATTACKS: &[GrammarAttack] = &[
    GrammarAttack {
        case: "section-forged-next-marker",
        what: "a marker line of another section ends the content's section early",
    },
    GrammarAttack {
        case: "section-forged-own-marker",
        what: "a second marker of the content's own section opens a forged one",
    },
    GrammarAttack {
        case: "section-marker-indented",
        what: "an indented marker line still starts a section for a parser that strips lines",
    },
    GrammarAttack {
        case: "section-forged-role-marker",
        what: "a marker naming a role (system) gives the attacker's text that role",
    },
];

/// The `section` grammar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Section {
    vocabulary: Vocabulary,
    style: SectionMarker,
}

/// A marker found on one line, in folded indices.
#[derive(Debug, Clone, Copy)]
struct Found {
    start: usize,
    name: (usize, usize),
    end: usize,
}

impl Section {
    /// The grammar over `vocabulary` in marker style `style`.
    pub(super) fn new(vocabulary: Vocabulary, style: SectionMarker) -> Section {
        Section { vocabulary, style }
    }

    /// The marker on folded characters `from..to` (one line), if any.
    fn marker_on(&self, folded: &Folded<'_>, from: usize, to: usize) -> Option<Found> {
        let spaces = |mut i: usize| {
            while i < to && matches!(folded.ch(i), Some(' ' | '\t')) {
                i += 1;
            }
            i
        };
        let start = spaces(from);
        match self.style {
            SectionMarker::FieldMarker => {
                let i = literal(folded, start, to, "[[")?;
                let i = literal(folded, some_spaces(folded, i, to)?, to, "##")?;
                let name_start = some_spaces(folded, i, to)?;
                let name_end = word_end(folded, name_start, to, false)?;
                let i = literal(folded, some_spaces(folded, name_end, to)?, to, "##")?;
                let end = literal(folded, some_spaces(folded, i, to)?, to, "]]")?;
                Some(Found {
                    start,
                    name: (name_start, name_end),
                    end,
                })
            }
            SectionMarker::Heading => {
                // CommonMark: up to three columns of indentation, a tab
                // advancing to the next multiple of four.
                let columns = (from..start).fold(0, |col, i| match folded.ch(i) {
                    Some('\t') => col + 4 - col % 4,
                    _ => col + 1,
                });
                if columns > 3 {
                    return None;
                }
                let mut i = start;
                while i < to && folded.ch(i) == Some('#') {
                    i += 1;
                }
                if !(1..=6).contains(&(i - start)) {
                    return None;
                }
                let name_start = some_spaces(folded, i, to)?;
                let name_end = heading_text_end(folded, name_start, to)?;
                Some(Found {
                    start,
                    name: (name_start, name_end),
                    end: name_end,
                })
            }
            SectionMarker::Label => {
                let name_end = phrase_end(folded, start, to)?;
                let colon = spaces(name_end);
                (colon < to && folded.ch(colon) == Some(':')).then_some(Found {
                    start,
                    name: (start, name_end),
                    end: colon + 1,
                })
            }
        }
    }

    /// The declared token the name at `name` spells exactly, if any, with
    /// the nonce span of the match.
    fn declared(
        &self,
        folded: &Folded<'_>,
        (start, end): (usize, usize),
    ) -> Option<(usize, Option<(usize, usize)>)> {
        self.vocabulary
            .tokens
            .iter()
            .enumerate()
            .find_map(|(index, token)| {
                let m = match_token(folded, start, token, self.vocabulary.nonce.as_ref())?;
                (m.end == end).then_some((index, m.nonce))
            })
    }

    /// A marker spelled with the name pieces `name`.
    fn marker(&self, name: Vec<Piece>) -> Spelling {
        let mut s = Spelling::default();
        let punct = |s: &mut Spelling, text: &str| s.0.extend(text.chars().map(Piece::Punct));
        match self.style {
            SectionMarker::FieldMarker => {
                punct(&mut s, "[[");
                s.push(Piece::Space(" ".into()));
                punct(&mut s, "##");
                s.push(Piece::Space(" ".into()));
                s.0.extend(name);
                s.push(Piece::Space(" ".into()));
                punct(&mut s, "##");
                s.push(Piece::Space(" ".into()));
                punct(&mut s, "]]");
            }
            SectionMarker::Heading => {
                punct(&mut s, "###");
                s.push(Piece::Space(" ".into()));
                s.0.extend(name);
            }
            SectionMarker::Label => {
                s.0.extend(name);
                punct(&mut s, ":");
            }
        }
        s
    }
}

/// Folded index past `text` at `i`, staying before `to`.
fn literal(folded: &Folded<'_>, i: usize, to: usize, text: &str) -> Option<usize> {
    let needle: Vec<char> = text.chars().collect();
    (i + needle.len() <= to && folded.matches_at(i, &needle)).then_some(i + needle.len())
}

/// Folded index past one or more spaces at `i`; `None` without one.
fn some_spaces(folded: &Folded<'_>, i: usize, to: usize) -> Option<usize> {
    let mut j = i;
    while j < to && matches!(folded.ch(j), Some(' ' | '\t')) {
        j += 1;
    }
    (j > i).then_some(j)
}

/// Folded index past a word at `i` (letters, digits, `_`, and `-` when
/// `hyphen`); `None` when no word starts there. Letters and digits are
/// ASCII for the exact and case-insensitive readers (a byte parser's
/// `[A-Za-z0-9_]`: a circled or accented name is not its marker); the
/// Unicode reader, a model, reads a word in any script.
fn word_end(folded: &Folded<'_>, i: usize, to: usize, hyphen: bool) -> Option<usize> {
    let any_script = folded.reader.level() == ReaderLevel::Unicode;
    let letter = |c: char| {
        if any_script {
            c.is_alphanumeric()
        } else {
            c.is_ascii_alphanumeric()
        }
    };
    let mut j = i;
    while j < to
        && folded
            .ch(j)
            .is_some_and(|c| letter(c) || c == '_' || (hyphen && c == '-'))
    {
        j += 1;
    }
    (j > i).then_some(j)
}

/// Folded index past a heading's text that starts at `from`: the rest of
/// its line up to `to`, less the spaces after it and one colon after that
/// (`### Task:`). A Markdown heading's text is its whole line, punctuation
/// and all (`#### Retrieved page (untrusted)`); whether that text is a
/// declared name is the token matcher's to say, which must then end where
/// the text does. `None` when nothing is left.
fn heading_text_end(folded: &Folded<'_>, from: usize, to: usize) -> Option<usize> {
    let trim = |mut end: usize| {
        while end > from && matches!(folded.ch(end - 1), Some(' ' | '\t')) {
            end -= 1;
        }
        end
    };
    let mut end = trim(to);
    if end > from && folded.ch(end - 1) == Some(':') {
        end = trim(end - 1);
    }
    (end > from).then_some(end)
}

/// Folded index past a phrase at `i`: words (hyphens allowed) joined by
/// runs of spaces, the spaces after the last word left out. A heading or
/// label names its section in prose (`Last output from code snippet:`);
/// whether the phrase is a declared name, and how its spaces compare, is
/// the token matcher's to say.
fn phrase_end(folded: &Folded<'_>, i: usize, to: usize) -> Option<usize> {
    let mut end = word_end(folded, i, to, true)?;
    while let Some(next) = some_spaces(folded, end, to).and_then(|j| word_end(folded, j, to, true))
    {
        end = next;
    }
    Some(end)
}

/// The `section` shape.
pub(super) struct SectionShape;

impl Shape for SectionShape {
    fn fields(&self) -> Fields {
        Fields {
            // The names of the framing's other sections.
            inner_tokens: true,
            marker: true,
            // Labels and headings name sections in prose: `Execution logs:`.
            phrase_tokens: true,
            // `Document 1:` … `Document 3:`: a label that numbers items.
            counter_tokens: true,
            ..Fields::default()
        }
    }

    fn build(
        &self,
        vocabulary: Vocabulary,
        extras: Extras<'_>,
    ) -> Result<Box<dyn Grammar>, GrammarError> {
        let style = extras.marker.ok_or(GrammarError::MissingMarker)?;
        if style == SectionMarker::FieldMarker {
            let phrase = vocabulary
                .tokens
                .iter()
                .map(|t| t.render(""))
                .find(|t| t.contains(' '));
            if let Some(token) = phrase {
                return Err(GrammarError::PhraseFieldMarker(token));
            }
        }
        Ok(Box::new(Section::new(vocabulary, style)))
    }

    fn is_open_only(&self) -> bool {
        true
    }

    fn guesses(&self) -> &'static [Guess] {
        &[Guess {
            rank: 40,
            read: guess,
        }]
    }

    fn evidence(&self) -> &'static str {
        "a section marker right before the content and no closer after it (the section ends \
         where the next marker begins); the framing's other markers are its reserved names"
    }

    fn example(&self) -> Delimiters {
        Delimiters {
            marker: Some(SectionMarker::FieldMarker),
            ..Delimiters::simple(GrammarKind::Section, "context")
        }
    }
}

/// The section marker a line is, in each style: its name (`[[ ## name ## ]]`,
/// `### Name`, or `Name:` with nothing after the colon when `label_alone`).
/// A heading's or label's name may be a phrase (words joined by single
/// spaces); a phrase label must stand alone on its line, since a sentence
/// with a colon in it (`The text said: …`) is prose, not a label. A
/// heading's name is its whole text, so its words may hold punctuation a
/// token may (`Retrieved page (untrusted)`); a label's ends at its colon
/// and stays words.
fn marker_line(line: &str, label_alone: bool) -> Option<(SectionMarker, String)> {
    let line = line.trim();
    let word = |w: &str| {
        !w.is_empty()
            && w.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | MASK))
    };
    let phrase = |p: &str| p.split(' ').all(word);
    // A heading's text is its whole line: a word of it may carry any
    // character a token may hold (`Retrieved page (untrusted)`), as long
    // as the text names something (a letter or digit in it).
    let heading_word = |w: &str| !w.is_empty() && w.chars().all(|c| c == MASK || is_token_char(c));
    let heading = |p: &str| {
        p.split(' ').all(heading_word) && p.chars().any(|c| c.is_ascii_alphanumeric() || c == MASK)
    };
    if let Some(inner) = line
        .strip_prefix("[[ ## ")
        .and_then(|l| l.strip_suffix(" ## ]]"))
    {
        return word(inner).then(|| (SectionMarker::FieldMarker, inner.to_string()));
    }
    let hashes = line.chars().take_while(|&c| c == '#').count();
    if (1..=6).contains(&hashes) {
        let name = line[hashes..]
            .strip_prefix(' ')?
            .trim()
            .trim_end_matches(':');
        return heading(name).then(|| (SectionMarker::Heading, name.to_string()));
    }
    let (name, value) = line.split_once(':')?;
    let name = name.trim_end();
    let alone = value.trim().is_empty();
    let named = word(name) || (alone && phrase(name));
    (named && (!label_alone || alone)).then(|| (SectionMarker::Label, name.to_string()))
}

/// An open-only section marker before the content: the last line before
/// it is a `[[ ## name ## ]]` line, a `### Name` heading or a `Name:` label
/// alone on its line, or the content starts on a `Name: ` line. No closer
/// follows; the framing's other markers of the same style (before or
/// after) are the reserved names a forger would write. A label alone on
/// the line before the content, or a phrase label, is a section only when
/// the framing writes another label too: one line ending in a colon
/// (`Here is the text:`) is an introduction, not a section, unless the
/// content comes back quoted line by line ([`Around::quoted`]).
fn guess(around: &Around<'_>) -> Option<Delimiters> {
    let (head, tail) = (around.head, around.tail);
    let Opener {
        style,
        token,
        alone,
        valued,
    } = opener(around)?;
    if !token.contains(MASK) && closed_by_per_call_lines(head, tail) {
        return None;
    }
    let mut delimiters = Delimiters::simple(GrammarKind::Section, &token);
    delimiters.marker = Some(style);
    let markers = |text: &'_ str| {
        text.lines()
            .filter_map(|l| marker_line(l, false))
            .filter(|(s, _)| *s == style)
            .map(|(_, name)| name)
            .collect::<Vec<_>>()
    };
    // The marker that follows the content ends its section: it comes
    // first, since the first reserved name is the closer the catalogue
    // forges (`Form::Close`). The others keep the framing's order.
    let mut after = markers(tail.split_once('\n').map_or("", |(_, rest)| rest));
    let next = (!after.is_empty()).then(|| after.remove(0));
    for name in next.into_iter().chain(markers(head)).chain(after) {
        let taken = |n: &str| n.eq_ignore_ascii_case(&name);
        if !taken(&token) && !delimiters.reserved.iter().any(|r| taken(r)) {
            delimiters.reserved.push(name);
        }
    }
    // A quoted body is set apart by its quote: the line before it names
    // the block, alone on its line, even when the framing writes no other
    // label.
    let lone_label = style == SectionMarker::Label && (alone || token.contains(' '));
    let sectioned = if valued {
        !delimiters.reserved.is_empty()
    } else {
        !lone_label || !delimiters.reserved.is_empty() || (around.quoted && alone)
    };
    sectioned.then(|| counted(delimiters))
}

/// Whether a per-call value (masked as [`MASK`]) marks a line before the
/// content and the first line after it, as a MIME part's boundary does
/// (`--=_{nonce}` … `--=_{nonce}--`): those lines are the frame, closed
/// after the content, and a label between the opener line and the content
/// is a header line inside it. Read as an open-only section, the frame
/// would lose its secret and a content line spelling a header label would
/// count as a forged section (issue 57, third blind audit).
fn closed_by_per_call_lines(head: &str, tail: &str) -> bool {
    // The tail's first line ends the content's own line.
    let after = tail.split_once('\n').map_or("", |(_, rest)| rest);
    let closer = after.lines().find(|l| !l.trim().is_empty());
    head.lines().any(|l| l.contains(MASK)) && closer.is_some_and(|l| l.contains(MASK))
}

/// The marker that opens the content's section, as [`guess`] reads it.
struct Opener {
    style: SectionMarker,
    token: String,
    /// The marker is alone on its line, the content on the next.
    alone: bool,
    /// A label with text after it on the line before the content (`Human:
    /// Here is a document:`): it opens the content's section only when the
    /// framing writes another label too.
    valued: bool,
}

/// The marker on the line before the content (alone, or a label with text
/// after it), or the label the content's own line starts with.
fn opener(around: &Around<'_>) -> Option<Opener> {
    let head = around.head;
    let last = head.rsplit('\n').next().unwrap_or(head);
    if !last.trim().is_empty() {
        let (style, token) = marker_line(last, true).filter(|(s, _)| *s == SectionMarker::Label)?;
        return Some(Opener {
            style,
            token,
            alone: false,
            valued: false,
        });
    }
    let line = head.lines().rev().find(|l| !l.trim().is_empty())?;
    if let Some((style, token)) = marker_line(line, true) {
        return Some(Opener {
            style,
            token,
            alone: true,
            valued: false,
        });
    }
    // A label whose text is a request's field (`Source: <the provenance>`)
    // is a header line the framing fills in, not a section that opens on
    // the next line.
    let header = around.field_marks.iter().any(|m| line.contains(m));
    let (style, token) =
        marker_line(line, false).filter(|(s, _)| *s == SectionMarker::Label && !header)?;
    Some(Opener {
        style,
        token,
        alone: true,
        valued: true,
    })
}

/// `delimiters` with a number that counts its sections declared as
/// `{counter}`: when the token's last word is a number and another marker
/// is the same name with another number (`Document 2`, beside `Document 1`
/// and `Document 3`), every number names a section of the framing's, so
/// the token becomes `Document {counter}` and the numbered names leave
/// `reserved`. A lone numbered name (`Step 1` with no sibling) stays as
/// written: nothing shows that it counts.
fn counted(mut delimiters: Delimiters) -> Delimiters {
    let numbered = |name: &str| -> Option<(String, String)> {
        let (stem, number) = name.rsplit_once(' ')?;
        let digits = !number.is_empty() && number.chars().all(|c| c.is_ascii_digit());
        digits.then(|| (stem.to_string(), number.to_string()))
    };
    let Some((stem, number)) = numbered(&delimiters.token) else {
        return delimiters;
    };
    let sibling = |name: &String| numbered(name).is_some_and(|(s, n)| s == stem && n != number);
    if !delimiters.reserved.iter().any(sibling) {
        return delimiters;
    }
    let same_stem = |name: &String| numbered(name).is_some_and(|(s, _)| s == stem);
    delimiters.reserved.retain(|name| !same_stem(name));
    delimiters.token = format!("{stem} {COUNTER}");
    delimiters
}

impl Grammar for Section {
    fn kind(&self) -> GrammarKind {
        GrammarKind::Section
    }

    fn live(&self, folded: &Folded<'_>) -> Vec<LiveDelimiter> {
        let mut found = Vec::new();
        for line in folded.reader.lines(folded.text) {
            let (from, to) = (
                folded.index_at_byte(line.start),
                folded.index_at_byte(line.end),
            );
            let Some(m) = self.marker_on(folded, from, to) else {
                continue;
            };
            let declared = self.declared(folded, m.name);
            let kind = match declared {
                Some((0, _)) => DelimiterKind::Open,
                Some(_) => DelimiterKind::Close,
                None if self.style == SectionMarker::FieldMarker => DelimiterKind::Close,
                None => continue,
            };
            let span = folded.source_span(m.start, m.end);
            let nonce = declared.and_then(|(_, n)| n).map(|(s, e)| {
                let r = folded.source_span(s, e);
                (r.start, r.end)
            });
            found.push(LiveDelimiter {
                token: 0,
                kind,
                start: span.start,
                end: span.end,
                nonce,
                // A section ends at the next marker, whatever it names.
                request_kind: None,
            });
        }
        found
    }

    fn marks_line_starts(&self) -> bool {
        true
    }

    fn render(&self, form: Form, token: usize) -> Spelling {
        match form {
            Form::Token => Spelling(self.vocabulary.render_token(token)),
            Form::Open | Form::OpenStart => self.marker(self.vocabulary.render_token(token)),
            // The closer is the next section's marker: another declared
            // name; without one, any name for a field marker, and for
            // headings and labels the content's own name again (a second
            // marker of it is live too).
            Form::Close => {
                let other = (0..self.vocabulary.tokens.len()).find(|&t| t != token);
                let name = match (other, self.style) {
                    (Some(t), _) => self.vocabulary.render_token(t),
                    (None, SectionMarker::FieldMarker) => vec![Piece::Token(NEXT_NAME.into())],
                    (None, _) => self.vocabulary.render_token(token),
                };
                self.marker(name)
            }
        }
    }

    fn opener_has_attributes(&self) -> bool {
        false
    }

    fn brackets(&self) -> Option<(char, char)> {
        (self.style == SectionMarker::FieldMarker).then_some(('[', ']'))
    }

    fn attacks(&self) -> &'static [GrammarAttack] {
        ATTACKS
    }

    /// Every other section's marker and the closer (the next section's
    /// marker), then the marker style spelled with each name.
    fn forged_lines(&self, names: &[&str]) -> ForgedLines {
        let tokens = self.vocabulary.tokens.len();
        let others = (1..tokens)
            .map(|i| self.render(Form::Open, i))
            .chain(std::iter::once(self.render(Form::Close, 0)))
            .map(|s| s.plain())
            .collect();
        let named = names
            .iter()
            .map(|name| {
                Section::new(Vocabulary::plain(&[name]), self.style)
                    .render(Form::Open, 0)
                    .plain()
            })
            .collect();
        ForgedLines { others, named }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::ReaderLevel::{AsciiCaseInsensitive as Ci, Exact, Unicode};
    use crate::reader::Reader;

    fn section(style: SectionMarker, tokens: &[&str]) -> Section {
        Section::new(Vocabulary::plain(tokens), style)
    }

    /// The live markers of `text` at `level`: their kind and text.
    fn live(g: &Section, text: &str, level: ReaderLevel) -> Vec<(DelimiterKind, String)> {
        g.live(&Reader::new(level).fold(text))
            .iter()
            .map(|d| (d.kind, text[d.start..d.end].to_string()))
            .collect()
    }

    use DelimiterKind::{Close, Open};

    #[test]
    fn field_markers_open_by_name_and_any_other_name_ends_the_section() {
        let g = section(SectionMarker::FieldMarker, &["context"]);
        let text = "[[ ## question ## ]]\nWhy?\n\n[[ ## context ## ]]\nsome data\n  [[ ## answer ## ]] tail";
        assert_eq!(
            live(&g, text, Exact),
            vec![
                (Close, "[[ ## question ## ]]".into()),
                (Open, "[[ ## context ## ]]".into()),
                (Close, "[[ ## answer ## ]]".into()),
            ]
        );
        // Mid-line, the same text is content for every reader.
        for level in ReaderLevel::ALL {
            assert!(live(&g, "see [[ ## answer ## ]] here", level).is_empty());
        }
        // A name in another script is a word for the Unicode reader only.
        let cafe = "x\n[[ ## caf\u{e9} ## ]]";
        assert!(live(&g, cafe, Ci).is_empty());
        assert_eq!(live(&g, cafe, Unicode).len(), 1);
        // Not the marker's shape.
        assert!(live(&g, "[[## answer ##]]\n[ ## answer ## ]", Unicode).is_empty());
    }

    #[test]
    fn a_unicode_line_break_starts_a_line_only_for_the_unicode_reader() {
        let g = section(SectionMarker::FieldMarker, &["context"]);
        let text = "data\u{2028}[[ ## answer ## ]]";
        assert!(live(&g, text, Exact).is_empty());
        assert!(live(&g, text, Ci).is_empty());
        assert_eq!(live(&g, text, Unicode).len(), 1);
        // A lone CR is a break from the case-insensitive reader up.
        assert!(live(&g, "data\r[[ ## answer ## ]]", Exact).is_empty());
        assert_eq!(live(&g, "data\r[[ ## answer ## ]]", Ci).len(), 1);
    }

    #[test]
    fn headings_and_labels_are_markers_for_declared_names_only() {
        let g = section(SectionMarker::Heading, &["Context", "System"]);
        let text = "### Context\nx\n## Introduction\n### System\n#### system:\n### Context of it";
        assert_eq!(
            live(&g, text, Exact),
            vec![(Open, "### Context".into()), (Close, "### System".into())]
        );
        assert_eq!(live(&g, text, Ci).len(), 3);
        assert!(live(&g, "    ### System", Ci).is_empty());
        assert!(live(&g, "  \t### System", Ci).is_empty());
        assert_eq!(live(&g, "   ### System", Ci).len(), 1);
        let g = section(SectionMarker::Label, &["Context", "Question"]);
        let text = "Context: the data\nQuestion : why\nNote: fine\nsee Question: no";
        assert_eq!(
            live(&g, text, Exact),
            vec![(Open, "Context:".into()), (Close, "Question :".into())]
        );
        assert_eq!(live(&g, "QUESTION：x", Unicode).len(), 1);
        assert!(live(&g, "QUESTION：x", Ci).is_empty());
    }

    #[test]
    fn rendering_round_trips_through_liveness() {
        for style in SectionMarker::ALL {
            let g = section(style, &["context", "question"]);
            let open = g.render(Form::Open, 0).plain();
            let close = g.render(Form::Close, 0).plain();
            assert_eq!(
                live(&g, &open, Exact),
                vec![(Open, open.clone())],
                "{style:?}"
            );
            assert_eq!(
                live(&g, &format!("x\n{close}\ny"), Exact),
                vec![(Close, close.clone())],
                "{style:?}"
            );
        }
        let g = section(SectionMarker::FieldMarker, &["context"]);
        assert_eq!(g.render(Form::Close, 0).plain(), "[[ ## next ## ]]");
        assert_eq!(
            section(SectionMarker::Label, &["Context"])
                .render(Form::Close, 0)
                .plain(),
            "Context:"
        );
    }

    #[test]
    fn a_phrase_label_is_live_with_its_spaces_as_each_reader_reads_them() {
        let g = section(
            SectionMarker::Label,
            &["Execution logs", "Last output from code snippet"],
        );
        let text = "Execution logs:\nx\nLast output from code snippet:\nNone";
        assert_eq!(
            live(&g, text, Exact),
            vec![
                (Open, "Execution logs:".into()),
                (Close, "Last output from code snippet:".into()),
            ]
        );
        // Two spaces or a tab between the words: the Unicode reader only.
        for spaced in [
            "Last  output from code snippet:",
            "Last\toutput from code snippet:",
            "LAST output  from code snippet :",
        ] {
            let text = format!("x\n{spaced}");
            assert!(live(&g, &text, Exact).is_empty(), "{spaced:?}");
            assert!(live(&g, &text, Ci).is_empty(), "{spaced:?}");
            assert_eq!(live(&g, &text, Unicode).len(), 1, "{spaced:?}");
        }
        assert_eq!(
            live(&g, "x\nEXECUTION LOGS:", Ci),
            vec![(Open, "EXECUTION LOGS:".into())]
        );
        // A longer phrase, a sentence around the label, or the label
        // mid-line is no marker for any reader.
        for text in [
            "x\nLast output from code snippets:",
            "x\nThe last output from code snippet:",
            "see Last output from code snippet: here",
            "x\nExecution\nlogs:",
        ] {
            assert!(live(&g, text, Unicode).is_empty(), "{text:?}");
        }
        let h = section(SectionMarker::Heading, &["Source document", "Task"]);
        assert_eq!(
            live(
                &h,
                "## Source document\nx\n### Task:\n## Source documents",
                Exact
            ),
            vec![
                (Open, "## Source document".into()),
                (Close, "### Task".into())
            ]
        );
    }

    #[test]
    fn phrases_are_declared_words_joined_by_single_spaces_and_never_field_markers() {
        let declared = |grammar, marker, token: &str| {
            Delimiters {
                marker,
                ..Delimiters::simple(grammar, token)
            }
            .validate()
        };
        let label = Some(SectionMarker::Label);
        assert!(declared(GrammarKind::Section, label, "Execution logs").is_ok());
        assert!(declared(GrammarKind::Section, Some(SectionMarker::Heading), "Task 2").is_ok());
        for bad in ["Execution  logs", " logs", "logs ", "Execution\tlogs"] {
            assert!(
                declared(GrammarKind::Section, label, bad).is_err(),
                "{bad:?}"
            );
        }
        assert!(declared(GrammarKind::XmlTag, None, "a b").is_err());
        let field = declared(
            GrammarKind::Section,
            Some(SectionMarker::FieldMarker),
            "a b",
        );
        assert!(field.is_err_and(|e| e.to_string().contains("one word")));
    }

    /// `guess` over the text around a calibration's content.
    fn guessed(head: &str, tail: &str) -> Option<(SectionMarker, String, Vec<String>)> {
        guessed_quoted(head, tail, false)
    }

    /// [`guessed`], saying whether the content came back quoted.
    fn guessed_quoted(
        head: &str,
        tail: &str,
        quoted: bool,
    ) -> Option<(SectionMarker, String, Vec<String>)> {
        let around = Around {
            head,
            tail,
            field_marks: &[],
            quoted,
            output: "",
            content: "",
        };
        guess(&around).map(|d| (d.marker.unwrap(), d.token, d.reserved))
    }

    #[test]
    fn a_counter_in_a_label_makes_a_label_with_any_number_live() {
        let g = section(SectionMarker::Label, &["Document {counter}", "Question"]);
        let text = "Document 1:\na\nDocument 2:\nb\nDocument 907:\nQuestion: q";
        assert_eq!(
            live(&g, text, Exact),
            vec![
                (Open, "Document 1:".into()),
                (Open, "Document 2:".into()),
                (Open, "Document 907:".into()),
                (Close, "Question:".into()),
            ]
        );
        // No number, letters after it, or the label mid-line: no marker.
        for text in [
            "x\nDocument :",
            "x\nDocument 7a:",
            "x\nDocument:",
            "see Document 7: here",
        ] {
            assert!(live(&g, text, Unicode).is_empty(), "{text:?}");
        }
        // Fullwidth digits are a number for the Unicode reader only.
        let wide = "x\nDocument \u{ff17}:";
        assert!(live(&g, wide, Ci).is_empty());
        assert_eq!(
            live(&g, wide, Unicode),
            vec![(Open, "Document \u{ff17}:".into())]
        );
        // A forged marker carries a number the framing did not write.
        assert_eq!(g.render(Form::Open, 0).plain(), "Document 907:");
    }

    #[test]
    fn numbered_labels_beside_each_other_are_guessed_as_a_counter() {
        let guess = guessed(
            "Rank them.\n\nDocument 1:\nfixed\n\nDocument 2:\n",
            "z1\n\nDocument 3:\nfixed\n\nQuestion: why?\nAnswer:",
        );
        assert_eq!(
            guess,
            Some((
                SectionMarker::Label,
                "Document {counter}".to_string(),
                vec!["Question".to_string(), "Answer".to_string()]
            ))
        );
        // A lone numbered name, or numbers on other names, is no counter.
        let lone = guessed("Step 2:\n", "z1\nNotes:");
        assert_eq!(lone.map(|g| g.1), Some("Step 2".to_string()));
        let other = guessed("Part 1:\nx\nStep 2:\n", "z1\nNotes:");
        assert_eq!(other.map(|g| g.1), Some("Step 2".to_string()));
    }

    /// The first reserved name is the closer the catalogue forges, so it is
    /// the marker that follows the content, whatever the framing writes
    /// before; the others keep the framing's order.
    #[test]
    fn the_marker_after_the_content_is_the_first_reserved_name() {
        let guess = guessed(
            "Current summary:\nfixed\n\nNew lines of conversation:\nHuman: ",
            "z1\nAI: fixed\n\nNew summary:",
        );
        let names = [
            "AI",
            "Current summary",
            "New lines of conversation",
            "New summary",
        ];
        assert_eq!(
            guess,
            Some((
                SectionMarker::Label,
                "Human".to_string(),
                names.map(String::from).to_vec()
            ))
        );
        let g = section(SectionMarker::Label, &["Human", "AI", "Current summary"]);
        assert_eq!(g.render(Form::Close, 0).plain(), "AI:");
    }

    #[test]
    fn a_counter_is_declared_in_section_names_only_and_once() {
        let declared = |grammar, marker, token: &str| {
            Delimiters {
                marker,
                ..Delimiters::simple(grammar, token)
            }
            .validate()
        };
        let label = Some(SectionMarker::Label);
        assert!(declared(GrammarKind::Section, label, "Document {counter}").is_ok());
        assert!(declared(GrammarKind::Section, label, "Doc{counter}").is_ok());
        assert!(declared(GrammarKind::Section, label, "Doc {counter}{counter}").is_err());
        assert!(declared(GrammarKind::XmlTag, None, "doc{counter}").is_err());
    }

    #[test]
    fn a_phrase_label_is_guessed_only_beside_another_label() {
        let phrase = |s: &str| s.to_string();
        assert_eq!(
            guessed(
                "Execution logs:\n",
                "z1\nLast output from code snippet:\nNone"
            ),
            Some((
                SectionMarker::Label,
                phrase("Execution logs"),
                vec![phrase("Last output from code snippet")]
            ))
        );
        assert_eq!(
            guessed("Thought: ok\nAction Input: ", "z1\nObservation:"),
            Some((
                SectionMarker::Label,
                phrase("Action Input"),
                vec![phrase("Observation"), phrase("Thought")]
            ))
        );
        // One line ending in a colon is an introduction, not a section;
        // a sentence with a colon in it names no section either.
        assert_eq!(guessed("Here is the text:\n", "z1"), None);
        assert_eq!(guessed("Observation:\n", "z1\nThanks."), None);
        assert_eq!(guessed("The text said: ", "z1\nThe text ends: here"), None);
    }

    #[test]
    fn a_label_with_text_after_it_opens_the_next_lines_section_beside_another_label() {
        let phrase = |p: &str| p.to_string();
        assert_eq!(
            guessed("\n\nHuman: Here is a document:\n", "z1\n\nAssistant:"),
            Some((
                SectionMarker::Label,
                phrase("Human"),
                vec![phrase("Assistant")]
            ))
        );
        // Alone, it is a sentence that introduces the content.
        assert_eq!(guessed("Note: read this:\n", "z1\nThanks."), None);
        // A phrase before the colon is prose when text follows it.
        assert_eq!(guessed("The user said: this\n", "z1\nAssistant:"), None);
    }

    /// A label line holding a request's field is a header line: the
    /// boundary lines around it are the frame (issue 57), not a section
    /// named after the header field.
    #[test]
    fn a_label_holding_a_request_field_opens_no_section() {
        let around = |head| Around {
            head,
            tail: "z1\n--frontier--",
            field_marks: &["fcprovq7"],
            quoted: false,
            output: "",
            content: "",
        };
        let header = "--frontier\nContent-Type: text/plain\nX-Source: fcprovq7\n\n";
        assert_eq!(guess(&around(header)), None);
        // The same label with the framing's own text after it still opens one.
        let own = "--frontier\nContent-Type: text/plain\nX-Source: the web\n\n";
        assert_eq!(
            guess(&around(own)).map(|d| d.token),
            Some("X-Source".into())
        );
    }

    /// Seen in the third blind audit (issue 57): a MIME part with a
    /// per-call boundary and two header lines was read as a section named
    /// after its last header, losing the boundary; a content line
    /// `Content-Type:` then counted as a forged section of a correct
    /// framing. Boundary lines marked by a per-call value close the frame.
    #[test]
    fn per_call_boundary_lines_around_header_labels_open_no_section() {
        let m = MASK;
        let head = format!(
            "--=_{m}\nContent-Type: text/plain; charset=utf-8\n\
             Content-Transfer-Encoding: 8bit\n\n"
        );
        assert_eq!(guessed(&head, &format!("z1\n--=_{m}--")), None);
        // The same header between constant lines is still read as labels
        // (the per-call value is the evidence), and so is a section whose
        // own marker carries the value.
        let constant = "--frontier\nContent-Type: text/plain\nContent-Transfer-Encoding: 8bit\n\n";
        assert_eq!(
            guessed(constant, "z1\n--frontier--").map(|g| g.1),
            Some("Content-Transfer-Encoding".into())
        );
        let own = format!("Intro: x\nDoc {m}:\n");
        assert_eq!(
            guessed(&own, &format!("z1\nEnd {m}:")).map(|g| g.1),
            Some(format!("Doc {m}"))
        );
    }

    /// Seen in a blind audit (issue 57): a quote between two headings,
    /// the first with punctuation in its text, was refused by `init`
    /// because a heading's name was read as words alone.
    #[test]
    fn a_heading_with_punctuation_is_a_marker_named_by_its_whole_text() {
        let head = "#### Retrieved page (untrusted)\n\n";
        let tail = "z1\n\n#### End of retrieved page";
        assert_eq!(
            guessed_quoted(head, tail, true),
            Some((
                SectionMarker::Heading,
                "Retrieved page (untrusted)".to_string(),
                vec!["End of retrieved page".to_string()]
            ))
        );
        // The name is the whole text: it validates as a declaration.
        let d = Delimiters {
            marker: Some(SectionMarker::Heading),
            reserved: vec!["End of retrieved page".into()],
            ..Delimiters::simple(GrammarKind::Section, "Retrieved page (untrusted)")
        };
        assert!(d.validate().is_ok());
        let g = section(
            SectionMarker::Heading,
            &["Retrieved page (untrusted)", "End of retrieved page"],
        );
        let text = "#### Retrieved page (untrusted)\n\n> x\n\n## end of retrieved page:";
        assert_eq!(
            live(&g, text, Ci),
            vec![
                (Open, "#### Retrieved page (untrusted)".into()),
                (Close, "## end of retrieved page".into()),
            ]
        );
        // A longer or shorter text is another heading, for every reader;
        // a fullwidth parenthesis is the same one for the Unicode reader.
        for other in [
            "x\n# Retrieved page (untrusted) copy",
            "x\n# Retrieved page",
            "x\n# Retrieved page (untrusted",
        ] {
            assert!(live(&g, other, Unicode).is_empty(), "{other:?}");
        }
        let wide = "x\n# Retrieved page \u{ff08}untrusted\u{ff09}";
        assert!(live(&g, wide, Ci).is_empty());
        assert_eq!(live(&g, wide, Unicode).len(), 1);
        // Text with no letter or digit names nothing.
        assert_eq!(guessed_quoted("## ---\n\n", "z1", true), None);
    }

    #[test]
    fn a_quoted_body_makes_the_line_before_it_its_section() {
        // The same introductions, the content quoted line by line: the
        // quote sets the block apart, and the line before it names it.
        let phrase = |p: &str| p.to_string();
        assert_eq!(
            guessed_quoted("Here is the text:\n", "z1", true),
            Some((SectionMarker::Label, phrase("Here is the text"), vec![]))
        );
        assert_eq!(
            guessed_quoted("Untrusted email:\n", "z1\nEnd of email.", true),
            Some((SectionMarker::Label, phrase("Untrusted email"), vec![]))
        );
        // A sentence with a colon in it is still no marker, quoted or not.
        assert_eq!(guessed_quoted("The text said: ", "z1", true), None);
        assert_eq!(guessed_quoted("Quoted (untrusted):\n", "z1", true), None);
    }
}
