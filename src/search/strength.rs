//! Limited strength (`UCI_LimitStrength` with `UCI_Elo`): the engine searches a node budget
//! that grows with the Elo asked for; below `NOISELESS_ELO` it looks at a few candidate lines
//! and now and then plays one that is a little worse than the best, as a human of that rating
//! would; from there up it searches the best line alone, as full strength does.
//!
//! The budget and the noise were calibrated against Stockfish's own `UCI_Elo` ladder (see
//! docs/uci.md, "Limited strength", for the table and the command that measured it).

use crate::rng::Rng;

/// The lowest `UCI_Elo` (Stockfish's lowest too).
pub const MIN_ELO: u32 = 1320;
/// The highest `UCI_Elo` offered: about the full strength of the engine at 10+0.1 on
/// Stockfish's scale (docs/uci.md, "Limited strength"), so that every level is reached at the clocks
/// people play, the node budget rather than the clock ending its searches.
pub const MAX_ELO: u32 = 2200;
/// How many best lines a limited search looks at before choosing, below `NOISELESS_ELO` (at
/// each of those levels, so that the node budget buys the same kind of search along them).
pub const CANDIDATE_LINES: usize = 4;
/// How many times the nodes of one line a search of `CANDIDATE_LINES` lines needs to reach the
/// same depth (measured 4.2..4.3 at depths 9 and 11 over 12 book openings): the one-line
/// levels search their budget divided by this, and so play as the four-line search would.
const CANDIDATE_LINES_COST: f64 = 4.0;
/// Nodes searched at `MIN_ELO`.
const NODES_AT_MIN_ELO: f64 = 980.0;
/// Elo gained by each doubling of the node budget.
const ELO_PER_DOUBLING: f64 = 80.0;
/// Largest random bonus, in centipawns, a candidate line gets at `MIN_ELO`.
const NOISE_AT_MIN_ELO: i32 = 40;
/// From this Elo up, the best line is always played.
const NOISELESS_ELO: u32 = 2000;

/// A playing strength between `MIN_ELO` and `MAX_ELO`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Strength {
    elo: u32,
}

impl Strength {
    /// The strength for `elo`, clamped into `MIN_ELO..=MAX_ELO`.
    pub fn new(elo: u32) -> Strength {
        Strength {
            elo: elo.clamp(MIN_ELO, MAX_ELO),
        }
    }

    pub fn elo(self) -> u32 {
        self.elo
    }

    /// How many best lines the search looks at: `CANDIDATE_LINES` while there is noise to choose
    /// among them with, one line from `NOISELESS_ELO` up.
    pub fn lines(self) -> usize {
        if self.noise() > 0 { CANDIDATE_LINES } else { 1 }
    }

    /// How many nodes one move may search: doubling every `ELO_PER_DOUBLING` in a search of
    /// `CANDIDATE_LINES` lines, and as much search in one line (`CANDIDATE_LINES_COST` times
    /// fewer nodes) from `NOISELESS_ELO` up.
    pub fn node_budget(self) -> u64 {
        let doublings = f64::from(self.elo - MIN_ELO) / ELO_PER_DOUBLING;
        let nodes = NODES_AT_MIN_ELO * doublings.exp2();
        let cost = if self.lines() == 1 {
            CANDIDATE_LINES_COST
        } else {
            1.0
        };
        (nodes / cost).round() as u64
    }

    /// The largest random bonus a candidate line may get, in centipawns.
    pub fn noise(self) -> i32 {
        let below = NOISELESS_ELO.saturating_sub(self.elo) as i32;
        NOISE_AT_MIN_ELO * below / (NOISELESS_ELO - MIN_ELO) as i32
    }

