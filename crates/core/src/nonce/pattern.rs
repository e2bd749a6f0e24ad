//! Predictable kinds of nonce an attacker can compute without seeing the
//! current frame: a counter, and a clock.
//!
//! Both detectors need every observed value to fit; one value that fits by
//! chance (a random hex string that happens to parse near the current time)
//! names nothing.

/// A value's reading as a number, in the radix it parsed in.
fn parse(value: &str, radix: u32) -> Option<u128> {
    let digits: String = value.chars().filter(|&c| c != '-').collect();
    if digits.is_empty() || digits.len() > 32 {
        return None;
    }
    u128::from_str_radix(&digits, radix).ok()
}

/// The constant step between consecutive values, read as decimal or hex
/// numbers, when there is one: a counter. Needs at least three values, in
/// the order the target produced them.
pub(super) fn counter_step(values: &[String]) -> Option<i128> {
    if values.len() < 3 {
        return None;
    }
    [10, 16].into_iter().find_map(|radix| {
        let numbers: Option<Vec<u128>> = values.iter().map(|v| parse(v, radix)).collect();
        let numbers = numbers?;
        // A step too large for i128 is no counter anyone writes.
        let steps: Option<Vec<i128>> = numbers
            .windows(2)
            .map(|w| {
                i128::try_from(w[1])
                    .ok()?
                    .checked_sub(i128::try_from(w[0]).ok()?)
            })
            .collect();
        let steps = steps?;
        (steps[0] != 0 && steps.iter().all(|&s| s == steps[0])).then_some(steps[0])
    })
}

/// A clock's unit, for messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeUnit {
    /// Unix seconds.
    Seconds,
    /// Unix milliseconds.
    Milliseconds,
    /// Unix microseconds.
    Microseconds,
    /// Unix nanoseconds.
    Nanoseconds,
    /// A calendar date and time written as digits (`20261130T072212`).
    Calendar,
}

impl TimeUnit {
    /// The name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            TimeUnit::Seconds => "Unix seconds",
            TimeUnit::Milliseconds => "Unix milliseconds",
            TimeUnit::Microseconds => "Unix microseconds",
            TimeUnit::Nanoseconds => "Unix nanoseconds",
            TimeUnit::Calendar => "a calendar date and time",
        }
    }
}

/// How far from the observation time a value may be and still read as the
/// clock: one day either way, generous for clock skew and slow runs.
const WINDOW_SECONDS: u128 = 86_400;

/// Whether every value reads as the clock at `now_ns` (Unix nanoseconds),
/// in one unit: as a decimal or hex number near the current time, or as
/// digits holding today's or yesterday's date (`YYYYMMDD`).
pub(super) fn clock_unit(values: &[String], now_ns: u128) -> Option<TimeUnit> {
    if values.is_empty() {
        return None;
    }
    let units = [
        (TimeUnit::Seconds, 1_000_000_000u128),
        (TimeUnit::Milliseconds, 1_000_000),
        (TimeUnit::Microseconds, 1_000),
        (TimeUnit::Nanoseconds, 1),
    ];
    for (unit, per) in units {
        let near =
            |n: u128| n.saturating_mul(per).abs_diff(now_ns) <= WINDOW_SECONDS * 1_000_000_000;
        for radix in [10, 16] {
            if values.iter().all(|v| parse(v, radix).is_some_and(near)) {
                return Some(unit);
            }
        }
    }
    let days = [
        now_ns,
        now_ns.saturating_sub(WINDOW_SECONDS * 1_000_000_000),
    ]
    .map(|ns| {
        let (y, m, d) = civil_date((ns / 1_000_000_000 / 86_400) as i64);
        format!("{y:04}{m:02}{d:02}")
    });
    let dated = |v: &String| {
        let digits: String = v.chars().filter(char::is_ascii_digit).collect();
        days.iter().any(|day| digits.contains(day.as_str()))
    };
    values.iter().all(dated).then_some(TimeUnit::Calendar)
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard
/// Hinnant's `civil_from_days`), to spell today's date without a
/// date-time crate.
fn civil_date(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn counters_in_either_radix_have_a_step() {
        assert_eq!(
            counter_step(&strings(&["0007", "0008", "0009", "0010"])),
            Some(1)
        );
        assert_eq!(counter_step(&strings(&["00fe", "00ff", "0100"])), Some(1));
        assert_eq!(counter_step(&strings(&["10", "20", "30"])), Some(10));
        assert_eq!(counter_step(&strings(&["10", "20", "31"])), None);
        assert_eq!(counter_step(&strings(&["5", "5", "5"])), None);
        assert_eq!(counter_step(&strings(&["1", "2"])), None);
    }

    #[test]
    fn clock_values_are_read_in_their_unit() {
        let now_ns: u128 = 1_764_487_332_123_456_789;
        let s = (now_ns / 1_000_000_000).to_string();
        assert_eq!(
            clock_unit(std::slice::from_ref(&s), now_ns),
            Some(TimeUnit::Seconds)
        );
        let ms_hex = format!("{:x}", now_ns / 1_000_000 - 5);
        assert_eq!(clock_unit(&[ms_hex], now_ns), Some(TimeUnit::Milliseconds));
        assert_eq!(
            clock_unit(&[now_ns.to_string()], now_ns),
            Some(TimeUnit::Nanoseconds)
        );
        // 2025-11-30 in UTC, written as a compact ISO date-time.
        let iso = "20251130T072212Z".to_string();
        assert_eq!(clock_unit(&[iso], now_ns), Some(TimeUnit::Calendar));
        // A week ago is not the current time.
        let old = (now_ns / 1_000_000_000 - 7 * 86_400).to_string();
        assert_eq!(clock_unit(&[old], now_ns), None);
        // One value near the clock among others that are not names nothing.
        assert_eq!(clock_unit(&[s, "ffffffffffffffff".into()], now_ns), None);
    }

    #[test]
    fn civil_dates_are_right() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(20_422), (2025, 11, 30));
        assert_eq!(civil_date(11_016), (2000, 2, 29));
    }
}
