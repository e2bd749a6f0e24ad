//! Grammar `begin-end`: asymmetric markers declared as templates,
//! `<<<{token}>>>` … `<<<END_{token}>>>`, `BEGIN {token}` … `END {token}`,
//! `-----BEGIN {token}-----` ….
//!
//! A template is literal text with `{token}` (required), optionally
//! `{nonce}` (a variable part), `{counter}` (a number the framing counts
//! items or calls with: `-----[DOC #{counter}]-----`) and `{attrs}` (where
//! attributes are written). A marker is live where a reader sees the template: its
//! literal text folded by the reader, any run of spaces in the template as
//! one or more spaces, optional spaces at each boundary between
//! punctuation and a letter or the token (`<<< END_TOK >>>` still reads as
//! the marker), the token not followed by a name character, and a
//! template that starts with a letter not preceded by one (`BACKEND x` is
//! not `END x`).
//!
//! A counter is no nonce: content can write any number, so a marker with
//! any counter (a run of digits as the reader folds them) is live, and a
//! closer pairs with an opener whatever their counters say. Its safety is
//! the framing's neutralising, never the number; a forged marker is
//! rendered with [`COUNTER_SAMPLE`], a number the framing did not write.
//!
//! The same line before and after the content (`=====` … `=====`, or a
//! per-call `===== {nonce} =====`) is declared with equal templates; such
//! a line may go without `{token}` (it names nothing; the profile's token
//! only names the frame in reports). Pairing is by order: the first
//! marker opens and the next one with the opener's value (any, without a
//! nonce) closes, so a constant line in content is a live closer, while a
//! line with another nonce value is read as a closer that does not pair (a
//! confusable, as for any nonce framing). Such a marker is a line, so it is
//! live only where it stands alone on a line as the reader splits lines
//! (blank text around it, a longer rule of the same punctuation counting
//! as the rule): `=====` inside a sentence is prose to every reader, and a
//! line break that only a Unicode reader knows starts a line for it alone.
//! Two rule lines that differ and name nothing (`<<<` … `>>>`, or a lead
//! before the rule, `Text: """` … `"""`) are lines in the same way, paired
//! by their templates rather than by order.

mod infer;

use super::attributes;
use super::token::match_token;
use super::{
    DelimiterKind, Delimiters, Extras, Fields, Form, Grammar, GrammarAttack, GrammarError,
    GrammarKind, Guess, LiveDelimiter, OpenerError, ParsedOpener, Piece, Shape, Spelling,
    Vocabulary,
};
use crate::reader::Folded;

/// One element of a compiled template.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Atom {
    /// Letters and digits, compared after folding.
    Word(String),
    /// Punctuation, compared after folding.
    Punct(String),
    /// Spacing the template writes: one or more spaces in the text.
    Space(String),
    /// Optional spacing a reader skips.
    Gap,
    /// `{token}`.
    Token,
    /// `{nonce}` in the template itself.
    Nonce,
    /// `{counter}`: one or more digits, any value.
    Counter,
    /// `{attrs}`: attribute text up to the punctuation that follows.
    Attrs,
}

/// A compiled marker template.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Template {
    atoms: Vec<Atom>,
}

/// The `begin-end` grammar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct BeginEnd {
    vocabulary: Vocabulary,
    open: Template,
    close: Template,
    /// The opener and the closer are one line: kinds come from order.
    same: bool,
    /// The markers are lines (the same line, rule lines that name no
    /// token, `<<<` … `>>>`, or a here-document's terminator, the token
    /// alone): live only alone on their line.
    lines: bool,
}

/// Where a template matched.
#[derive(Debug, Clone, Copy, Default)]
struct Matched {
    end: usize,
    nonce: Option<(usize, usize)>,
    /// The request's kind in the token, when it has a `{kind}`.
    request_kind: Option<(usize, usize)>,
    attrs_start: Option<usize>,
}

pub use super::token::COUNTER_SAMPLE;

const ATTACKS: &[GrammarAttack] = &[
    GrammarAttack {
        case: "begin-end-end-marker-spoof",
        what: "the closing marker respelled (lowercase, spaced, invisible, lookalike)",
    },
    GrammarAttack {
        case: "begin-end-open-marker-in-content",
        what: "an opening marker in content starts a second frame",
    },
];

/// The `begin-end` shape.
pub(super) struct BeginEndShape;

impl Shape for BeginEndShape {
    fn fields(&self) -> Fields {
        Fields {
            templates: true,
            ..Fields::default()
        }
    }

    fn build(
        &self,
        vocabulary: Vocabulary,
        extras: Extras<'_>,
    ) -> Result<Box<dyn Grammar>, GrammarError> {
        let (Some(open), Some(close)) = (extras.open, extras.close) else {
            return Err(GrammarError::MissingTemplates);
        };
        Ok(Box::new(BeginEnd::new(vocabulary, open, close)?))
    }

