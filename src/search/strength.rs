//! Limited strength (`UCI_LimitStrength` with `UCI_Elo`): the engine searches a node budget
//! that grows with the Elo asked for. Up to `HAND_WRITTEN_MAX_ELO` it evaluates by hand; below
//! `NOISELESS_ELO` it looks at a few candidate lines and now and then plays one that is a little
//! worse than the best, as a human of that rating would; from there up it searches the best
//! line alone. Above `HAND_WRITTEN_MAX_ELO` the network evaluates, with a budget that reaches
//! the clock's own at `MAX_ELO`, which is full strength.
//!
//! Whatever the level, the repetition decisions are the engine's: a level on the hand-written
//! evaluation has its move checked by a small search at full strength (`GUARD_NODES`, see
//! `guard.rs`) wherever a draw by rule is in play.
//!
//! The budget and the noise were calibrated against Stockfish's own `UCI_Elo` ladder (see
//! docs/uci.md, "Limited strength", for the table and the command that measured it).
//!
//! ```
//! use threefold::search::strength::{Strength, HAND_WRITTEN_MAX_ELO, MAX_ELO};
//!
//! let club = Strength::at(1600).expect("a limited level");
//! let master = Strength::at(HAND_WRITTEN_MAX_ELO + 200).expect("a limited level");
//! assert!(!club.uses_network() && master.uses_network());
//! assert!(club.node_budget() < master.node_budget());
//! assert!(Strength::at(MAX_ELO).is_none(), "the top of the range is full strength");
//! ```

use crate::rng::Rng;

/// The lowest `UCI_Elo` (Stockfish's lowest too).
pub const MIN_ELO: u32 = 1320;
/// The highest level on the hand-written evaluation: about its full strength at 10+0.1 on
/// Stockfish's scale (docs/uci.md, "Limited strength"). The levels above it use the network.
pub const HAND_WRITTEN_MAX_ELO: u32 = 2200;
/// The highest `UCI_Elo` offered, which is full strength (no node budget, the clock alone):
/// about what the engine with its network measures at 10+0.1 on Stockfish's scale.
pub const MAX_ELO: u32 = 2650;
/// How many best lines a limited search looks at before choosing, below `NOISELESS_ELO` (at
/// each of those levels, so that the node budget buys the same kind of search along them).
pub const CANDIDATE_LINES: usize = 4;
/// How many times the nodes of one line a search of `CANDIDATE_LINES` lines needs to reach the
/// same depth (measured 4.2..4.3 at depths 9 and 11 over 12 book openings): the one-line
/// levels search their budget divided by this, and so play as the four-line search would.
const CANDIDATE_LINES_COST: f64 = 4.0;
/// Nodes searched at `MIN_ELO`.
const NODES_AT_MIN_ELO: f64 = 980.0;
/// Elo gained by each doubling of the node budget on the hand-written evaluation (in four
/// lines up to `KNEE_ELO`, and in one line).
const ELO_PER_DOUBLING: f64 = 80.0;
/// Above this Elo the four-line levels' budget grows more slowly: with a doubling every 80 Elo
/// all the way, 1800 measured 2005 [1933, 2098] against Stockfish's ladder (docs/uci.md,
/// "Limited strength").
const KNEE_ELO: u32 = 1600;
/// Elo gained by each doubling of the four-line budget above `KNEE_ELO`.
const ELO_PER_DOUBLING_ABOVE_KNEE: f64 = 200.0;
/// Largest random bonus, in centipawns, a candidate line gets at `MIN_ELO`.
const NOISE_AT_MIN_ELO: i32 = 40;
/// From this Elo up, the best line is always played.
const NOISELESS_ELO: u32 = 2000;
/// The network's nodes that play as `HAND_WRITTEN_MAX_ELO` does (measured in a fixed-node
/// match of the network against that level, docs/uci.md).
const NETWORK_NODES_AT_HAND_WRITTEN_MAX: f64 = 100_000.0;
/// Elo gained by each doubling of the node budget with the network, so that the budget just
/// below `MAX_ELO` is about what full strength searches a move at 10+0.1.
const NETWORK_ELO_PER_DOUBLING: f64 = 280.0;
/// The nodes of the full-strength search that checks a hand-written level's move wherever a
/// draw by rule is in play (enough for every seed behaviour case, which 30,000 all pass).
pub const GUARD_NODES: u64 = 50_000;

/// A limited playing strength: from `MIN_ELO` up to, not including, `MAX_ELO`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Strength {
    elo: u32,
}

impl Strength {
    /// The strength for `elo`, clamped into `MIN_ELO..=MAX_ELO`; None at `MAX_ELO`, which is
    /// full strength.
    pub fn at(elo: u32) -> Option<Strength> {
        let elo = elo.clamp(MIN_ELO, MAX_ELO);
        (elo < MAX_ELO).then_some(Strength { elo })
    }

    pub fn elo(self) -> u32 {
        self.elo
    }

    /// Whether the level evaluates with the network (above `HAND_WRITTEN_MAX_ELO`) rather than
    /// by hand.
    pub fn uses_network(self) -> bool {
        self.elo > HAND_WRITTEN_MAX_ELO
    }

    /// How many best lines the search looks at: `CANDIDATE_LINES` while there is noise to choose
    /// among them with, one line from `NOISELESS_ELO` up.
    pub fn lines(self) -> usize {
        if self.noise() > 0 { CANDIDATE_LINES } else { 1 }
    }

