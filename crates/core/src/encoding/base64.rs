//! The `base64` body encoding (spotlighting's encoding mode): the content's
//! UTF-8 bytes in standard base64, read back whether or not the writer
//! wrapped it in lines.

use std::borrow::Cow;

use ::base64::Engine as _;

use super::codec::{Codec, Experiment, Spelling};
use super::{Datamark, DecodeError};

/// The `base64` codec.
pub(super) struct Base64Codec;

impl Codec for Base64Codec {
    fn name(&self) -> &'static str {
        "base64"
    }

    fn encode(&self, content: &str, _mark: Datamark<'_>) -> String {
        ::base64::engine::general_purpose::STANDARD.encode(content)
    }

    fn decode<'b>(&self, body: &'b str, _mark: &str) -> Result<Cow<'b, str>, DecodeError> {
        let packed: String = body.chars().filter(|c| !c.is_ascii_whitespace()).collect();
        let bytes = ::base64::engine::general_purpose::STANDARD
            .decode(packed)
            .map_err(|e| DecodeError::Base64(e.to_string()))?;
        String::from_utf8(bytes)
            .map(Cow::Owned)
            .map_err(|_| DecodeError::NotUtf8)
    }

    fn faithful(&self, body: &str, content: &str, mark: Datamark<'_>) -> bool {
        self.decode(body, mark.mark)
            .is_ok_and(|decoded| decoded == content)
    }

    fn tried_undeclared(&self) -> bool {
        true
    }

    fn spelling(&self) -> Spelling {
        Spelling::Exact
    }

    fn experiment(&self) -> Option<Experiment> {
        // Found by its spelling, which hides the content's marker words
        // (`layout::infer` looks for any encoding's that does).
        None
    }

    fn model_may_decode(&self) -> bool {
        false
    }
}
