//! Move marks (`?!`, `?`, `??`) as lichess gives them, so they mean what lichess players read
//! them to mean, whatever model the engine's own `UCI_ShowWDL` uses. The rules are lila's
//! (`WinPercent`, `Advice`), read from its public source:
//!
//! - Between two centipawn scores: by how much the move lowers the mover's winning chances,
//!   `2 / (1 + exp(-0.00368208 cp)) - 1` from -1 (lost) to 1 (won) with the score clamped to
//!   ±1000; a drop of 0.3 is a blunder, 0.2 a mistake, 0.1 an inaccuracy.
//! - A mate against the mover where there was none: a blunder, a mistake if the mover already
//!   stood at -7 pawns or worse, an inaccuracy at -10 or worse.
//! - A mate for the mover given up: a blunder, a mistake if the mover keeps more than +7, an
//!   inaccuracy above +10 (a mate for the opponent instead is a blunder).
//! - Nothing else with a mate score on either side (a slower mate, a mate against the mover
//!   that comes later or is escaped).
//!
//! A draw the search proved counts as a score of exactly 0.
//!
//! ```
//! use threefold::analyse::marks::{MoveClass, classify, winning_chances};
//! assert_eq!(winning_chances(0, false), 0.0);
//! // +3 pawns thrown away to level: a blunder; +0.6 to +0.2: nothing.
//! assert_eq!(classify(300, false, 0, false), Some(MoveClass::Blunder));
//! assert_eq!(classify(60, false, 20, false), None);
//! ```

use crate::search::score::is_mate;

/// The lichess curve's slope, per centipawn.
const SLOPE: f64 = 0.003_682_08;

/// Scores beyond this many centipawns (and mates) count as this many.
const CEILING: i32 = 1000;

/// Drops in winning chances (-1 to 1) from which a move is a blunder, a mistake, an
/// inaccuracy: lichess's thresholds.
pub const CLASS_DROPS: [(f64, MoveClass); 3] = [
    (0.3, MoveClass::Blunder),
    (0.2, MoveClass::Mistake),
    (0.1, MoveClass::Inaccuracy),
];

/// The usual move classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveClass {
    /// `??`, NAG 4.
    Blunder,
    /// `?`, NAG 2.
    Mistake,
    /// `?!`, NAG 6.
    Inaccuracy,
}

impl MoveClass {
    pub fn symbol(self) -> &'static str {
        match self {
            MoveClass::Blunder => "??",
            MoveClass::Mistake => "?",
            MoveClass::Inaccuracy => "?!",
        }
    }

    pub fn nag(self) -> u8 {
        match self {
            MoveClass::Blunder => 4,
            MoveClass::Mistake => 2,
            MoveClass::Inaccuracy => 6,
        }
    }
}

/// Winning chances from -1 to 1 of a score (centipawns or a mate score, from the mover's
/// point of view); a draw the search proved is 0 whatever its score.
pub fn winning_chances(score: i32, proven_draw: bool) -> f64 {
    if proven_draw {
        return 0.0;
    }
    let cp = if is_mate(score) {
        CEILING * score.signum()
    } else {
        score.clamp(-CEILING, CEILING)
    };
    2.0 / (1.0 + (-SLOPE * f64::from(cp)).exp()) - 1.0
}

/// A score as lila reads an engine's: centipawns, or the sign of a mate (1: the mover mates).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Eval {
    Centipawns(i32),
    Mate(i32),
}

impl Eval {
    fn new(score: i32, proven_draw: bool) -> Eval {
        if proven_draw {
            Eval::Centipawns(0)
        } else if is_mate(score) {
            Eval::Mate(score.signum())
        } else {
            Eval::Centipawns(score)
        }
    }
}

