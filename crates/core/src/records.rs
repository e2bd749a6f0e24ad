//! Role records inside a frame: a framing that writes its element as lines
//! of role records (`[user] …`, `1. tool: …`, `Human: …`) declares their
//! spelling in the profile's `records:` section, and content that starts a
//! line reading as a record marker forges a record of its own, with a role
//! the content chose. This module owns that spelling: the declaration, its
//! validation, the marker a catalogue case forges, and where a marker
//! starts in a text as one reader level folds it. The check that uses it
//! is `records.forged` (`oracle/checks/records.rs`).
//!
//! ```yaml
//! records:
//!   marker: "[{role}] "      # `{role}` once; `{n}` (a record number) at most once
//!   roles: [user, tool, assistant]
//! ```

use serde::{Deserialize, Serialize};

use crate::reader::Folded;

/// A role name chat formats write at the start of a turn: the one list of
/// them. A model reads a line starting with one of them (in a spelling it
/// knows) as a new turn whatever roles and numbering the framing itself
/// uses, so a record with any role that [`ChatRole::forges`] is a record a
/// model reads; and `init` takes a frame for role records only when one of
/// its own record lines names one of them ([`infer`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChatRole {
    /// The instructions' role in every chat API and template (OpenAI,
    /// ChatML, Llama): the role a forged record most wants.
    System,
    /// The person's turn in every chat API and most transcripts (`USER:`
    /// in Vicuna's template).
    User,
    /// The model's own turn (`assistant` in the chat APIs, `Assistant:` in
    /// Anthropic's plain-text dialogue): a forged one puts words in the
    /// model's mouth.
    Assistant,
    /// A tool result's turn (OpenAI's `tool` role, LangChain's `Tool:`).
    Tool,
    /// OpenAI's role for instructions ranked above the user's.
    Developer,
    /// The person's turn in Anthropic's `Human:`/`Assistant:` dialogue and
    /// LangChain's buffer string.
    Human,
    /// The model's turn in LangChain's buffer string (`AI:`).
    Ai,
    /// A function result's turn in OpenAI's older function calling and
    /// LangChain's `Function:` prefix.
    Function,
    /// Gemma's name for the model's turn. It is evidence of records for
    /// `init`, but no forged record: Gemma writes it inside its special
    /// tokens (which `template.control` judges), and a bare `model: …` line
    /// is far more often a configuration line than a turn.
    Model,
}

impl ChatRole {
    /// Every chat role.
    pub const ALL: [ChatRole; 9] = [
        ChatRole::System,
        ChatRole::User,
        ChatRole::Assistant,
        ChatRole::Tool,
        ChatRole::Developer,
        ChatRole::Human,
        ChatRole::Ai,
        ChatRole::Function,
        ChatRole::Model,
    ];

    /// The role's name, in lower case.
    pub fn name(self) -> &'static str {
        match self {
            ChatRole::System => "system",
            ChatRole::User => "user",
            ChatRole::Assistant => "assistant",
            ChatRole::Tool => "tool",
            ChatRole::Developer => "developer",
            ChatRole::Human => "human",
            ChatRole::Ai => "ai",
            ChatRole::Function => "function",
            ChatRole::Model => "model",
        }
    }

    /// Whether a line content starts with this role is a forged record:
    /// every role but [`ChatRole::Model`].
    pub fn forges(self) -> bool {
        self != ChatRole::Model
    }

    /// The names of the roles that forge a record, whatever roles the
    /// framing writes itself.
    pub fn forging() -> impl Iterator<Item = &'static str> {
        ChatRole::ALL
            .into_iter()
            .filter(|r| r.forges())
            .map(ChatRole::name)
    }
}

/// The marker a catalogue case forges when the profile declares no records:
/// the numbered spelling the record-forgery cases have always sent.
const UNDECLARED_MARKER: &str = "2. system: ";

/// The record number a forged marker carries where the spelling has `{n}`.
const FORGED_NUMBER: &str = "2";

/// The `records:` section: the frame holds role records, one a line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordsSection {
    /// How a record line starts: a template with `{role}` once and `{n}`
    /// (the record's number) at most once, the rest literal text.
    pub marker: String,
    /// The roles the framing writes, as it spells them.
    pub roles: Vec<String>,
}

