//! The `python-literal` body encoding: the content as a Python `str`
//! literal the way `repr()` writes it, its quote chosen per content
//! ([`crate::pyliteral::python`] writes and reads it).

use std::borrow::Cow;

use super::codec::{Codec, Experiment, Spelling};
use super::{python, Datamark, DecodeError};

/// The `python-literal` codec.
pub(super) struct PythonLiteralCodec;

impl Codec for PythonLiteralCodec {
    fn name(&self) -> &'static str {
        "python-literal"
    }

    fn encode(&self, content: &str, _mark: Datamark<'_>) -> String {
        python::encode(content)
    }

    fn decode<'b>(&self, body: &'b str, _mark: &str) -> Result<Cow<'b, str>, DecodeError> {
        Ok(Cow::Owned(python::decode(body)?))
    }

    fn faithful(&self, body: &str, content: &str, _mark: Datamark<'_>) -> bool {
        python::decode(body).is_ok_and(|decoded| decoded == content)
    }

    fn tried_undeclared(&self) -> bool {
        true
    }

    fn spelling(&self) -> Spelling {
        // `repr` or `ascii`, and either quote.
        Spelling::Loose {
            quotes: &['\'', '"'],
            nests_unquoted: false,
        }
    }

    fn experiment(&self) -> Option<Experiment> {
        None
    }

    fn model_may_decode(&self) -> bool {
        false
    }
}
