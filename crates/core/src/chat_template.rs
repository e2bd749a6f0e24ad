//! Chat-template control strings: the one table of template families and
//! the strings that end or open a turn in them, and the context a target
//! declares its frames are embedded in.
//!
//! A frame sits inside a chat message. Content carrying `<|im_end|>` or
//! `[/INST]` breaks out of that message, not only out of the frame: a serving
//! stack that encodes text with special tokens enabled turns such a string
//! into the real control token, and a model reads plain-text turn markers
//! (`Human:` at the start of a line) as turn boundaries whatever the
//! tokenizer does. The oracle's `template.control` check and the reference
//! envelope's neutraliser both read [`CONTROL_STRINGS`]; nothing else lists
//! them.
//!
//! ```
//! use framecheck_core::chat_template::{Family, CONTROL_STRINGS};
//!
//! let chatml: Vec<&str> = CONTROL_STRINGS
//!     .iter()
//!     .filter(|c| c.family == Family::ChatMl)
//!     .map(|c| c.text)
//!     .collect();
//! assert_eq!(chatml, ["<|im_start|>", "<|im_end|>"]);
//! ```

use serde::{Deserialize, Serialize};

/// A chat-template family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// ChatML (`<|im_start|>role … <|im_end|>`): OpenAI's format, Qwen and
    /// many fine-tunes.
    #[serde(rename = "chatml")]
    ChatMl,
    /// Llama 3 (`<|start_header_id|>role<|end_header_id|> … <|eot_id|>`).
    #[serde(rename = "llama3")]
    Llama3,
    /// Llama 2 and Mistral instruct (`[INST] … [/INST]`, `</s>`).
    #[serde(rename = "llama2")]
    Llama2,
    /// Gemma (`<start_of_turn>role … <end_of_turn>`).
    Gemma,
    /// GPT-style document end, `<|endoftext|>`.
    #[serde(rename = "endoftext")]
    EndOfText,
    /// Plain-text dialogue (`\n\nHuman:` / `\n\nAssistant:`).
    HumanAssistant,
    /// Alpaca-style instruction prompts (`### Instruction:`).
    Alpaca,
}

impl Family {
    /// Every family, in table order.
    pub const ALL: [Family; 7] = [
        Family::ChatMl,
        Family::Llama3,
        Family::Llama2,
        Family::Gemma,
        Family::EndOfText,
        Family::HumanAssistant,
        Family::Alpaca,
    ];

    /// The stable name, as a profile and a report spell it.
    pub fn name(self) -> &'static str {
        match self {
            Family::ChatMl => "chatml",
            Family::Llama3 => "llama3",
            Family::Llama2 => "llama2",
            Family::Gemma => "gemma",
            Family::EndOfText => "endoftext",
            Family::HumanAssistant => "human-assistant",
            Family::Alpaca => "alpaca",
        }
    }
}

/// What kind of control a string is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A special token: the tokenizer encodes its exact spelling as one
    /// control token when special tokens are enabled; otherwise it is text
    /// that merely looks like one.
    Special,
    /// Template markup written as ordinary text (`[INST]`): it is the
    /// turn boundary whether or not special tokens are parsed.
    Markup,
    /// A turn marker that counts at the start of a line only (`Human:`).
    LineMarker,
}

/// One control string of a family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ControlString {
    /// The family that uses it.
    pub family: Family,
    /// Its canonical spelling.
    pub text: &'static str,
    /// What kind of control it is.
    pub kind: Kind,
}

const fn control(family: Family, text: &'static str, kind: Kind) -> ControlString {
    ControlString { family, text, kind }
}