    /// Which of the lines scored `scores` (from the side to move's view, best first) to play:
    /// the one whose score plus a random bonus up to `noise()` is highest. A line more than
    /// `noise()` below the best is never chosen, so a found mate is always played.
    pub fn choose(self, scores: &[i32], rng: &mut Rng) -> usize {
        let noise = self.noise();
        let mut chosen = 0;
        let mut best = i32::MIN;
        for (index, score) in scores.iter().enumerate() {
            let bonus = rng.below(noise as u64 + 1) as i32;
            let value = score.saturating_add(bonus);
            if value > best {
                best = value;
                chosen = index;
            }
        }
        chosen
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(scores: &[i32]) -> Vec<i32> {
        scores.to_vec()
    }

    #[test]
    fn elo_is_clamped_into_the_offered_range() {
        assert_eq!(Strength::new(0).elo(), MIN_ELO);
        assert_eq!(Strength::new(5000).elo(), MAX_ELO);
        assert_eq!(Strength::new(2000).elo(), 2000);
    }

    /// The budget in nodes of a four-line search: what one line's nodes are worth.
    fn four_line_nodes(s: Strength) -> f64 {
        let cost = if s.lines() == 1 {
            CANDIDATE_LINES_COST
        } else {
            1.0
        };
        s.node_budget() as f64 * cost
    }

    #[test]
    fn budget_grows_and_noise_shrinks_with_elo() {
        let mut last = (0.0, i32::MAX);
        for elo in (MIN_ELO..=MAX_ELO).step_by(20) {
            let s = Strength::new(elo);
            assert!(four_line_nodes(s) > last.0, "budget at {elo}");
            assert!(s.noise() <= last.1, "noise at {elo}");
            last = (four_line_nodes(s), s.noise());
        }
        assert_eq!(Strength::new(MIN_ELO).noise(), NOISE_AT_MIN_ELO);
        assert_eq!(Strength::new(NOISELESS_ELO).noise(), 0);
    }

    #[test]
    fn four_lines_while_there_is_noise_then_one() {
        for elo in MIN_ELO..=MAX_ELO {
            let s = Strength::new(elo);
            let expected = if s.noise() > 0 { CANDIDATE_LINES } else { 1 };
            assert_eq!(s.lines(), expected, "at {elo}");
        }
        // The noise (whole centipawns) runs out a little before `NOISELESS_ELO`.
        assert_eq!(Strength::new(1960).lines(), CANDIDATE_LINES);
        assert_eq!(Strength::new(NOISELESS_ELO).lines(), 1);
    }

    #[test]
    fn budgets_on_each_side_of_the_noiseless_level() {
        // The four-line levels keep the budgets they were calibrated with.
        assert_eq!(Strength::new(MIN_ELO).node_budget(), 980);
        assert_eq!(Strength::new(1800).node_budget(), 62_720);
        // At 2000 one line gets a quarter of the four-line formula's 354,797 nodes.
        assert_eq!(Strength::new(NOISELESS_ELO).node_budget(), 88_699);
        // One-line budgets still double every `ELO_PER_DOUBLING`.
        let top = Strength::new(MAX_ELO).node_budget() as f64;
        let expected = 88_699.0 * (f64::from(MAX_ELO - NOISELESS_ELO) / ELO_PER_DOUBLING).exp2();
        assert!((top / expected - 1.0).abs() < 1e-3, "{top} vs {expected}");
    }

    #[test]
    fn without_noise_the_best_line_is_played() {
        let mut rng = Rng::new(7);
        let s = Strength::new(MAX_ELO);
        for _ in 0..100 {
            assert_eq!(s.choose(&lines(&[30, 29, 28, -5]), &mut rng), 0);
        }
    }

    #[test]
    fn noise_picks_close_lines_sometimes_and_far_ones_never() {
        let mut rng = Rng::new(11);
        let s = Strength::new(MIN_ELO);
        let far = -(s.noise() + 1);
        let mut counts = [0; 3];
        for _ in 0..1000 {
            counts[s.choose(&lines(&[0, -10, far]), &mut rng)] += 1;
        }
        assert!(counts[0] > counts[1], "{counts:?}");
        assert!(counts[1] > 100, "{counts:?}");
        assert_eq!(counts[2], 0, "{counts:?}");
    }

    #[test]
    fn a_mate_is_always_played() {
        let mut rng = Rng::new(3);
        let s = Strength::new(MIN_ELO);
        for _ in 0..200 {
            assert_eq!(s.choose(&lines(&[200, 31_990, 150]), &mut rng), 1);
        }
    }
}