    /// How many nodes one move may search. By hand: doubling every `ELO_PER_DOUBLING` in a
    /// search of `CANDIDATE_LINES` lines (every `ELO_PER_DOUBLING_ABOVE_KNEE` above
    /// `KNEE_ELO`), and in one line from where the noise runs out, `CANDIDATE_LINES_COST`
    /// times fewer nodes than four lines doubling every `ELO_PER_DOUBLING` from `MIN_ELO`.
    /// With the network: doubling every `NETWORK_ELO_PER_DOUBLING` from
    /// `NETWORK_NODES_AT_HAND_WRITTEN_MAX`.
    pub fn node_budget(self) -> u64 {
        if self.uses_network() {
            let doublings = f64::from(self.elo - HAND_WRITTEN_MAX_ELO) / NETWORK_ELO_PER_DOUBLING;
            return (NETWORK_NODES_AT_HAND_WRITTEN_MAX * doublings.exp2()).round() as u64;
        }
        let (doublings, cost) = if self.lines() == 1 {
            let doublings = f64::from(self.elo - MIN_ELO) / ELO_PER_DOUBLING;
            (doublings, CANDIDATE_LINES_COST)
        } else {
            let below = self.elo.min(KNEE_ELO) - MIN_ELO;
            let above = self.elo.saturating_sub(KNEE_ELO);
            let doublings = f64::from(below) / ELO_PER_DOUBLING
                + f64::from(above) / ELO_PER_DOUBLING_ABOVE_KNEE;
            (doublings, 1.0)
        };
        (NODES_AT_MIN_ELO * doublings.exp2() / cost).round() as u64
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

    /// The limited strength at `elo`, which must be below `MAX_ELO`.
    fn level(elo: u32) -> Strength {
        Strength::at(elo).expect("a limited level")
    }

    #[test]
    fn elo_is_clamped_into_the_offered_range() {
        assert_eq!(level(0).elo(), MIN_ELO);
        assert_eq!(level(2000).elo(), 2000);
        assert_eq!(level(MAX_ELO - 1).elo(), MAX_ELO - 1);
        // The top of the range and anything above it is full strength.
        assert_eq!(Strength::at(MAX_ELO), None);
        assert_eq!(Strength::at(5000), None);
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
        for elo in (MIN_ELO..=HAND_WRITTEN_MAX_ELO).step_by(20) {
            let s = level(elo);
            assert!(four_line_nodes(s) > last.0, "budget at {elo}");
            assert!(s.noise() <= last.1, "noise at {elo}");
            last = (four_line_nodes(s), s.noise());
        }
        assert_eq!(level(MIN_ELO).noise(), NOISE_AT_MIN_ELO);
        assert_eq!(level(NOISELESS_ELO).noise(), 0);
    }

    #[test]
    fn four_lines_while_there_is_noise_then_one() {
        for elo in MIN_ELO..MAX_ELO {
            let s = level(elo);
            let expected = if s.noise() > 0 { CANDIDATE_LINES } else { 1 };
            assert_eq!(s.lines(), expected, "at {elo}");
        }
        // The noise (whole centipawns) runs out a little before `NOISELESS_ELO`.
        assert_eq!(level(1960).lines(), CANDIDATE_LINES);
        assert_eq!(level(NOISELESS_ELO).lines(), 1);
    }

    #[test]
    fn budgets_on_each_side_of_the_noiseless_level() {
        // The four-line levels: a doubling every `ELO_PER_DOUBLING` up to the knee.
        assert_eq!(level(MIN_ELO).node_budget(), 980);
        assert_eq!(level(1600).node_budget(), 11_087);
        // Above the knee a doubling every `ELO_PER_DOUBLING_ABOVE_KNEE`.
        assert_eq!(level(1800).node_budget(), 22_175);
        // At 2000 one line gets a quarter of the four-line formula's 354,797 nodes.
        assert_eq!(level(NOISELESS_ELO).node_budget(), 88_699);
        // One-line budgets still double every `ELO_PER_DOUBLING`.
        let top = level(HAND_WRITTEN_MAX_ELO).node_budget() as f64;
        let expected =
            88_699.0 * (f64::from(HAND_WRITTEN_MAX_ELO - NOISELESS_ELO) / ELO_PER_DOUBLING).exp2();
        assert!((top / expected - 1.0).abs() < 1e-3, "{top} vs {expected}");
    }

    #[test]
    fn the_network_takes_over_above_the_hand_written_levels() {
        assert!(!level(HAND_WRITTEN_MAX_ELO).uses_network());
        let first = level(HAND_WRITTEN_MAX_ELO + 1);
        assert!(first.uses_network());
        assert_eq!(first.lines(), 1);
        let start = NETWORK_NODES_AT_HAND_WRITTEN_MAX;
        assert!((first.node_budget() as f64 / start - 1.0).abs() < 0.01);
        let mut last = 0;
        for elo in HAND_WRITTEN_MAX_ELO + 1..MAX_ELO {
            let budget = level(elo).node_budget();
            assert!(budget >= last, "budget at {elo}");
            last = budget;
        }
        // Doubling every `NETWORK_ELO_PER_DOUBLING`.
        let doubled = level(HAND_WRITTEN_MAX_ELO + NETWORK_ELO_PER_DOUBLING as u32).node_budget();
        assert!(
            (doubled as f64 / (2.0 * start) - 1.0).abs() < 1e-3,
            "{doubled}"
        );
    }

    #[test]
    fn without_noise_the_best_line_is_played() {
        let mut rng = Rng::new(7);
        let s = level(NOISELESS_ELO);
        for _ in 0..100 {
            assert_eq!(s.choose(&lines(&[30, 29, 28, -5]), &mut rng), 0);
        }
    }

    #[test]
    fn noise_picks_close_lines_sometimes_and_far_ones_never() {
        let mut rng = Rng::new(11);
        let s = level(MIN_ELO);
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
        let s = level(MIN_ELO);
        for _ in 0..200 {
            assert_eq!(s.choose(&lines(&[200, 31_990, 150]), &mut rng), 1);
        }
    }
}