/// Why a `records:` section is not a valid declaration.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordsError {
    /// The marker has no `{role}`, or more than one.
    #[error("records.marker {0:?} must contain `{{role}}` exactly once")]
    RoleCount(String),
    /// The marker has `{n}` more than once.
    #[error("records.marker {0:?} may contain `{{n}}` at most once")]
    NumberCount(String),
    /// A brace that is neither `{role}` nor `{n}`.
    #[error("records.marker {0:?} has a brace that is neither `{{role}}` nor `{{n}}`")]
    StrayBrace(String),
    /// Nothing but letters, digits or spaces follows `{role}`, so any line
    /// starting with a word such as `username` would read as a record.
    #[error(
        "records.marker {0:?} must have punctuation right after `{{role}}` (`]`, `:`), \
         or a line starting with an ordinary word would read as a record"
    )]
    NoRoleEnd(String),
    /// No roles, or a role that is not one word of letters.
    #[error(
        "records.roles must list the roles the framing writes, each one word of letters: {0:?}"
    )]
    BadRoles(Vec<String>),
}

/// One piece of a parsed marker.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Literal(String),
    Role,
    Number,
}

/// How the framing writes the case of its role names, so the exact level
/// reads the standard roles in the same case (other cases are the folding
/// levels' to read).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RoleCase {
    Lower,
    Capitalized,
    Upper,
}

impl RoleCase {
    fn of(role: &str) -> RoleCase {
        let mut chars = role.chars();
        let first_upper = chars.next().is_some_and(char::is_uppercase);
        let rest_upper = chars.clone().all(char::is_uppercase);
        match (first_upper, rest_upper && role.chars().count() > 1) {
            (true, true) => RoleCase::Upper,
            (true, false) => RoleCase::Capitalized,
            _ => RoleCase::Lower,
        }
    }

    fn spell(self, role: &str) -> String {
        match self {
            RoleCase::Lower => role.to_lowercase(),
            RoleCase::Upper => role.to_uppercase(),
            RoleCase::Capitalized => {
                let mut chars = role.chars();
                chars.next().map_or_else(String::new, |c| {
                    c.to_uppercase()
                        .chain(chars.flat_map(char::to_lowercase))
                        .collect()
                })
            }
        }
    }
}

/// A forged record marker found in a text: the role it names, the folded
/// index where it ends, and how it was spelled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarkerAt {
    /// The role, as the roles read are spelled.
    pub role: String,
    /// The folded index just after the marker.
    pub end: usize,
    /// `None` for the framing's own marker spelling, else the chat
    /// transcript spelling the line was written in.
    pub spelling: Option<RoleSpelling>,
}

/// How chat transcripts write a role at the start of a turn line, whatever
/// marker the framing itself declares. A model reading a transcript takes a
/// line starting `system:` for a system turn although the framing numbers
/// its own records `1. user: `: a line the content starts in one of these
/// spellings, with a role the framing writes or one that
/// [`ChatRole::forges`], is a forged record ([`RecordsSection::chat_record_at`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoleSpelling {
    /// `system: …`, `Human: …`, `USER: …`: the role and a colon, then a
    /// space, a tab or the line's end, as OpenAI-style transcripts,
    /// Anthropic's dialogue, LangChain's buffer string and Vicuna's template
    /// write a turn. A colon run into a word (`user:alice`) is a field.
    Colon,
    /// `[system] …`: the role in square brackets, as log-style histories
    /// write a turn.
    Bracketed,
    /// `### System:`, `## User`: a Markdown heading (one to six `#`, then
    /// spaces) naming the role, then a colon or the line's end, as
    /// Alpaca-style prompts and Markdown chat exports write a turn;
    /// `## User guide` is a heading, not a turn.
    Heading,
}

impl RoleSpelling {
    /// Every spelling, tried in this order.
    pub const ALL: [RoleSpelling; 3] = [
        RoleSpelling::Colon,
        RoleSpelling::Bracketed,
        RoleSpelling::Heading,
    ];