/// The class of a move from the best move's score to the played move's (both from the mover's
/// point of view, each with whether the search proved it a draw), by the rules of the module
/// comment.
pub fn classify(best: i32, best_draw: bool, played: i32, played_draw: bool) -> Option<MoveClass> {
    match (Eval::new(best, best_draw), Eval::new(played, played_draw)) {
        (Eval::Centipawns(_), Eval::Centipawns(_)) => {
            let drop = winning_chances(best, best_draw) - winning_chances(played, played_draw);
            CLASS_DROPS
                .iter()
                .find(|(threshold, _)| drop >= *threshold)
                .map(|&(_, class)| class)
        }
        (Eval::Centipawns(before), Eval::Mate(-1)) => Some(by_pawns(-before)),
        (Eval::Mate(1), Eval::Centipawns(after)) => Some(by_pawns(after)),
        (Eval::Mate(1), Eval::Mate(-1)) => Some(MoveClass::Blunder),
        _ => None,
    }
}

/// The class of a move that makes or gives up a mate, by the mover's margin in centipawns on
/// the other side of it (what is left after giving up a mate, or what was already lost before
/// walking into one).
fn by_pawns(margin: i32) -> MoveClass {
    if margin > 999 {
        MoveClass::Inaccuracy
    } else if margin > 700 {
        MoveClass::Mistake
    } else {
        MoveClass::Blunder
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::MATE;

    #[test]
    fn the_curve_is_lichess_s() {
        // lichess's win percentage for +1.00 is 50 + 50 * chances: 59.1%.
        let chances = winning_chances(100, false);
        assert!((50.0 + 50.0 * chances - 59.1).abs() < 0.05, "{chances}");
        assert_eq!(winning_chances(5000, false), winning_chances(1000, false));
        assert_eq!(
            winning_chances(MATE - 7, false),
            winning_chances(1000, false)
        );
        assert!((winning_chances(-(MATE - 8), false) + winning_chances(1000, false)).abs() < 1e-12);
        assert_eq!(winning_chances(250, true), 0.0);
    }

    #[test]
    fn thresholds_by_the_drop() {
        // From +1.00, lichess marks a drop to about +0.45 an inaccuracy, to about -0.10 a
        // mistake, to about -0.65 a blunder.
        assert_eq!(classify(100, false, 50, false), None);
        assert_eq!(classify(100, false, 40, false), Some(MoveClass::Inaccuracy));
        assert_eq!(classify(100, false, -10, false), Some(MoveClass::Mistake));
        assert_eq!(classify(100, false, -70, false), Some(MoveClass::Blunder));
        // Far ahead, a pawn more or less is nothing.
        assert_eq!(classify(900, false, 800, false), None);
        // A proven draw thrown into a loss.
        assert_eq!(classify(0, true, -400, false), Some(MoveClass::Blunder));
    }

    #[test]
    fn mates_made_and_given_up_as_lichess_marks_them() {
        // Walking into a mate: a blunder from a fair position, less when already lost.
        assert_eq!(
            classify(-600, false, -(MATE - 6), false),
            Some(MoveClass::Blunder)
        );
        assert_eq!(
            classify(-800, false, -(MATE - 6), false),
            Some(MoveClass::Mistake)
        );
        assert_eq!(
            classify(-1200, false, -(MATE - 6), false),
            Some(MoveClass::Inaccuracy)
        );
        // Giving up a mate: by what is left.
        assert_eq!(
            classify(MATE - 9, false, 1200, false),
            Some(MoveClass::Inaccuracy)
        );
        assert_eq!(
            classify(MATE - 9, false, 800, false),
            Some(MoveClass::Mistake)
        );
        assert_eq!(classify(MATE - 9, false, 0, true), Some(MoveClass::Blunder));
        assert_eq!(
            classify(MATE - 9, false, -(MATE - 4), false),
            Some(MoveClass::Blunder)
        );
        // A slower mate, a mate found, a mate against the mover put off or escaped: nothing.
        assert_eq!(classify(MATE - 3, false, MATE - 9, false), None);
        assert_eq!(classify(200, false, MATE - 9, false), None);
        assert_eq!(classify(-(MATE - 4), false, -(MATE - 2), false), None);
        assert_eq!(classify(-(MATE - 4), false, -300, false), None);
    }
}