    /// Named marker lines before section markers; boundary lines, which
    /// share only a word, after them; the lines around an indented block
    /// after every other shape's guess.
    fn guesses(&self) -> &'static [Guess] {
        &[
            Guess {
                rank: 30,
                read: infer::markers,
            },
            Guess {
                rank: 50,
                read: infer::boundary,
            },
            Guess {
                rank: 52,
                read: infer::terminator,
            },
            Guess {
                rank: 53,
                read: infer::length_note,
            },
            Guess {
                rank: 55,
                read: infer::same_line,
            },
            Guess {
                rank: 95,
                read: infer::quoted_block,
            },
        ]
    }

    fn evidence(&self) -> &'static str {
        "marker lines before and after the content that share a name (the open and close templates)"
    }

    fn example(&self) -> Delimiters {
        Delimiters {
            open: Some("<<<{token}>>>".into()),
            close: Some("<<<END_{token}>>>".into()),
            ..Delimiters::simple(GrammarKind::BeginEnd, "CONTEXT")
        }
    }
}

impl BeginEnd {
    /// The grammar over `vocabulary` with the two templates.
    pub(super) fn new(
        vocabulary: Vocabulary,
        open: &str,
        close: &str,
    ) -> Result<BeginEnd, GrammarError> {
        let open_t = Template::compile(open)?;
        let close_t = Template::compile(close)?;
        // A marker needs text of its own, or a bare word would be read
        // anywhere; only a closer that is the token alone may go without,
        // as a line after an opener that has text (a here-document's
        // `EOF`): alone on its line, it is the word and nothing else.
        let bare = match (open_t.has_literal(), close_t.has_literal()) {
            (false, _) => Some(open),
            (true, false) if !close_t.is_token_alone() => Some(close),
            _ => None,
        };
        if let Some(text) = bare {
            return Err(GrammarError::BadTemplate {
                template: text.into(),
                reason: "needs literal text around {token} or {nonce}".into(),
            });
        }
        let same = open_t == close_t;
        let named = |t: &Template| t.atoms.contains(&Atom::Token);
        // Rule lines may both go without {token}; one without it beside
        // one with it is a typo, not a shape.
        if named(&open_t) != named(&close_t) {
            let text = if named(&open_t) { close } else { open };
            return Err(GrammarError::BadTemplate {
                template: text.into(),
                reason: "needs {token} exactly once (only rule lines, with no {token} in \
                         either template, may go without)"
                    .into(),
            });
        }
        // A closer that is the token alone (a here-document's `EOF`) is a
        // line too: the same word inside a sentence ends nothing.
        let lines = same || !named(&open_t) || close_t.is_token_alone();
        if close_t.atoms.contains(&Atom::Attrs) {
            return Err(GrammarError::BadTemplate {
                template: close.into(),
                reason: "{attrs} belongs in the opening template only".into(),
            });
        }
        if (open_t.atoms.contains(&Atom::Nonce) || close_t.atoms.contains(&Atom::Nonce))
            && vocabulary.nonce.is_none()
        {
            return Err(GrammarError::UndeclaredNonce(open.into()));
        }
        Ok(BeginEnd {
            vocabulary,
            open: open_t,
            close: close_t,
            same,
            lines,
        })
    }

    fn matches(&self, folded: &Folded<'_>, at: usize, template: &Template) -> Option<Matched> {
        let reader = folded.reader;
        if let Some(Atom::Word(_)) = template.atoms.first() {
            let before = at.checked_sub(1).and_then(|i| folded.ch(i));
            if before.is_some_and(|c| reader.is_name_char(c)) {
                return None;
            }
        }
        self.match_from(folded, &template.atoms, at, Matched::default())
    }

    /// Matches `atoms` at folded index `i`, backtracking over nonce and
    /// attribute lengths.
    fn match_from(
        &self,
        folded: &Folded<'_>,
        atoms: &[Atom],
        i: usize,
        mut m: Matched,
    ) -> Option<Matched> {
        let Some((atom, rest)) = atoms.split_first() else {
            m.end = i;
            return Some(m);
        };
        let reader = folded.reader;
        match atom {
            Atom::Word(text) | Atom::Punct(text) => {
                let needle: Vec<char> = reader.fold_str(text).chars().collect();
                folded.matches_at(i, &needle).then_some(())?;
                self.match_from(folded, rest, i + needle.len(), m)
            }
            Atom::Space(_) => {
                let j = folded.skip_marker_space(i);
                (j > i).then_some(())?;
                self.match_from(folded, rest, j, m)
            }
            Atom::Gap => self.match_from(folded, rest, folded.skip_marker_space(i), m),
            Atom::Token => self.match_token_then(folded, rest, i, m),
            Atom::Nonce => {
                let spec = self.vocabulary.nonce?;
                let mut j = i;
                while folded.ch(j).is_some_and(|c| spec.alphabet.contains(c)) {
                    j += 1;
                }
                (i + spec.min_len()..=j).rev().find_map(|end| {
                    let m = Matched {
                        nonce: m.nonce.or(Some((i, end))),
                        ..m
                    };
                    self.match_from(folded, rest, end, m)
                })
            }
            Atom::Counter => {
                let mut j = i;
                while folded.ch(j).is_some_and(|c| c.is_ascii_digit()) {
                    j += 1;
                }
                (i + 1..=j)
                    .rev()
                    .find_map(|end| self.match_from(folded, rest, end, m))
            }
            Atom::Attrs => {
                m.attrs_start = Some(i);
                // Attribute text stays on the marker's line; the shortest
                // run after which the rest matches wins.
                let mut j = i;
                loop {
                    if let Some(found) = self.match_from(folded, rest, j, m) {
                        return Some(found);
                    }
                    match folded.ch(j) {
                        Some('\n' | '\r') | None => return None,
                        Some(_) => j += 1,
                    }
                }
            }
        }
    }