    /// How a report names the spelling.
    pub fn name(self) -> &'static str {
        match self {
            RoleSpelling::Colon => "a role and a colon",
            RoleSpelling::Bracketed => "a bracketed role",
            RoleSpelling::Heading => "a Markdown heading naming a role",
        }
    }

    /// The role (of `roles`, each with the name a report gives it) that a
    /// line starting at folded index `at` names in this spelling, and the
    /// folded index after the spelling.
    fn at(
        self,
        folded: &Folded<'_>,
        at: usize,
        roles: &[(String, String)],
    ) -> Option<(String, usize)> {
        match self {
            RoleSpelling::Colon => {
                let (role, end) = longest_role(folded, at, roles)?;
                let end = folded.match_literal(end, ":")?;
                let spaced = matches!(folded.ch(end), Some(' ' | '\t'));
                (spaced || line_ends_at(folded, end)).then_some((role, end))
            }
            RoleSpelling::Bracketed => {
                let start = folded.match_literal(at, "[")?;
                let (role, end) = longest_role(folded, start, roles)?;
                Some((role, folded.match_literal(end, "]")?))
            }
            RoleSpelling::Heading => {
                let hashes = (at..).take_while(|&i| folded.ch(i) == Some('#')).count();
                let start = blanks(folded, at + hashes);
                if !(1..=6).contains(&hashes) || start == at + hashes {
                    return None;
                }
                let (role, end) = longest_role(folded, start, roles)?;
                match folded.match_literal(end, ":") {
                    Some(colon) => Some((role, colon)),
                    None => line_ends_at(folded, blanks(folded, end)).then_some((role, end)),
                }
            }
        }
    }
}

/// The longest of `roles` (spelling, name) spelled at folded index `at`:
/// its name and where it ends. The longest, so `users` is not read as
/// `user` followed by text when both are roles.
fn longest_role(
    folded: &Folded<'_>,
    at: usize,
    roles: &[(String, String)],
) -> Option<(String, usize)> {
    roles
        .iter()
        .filter_map(|(spelled, name)| folded.match_literal(at, spelled).map(|end| (name, end)))
        .max_by_key(|(_, end)| *end)
        .map(|(name, end)| (name.clone(), end))
}

/// Folded index past the spaces and tabs at `i`.
fn blanks(folded: &Folded<'_>, mut i: usize) -> usize {
    while matches!(folded.ch(i), Some(' ' | '\t')) {
        i += 1;
    }
    i
}

/// Whether the line ends at folded index `i`: the text ends there, or a
/// line break the reader splits at starts there.
fn line_ends_at(folded: &Folded<'_>, i: usize) -> bool {
    i >= folded.len() || {
        let byte = folded.source_span(i, i + 1).start;
        folded.reader.line_break_at(folded.text, byte).is_some()
    }
}

impl RecordsSection {
    /// Checks the marker template and the roles.
    pub fn validate(&self) -> Result<(), RecordsError> {
        let pieces = parse(&self.marker)?;
        let count = |p: &Piece| pieces.iter().filter(|q| *q == p).count();
        if count(&Piece::Role) != 1 {
            return Err(RecordsError::RoleCount(self.marker.clone()));
        }
        if count(&Piece::Number) > 1 {
            return Err(RecordsError::NumberCount(self.marker.clone()));
        }
        let after_role = pieces
            .iter()
            .skip_while(|p| **p != Piece::Role)
            .nth(1)
            .and_then(|p| match p {
                Piece::Literal(l) => l.chars().next(),
                _ => None,
            });
        if !after_role.is_some_and(|c| !c.is_alphanumeric() && !c.is_whitespace()) {
            return Err(RecordsError::NoRoleEnd(self.marker.clone()));
        }
        let word = |r: &String| !r.is_empty() && r.chars().all(char::is_alphabetic);
        if self.roles.is_empty() || !self.roles.iter().all(word) {
            return Err(RecordsError::BadRoles(self.roles.clone()));
        }
        Ok(())
    }

    /// The marker of a record with `role` and number `n`, as the framing
    /// would write it.
    pub fn render(&self, role: &str, n: &str) -> String {
        let pieces = parse(&self.marker).unwrap_or_default();
        pieces
            .iter()
            .map(|p| match p {
                Piece::Literal(l) => l.as_str(),
                Piece::Role => role,
                Piece::Number => n,
            })
            .collect()
    }