/// Every control string, by family. A role name after an opener
/// (`<|im_start|>system`) is not part of the string: the opener alone
/// starts a turn.
pub const CONTROL_STRINGS: [ControlString; 15] = [
    control(Family::ChatMl, "<|im_start|>", Kind::Special),
    control(Family::ChatMl, "<|im_end|>", Kind::Special),
    control(Family::Llama3, "<|eot_id|>", Kind::Special),
    control(Family::Llama3, "<|start_header_id|>", Kind::Special),
    control(Family::Llama3, "<|end_header_id|>", Kind::Special),
    control(Family::Llama2, "[INST]", Kind::Markup),
    control(Family::Llama2, "[/INST]", Kind::Markup),
    control(Family::Llama2, "</s>", Kind::Special),
    control(Family::Gemma, "<start_of_turn>", Kind::Special),
    control(Family::Gemma, "<end_of_turn>", Kind::Special),
    control(Family::EndOfText, "<|endoftext|>", Kind::Special),
    control(Family::HumanAssistant, "Human:", Kind::LineMarker),
    control(Family::HumanAssistant, "Assistant:", Kind::LineMarker),
    control(Family::Alpaca, "### Instruction:", Kind::LineMarker),
    control(Family::Alpaca, "### Response:", Kind::LineMarker),
];

/// Whether a serving stack parses special tokens in the text it encodes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SpecialTokens {
    /// Special-token spellings in the text stay text (tiktoken's
    /// `encode_ordinary`, Hugging Face `split_special_tokens=True`).
    #[default]
    Text,
    /// The text is encoded with special tokens enabled: an exact
    /// special-token spelling becomes the control token.
    Parsed,
}

/// The profile's `chat_template:` section: the context the framed text is
/// embedded in. It decides whether an outer-layer finding fails the default
/// gate ([`crate::gate`]).
///
/// ```yaml
/// chat_template: { families: [chatml], special_tokens: parsed }
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TemplateContext {
    /// The template families the framed text is sent in.
    #[serde(default)]
    pub families: Vec<Family>,
    /// Whether the stack parses special tokens in that text.
    #[serde(default)]
    pub special_tokens: SpecialTokens,
}

impl TemplateContext {
    /// True when nothing is declared (the default: findings are reported,
    /// not failing).
    pub fn is_unset(&self) -> bool {
        self == &TemplateContext::default()
    }

    /// Whether `control`, read at the exact level (`exact`) or only at a
    /// folding one, is a real control in this context: its family is
    /// declared, and it is template markup or a line marker (text the
    /// template itself uses), or a special token spelled exactly in a stack
    /// that parses special tokens.
    pub fn is_live(&self, control: &ControlString, exact: bool) -> bool {
        self.families.contains(&control.family)
            && match control.kind {
                Kind::Markup | Kind::LineMarker => true,
                Kind::Special => exact && self.special_tokens == SpecialTokens::Parsed,
            }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_has_a_string_and_strings_are_distinct() {
        for family in Family::ALL {
            assert!(
                CONTROL_STRINGS.iter().any(|c| c.family == family),
                "{family:?}"
            );
        }
        let mut texts: Vec<&str> = CONTROL_STRINGS.iter().map(|c| c.text).collect();
        texts.sort_unstable();
        texts.dedup();
        assert_eq!(texts.len(), CONTROL_STRINGS.len());
    }

    #[test]
    fn the_context_decides_liveness() {
        let im_end = CONTROL_STRINGS[1];
        let human = CONTROL_STRINGS[11];
        let parsed = TemplateContext {
            families: vec![Family::ChatMl, Family::HumanAssistant],
            special_tokens: SpecialTokens::Parsed,
        };
        assert!(parsed.is_live(&im_end, true));
        // A tokenizer matches a special token's exact bytes only.
        assert!(!parsed.is_live(&im_end, false));
        assert!(parsed.is_live(&human, false));
        let text = TemplateContext {
            special_tokens: SpecialTokens::Text,
            ..parsed.clone()
        };
        assert!(!text.is_live(&im_end, true));
        assert!(text.is_live(&human, true));
        assert!(!TemplateContext::default().is_live(&human, true));
    }

    #[test]
    fn the_section_parses() {
        let context: TemplateContext =
            serde_saphyr::from_str("{families: [chatml, llama3], special_tokens: parsed}").unwrap();
        assert_eq!(context.families, [Family::ChatMl, Family::Llama3]);
        assert_eq!(context.special_tokens, SpecialTokens::Parsed);
        assert!(serde_saphyr::from_str::<TemplateContext>("{families: [nope]}").is_err());
    }
}
