//! The start policy every adapter that starts a process shares (a
//! subprocess target's child, an MCP server): a target whose start failed
//! [`MAX_SPAWN_FAILURES_IN_ROW`] times in a row is not started again, and
//! each further request fails at once, naming the command and the last
//! failure, instead of trying (and waiting) again for every case.

use framecheck_core::target::TargetError;

/// Consecutive failures to start the program after which a target stops
/// trying and fails every further request at once.
pub const MAX_SPAWN_FAILURES_IN_ROW: u32 = 3;

/// Failed starts in a row, and the last one's reason.
#[derive(Debug, Default)]
pub(crate) struct Starts {
    failures_in_row: u32,
    last_error: String,
}

impl Starts {
    /// The error a request gets without a start being tried, when too many
    /// starts of `command_line` failed in a row.
    pub(crate) fn refusal(&self, command_line: &str) -> Option<TargetError> {
        (self.failures_in_row >= MAX_SPAWN_FAILURES_IN_ROW).then(|| {
            TargetError::failed(format!(
                "not starting `{command_line}` again after {} failed attempts in a row; last: {}",
                self.failures_in_row, self.last_error
            ))
        })
    }

    /// Counts the outcome of one start and hands it on.
    pub(crate) fn record<T>(&mut self, started: Result<T, TargetError>) -> Result<T, TargetError> {
        match &started {
            Ok(_) => self.failures_in_row = 0,
            Err(error) => {
                self.failures_in_row += 1;
                self.last_error = error.to_string();
            }
        }
        started
    }

    /// Forgets the failures: the next request tries a start again.
    pub(crate) fn forget(&mut self) {
        self.failures_in_row = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts_stop_after_the_failures_in_a_row_and_a_success_resets_the_count() {
        let mut starts = Starts::default();
        let failed = || Err::<(), _>(TargetError::failed("no such file"));
        for _ in 1..MAX_SPAWN_FAILURES_IN_ROW {
            assert!(starts.record(failed()).is_err());
        }
        assert!(starts.refusal("x").is_none());
        assert!(starts.record(Ok(())).is_ok());
        for _ in 0..MAX_SPAWN_FAILURES_IN_ROW {
            assert!(starts.refusal("x").is_none());
            let _ = starts.record(failed());
        }
        let refused = starts.refusal("prog --flag").expect("refused").to_string();
        assert_eq!(
            refused,
            "not starting `prog --flag` again after 3 failed attempts in a row; last: no such file"
        );
        starts.forget();
        assert!(starts.refusal("x").is_none());
    }
}