    /// Every role a reader takes a record marker to name: the roles the
    /// framing writes and the standard ones, in the framing's case.
    pub fn roles_read(&self) -> Vec<String> {
        let case = self
            .roles
            .first()
            .map_or(RoleCase::Lower, |r| RoleCase::of(r));
        let mut roles = self.roles.clone();
        // A chat role the framing writes is read in the framing's spelling
        // alone (`AI`, not also `Ai`): another case of it is a folding
        // level's, and a report names the role as the framing writes it.
        for role in ChatRole::forging() {
            if !roles.iter().any(|r| r.eq_ignore_ascii_case(role)) {
                roles.push(case.spell(role));
            }
        }
        roles
    }

    /// The record marker starting at folded index `at` of `folded`, if one
    /// does: the marker's literal text as the reader folds it, any role in
    /// `roles` (see [`RecordsSection::roles_read`]), a run of digits for
    /// `{n}`. Trailing spaces of the marker are not required: a reader takes
    /// `[system]` followed by anything for a record.
    pub fn marker_at(&self, folded: &Folded<'_>, at: usize, roles: &[String]) -> Option<MarkerAt> {
        let mut pieces = parse(&self.marker).ok()?;
        if let Some(Piece::Literal(last)) = pieces.last_mut() {
            let trimmed = last.trim_end().len();
            last.truncate(trimmed);
        }
        let mut i = at;
        let mut found = None;
        for piece in &pieces {
            match piece {
                Piece::Literal(l) if l.is_empty() => {}
                Piece::Literal(l) => i = folded.match_literal(i, l)?,
                Piece::Number => {
                    let digits = (i..)
                        .take_while(|&k| folded.ch(k).is_some_and(|c| c.is_ascii_digit()))
                        .count();
                    if digits == 0 {
                        return None;
                    }
                    i += digits;
                }
                Piece::Role => {
                    let named: Vec<(String, String)> =
                        roles.iter().map(|r| (r.clone(), r.clone())).collect();
                    let (role, end) = longest_role(folded, i, &named)?;
                    found = Some(role);
                    i = end;
                }
            }
        }
        found.map(|role| MarkerAt {
            role,
            end: i,
            spelling: None,
        })
    }

    /// The roles a line in a chat transcript spelling may name, each with
    /// the name a report gives it: the roles the framing writes and those
    /// that [`ChatRole::forges`], each as written, in lower case, capitalised
    /// and in upper case (all three are written: `user:` in OpenAI-style
    /// transcripts, `Human:` in Anthropic's, `USER:` in Vicuna's template),
    /// so the exact level reads those three and the folding levels any case.
    pub fn chat_roles(&self) -> Vec<(String, String)> {
        let named = self.roles.iter().map(|r| (r.as_str(), r.clone()));
        let chat = ChatRole::forging()
            .filter(|c| !self.roles.iter().any(|r| r.eq_ignore_ascii_case(c)))
            .map(|c| (c, c.to_string()));
        let mut out: Vec<(String, String)> = Vec::new();
        for (role, name) in named.chain(chat) {
            let cases = [RoleCase::Lower, RoleCase::Capitalized, RoleCase::Upper];
            let spellings = std::iter::once(role.to_string()).chain(cases.map(|c| c.spell(role)));
            for spelled in spellings {
                if !out.iter().any(|(s, _)| *s == spelled) {
                    out.push((spelled, name.clone()));
                }
            }
        }
        out
    }

    /// The chat transcript spelling the framing's own marker is, if it is
    /// one (`"[{role}] "` is [`RoleSpelling::Bracketed`], `"{role}: "`
    /// [`RoleSpelling::Colon`]): that spelling is read as the framing's
    /// marker ([`RecordsSection::marker_at`]), at the exact level in the
    /// case the framing writes it, another case being a folding level's.
    fn own_spelling(&self) -> Option<RoleSpelling> {
        let own = self.render("r", FORGED_NUMBER);
        let own = own.trim_end();
        let heading = own
            .trim_start_matches('#')
            .trim_start_matches([' ', '\t'])
            .trim_end_matches(':');
        match own {
            "[r]" => Some(RoleSpelling::Bracketed),
            "r:" => Some(RoleSpelling::Colon),
            _ if own.starts_with('#') && heading == "r" => Some(RoleSpelling::Heading),
            _ => None,
        }
    }

