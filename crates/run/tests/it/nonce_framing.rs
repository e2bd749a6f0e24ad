//! The nonce framing the nonce probes are tried against, written the way
//! real ones are: `nonce` draws the tag's value from the content, and the
//! reader may or may not check the closer's value. Its own file because two
//! test binaries drive it: the run crate's (`nonce.rs`, the probes) and the
//! root's (`tests/it/nonce.rs`, what the report says of a run), which
//! includes it by path as it includes `common.rs`.

use framecheck_run::adapter::{Framing, TargetError, WrapRequest};

/// A nonce framing: `<untrusted-N kind=… key=…>`, the provenance, a blank
/// line, the content, `</untrusted-N>`. `nonce` draws N from the content.
pub(crate) struct NonceFraming<G> {
    /// Draws the nonce from the content.
    pub(crate) nonce: G,
    /// Whether the reader checks that the closer's value is the opener's.
    pub(crate) strict_reader: bool,
}

impl<G: FnMut(&str) -> String> Framing for NonceFraming<G> {
    fn wrap(&mut self, r: &WrapRequest) -> Result<String, TargetError> {
        let n = (self.nonce)(&r.content);
        let attrs: String = r
            .attributes
            .iter()
            .map(|(k, v)| format!(" {k}=\"{v}\""))
            .collect();
        Ok(format!(
            "<untrusted-{n} kind=\"{}\"{attrs}>\n{}\n\n{}\n</untrusted-{n}>",
            r.kind, r.provenance, r.content
        ))
    }

    fn read(&mut self, text: &str) -> Result<Option<String>, TargetError> {
        let Some(rest) = text.strip_prefix("<untrusted-") else {
            return Ok(None);
        };
        let n: String = rest.chars().take_while(char::is_ascii_hexdigit).collect();
        let Some(at) = text.rfind("\n</untrusted-") else {
            return Ok(None);
        };
        let closer = &text[at + 1..];
        let expected = format!("</untrusted-{n}>");
        if self.strict_reader && closer != expected {
            return Ok(None);
        }
        let body_start = text.find("\n\n").map_or(0, |i| i + 2);
        Ok(Some(text[body_start.min(at)..at].to_string()))
    }
}
