//! Grammar `xml-tag`: `<tok attr="v">…</tok>`.
//!
//! A delimiter is live where `<` (as folded) is followed by optional
//! spacing, an optional `/` (a closer), optional spacing and the token
//! (folded by the same reader), and then by the end of the text or a
//! character that cannot continue a name. The opener's attributes end at
//! the first `>` outside quotes.

use super::tagged::TagShape;
#[cfg(test)]
use super::{tagged::Tagged, Vocabulary};
use super::{Around, Delimiters, GrammarKind, Guess};

/// The `xml-tag` shape.
pub(super) const SHAPE: TagShape = TagShape {
    kind: GrammarKind::XmlTag,
    open: '<',
    close: '>',
    guesses: &[Guess {
        rank: 0,
        read: guess,
    }],
    evidence: "an element opened before the content and closed after it",
};

fn guess(around: &Around<'_>) -> Option<Delimiters> {
    super::tagged::guess(around, &SHAPE)
}

#[cfg(test)]
impl Tagged {
    /// The `xml-tag` grammar over `vocabulary`.
    pub(super) fn xml_tag(vocabulary: Vocabulary) -> Tagged {
        SHAPE.grammar(vocabulary)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::{
        DelimiterKind, Form, Grammar, LiveDelimiter, NonceAlphabet, NonceSpec, TokenPattern,
    };
    use crate::level::ReaderLevel::{self, Exact, Unicode};
    use crate::reader::Reader;

    fn nonce_tag() -> Tagged {
        Tagged::xml_tag(Vocabulary {
            tokens: vec![TokenPattern::parse("untrusted-{nonce}")],
            nonce: Some(NonceSpec {
                alphabet: NonceAlphabet::Uuid,
                min_length: None,
            }),
        })
    }

    fn live(g: &Tagged, text: &str, level: ReaderLevel) -> Vec<LiveDelimiter> {
        g.live(&Reader::new(level).fold(text))
    }

    #[test]
    fn a_nonce_in_the_name_is_matched_and_paired() {
        let g = nonce_tag();
        let id = "3c0a1b2c-0000-4000-8000-00000000abcd";
        let text = format!(
            "<untrusted-{id}>\nx\n</untrusted-{id}>\n</untrusted-{}>",
            "f".repeat(36)
        );
        let folded = Reader::new(Exact).fold(&text);
        let found = g.live(&folded);
        assert_eq!(found.len(), 3);
        assert!(found[0].same_nonce(&found[1], &folded));
        assert!(!found[0].same_nonce(&found[2], &folded));
        // A marker without a nonce is not this frame's delimiter at all.
        assert!(live(&g, "</untrusted->", Exact).is_empty());
        // Nonces are compared as the reader folds them.
        let upper = format!("<untrusted-{id}></UNTRUSTED-{}>", id.to_uppercase());
        let found = live(&g, &upper, Unicode);
        let folded = Reader::new(Unicode).fold(&upper);
        assert_eq!(found[1].kind, DelimiterKind::Close);
        assert!(found[0].same_nonce(&found[1], &folded));
    }

    #[test]
    fn rendering_round_trips_and_openers_parse() {
        let g = Tagged::xml_tag(Vocabulary::plain(&["doc", "src"]));
        for (form, want) in [
            (Form::Open, "<doc>"),
            (Form::OpenStart, "<doc"),
            (Form::Close, "</doc>"),
            (Form::Token, "doc"),
        ] {
            assert_eq!(g.render(form, 0).plain(), want);
        }
        assert_eq!(g.render(Form::Close, 1).plain(), "</src>");
        let text = "<src id=\"1\" title='a &lt; b'>body</src>";
        let exact = Reader::new(Exact).fold(text);
        let found = g.live(&exact);
        assert_eq!(found[0].token, 1);
        assert_eq!(g.delimiter_end(&exact, &found[0]), Some(29));
        let parsed = g.parse_opener(text, &found[0]).unwrap();
        assert_eq!(parsed.attributes[1].value, "a < b");
        let bad = "<src id=1>";
        let found = g.live(&Reader::new(Exact).fold(bad));
        assert!(g.parse_opener(bad, &found[0]).is_err());
        let rendered = nonce_tag().render(Form::Close, 0).plain();
        assert!(
            live(&nonce_tag(), &rendered, Exact).len() == 1,
            "{rendered}"
        );
    }
}