    /// The record a line starting at folded index `at` forges in a chat
    /// transcript spelling ([`RoleSpelling`]) other than the framing's own
    /// marker, with one of `roles` (see [`RecordsSection::chat_roles`]):
    /// what a model reading the transcript takes for a turn beyond the
    /// framing's own marker spelling.
    pub fn chat_record_at(
        &self,
        folded: &Folded<'_>,
        at: usize,
        roles: &[(String, String)],
    ) -> Option<MarkerAt> {
        let own = self.own_spelling();
        RoleSpelling::ALL
            .into_iter()
            .filter(|s| Some(*s) != own)
            .find_map(|spelling| {
                spelling.at(folded, at, roles).map(|(role, end)| MarkerAt {
                    role,
                    end,
                    spelling: Some(spelling),
                })
            })
    }
}

/// The marker a catalogue case writes to forge a `system` record: the
/// declared spelling with role `system` (in the framing's case), or the
/// numbered spelling for a profile that declares no records.
pub fn forged_system_marker(records: Option<&RecordsSection>) -> String {
    match records {
        Some(r) => {
            let case = r.roles.first().map_or(RoleCase::Lower, |x| RoleCase::of(x));
            r.render(&case.spell("system"), FORGED_NUMBER)
        }
        None => UNDECLARED_MARKER.to_string(),
    }
}

/// The records a framed text holds, inferred from one calibration output
/// alone: the text before the content on its line reads as a record marker
/// (`[tool] `, `2. tool: `, `Human: `: one word of letters, the role, with
/// punctuation right after it, and a number for `{n}` if the prefix has
/// one), and at least one other line of the framing's own text outside the
/// content starts with the same marker with its own role, one of the roles
/// being a chat role. `None` when the output shows no such records.
pub fn infer(framed: &str, slot: std::ops::Range<usize>) -> Option<RecordsSection> {
    let line_start = framed[..slot.start].rfind('\n').map_or(0, |i| i + 1);
    let prefix = &framed[line_start..slot.start];
    let (template, own_role) = template_of(prefix)?;
    let records = RecordsSection {
        marker: template,
        roles: Vec::new(),
    };
    let mut roles = Vec::new();
    let mut others = 0;
    let outside = [(0, line_start), (slot.end, framed.len())];
    for (from, to) in outside {
        for line in framed[from..to].split('\n') {
            let Some((t, role)) = template_of_line(line) else {
                continue;
            };
            if t.trim_end() == records.marker.trim_end() {
                others += 1;
                if !roles.contains(&role) {
                    roles.push(role);
                }
            }
        }
    }
    if !roles.contains(&own_role) {
        roles.push(own_role);
    }
    // A record line naming a chat role tells records from labels: lines
    // such as `Thought:` and `Observation:` alone are labels, another shape.
    let chat = roles.iter().any(|r| {
        ChatRole::ALL
            .iter()
            .any(|c| c.name().eq_ignore_ascii_case(r))
    });
    let records = RecordsSection { roles, ..records };
    (others > 0 && chat && records.validate().is_ok()).then_some(records)
}

/// The marker template and role of a record line: the longest prefix of
/// `line` that [`template_of`] reads as a marker ending in punctuation and
/// a space, or at the line's end.
fn template_of_line(line: &str) -> Option<(String, String)> {
    let ends = line
        .char_indices()
        .filter(|&(_, c)| c == ' ')
        .map(|(i, _)| i + 1)
        .chain(std::iter::once(line.len()));
    ends.filter_map(|end| template_of(&line[..end])).next()
}

/// `prefix` as a marker template: its one run of letters becomes `{role}`,
/// its one run of digits (before the role) `{n}`, the rest is literal; the
/// role must be followed by punctuation. `None` when `prefix` is not of
/// that form (no letters, two words, letters in the literal).
fn template_of(prefix: &str) -> Option<(String, String)> {
    let word = |c: char| c.is_alphabetic();
    let start = prefix.find(word)?;
    let end = prefix[start..]
        .find(|c: char| !word(c))
        .map_or(prefix.len(), |i| start + i);
    let (before, role, after) = (&prefix[..start], &prefix[start..end], &prefix[end..]);
    let literal_ok = |t: &str| {
        !t.chars()
            .any(|c| c.is_alphanumeric() || c == '{' || c == '}')
    };
    let punctuated = after.chars().next().is_some_and(|c| !c.is_whitespace());
    let before = match before.find(|c: char| c.is_ascii_digit()) {
        Some(d) => {
            let digits_end = before[d..]
                .find(|c: char| !c.is_ascii_digit())
                .map_or(before.len(), |i| d + i);
            let (lead, rest) = (&before[..d], &before[digits_end..]);
            if !literal_ok(lead) || !literal_ok(rest) {
                return None;
            }
            format!("{lead}{{n}}{rest}")
        }
        None if literal_ok(before) => before.to_string(),
        None => return None,
    };
    (punctuated && literal_ok(after) && !after.trim().is_empty() && !before.contains('\n'))
        .then(|| (format!("{before}{{role}}{after}"), role.to_string()))
}