    /// Matches the token at folded index `i`, then the `rest` of the atoms
    /// after it. The token must end where a name ends, unless the
    /// template's own next character continues one.
    fn match_token_then(
        &self,
        folded: &Folded<'_>,
        rest: &[Atom],
        i: usize,
        mut m: Matched,
    ) -> Option<Matched> {
        let reader = folded.reader;
        let token = self.vocabulary.tokens.first()?;
        let t = match_token(folded, i, token, self.vocabulary.nonce.as_ref())?;
        // The template's own next character may continue a name (`-----`
        // after the token); only text the template does not write must
        // not.
        let next_is_name = match rest.iter().find(|a| **a != Atom::Gap) {
            Some(Atom::Word(w) | Atom::Punct(w)) => {
                w.chars().next().is_some_and(|c| reader.is_name_char(c))
            }
            _ => false,
        };
        if !next_is_name && folded.ch(t.end).is_some_and(|c| reader.is_name_char(c)) {
            return None;
        }
        m.nonce = m.nonce.or(t.nonce);
        m.request_kind = m.request_kind.or(t.kind);
        self.match_from(folded, rest, t.end, m)
    }
}

impl Template {
    /// Compiles a template, checking its placeholders.
    fn compile(template: &str) -> Result<Template, GrammarError> {
        let bad = |reason: &str| GrammarError::BadTemplate {
            template: template.into(),
            reason: reason.into(),
        };
        let mut atoms: Vec<Atom> = Vec::new();
        // Literal text waiting to be split into runs: `{{` and `}}` are a
        // literal brace, so a marker spelled with braces has a template.
        let mut literal = String::new();
        let mut rest = template;
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix("{{").or_else(|| rest.strip_prefix("}}")) {
                literal.push_str(&rest[..1]);
                rest = after;
                continue;
            }
            if let Some(after) = rest.strip_prefix('{') {
                let close = after.find('}').ok_or_else(|| bad("a '{' without '}'"))?;
                let atom = match &after[..close] {
                    "token" => Atom::Token,
                    "nonce" => Atom::Nonce,
                    "counter" => Atom::Counter,
                    "attrs" => Atom::Attrs,
                    _ => {
                        return Err(bad(
                            "placeholders are {token}, {nonce}, {counter} and {attrs}",
                        ))
                    }
                };
                push_literal(&mut atoms, &std::mem::take(&mut literal));
                push_with_gap(&mut atoms, atom);
                rest = &after[close + 1..];
                continue;
            }
            let c = rest.chars().next().expect("not empty");
            literal.push(c);
            rest = &rest[c.len_utf8()..];
        }
        push_literal(&mut atoms, &literal);
        let count = |a: &Atom| atoms.iter().filter(|x| *x == a).count();
        // Without {token}, only as both templates: `BeginEnd::new` checks.
        if count(&Atom::Token) > 1 {
            return Err(bad("needs {token} exactly once"));
        }
        if count(&Atom::Nonce) > 1 || count(&Atom::Counter) > 1 || count(&Atom::Attrs) > 1 {
            return Err(bad("{nonce}, {counter} and {attrs} may appear once each"));
        }
        if let Some(at) = atoms.iter().position(|a| *a == Atom::Attrs) {
            if !matches!(atoms.get(at + 1), Some(Atom::Punct(_))) {
                return Err(bad(
                    "{attrs} must be followed by punctuation that ends them",
                ));
            }
        }
        Ok(Template { atoms })
    }

    /// Whether the template writes text of its own (a word or
    /// punctuation), not only placeholders and spacing.
    fn has_literal(&self) -> bool {
        (self.atoms.iter()).any(|a| matches!(a, Atom::Word(_) | Atom::Punct(_)))
    }

    /// Whether the template is the token alone (a here-document's
    /// terminator line, `EOF`).
    fn is_token_alone(&self) -> bool {
        self.atoms == [Atom::Token]
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CharClass {
    Space,
    Word,
    Punct,
}

impl CharClass {
    fn of(c: char) -> CharClass {
        if c.is_whitespace() {
            CharClass::Space
        } else if c.is_alphanumeric() {
            CharClass::Word
        } else {
            CharClass::Punct
        }
    }
}

/// Whether a reader tolerates optional spacing between `a` and `b`: at a
/// boundary between punctuation and a word or the token.
fn gap_between(a: &Atom, b: &Atom) -> bool {
    let side = |x: &Atom| match x {
        Atom::Punct(_) => Some(CharClass::Punct),
        Atom::Word(_) | Atom::Token | Atom::Nonce | Atom::Counter => Some(CharClass::Word),
        _ => None,
    };
    matches!(
        (side(a), side(b)),
        (Some(CharClass::Punct), Some(CharClass::Word))
            | (Some(CharClass::Word), Some(CharClass::Punct))
    )
}

/// Pushes literal template text as runs of one character class each.
fn push_literal(atoms: &mut Vec<Atom>, mut rest: &str) {
    while let Some(c) = rest.chars().next() {
        let class = CharClass::of(c);
        let len = rest
            .find(|d: char| CharClass::of(d) != class)
            .unwrap_or(rest.len());
        let run = rest[..len].to_string();
        push_with_gap(
            atoms,
            match class {
                CharClass::Space => Atom::Space(run),
                CharClass::Word => Atom::Word(run),
                CharClass::Punct => Atom::Punct(run),
            },
        );
        rest = &rest[len..];
    }
}

/// `text` as literal template text: each brace doubled, so it is not read
/// as a placeholder.
pub fn escape_literal(text: &str) -> String {
    text.replace('{', "{{").replace('}', "}}")
}

/// The marker a template spells with `token` for `{token}`: placeholders
/// other than `{token}` are left as written, escaped braces are undone.
pub fn spell(template: &str, token: &str) -> String {
    let mut out = String::with_capacity(template.len() + token.len());
    let mut rest = template;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix("{{").or_else(|| rest.strip_prefix("}}")) {
            out.push(c);
            rest = after;
        } else if let Some(after) = rest.strip_prefix("{token}") {
            out.push_str(token);
            rest = after;
        } else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

fn push_with_gap(atoms: &mut Vec<Atom>, atom: Atom) {
    if atoms.last().is_some_and(|last| gap_between(last, &atom)) {
        atoms.push(Atom::Gap);
    }
    atoms.push(atom);
}

/// Where the line of the marker at folded `at` ends its rule, when the
/// marker stands alone on its line as the reader splits lines: the rest of
/// the line reads blank once a longer rule of the marker's own edge
/// punctuation is counted as the marker (`==========` is the `=====` line to
/// a reader too). `None` when something else shares its line.
fn alone_on_line(
    folded: &Folded<'_>,
    lines: &[std::ops::Range<usize>],
    at: std::ops::Range<usize>,
) -> Option<usize> {
    let ch = |i: usize| folded.get(i).expect("a folded index below len");
    let (first, last) = (ch(at.start), ch(at.end - 1));
    let line = &lines[lines.partition_point(|l| l.end < first.start)];
    if line.start > first.start || last.end > line.end {
        return None;
    }
    let rule = |c: char| !c.is_alphanumeric();
    let mut from = at.start;
    while from > 0
        && rule(first.ch)
        && ch(from - 1).ch == first.ch
        && ch(from - 1).start >= line.start
    {
        from -= 1;
    }
    let mut to = at.end;
    while to < folded.len() && rule(last.ch) && ch(to).ch == last.ch && ch(to).end <= line.end {
        to += 1;
    }
    let reader = folded.reader;
    (reader.is_blank(&folded.text[line.start..ch(from).start])
        && reader.is_blank(&folded.text[ch(to - 1).end..line.end]))
    .then_some(to)
}

/// The kinds of one line's markers, by order: the first opens, the next
/// with the opener's value closes it, and one with another value is a
/// closer that pairs with nothing (its frame key calls it a confusable).
fn pair_by_order(found: &mut [LiveDelimiter], folded: &Folded<'_>) {
    let value = |d: &LiveDelimiter| d.nonce.map(|(s, e)| &folded.text[s..e]);
    let mut open: Option<Option<&str>> = None;
    for d in found.iter_mut() {
        match open {
            None => {
                d.kind = DelimiterKind::Open;
                open = Some(value(d));
            }
            Some(v) => {
                d.kind = DelimiterKind::Close;
                if v == value(d) {
                    open = None;
                }
            }
        }
    }
}

impl Grammar for BeginEnd {
    fn kind(&self) -> GrammarKind {
        GrammarKind::BeginEnd
    }

    fn live(&self, folded: &Folded<'_>) -> Vec<LiveDelimiter> {
        let mut found = Vec::new();
        let lines = self.lines.then(|| folded.reader.lines(folded.text));
        let mut i = 0;
        while i < folded.len() {
            let hit = [
                (DelimiterKind::Close, &self.close),
                (DelimiterKind::Open, &self.open),
            ]
            .into_iter()
            .find_map(|(kind, t)| self.matches(folded, i, t).map(|m| (kind, m)));
            match hit {
                Some((kind, m)) if m.end > i => {
                    // A same-line marker is live only alone on its line,
                    // and a longer rule around it is one marker.
                    let rule_end = match &lines {
                        Some(lines) => match alone_on_line(folded, lines, i..m.end) {
                            Some(end) => end,
                            None => {
                                i += 1;
                                continue;
                            }
                        },
                        None => m.end,
                    };
                    let span = folded.source_span(i, m.end);
                    found.push(LiveDelimiter {
                        token: 0,
                        kind,
                        start: span.start,
                        end: span.end,
                        nonce: m.nonce.map(|pair| folded.source_pair(pair)),
                        request_kind: m.request_kind.map(|pair| folded.source_pair(pair)),
                    });
                    i = rule_end;
                }
                _ => i += 1,
            }
        }
        if self.same {
            pair_by_order(&mut found, folded);
        }
        found
    }

    fn render(&self, form: Form, token: usize) -> Spelling {
        let token_pieces = self.vocabulary.render_token(token);
        if form == Form::Token {
            return Spelling(token_pieces);
        }
        let template = if form == Form::Close {
            &self.close
        } else {
            &self.open
        };
        let sample = self
            .vocabulary
            .nonce
            .map(|n| n.alphabet.sample(n.min_len()))
            .unwrap_or_default();
        let mut s = Spelling::default();
        for atom in &template.atoms {
            match atom {
                Atom::Word(w) => s.push(Piece::Word(w.clone())),
                Atom::Punct(p) => s.0.extend(p.chars().map(Piece::Punct)),
                Atom::Space(sp) => s.push(Piece::Space(sp.clone())),
                Atom::Gap => s.push(Piece::Gap),
                Atom::Token => s.0.extend(token_pieces.iter().cloned()),
                Atom::Nonce => s.push(Piece::Nonce(sample.clone())),
                // Variants respell the marker around the number, not the
                // number: any number is read.
                Atom::Counter => s.push(Piece::Verbatim(COUNTER_SAMPLE.into())),
                // Without {attrs}, the opener "up to its attributes" is
                // the whole opener.
                Atom::Attrs if form == Form::OpenStart => break,
                Atom::Attrs => {}
            }
        }
        s
    }

    fn parse_opener(&self, text: &str, d: &LiveDelimiter) -> Result<ParsedOpener, OpenerError> {
        let Some(at) = self.open.atoms.iter().position(|a| *a == Atom::Attrs) else {
            return Ok(ParsedOpener {
                attributes: Vec::new(),
                span: d.start..d.end,
            });
        };
        let exact = crate::reader::Reader::new(crate::level::ReaderLevel::Exact).fold(text);
        let start = exact.index_at_byte(d.start);
        let matched = self.matches(&exact, start, &self.open).ok_or(OpenerError {
            reason: "the opening marker as declared",
            at: d.start,
        })?;
        let attrs_at = matched
            .attrs_start
            .map_or(d.end, |i| exact.get(i).map_or(text.len(), |f| f.start));
        let Some(Atom::Punct(after)) = self.open.atoms.get(at + 1) else {
            unreachable!("compile checks that punctuation follows {{attrs}}");
        };
        let end_char = after.chars().next().expect("non-empty run");
        let mut parsed = attributes::parse_attributes(text, d.start..attrs_at, end_char)?;
        parsed.span = d.start..d.end;
        Ok(parsed)
    }

    fn opener_has_attributes(&self) -> bool {
        self.open.atoms.contains(&Atom::Attrs)
    }

    fn attacks(&self) -> &'static [GrammarAttack] {
        ATTACKS
    }

    /// Line markers are live only alone on their line, so first on it:
    /// on a line a line-prefix body quotes (an indented block's `   End.`)
    /// such a marker is quoted data, as it is for a section's. Named
    /// markers are live anywhere on a line.
    fn marks_line_starts(&self) -> bool {
        self.lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::{NonceAlphabet, NonceSpec, Vocabulary};
    use crate::level::ReaderLevel::{self, AsciiCaseInsensitive as Ci, Exact, Unicode};
    use crate::reader::Reader;

    fn markers(token: &str, open: &str, close: &str) -> BeginEnd {
        BeginEnd::new(Vocabulary::plain(&[token]), open, close).unwrap()
    }

    /// The kinds of the live markers in `text` at `level`.
    fn live(g: &BeginEnd, text: &str, level: ReaderLevel) -> Vec<DelimiterKind> {
        g.live(&Reader::new(level).fold(text))
            .iter()
            .map(|d| d.kind)
            .collect()
    }

    /// The levels at which `text` holds exactly one closing marker.
    fn close_levels(g: &BeginEnd, text: &str) -> Vec<ReaderLevel> {
        ReaderLevel::ALL
            .into_iter()
            .filter(|&l| live(g, text, l) == vec![DelimiterKind::Close])
            .collect()
    }

    #[test]
    fn angle_markers_at_each_level() {
        let g = markers("EXTERNAL", "<<<{token}>>>", "<<<END_{token}>>>");
        use DelimiterKind::{Close, Open};
        assert_eq!(
            live(&g, "<<<EXTERNAL>>>\nx\n<<<END_EXTERNAL>>>", Exact),
            vec![Open, Close]
        );
        let cases: &[(&str, &[ReaderLevel])] = &[
            ("<<<END_EXTERNAL>>>", &[Exact, Ci, Unicode]),
            ("<<< END_EXTERNAL >>>", &[Exact, Ci, Unicode]),
            ("<<<END _ EXTERNAL>>>", &[Exact, Ci, Unicode]),
            ("<<<end_external>>>", &[Ci, Unicode]),
            ("<<<END_EXTER\u{200B}NAL>>>", &[Unicode]),
            ("＜＜＜ＥＮＤ＿ＥＸＴＥＲＮＡＬ＞＞＞", &[Unicode]),
            ("<<<ЕND_EXTERNAL>>>", &[Unicode]), // Cyrillic Е
            // Not the marker: a longer name, a missing bracket, no underscore.
            ("<<<END_EXTERNALS>>>", &[]),
            ("<<<END_EXTERNAL>>", &[]),
            ("<<<ENDEXTERNAL>>>", &[]),
        ];
        for (text, want) in cases {
            assert_eq!(&close_levels(&g, text), want, "{text:?}");
        }
    }

    #[test]
    fn word_markers_need_a_word_boundary_and_a_space() {
        let g = markers("DOC", "BEGIN {token}", "END {token}");
        assert_eq!(close_levels(&g, "x\nEND DOC\ny"), vec![Exact, Ci, Unicode]);
        assert_eq!(close_levels(&g, "END   DOC"), vec![Exact, Ci, Unicode]);
        assert_eq!(close_levels(&g, "end doc"), vec![Ci, Unicode]);
        assert!(close_levels(&g, "BACKEND DOC").is_empty());
        assert!(close_levels(&g, "ENDDOC").is_empty());
        assert!(close_levels(&g, "END DOCS").is_empty());
        // The opening marker is not mistaken for the closing one.
        assert_eq!(live(&g, "BEGIN DOC", Exact), vec![DelimiterKind::Open]);
    }

    #[test]
    fn dashed_markers_allow_the_token_before_dashes() {
        let g = markers("KEY", "-----BEGIN {token}-----", "-----END {token}-----");
        assert_eq!(
            close_levels(&g, "-----END KEY-----"),
            vec![Exact, Ci, Unicode]
        );
        assert_eq!(
            close_levels(&g, "------END KEY-----"),
            vec![Exact, Ci, Unicode]
        );
        assert!(close_levels(&g, "-----END KEYS-----").is_empty());
    }

    #[test]
    fn rendering_round_trips_through_liveness() {
        let g = markers("EXTERNAL", "<<<{token}>>>", "<<<END_{token}>>>");
        assert_eq!(g.render(Form::Open, 0).plain(), "<<<EXTERNAL>>>");
        assert_eq!(g.render(Form::OpenStart, 0).plain(), "<<<EXTERNAL>>>");
        assert_eq!(g.render(Form::Close, 0).plain(), "<<<END_EXTERNAL>>>");
        assert_eq!(g.render(Form::Token, 0).plain(), "EXTERNAL");
        for form in [Form::Open, Form::Close] {
            let text = g.render(form, 0).plain();
            let found = g.live(&Reader::new(Exact).fold(&text));
            assert_eq!(found.len(), 1, "{text}");
            assert_eq!((found[0].start, found[0].end), (0, text.len()));
        }
    }

    /// `token` with a nonce of eight hex digits at least.
    fn hex_nonce_vocabulary(token: &str) -> Vocabulary {
        Vocabulary {
            tokens: vec![crate::grammar::TokenPattern::parse(token)],
            nonce: Some(NonceSpec {
                alphabet: NonceAlphabet::Hex,
                min_length: Some(8),
            }),
        }
    }

    #[test]
    fn nonces_match_by_alphabet_and_pair_by_value() {
        let vocabulary = hex_nonce_vocabulary("EXTERNAL");
        let g = BeginEnd::new(
            vocabulary,
            "<<<{token} id=\"{nonce}\">>>",
            "<<<END_{token} id=\"{nonce}\">>>",
        )
        .unwrap();
        let text = "<<<EXTERNAL id=\"0123abcd\">>>\nx\n<<<END_EXTERNAL id=\"0123abcd\">>>\n<<<END_EXTERNAL id=\"ffffffff\">>>";
        let folded = Reader::new(Exact).fold(text);
        let found = g.live(&folded);
        assert_eq!(found.len(), 3);
        assert!(found[0].same_nonce(&found[1], &folded));
        assert!(!found[0].same_nonce(&found[2], &folded));
        // Too short or outside the alphabet: not the marker.
        assert!(g
            .live(&Reader::new(Exact).fold("<<<END_EXTERNAL id=\"0123\">>>"))
            .is_empty());
        assert!(g
            .live(&Reader::new(Exact).fold("<<<END_EXTERNAL id=\"zzzzzzzz\">>>"))
            .is_empty());
        let rendered = g.render(Form::Close, 0).plain();
        assert_eq!(rendered, "<<<END_EXTERNAL id=\"01234567\">>>");
    }

    /// A marker is one line's text: the content's `--fc<other>` followed
    /// by the frame's own `--fc<nonce>--` line is an opener with another
    /// nonce and then the closer, not a closer spelled across the break.
    #[test]
    fn a_marker_does_not_continue_past_a_line_break() {
        let vocabulary = hex_nonce_vocabulary("fc{nonce}");
        let g = BeginEnd::new(vocabulary, "--{token}", "--{token}--").unwrap();
        let text = "--fc0123abcd\nx\n--fcffffffff\n--fc0123abcd--";
        for level in ReaderLevel::ALL {
            use DelimiterKind::{Close, Open};
            assert_eq!(live(&g, text, level), [Open, Open, Close], "{level:?}");
        }
        // Spaces and tabs inside a marker stay spacing.
        let x = markers("X", "<<<{token}>>>", "<<<END_{token}>>>");
        assert_eq!(live(&x, "<<<END_ \tX>>>", Exact), [DelimiterKind::Close]);
        assert!(live(&x, "<<<END_\nX>>>", Exact).is_empty());
    }

    #[test]
    fn openers_with_attributes_parse() {
        let g = markers("DOC", "<<<{token}{attrs}>>>", "<<<END_{token}>>>");
        let text = "<<<DOC source=\"web\" title='a &amp; b'>>>\nbody\n<<<END_DOC>>>";
        let exact = Reader::new(Exact).fold(text);
        let found = g.live(&exact);
        assert_eq!(found[0].kind, DelimiterKind::Open);
        let parsed = g.parse_opener(text, &found[0]).unwrap();
        let attrs: Vec<(&str, &str)> = parsed
            .attributes
            .iter()
            .map(|a| (a.name.as_str(), a.value.as_str()))
            .collect();
        assert_eq!(attrs, vec![("source", "web"), ("title", "a & b")]);
        assert_eq!(g.render(Form::OpenStart, 0).plain(), "<<<DOC");
        let bad = "<<<DOC source=web>>>\n";
        let found = g.live(&Reader::new(Exact).fold(bad));
        assert!(g.parse_opener(bad, &found[0]).is_err());
    }

    #[test]
    fn a_counter_is_any_number_and_pairs_whatever_it_says() {
        let g = markers(
            "EXTRACT",
            "-----[{token} #{counter}]-----",
            "-----[END {token} #{counter}]-----",
        );
        let text = "-----[EXTRACT #3]-----\nx\n-----[END EXTRACT #41]-----";
        let folded = Reader::new(Exact).fold(text);
        let found = g.live(&folded);
        assert_eq!(
            found.iter().map(|d| d.kind).collect::<Vec<_>>(),
            [DelimiterKind::Open, DelimiterKind::Close]
        );
        // No value is recorded: the closer is the frame's own whatever
        // its number.
        assert!(found.iter().all(|d| d.nonce.is_none()));
        assert!(found[0].same_nonce(&found[1], &folded));
        let cases: &[(&str, &[ReaderLevel])] = &[
            ("-----[END EXTRACT #0]-----", &[Exact, Ci, Unicode]),
            ("-----[ END EXTRACT # 12345 ]-----", &[Exact, Ci, Unicode]),
            ("-----[end extract #7]-----", &[Ci, Unicode]),
            ("-----[END EXTRACT #\u{FF17}]-----", &[Unicode]), // fullwidth 7
            // No number, or not a number: not the marker.
            ("-----[END EXTRACT #]-----", &[]),
            ("-----[END EXTRACT #x]-----", &[]),
        ];
        for (text, want) in cases {
            assert_eq!(&close_levels(&g, text), want, "{text:?}");
        }
        // A forged marker carries a number the framing did not write.
        assert_eq!(
            g.render(Form::Close, 0).plain(),
            format!("-----[END EXTRACT #{COUNTER_SAMPLE}]-----")
        );
        assert!(BeginEnd::new(
            Vocabulary::plain(&["T"]),
            "<{token} {counter}{counter}>",
            "</{token}>"
        )
        .is_err());
    }

    /// One constant line before and after: the first opens, the next
    /// closes, and a third (content's) opens again, at every level that
    /// reads it as the line.
    #[test]
    fn a_constant_line_pairs_by_order() {
        use DelimiterKind::{Close, Open};
        let g = markers("RULE", "=====", "=====");
        assert_eq!(live(&g, "=====\nx\n=====", Exact), [Open, Close]);
        let text = |line: &str| format!("=====\nx\n{line}\ny\n=====");
        let cases: &[(&str, &[ReaderLevel])] = &[
            ("=====", &[Exact, Ci, Unicode]),
            ("\u{FF1D}\u{FF1D}\u{FF1D}\u{FF1D}\u{FF1D}", &[Unicode]), // fullwidth
            ("====", &[]),
        ];
        for (line, want) in cases {
            let levels: Vec<ReaderLevel> = ReaderLevel::ALL
                .into_iter()
                .filter(|&l| live(&g, &text(line), l) == [Open, Close, Open])
                .collect();
            assert_eq!(&levels, want, "{line:?}");
        }
        assert_eq!(g.render(Form::Close, 0).plain(), "=====");
        assert_eq!(g.render(Form::Open, 0).plain(), "=====");
    }

    /// A here-document's terminator, the token alone, is a line: the word
    /// inside a sentence ends nothing; alone on its line, in any case the
    /// reader folds, it closes. Alone as both templates it names nothing
    /// of its own and is refused.
    #[test]
    fn a_terminator_is_live_only_alone_on_its_line() {
        use DelimiterKind::{Close, Open};
        let g = markers("EOF", "cat <<'{token}'", "{token}");
        let text = |line: &str| format!("cat <<'EOF'\nx\n{line}\ny\nEOF");
        assert_eq!(live(&g, &text("reached EOF early"), Exact), [Open, Close]);
        assert_eq!(live(&g, &text("EOFX"), Exact), [Open, Close]);
        assert_eq!(live(&g, &text("EOF"), Exact), [Open, Close, Close]);
        assert_eq!(live(&g, &text("eof"), Exact), [Open, Close]);
        assert_eq!(live(&g, &text("eof"), Ci), [Open, Close, Close]);
        assert!(BeginEnd::new(Vocabulary::plain(&["EOF"]), "{token}", "{token}").is_err());
        assert!(BeginEnd::new(Vocabulary::plain(&["EOF"]), "{token}", "END {token}").is_err());
    }

    /// A same-line marker is a line: inside a sentence it is prose, a
    /// longer rule of its punctuation alone on a line is still the rule, and
    /// a line break only the Unicode reader knows starts a line for it alone.
    #[test]
    fn a_same_line_marker_is_live_only_alone_on_its_line() {
        use DelimiterKind::{Close, Open};
        let g = markers("RULE", "=====", "=====");
        let text = |line: &str| format!("=====\nx\n{line}\ny\n=====");
        let cases: &[(&str, &[ReaderLevel])] = &[
            ("see ===== here", &[]),
            ("x=====", &[]),
            ("  =====  ", &[Ci, Unicode]),
            ("==========", &[Exact, Ci, Unicode]),
            ("z\u{2028}=====", &[Unicode]),
        ];
        for (line, want) in cases {
            let levels: Vec<ReaderLevel> = ReaderLevel::ALL
                .into_iter()
                .filter(|&l| live(&g, &text(line), l) == [Open, Close, Open])
                .collect();
            assert_eq!(&levels, want, "{line:?}");
        }
        // Mid-sentence, the framing's own two lines still pair.
        assert_eq!(live(&g, &text("see ===== here"), Exact), [Open, Close]);
    }

    /// Rule lines that name nothing and differ are lines too: live alone
    /// on a line, paired by their templates; only both may lack {token}.
    #[test]
    fn two_rule_lines_are_live_alone_on_their_lines() {
        use DelimiterKind::{Close, Open};
        let g = markers("RULE", "<<<", ">>>");
        assert_eq!(live(&g, "<<<\nx\n>>>\ny\n>>>", Exact), [Open, Close, Close]);
        assert_eq!(live(&g, "<<<\na >>> b <<<\n>>>", Exact), [Open, Close]);
        assert_eq!(
            live(&g, "<<<\nz\u{2028}>>>\n>>>", Unicode),
            [Open, Close, Close]
        );
        assert_eq!(live(&g, "<<<\nz\u{2028}>>>\n>>>", Exact), [Open, Close]);
        let led = markers("RULE", "Text: \"\"\"", "\"\"\"");
        assert_eq!(
            live(&led, "Text: \"\"\"\nsay \"\"\"hi\"\"\"\n\"\"\"", Exact),
            [Open, Close]
        );
        let one_named = BeginEnd::new(Vocabulary::plain(&["DOC"]), "<<<", "<<<END_{token}>>>");
        assert!(one_named.is_err_and(|e| e.to_string().contains("only rule lines")));
    }

    /// A per-call line: a line with another value closes nothing (it pairs
    /// with no opener), so the frame's own line is still its closer.
    #[test]
    fn a_random_line_pairs_by_value() {
        use DelimiterKind::{Close, Open};
        let g = BeginEnd::new(
            hex_nonce_vocabulary("{nonce}"),
            "===== {token} =====",
            "===== {token} =====",
        )
        .unwrap();
        let text = "===== 0123abcd =====\n===== ffffffff =====\n===== 0123abcd =====";
        let folded = Reader::new(Exact).fold(text);
        let found = g.live(&folded);
        assert_eq!(
            found.iter().map(|d| d.kind).collect::<Vec<_>>(),
            [Open, Close, Close]
        );
        assert!(!found[0].same_nonce(&found[1], &folded));
        assert!(found[0].same_nonce(&found[2], &folded));
        // After the frame closes, the next line opens again.
        let twice = format!("{text}\n===== 0123abcd =====");
        assert_eq!(live(&g, &twice, Exact), [Open, Close, Close, Open]);
    }

    #[test]
    fn bad_templates_are_errors() {
        let v = || Vocabulary::plain(&["T"]);
        for (open, close) in [
            ("<<<>>>", "<<<END_{token}>>>"),
            ("<<<{token}{token}>>>", "<<<END_{token}>>>"),
            ("<<<{tok}>>>", "<<<END_{token}>>>"),
            ("=====", "END {token}"),
            ("<<<{token}>>>", "====="),
            ("<<<{token}{attrs}", "<<<END_{token}>>>"),
            ("<<<{token}>>>", "<<<END_{token}{attrs}>>>"),
            ("<<<{token}>>>", "<<<END_{token} {nonce}>>>"),
            ("{token}", "END {token}"),
            ("<<<{token", "END {token}"),
        ] {
            assert!(
                BeginEnd::new(v(), open, close).is_err(),
                "{open:?} {close:?}"
            );
        }
    }
}
