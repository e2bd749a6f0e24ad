//! The gate policy: which findings fail a case. The one place that decides it.
//!
//! Findings come in classes ([`CheckClass`]). Security findings always fail
//! the case at the levels where they hold; fidelity findings make it a
//! `fidelity-fail`. The other classes are *reported apart*: a confusable
//! marker (`nonce.confusable`) and an outer-layer breakout
//! (`template.control`, a chat-template control string readable in the
//! framed output) do not fail the default gate, because whether they matter
//! depends on what reads the frame. `--strict` makes them fail.
//!
//! An outer-layer finding also fails the default gate when the target's
//! profile declares the context it is embedded in, and in that context the
//! string is a real control (`chat_template:` in the profile; the check sets
//! [`Finding::in_context`]). The gate a run was decided under is recorded in
//! every report ([`crate::outcome::RunMeta::gate`]), so a strict verdict is
//! never read as a default one.
//!
//! Tokenizer views ([`crate::tokview`]) never reach the gate: their
//! findings are not [`Finding`]s of a case, and a view is not a level, so
//! what a view finds is reported beside the verdict, never in it.
//!
//! ```
//! use framecheck_core::gate::Gate;
//! use framecheck_core::oracle::{Check, CheckClass, Finding};
//!
//! let finding = Finding {
//!     consumer: Default::default(),
//!     check: Check::TemplateControl,
//!     class: CheckClass::OuterLayer,
//!     levels: vec![],
//!     message: "content carries <|im_end|>".into(),
//!     excerpt: None,
//!     in_context: false,
//!     fault: None,
//!     live: None,
//! };
//! assert!(!Gate::Default.fails(&finding));
//! assert!(Gate::Strict.fails(&finding));
//! ```

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::oracle::{CheckClass, Finding};

/// Which findings fail a case.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Gate {
    /// Security findings fail; the classes reported apart fail only where
    /// the target's declared context makes them real controls.
    #[default]
    Default,
    /// `--strict`: every class reported apart fails too.
    Strict,
}

impl Gate {
    /// Every gate, in documentation order.
    pub const ALL: [Gate; 2] = [Gate::Default, Gate::Strict];

    /// The stable name, as serialized.
    pub fn name(self) -> &'static str {
        match self {
            Gate::Default => "default",
            Gate::Strict => "strict",
        }
    }

    /// Whether `finding` makes its case a `fail` (at the levels the finding
    /// holds at). Fidelity findings never do: they make it a
    /// `fidelity-fail`, under every gate.
    pub fn fails(self, finding: &Finding) -> bool {
        match finding.class {
            CheckClass::Security | CheckClass::Fault => true,
            CheckClass::Fidelity => false,
            CheckClass::Confusable | CheckClass::HostFramed => self == Gate::Strict,
            CheckClass::OuterLayer => self == Gate::Strict || finding.in_context,
        }
    }

    /// Whether findings of `class` fail under this gate whatever the
    /// target's context says (for report wording: "not failures" or
    /// "failures under `--strict`").
    pub fn fails_class(self, class: CheckClass) -> bool {
        match class {
            CheckClass::Security | CheckClass::Fault => true,
            CheckClass::Fidelity => false,
            CheckClass::Confusable | CheckClass::OuterLayer | CheckClass::HostFramed => {
                self == Gate::Strict
            }
        }
    }
}

impl fmt::Display for Gate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::ReaderLevel;
    use crate::oracle::Check;

    fn finding(class: CheckClass, in_context: bool) -> Finding {
        Finding {
            consumer: Default::default(),
            check: Check::DelimiterCensus,
            class,
            levels: vec![ReaderLevel::Exact],
            message: String::new(),
            excerpt: None,
            in_context,
            fault: None,
            live: None,
        }
    }

    #[test]
    fn security_and_faults_always_fail_fidelity_never() {
        for gate in Gate::ALL {
            assert!(gate.fails(&finding(CheckClass::Security, false)));
            assert!(gate.fails(&finding(CheckClass::Fault, false)));
            assert!(!gate.fails(&finding(CheckClass::Fidelity, false)));
        }
    }

    #[test]
    fn classes_apart_fail_under_strict_or_in_a_declared_context() {
        for class in CheckClass::APART {
            assert!(!Gate::Default.fails(&finding(class, false)), "{class:?}");
            assert!(Gate::Strict.fails(&finding(class, false)), "{class:?}");
        }
        assert!(Gate::Default.fails(&finding(CheckClass::OuterLayer, true)));
        // A confusable marker has no template context to be live in.
        assert!(!Gate::Default.fails(&finding(CheckClass::Confusable, true)));
    }
}
