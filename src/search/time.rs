//! Time management: how long to think, from the clock or a fixed move time.
//!
//! A *soft* limit is checked between iterations (do not start another one); a *hard* limit is
//! checked inside the search (stop now). While pondering neither applies; the clock starts at
//! `ponderhit`.
//!
//! Between iterations the soft limit is scaled by how settled the search looks (`SearchTrend`):
//! a best move that keeps changing, a falling score, or nodes spread over several root moves
//! earn more time; a best move that has held for many iterations and took most of the nodes
//! earns less. A reserve of a few increments and a few moves' lag is kept out of every budget
//! (see [`TimeManager::new`]), and a root with one legal move gets a small share of the soft
//! limit ([`SINGLE_REPLY_SOFT_SHARE`]).

use std::time::{Duration, Instant};

use shakmaty::Move;

use super::limits::Limits;
use super::score::is_mate;

/// The time budget of one search.
#[derive(Debug, Clone)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

/// The share of the spare clock a move gets when the clock does not say how many moves are left
/// (sudden death, with or without an increment): one part in this many. Fewer than the moves a
/// game has left, so the opening and middlegame, where games are decided, get more than the
/// ending; the increment keeps the late moves fed.
const SUDDEN_DEATH_MOVES_TO_GO: u64 = 20;

/// The most moves to go a `movestogo` counts for: with more moves to the time control than
/// this, a move still gets one part in this many of the spare clock.
const MAX_MOVES_TO_GO: u64 = 30;

/// Increments of the clock that no budget touches (see [`TimeManager::new`]).
const RESERVE_INCREMENTS: u64 = 3;

/// Moves' worth of `Move Overhead` kept in the reserve too: the lag a busy machine adds to
/// every move, which the clock pays whatever the search does.
const RESERVE_OVERHEADS: u64 = 10;

impl TimeManager {
    /// The budget for `limits`, with `overhead_ms` kept back per move for GUI and network lag.
    ///
    /// With a clock: the lag is paid on every move, so each move's increment brings in only
    /// `increment - overhead` (the *income*). A reserve of a few increments and a few moves'
    /// lag is kept out of every budget; what is above it is shared out over the moves to go,
    /// plus three quarters of the income. Below the reserve only a part of the income is
    /// spent, smaller the lower the clock, so that a clock a long game or a busy machine has
    /// run down grows back instead of living on the edge where one late reschedule loses on
    /// time.
    pub fn new(limits: &Limits, overhead_ms: u64) -> TimeManager {
        let start = limits.started.unwrap_or_else(Instant::now);
        let (soft, hard) = if let Some(ms) = limits.movetime_ms {
            // A fixed move time is used in full: no soft limit ends the search early.
            (None, Some(ms.saturating_sub(overhead_ms).max(1)))
        } else if let Some(clock) = limits.clock {
            let left = clock.time_ms.saturating_sub(overhead_ms).max(1);
            let moves = clock.moves_to_go.map_or(SUDDEN_DEATH_MOVES_TO_GO, |m| {
                u64::from(m).clamp(1, MAX_MOVES_TO_GO)
            });
            let income = clock.increment_ms.saturating_sub(overhead_ms);
            let reserve = clock.increment_ms * RESERVE_INCREMENTS + overhead_ms * RESERVE_OVERHEADS;
            let spare = left.saturating_sub(reserve);
            let income = (income * left.min(reserve))
                .checked_div(reserve)
                .unwrap_or(income);
            let share = spare / moves + income * 3 / 4;
            // Never plan on more than a fraction of the spare time, so later moves get time too.
            let cap = if moves == 1 {
                spare * 9 / 10
            } else {
                spare / 2
            } + income;
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

    /// Time since the search started (since `go` arrived, when the limits say when).
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Restarts the clock (at `ponderhit`, the time spent pondering is free).
    pub fn restart_clock(&mut self) {
        self.start = Instant::now();
    }

    /// How long the tablebases' ranking of the root may run before the search starts: a share
    /// of the soft limit, or of the hard one for a fixed move time; None without a clock.
    pub fn ranking_allowance(&self) -> Option<Duration> {
        self.soft.or(self.hard).map(|d| d.mul_f64(RANKING_SHARE))
    }

    /// Whether to stop starting iterations: the soft limit, times `scale`, has passed.
    pub fn soft_expired(&self, scale: f64) -> bool {
        self.soft
            .is_some_and(|soft| self.elapsed() >= soft.mul_f64(scale.max(0.0)))
    }

    /// Whether the search must stop at once.
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|hard| self.elapsed() >= hard)
    }
}

/// Share of the soft limit (of the hard one for a fixed move time) that the tablebases' ranking
/// of the root may take; the search has the rest.
pub const RANKING_SHARE: f64 = 0.5;

/// Share of the soft limit after which no new iteration starts, when the search looks neither
/// settled nor unsettled (scale 1).
pub const BASE_SOFT_SHARE: f64 = 0.7;

/// Share of the soft limit after which no new iteration starts when the root has one legal
/// move: enough for a score that means something, little of the clock.
pub const SINGLE_REPLY_SOFT_SHARE: f64 = 0.1;