/// Splits a marker template into literal text, `{role}` and `{n}`.
fn parse(marker: &str) -> Result<Vec<Piece>, RecordsError> {
    let mut pieces = Vec::new();
    let mut rest = marker;
    while let Some(open) = rest.find(['{', '}']) {
        if !rest[..open].is_empty() {
            pieces.push(Piece::Literal(rest[..open].to_string()));
        }
        let tail = &rest[open..];
        let (piece, len) = if tail.starts_with("{role}") {
            (Piece::Role, "{role}".len())
        } else if tail.starts_with("{n}") {
            (Piece::Number, "{n}".len())
        } else {
            return Err(RecordsError::StrayBrace(marker.to_string()));
        };
        pieces.push(piece);
        rest = &tail[len..];
    }
    if !rest.is_empty() {
        pieces.push(Piece::Literal(rest.to_string()));
    }
    Ok(pieces)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::ReaderLevel;
    use crate::reader::Reader;

    fn records(marker: &str, roles: &[&str]) -> RecordsSection {
        RecordsSection {
            marker: marker.into(),
            roles: roles.iter().map(|r| r.to_string()).collect(),
        }
    }

    /// The role of the marker at the start of `text` at `level`.
    fn role_at(r: &RecordsSection, level: ReaderLevel, text: &str) -> Option<String> {
        let folded = Reader::new(level).fold(text);
        r.marker_at(&folded, 0, &r.roles_read()).map(|m| m.role)
    }

    #[test]
    fn markers_validate_their_placeholders_and_roles() {
        assert_eq!(records("[{role}] ", &["user"]).validate(), Ok(()));
        assert_eq!(records("{n}. {role}: ", &["tool"]).validate(), Ok(()));
        assert_eq!(records("{role}: ", &["Human"]).validate(), Ok(()));
        let bad = [
            records("[role] ", &["user"]),
            records("{role}{role}: ", &["user"]),
            records("{n}{n}. {role}: ", &["user"]),
            records("{x} {role}: ", &["user"]),
            records("{role} says ", &["user"]),
            records("{role}", &["user"]),
            records("[{role}] ", &[]),
            records("[{role}] ", &["tool user"]),
        ];
        for r in bad {
            assert!(r.validate().is_err(), "{r:?}");
        }
    }

    #[test]
    fn a_marker_with_any_role_is_read_at_the_levels_that_fold_it() {
        use ReaderLevel::{AsciiCaseInsensitive as Ci, Exact, Unicode};
        let r = records("[{role}] ", &["user", "tool"]);
        // A standard role the framing never writes is a record all the same.
        assert_eq!(role_at(&r, Exact, "[system] x").as_deref(), Some("system"));
        assert_eq!(role_at(&r, Exact, "[tool]x").as_deref(), Some("tool"));
        assert_eq!(role_at(&r, Exact, "[SYSTEM] x"), None);
        assert_eq!(role_at(&r, Ci, "[SYSTEM] x").as_deref(), Some("system"));
        assert_eq!(role_at(&r, Ci, "［system] x"), None);
        assert_eq!(
            role_at(&r, Unicode, "［sys\u{200B}tem] x").as_deref(),
            Some("system")
        );
        // A word that is no role, or a marker not at its index, is none.
        assert_eq!(role_at(&r, Unicode, "[note] x"), None);
        assert_eq!(role_at(&r, Unicode, " [system] x"), None);
        let numbered = records("{n}. {role}: ", &["tool"]);
        assert_eq!(
            role_at(&numbered, Exact, "12. system: x").as_deref(),
            Some("system")
        );
        assert_eq!(role_at(&numbered, Exact, ". system: x"), None);
        assert_eq!(
            role_at(&numbered, Unicode, "２. system: x").as_deref(),
            Some("system")
        );
        // The exact level reads the standard roles in the framing's case.
        let human = records("{role}: ", &["Human", "Assistant"]);
        assert_eq!(
            role_at(&human, Exact, "System: x").as_deref(),
            Some("System")
        );
        assert_eq!(role_at(&human, Exact, "system: x"), None);
        assert_eq!(role_at(&human, Ci, "system: x").as_deref(), Some("System"));
        // A chat role the framing writes keeps the framing's spelling.
        let ai = records("{role}: ", &["Human", "AI"]);
        assert_eq!(role_at(&ai, Exact, "Ai: x"), None);
        assert_eq!(role_at(&ai, Ci, "Ai: x").as_deref(), Some("AI"));
    }

    #[test]
    fn records_are_inferred_from_the_framings_own_record_lines() {
        let infer_in = |framed: &str| {
            let at = framed.find("CONTENT").unwrap();
            infer(framed, at..at + "CONTENT".len()).map(|r| (r.marker, r.roles))
        };
        let roles = |r: &[&str]| r.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(
            infer_in("<log>\n[user] Hi.\n[tool] CONTENT\n[assistant] Ok.\n</log>"),
            Some(("[{role}] ".into(), roles(&["user", "assistant", "tool"])))
        );
        assert_eq!(
            infer_in("<s>\n1. system: Be careful.\n2. tool: CONTENT\n</s>"),
            Some(("{n}. {role}: ".into(), roles(&["system", "tool"])))
        );
        assert_eq!(
            infer_in("Human: CONTENT\n\nAssistant:"),
            Some(("{role}: ".into(), roles(&["Assistant", "Human"])))
        );
        // One marker-like prefix alone is a label, not records; labels
        // without a chat role are another shape; prose is nothing.
        assert_eq!(infer_in("<x>\nContext: CONTENT\n</x>"), None);
        assert_eq!(infer_in("Thought: x\nObservation: CONTENT\n"), None);
        assert_eq!(infer_in("<x>\nCONTENT\n</x>"), None);
        assert_eq!(infer_in("<x>\nuser said CONTENT\nuser said y</x>"), None);
    }

    #[test]
    fn chat_roles_are_the_framings_and_the_forging_ones_in_three_cases() {
        let human = records("{role}: ", &["Human", "AI"]);
        let roles = human.chat_roles();
        let named = |spelled: &str| {
            roles
                .iter()
                .find(|(s, _)| s == spelled)
                .map(|(_, n)| n.as_str())
        };
        assert_eq!(named("AI"), Some("AI"));
        assert_eq!(named("ai"), Some("AI"));
        assert_eq!(named("SYSTEM"), Some("system"));
        assert_eq!(named("Developer"), Some("developer"));
        assert_eq!(named("sYSTEM"), None);
        // `model` is evidence of records for `init`, no forged record.
        assert_eq!(named("model"), None);
        assert!(ChatRole::ALL
            .iter()
            .filter(|r| !r.forges())
            .eq([&ChatRole::Model]));
        let own = |marker: &str| records(marker, &["user"]).own_spelling();
        assert_eq!(own("[{role}] "), Some(RoleSpelling::Bracketed));
        assert_eq!(own("{role}: "), Some(RoleSpelling::Colon));
        assert_eq!(own("### {role}:"), Some(RoleSpelling::Heading));
        assert_eq!(own("{n}. {role}: "), None);
        assert_eq!(own("<{role}> "), None);
    }

    #[test]
    fn the_forged_marker_is_the_declared_spelling() {
        assert_eq!(forged_system_marker(None), "2. system: ");
        let r = records("[{role}] ", &["user"]);
        assert_eq!(forged_system_marker(Some(&r)), "[system] ");
        let human = records("{role}: ", &["Human"]);
        assert_eq!(forged_system_marker(Some(&human)), "System: ");
        let numbered = records("{n}. {role}: ", &["tool"]);
        assert_eq!(forged_system_marker(Some(&numbered)), "2. system: ");
    }
}
