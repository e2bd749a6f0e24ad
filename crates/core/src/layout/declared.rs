//! What the profile declares about a per-call variable part, applied to the
//! layout calibration learned. Two or three wraps show only the characters
//! those draws happened to use (a counter's first values are all digits, a
//! short hex draw may hold no letter), so a variable part of a delimiter
//! takes the declared nonce alphabet wherever that is wider: the next frame
//! may draw any character the profile says the nonce has.

use super::{Alphabet, Part, PartKind};
use crate::grammar::NonceAlphabet;
use crate::profile::ResolvedProfile;

/// Widens every per-call variable part of a delimiter in `parts` to the
/// profile's declared nonce alphabet; nothing without a declared nonce.
pub(super) fn widen_nonce_parts(parts: &mut [Part], profile: &ResolvedProfile) {
    let Some(spec) = profile.delimiters.nonce else {
        return;
    };
    let declared = match spec.alphabet {
        NonceAlphabet::Hex => Alphabet::Hex,
        NonceAlphabet::Base64url => Alphabet::Base64,
        NonceAlphabet::Alnum => Alphabet::Alnum,
        NonceAlphabet::Uuid => Alphabet::Uuid,
        NonceAlphabet::Digits => Alphabet::Digits,
    };
    for part in parts.iter_mut().filter(|p| p.region.is_delimiter()) {
        if let PartKind::Variable(v) = &mut part.kind {
            if !v.content_dependent && !matches!(v.alphabet, Alphabet::Fence | Alphabet::Level) {
                v.alphabet = wider(v.alphabet, declared);
            }
        }
    }
}

/// The smallest alphabet that holds both `a` and `b`.
fn wider(a: Alphabet, b: Alphabet) -> Alphabet {
    let within = |x: Alphabet, y: Alphabet| (' '..='~').all(|c| !x.allows(c) || y.allows(c));
    [
        Alphabet::Digits,
        Alphabet::Hex,
        Alphabet::Uuid,
        Alphabet::Alnum,
        Alphabet::Base64,
    ]
    .into_iter()
    .find(|&c| within(a, c) && within(b, c))
    .unwrap_or(Alphabet::Any)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wider_alphabet_holds_both() {
        assert_eq!(wider(Alphabet::Digits, Alphabet::Uuid), Alphabet::Uuid);
        assert_eq!(wider(Alphabet::Uuid, Alphabet::Hex), Alphabet::Uuid);
        assert_eq!(wider(Alphabet::Hex, Alphabet::Alnum), Alphabet::Alnum);
        assert_eq!(wider(Alphabet::Uuid, Alphabet::Alnum), Alphabet::Base64);
        assert_eq!(wider(Alphabet::Any, Alphabet::Hex), Alphabet::Any);
    }
}