/// How the iterations so far have gone: the basis for spending more or less of the soft limit.
#[derive(Debug, Clone, Default)]
pub struct SearchTrend {
    best: Option<Move>,
    /// Iterations in a row that ended with the same best move (0 after a change).
    stable_iterations: u32,
    /// Each finished iteration's score, oldest first.
    scores: Vec<i32>,
}

impl SearchTrend {
    /// Records a finished iteration's best move and score.
    pub fn record(&mut self, best: Move, score: i32) {
        if self.best == Some(best) {
            self.stable_iterations += 1;
        } else {
            self.stable_iterations = 0;
            self.best = Some(best);
        }
        self.scores.push(score);
    }

    /// The best move of the last finished iteration.
    pub fn best(&self) -> Option<Move> {
        self.best
    }

    /// The factor for the share of the soft limit to use, given the share of the last
    /// iteration's nodes spent below the best move (0..=1).
    pub fn soft_scale(&self, best_move_node_share: f64) -> f64 {
        let stability = 1.25 - 0.05 * f64::from(self.stable_iterations.min(10));
        // The best move took most of the effort: the alternatives were refuted quickly.
        let effort = (1.5 - best_move_node_share.clamp(0.0, 1.0)) * 1.3;
        let falling = (1.0 + 0.008 * f64::from(self.score_drop())).clamp(0.85, 1.6);
        (stability * effort * falling).clamp(0.4, 2.5)
    }

    /// How far the score fell over the last three iterations (negative if it rose); mate
    /// scores are left out, as their size says nothing about the position.
    fn score_drop(&self) -> i32 {
        let n = self.scores.len();
        if n < 2 {
            return 0;
        }
        let earlier = self.scores[n.saturating_sub(4)];
        let now = self.scores[n - 1];
        if is_mate(earlier) || is_mate(now) {
            return 0;
        }
        (earlier - now).clamp(-100, 100)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::limits::Clock;
    use shakmaty::{Role, Square};

    fn quiet(from: Square, to: Square) -> Move {
        Move::Normal {
            role: Role::Knight,
            from,
            capture: None,
            to,
            promotion: None,
        }
    }

    #[test]
    fn a_settled_search_stops_sooner_than_an_unsettled_one() {
        let a = quiet(Square::G1, Square::F3);
        let b = quiet(Square::B1, Square::C3);
        let mut settled = SearchTrend::default();
        for _ in 0..12 {
            settled.record(a, 30);
        }
        let mut changing = SearchTrend::default();
        for i in 0..12 {
            changing.record(if i % 2 == 0 { a } else { b }, 30 - 10 * i);
        }
        assert!(settled.soft_scale(0.9) < 0.7);
        assert!(changing.soft_scale(0.4) > 1.8);
        assert!(settled.soft_scale(0.9) < settled.soft_scale(0.3));
    }

    fn budget_ms(time_ms: u64, increment_ms: u64) -> (u64, u64) {
        let limits = Limits {
            clock: Some(Clock {
                time_ms,
                increment_ms,
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        let (soft, hard) = TimeManager::new(&limits, 10).budget();
        let ms = |d: Option<Duration>| d.map_or(0, |d| d.as_millis() as u64);
        (ms(soft), ms(hard))
    }

    #[test]
    fn a_clock_down_to_a_few_increments_grows_again() {
        // Late in a long game, a few increments or less on the clock: even a search that runs
        // to its hard limit and then pays the full overhead of lag leaves the clock higher
        // than it found it (at 2+0.02 a bot's clock fell to 56-76 ms when the lag was not
        // counted against the increment).
        for increment in [20, 50, 100] {
            let mut last_hard = 0;
            for time_ms in (10..=3 * increment + 100).step_by(5) {
                let (soft, hard) = budget_ms(time_ms, increment);
                assert!(
                    soft <= hard && hard + 10 < increment,
                    "{time_ms} ms + {increment}: {soft}/{hard}"
                );
                // The lower the clock, the less of the income is spent.
                assert!(
                    hard >= last_hard,
                    "{time_ms} ms + {increment}: {hard} < {last_hard}"
                );
                last_hard = hard;
            }
        }
        // A healthy clock in sudden death: a twentieth of what is above the reserve plus three
        // quarters of the income, (10,000 - 10 - 400) / 20 + 90 * 3 / 4.
        let (soft, hard) = budget_ms(10_000, 100);
        assert!(
            soft == 9_590 / SUDDEN_DEATH_MOVES_TO_GO + 67 && hard == 4 * soft,
            "{soft}/{hard}"
        );
    }

    #[test]
    fn without_an_increment_the_clock_is_shared_out_to_the_end() {
        let (soft, hard) = budget_ms(3_000, 0);
        let spare = 3_000 - 10 - 10 * RESERVE_OVERHEADS;
        assert_eq!(soft, spare / SUDDEN_DEATH_MOVES_TO_GO);
        assert!(hard <= spare / 2);
    }

    #[test]
    fn mate_scores_do_not_count_as_a_falling_score() {
        let a = quiet(Square::G1, Square::F3);
        let mut trend = SearchTrend::default();
        trend.record(a, super::super::score::MATE - 5);
        trend.record(a, 40);
        assert_eq!(trend.score_drop(), 0);
    }
}
