//! The share of a machine's CPU time that its hypervisor gave to other
//! guests (steal, proc(5)), read around a measurement so that a report can
//! say how much of the VM it had: on the shared development VMs the host
//! takes back up to two fifths of the CPU once the guest is busy, which
//! moves latencies and absolute times far more than anything measured.

/// The machine's CPU time so far, all CPUs together, as (time the
/// hypervisor took for other guests, total), in `/proc/stat`'s ticks;
/// `None` where there is no `/proc/stat` (not Linux).
pub fn cpu_times() -> Option<(u64, u64)> {
    proc_stat_times(&std::fs::read_to_string("/proc/stat").ok()?)
}

/// [`cpu_times`] from `/proc/stat`'s text: its `cpu` line's user, nice,
/// system, idle, iowait, irq, softirq and steal ticks (proc(5)), steal and
/// their sum.
fn proc_stat_times(text: &str) -> Option<(u64, u64)> {
    let line = text.lines().find(|l| l.starts_with("cpu "))?;
    let ticks: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .take(8)
        .map(|t| t.parse().ok())
        .collect::<Option<_>>()?;
    let steal = *ticks.get(7)?;
    Some((steal, ticks.iter().sum()))
}

/// The share of the CPU time between two [`cpu_times`] readings that was
/// stolen.
fn steal_share(before: (u64, u64), after: (u64, u64)) -> Option<f64> {
    let total = after.1.checked_sub(before.1).filter(|&t| t > 0)?;
    Some(after.0.saturating_sub(before.0) as f64 / total as f64)
}

/// The steal share since a [`cpu_times`] reading (`None` where either
/// reading is missing or no time passed).
pub fn since(before: Option<(u64, u64)>) -> Option<f64> {
    steal_share(before?, cpu_times()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steal_is_the_eighth_tick_count_of_the_cpu_line() {
        let stat = "cpu  100 5 20 800 10 0 5 60 0 0\ncpu0 50 2 10 400 5 0 2 30 0 0\nintr 1\n";
        assert_eq!(proc_stat_times(stat), Some((60, 1000)));
        assert_eq!(steal_share((60, 1000), (110, 1500)), Some(0.1));
        assert_eq!(steal_share((60, 1000), (60, 1000)), None, "no time passed");
        assert_eq!(proc_stat_times("cpu  1 2 3\n"), None, "an old kernel without steal");
        assert_eq!(proc_stat_times("intr 1\n"), None);
    }
}
