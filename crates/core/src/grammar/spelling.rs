//! A rendered delimiter as a sequence of typed pieces.
//!
//! A grammar renders each delimiter as a [`Spelling`]: its punctuation, its
//! literal words (`BEGIN`, `END`), its token, its nonce, and the places
//! where a reader tolerates spacing. Variant generators
//! (`crate::catalogue::variant`) rewrite the pieces by type, so every
//! grammar gets every variant without knowing about them, and no grammar
//! has to spell a variant itself.

/// One piece of a rendered delimiter.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Piece {
    /// A structural punctuation character (`<`, `/`, `[`, a backtick).
    Punct(char),
    /// A literal word of the marker (`BEGIN`, `END_`): letters a reader
    /// compares after folding, like the token.
    Word(String),
    /// (Part of) the token.
    Token(String),
    /// A nonce value; never rewritten by a variant.
    Nonce(String),
    /// Spacing the grammar itself writes (`BEGIN NAME`).
    Space(String),
    /// Text a reader does not compare when deciding liveness (a fence's
    /// info string); written as is, never rewritten by a variant.
    Verbatim(String),
    /// A place where a reader skips optional spacing; empty when rendered
    /// plainly.
    Gap,
}

/// A rendered delimiter.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Spelling(pub Vec<Piece>);

impl Spelling {
    /// The delimiter as the framing writes it.
    pub fn plain(&self) -> String {
        let mut out = String::new();
        for piece in &self.0 {
            match piece {
                Piece::Punct(c) => out.push(*c),
                Piece::Word(s)
                | Piece::Token(s)
                | Piece::Nonce(s)
                | Piece::Space(s)
                | Piece::Verbatim(s) => out.push_str(s),
                Piece::Gap => {}
            }
        }
        out
    }

    /// The first and last punctuation characters, which for a bracket
    /// grammar are its brackets (`<`, `>`); `None` without punctuation.
    pub fn brackets(&self) -> Option<(char, char)> {
        let mut punct = self.0.iter().filter_map(|p| match p {
            Piece::Punct(c) => Some(*c),
            _ => None,
        });
        let first = punct.next()?;
        Some((first, punct.next_back().unwrap_or(first)))
    }

    /// Appends a piece.
    pub fn push(&mut self, piece: Piece) {
        self.0.push(piece);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_rendering_drops_gaps() {
        let s = Spelling(vec![
            Piece::Punct('<'),
            Piece::Gap,
            Piece::Word("END".into()),
            Piece::Space(" ".into()),
            Piece::Token("t".into()),
            Piece::Nonce("0a".into()),
            Piece::Gap,
            Piece::Punct('>'),
        ]);
        assert_eq!(s.plain(), "<END t0a>");
    }
}
