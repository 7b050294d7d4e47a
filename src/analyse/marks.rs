//! Move marks (`?!`, `?`, `??`) as lichess gives them: by how much the move played lowers the
//! mover's winning chances against the best move, on lichess's published curve and thresholds
//! (`lila`'s `WinPercent` and `Advice`). Marks then mean what players of lichess read them to
//! mean, whatever model the engine's own `UCI_ShowWDL` uses.
//!
//! Winning chances run from -1 (lost) to 1 (won): `2 / (1 + exp(-0.00368208 cp)) - 1`, with the
//! score clamped to ±1000 centipawns and a mate counted as ±1000; a drop of 0.3 is a blunder,
//! 0.2 a mistake, 0.1 an inaccuracy.
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

/// The class of a move by the drop in winning chances from the best move's score to the
/// played move's (both from the mover's point of view).
pub fn classify(best: i32, best_draw: bool, played: i32, played_draw: bool) -> Option<MoveClass> {
    let drop = winning_chances(best, best_draw) - winning_chances(played, played_draw);
    CLASS_DROPS
        .iter()
        .find(|(threshold, _)| drop >= *threshold)
        .map(|&(_, class)| class)
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
        // Far ahead, a pawn more or less is nothing; a mate given up for a won ending neither.
        assert_eq!(classify(900, false, 800, false), None);
        assert_eq!(classify(MATE - 9, false, 1200, false), None);
        // A proven draw thrown into a loss.
        assert_eq!(classify(0, true, -400, false), Some(MoveClass::Blunder));
    }
}
