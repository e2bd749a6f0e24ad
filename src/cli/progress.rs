//! Progress while framecheck waits on a target: a bar on a terminal, and
//! when stderr is not one (a CI log), a line at least every
//! [`HEARTBEAT`], so a run that waits on a hanging adapter or a slow
//! start-up is never silent for longer. The bar is indicatif's; the lines
//! come from a thread that wakes on a timer or when the work ends.

use std::io::{IsTerminal, Write};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The longest a non-terminal stderr goes without a progress line.
pub(crate) const HEARTBEAT: Duration = Duration::from_secs(10);

/// What the heartbeat reports: how far the work is, and whether it ended.
#[derive(Default)]
struct State {
    done: u64,
    last: String,
    ended: bool,
}

/// Progress of one piece of work: `what` (`run`, `init`, `search`) with
/// `total` steps when they are counted.
pub(crate) struct Progress {
    bar: indicatif::ProgressBar,
    beat: Option<Heartbeat>,
}

impl Progress {
    /// A bar on a terminal, else the heartbeat lines on stderr.
    pub(crate) fn new(what: &'static str, total: Option<u64>) -> Progress {
        if std::io::stderr().is_terminal() {
            return Progress {
                bar: bar(total),
                beat: None,
            };
        }
        let heartbeat = Heartbeat::start(what, total, HEARTBEAT, Box::new(std::io::stderr()));
        Progress {
            bar: indicatif::ProgressBar::hidden(),
            beat: Some(heartbeat),
        }
    }

    /// One step done; `label` names it (a case id).
    pub(crate) fn step(&self, label: &str) {
        self.bar.set_message(label.to_string());
        self.bar.inc(1);
        if let Some(beat) = &self.beat {
            beat.step(label);
        }
    }

    /// Clears the bar, or stops the heartbeat.
    pub(crate) fn finish(self) {
        self.bar.finish_and_clear();
        if let Some(beat) = self.beat {
            beat.stop();
        }
    }
}

fn bar(total: Option<u64>) -> indicatif::ProgressBar {
    let Some(total) = total else {
        return indicatif::ProgressBar::new_spinner();
    };
    let bar = indicatif::ProgressBar::new(total);
    if let Ok(style) = indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} {msg}") {
        bar.set_style(style);
    }
    bar
}

/// A thread that writes a progress line every `every` until stopped.
struct Heartbeat {
    shared: Arc<(Mutex<State>, Condvar)>,
    thread: Option<JoinHandle<()>>,
}

impl Heartbeat {
    fn start(
        what: &'static str,
        total: Option<u64>,
        every: Duration,
        mut out: Box<dyn Write + Send>,
    ) -> Heartbeat {
        let shared = Arc::new((Mutex::new(State::default()), Condvar::new()));
        let seen = shared.clone();
        let started = Instant::now();
        let thread = std::thread::spawn(move || {
            let (state, wake) = &*seen;
            let Ok(mut guard) = state.lock() else { return };
            loop {
                let Ok((next, _)) = wake.wait_timeout_while(guard, every, |s| !s.ended) else {
                    return;
                };
                guard = next;
                if guard.ended {
                    return;
                }
                let line = progress_line(what, total, &guard, started.elapsed());
                // A closed stderr is no reason to stop the work.
                let _ = writeln!(out, "{line}");
            }
        });
        Heartbeat {
            shared,
            thread: Some(thread),
        }
    }

    fn step(&self, label: &str) {
        if let Ok(mut state) = self.shared.0.lock() {
            state.done += 1;
            label.clone_into(&mut state.last);
        }
    }

    fn stop(mut self) {
        self.end();
    }

    fn end(&mut self) {
        if let Ok(mut state) = self.shared.0.lock() {
            state.ended = true;
        }
        self.shared.1.notify_all();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Heartbeat {
    // An early return (`?`) still stops the thread.
    fn drop(&mut self) {
        self.end();
    }
}

/// `framecheck: run: 12/340 done, 20 s (last: case-id)`.
fn progress_line(what: &str, total: Option<u64>, state: &State, elapsed: Duration) -> String {
    let count = match total {
        Some(total) if state.done <= total => format!("{}/{total} done, ", state.done),
        // A run gives more results than cases (each case again among
        // sibling frames, the nonce probes after them): past the total,
        // say both counts as they are rather than a fraction over one.
        Some(total) => format!("{} results for {total} cases, ", state.done),
        None if state.done > 0 => format!("{} done, ", state.done),
        None => String::new(),
    };
    let last = if state.last.is_empty() {
        String::new()
    } else {
        format!(" (last: {})", state.last)
    };
    format!(
        "framecheck: {what}: {count}{} s, still working{last}",
        elapsed.as_secs()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer the test reads back.
    #[derive(Clone, Default)]
    struct Lines(Arc<Mutex<Vec<u8>>>);

    impl Write for Lines {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Lines {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    /// With nothing done, the heartbeat still speaks: waiting is what it
    /// is for. The lines count the steps; stopping ends them at once.
    #[test]
    fn the_heartbeat_speaks_while_waiting_and_stops_when_told() {
        let lines = Lines::default();
        let beat = Heartbeat::start(
            "run",
            Some(3),
            Duration::from_millis(20),
            Box::new(lines.clone()),
        );
        while !lines.text().contains("0/3 done") {
            std::thread::yield_now();
        }
        beat.step("case-a");
        while !lines.text().contains("1/3 done") {
            std::thread::yield_now();
        }
        assert!(lines.text().contains("(last: case-a)"), "{}", lines.text());
        // `stop` joins the thread: were it not woken, this would not return.
        beat.stop();
        let said = lines.text();
        assert!(said.starts_with("framecheck: run: 0/3 done, 0 s"), "{said}");
    }

    #[test]
    fn a_count_past_the_total_is_no_fraction_over_one() {
        let state = State {
            done: 3808,
            ..State::default()
        };
        assert_eq!(
            progress_line("run", Some(1553), &state, Duration::from_secs(10)),
            "framecheck: run: 3808 results for 1553 cases, 10 s, still working"
        );
        let state = State {
            done: 1553,
            ..State::default()
        };
        assert_eq!(
            progress_line("run", Some(1553), &state, Duration::from_secs(10)),
            "framecheck: run: 1553/1553 done, 10 s, still working"
        );
    }

    #[test]
    fn a_line_without_a_count_says_the_time() {
        let state = State::default();
        assert_eq!(
            progress_line("init", None, &state, Duration::from_secs(20)),
            "framecheck: init: 20 s, still working"
        );
    }
}
