//! The `none` body encoding: the content written as it is (defanging
//! aside), and read back unchanged.

use std::borrow::Cow;

use super::codec::{Codec, Experiment, Spelling};
use super::{Datamark, DecodeError};

/// The `none` codec.
pub(super) struct NoneCodec;

impl Codec for NoneCodec {
    fn name(&self) -> &'static str {
        "none"
    }

    fn encode(&self, content: &str, _mark: Datamark<'_>) -> String {
        content.to_string()
    }

    fn decode<'b>(&self, body: &'b str, _mark: &str) -> Result<Cow<'b, str>, DecodeError> {
        // Borrowed: an unencoded body is not copied (issue 13, peak memory).
        Ok(Cow::Borrowed(body))
    }

    fn faithful(&self, body: &str, content: &str, _mark: Datamark<'_>) -> bool {
        body == content
    }

    fn tried_undeclared(&self) -> bool {
        true
    }

    fn spelling(&self) -> Spelling {
        Spelling::Exact
    }

    fn experiment(&self) -> Option<Experiment> {
        None
    }

    fn model_may_decode(&self) -> bool {
        false
    }
}
