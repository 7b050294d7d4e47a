//! Time management: how long to think, from the clock or a fixed move time.
//!
//! A *soft* limit is checked between iterations (do not start another one); a *hard* limit is
//! checked inside the search (stop now). While pondering neither applies; the clock starts at
//! `ponderhit`.

use std::time::{Duration, Instant};

use super::limits::Limits;

/// The time budget of one search.
#[derive(Debug, Clone)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

/// Moves assumed left in the game when the clock does not say.
const DEFAULT_MOVES_TO_GO: u64 = 30;

impl TimeManager {
    /// The budget for `limits`, with `overhead_ms` kept back per move for GUI and network lag.
    pub fn new(limits: &Limits, overhead_ms: u64) -> TimeManager {
        let start = Instant::now();
        let (soft, hard) = if let Some(ms) = limits.movetime_ms {
            // A fixed move time is used in full: no soft limit ends the search early.
            (None, Some(ms.saturating_sub(overhead_ms).max(1)))
        } else if let Some(clock) = limits.clock {
            let left = clock.time_ms.saturating_sub(overhead_ms).max(1);
            let moves = clock.moves_to_go.map_or(DEFAULT_MOVES_TO_GO, |m| {
                (m as u64).clamp(1, DEFAULT_MOVES_TO_GO)
            });
            let share = left / moves + clock.increment_ms * 3 / 4;
            // Never plan on more than a fraction of what is left, so later moves get time too.
            let cap = if moves == 1 { left * 9 / 10 } else { left / 2 };
            let soft = share.min(cap).max(1);
            let hard = (soft * 4).min(cap).max(soft);
            (Some(soft), Some(hard))
        } else {
            (None, None)
        };
        TimeManager {
            start,
            soft: soft.map(Duration::from_millis),
            hard: hard.map(Duration::from_millis),
        }
    }

    /// The soft and hard limits, where set (for `debug on` reports and tests).
    pub fn budget(&self) -> (Option<Duration>, Option<Duration>) {
        (self.soft, self.hard)
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Restarts the clock (at `ponderhit`, the time spent pondering is free).
    pub fn restart_clock(&mut self) {
        self.start = Instant::now();
    }

    /// Whether to stop starting iterations: `percent` of the soft limit has passed.
    pub fn soft_expired(&self, percent: u64) -> bool {
        self.soft
            .is_some_and(|soft| self.elapsed() * 100 >= soft * percent as u32)
    }

    /// Whether the search must stop at once.
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|hard| self.elapsed() >= hard)
    }
}
