//! Opening a built-in target (`adapter: { builtin: NAME }`): a framing
//! compiled into framecheck, or the calling process, which only `framecheck
//! run` drives.

use framecheck_launch::profile::{BuiltinSpec, BuiltinTarget, LoadedProfile};

use super::{reference, ConnectError, Framing, Open};

impl Open for BuiltinSpec {
    fn open(&self, _loaded: &LoadedProfile) -> Result<Box<dyn Framing>, ConnectError> {
        match BuiltinTarget::from_name(&self.builtin) {
            Some(BuiltinTarget::Caller) => Err(ConnectError::Caller),
            known => known
                .and_then(reference::builtin_framing)
                .ok_or_else(|| ConnectError::UnknownBuiltin(self.builtin.clone())),
        }
    }
}
