//! Limits of the numeric arguments, checked by clap before anything runs:
//! a value outside its range is a usage error (exit status 3) that names
//! the range, never a crash, an abort on allocation or a stall.

/// Most CPU threads (`--threads`), the engine's own limit.
pub const MAX_THREADS: usize = batchcrypto::engine::MAX_THREADS;
/// Most items a generated or tested batch may hold in memory (`selftest
/// --count`, `bench --sizes`, `calibrate`).
pub const MAX_ITEMS: usize = 1 << 24;
/// Most lines `sample` writes (it streams, so this bounds time, not memory).
pub const MAX_SAMPLE_LINES: usize = 1 << 32;

/// Parses an integer in `MIN..=MAX`.
pub fn in_range<const MIN: usize, const MAX: usize>(s: &str) -> Result<usize, String> {
    let v: usize = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a whole number from {MIN} to {MAX}"))?;
    if (MIN..=MAX).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{v} is outside the allowed range {MIN} to {MAX}"))
    }
}

/// Parses a time budget in seconds: finite, above 0, at most a week.
pub fn seconds(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a number of seconds"))?;
    if v.is_finite() && v > 0.0 && v <= 7.0 * 86_400.0 {
        Ok(v)
    } else {
        Err(format!(
            "{v} is outside the allowed range: more than 0 and at most 604800 seconds"
        ))
    }
}
