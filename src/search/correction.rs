//! Correction history: how far the static evaluation has been off in positions with the same
//! pawns, learned from the search's own results and added to later evaluations.
//!
//! The network judges a position as it stands. Looking ahead, the search often finds positions
//! that share a pawn structure consistently better or worse for one side than the network said
//! (a pawn that cannot be held, a blockade it overrates). When a node's search settles a score
//! whose bound says something about the static evaluation (an exact score, a fail high above it,
//! a fail low below it), the entry for the node's pawns and side to move moves toward the
//! difference, by more after a deeper search. Every later node with those pawns gets the entry
//! added to its evaluation, which the pruning margins and the quiescence stand-pat then read.
//!
//! ```
//! use shakmaty::Chess;
//! use threefold::search::correction::CorrectionHistory;
//!
//! let mut table = CorrectionHistory::default();
//! let start = Chess::default();
//! assert_eq!(table.corrected(&start, 20), 20);
//! // Deep searches keep finding the position 60 cp better than the evaluation says.
//! for _ in 0..200 {
//!     table.update(&start, 20, 80, 12);
//! }
//! let corrected = table.corrected(&start, 20);
//! assert!(corrected > 20 && corrected <= 80, "{corrected}");
//! ```

use shakmaty::{Chess, Color, Position};

use super::params;
use super::tablebase::TB_WIN_BOUND;

/// Entries per side to move (a power of two).
const ENTRIES: usize = 1 << 14;
/// An entry counts in 1/GRAIN of a centipawn, so that small steps add up.
const GRAIN: i32 = 256;
/// The weights of an update are out of this many.
const WEIGHT_SCALE: i32 = 256;

/// Per side to move and pawn structure (by a hash of both sides' pawns), how much the search
/// found the static evaluation off, in 1/GRAIN centipawns, for the side to move.
#[derive(Clone)]
pub struct CorrectionHistory {
    pawns: Vec<i32>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            pawns: vec![0; 2 * ENTRIES],
        }
    }
}

impl CorrectionHistory {
    /// `raw`, the static evaluation of `pos`, with what the searches found it off by added.
    /// It stays short of the tablebase scores, which a static evaluation never claims.
    #[inline]
    pub fn corrected(&self, pos: &Chess, raw: i32) -> i32 {
        let correction = self.pawns[pawn_index(pos)] / GRAIN;
        (raw + correction).clamp(-TB_WIN_BOUND + 1, TB_WIN_BOUND - 1)
    }

    /// Learns from a search of `pos` to `depth` that found `score` where the static
    /// evaluation said `raw`: the entry moves toward the difference, with a weight that grows
    /// with the depth. The caller decides that the score says something about `raw` (its
    /// bound, no mate or tablebase score, no draw that rests on the path).
    pub fn update(&mut self, pos: &Chess, raw: i32, score: i32, depth: i32) {
        let limit = params::correction_max() * GRAIN;
        let target = ((score - raw) * GRAIN).clamp(-limit, limit);
        let weight = (depth + 1).clamp(1, params::correction_max_weight());
        let entry = &mut self.pawns[pawn_index(pos)];
        let moved = (*entry * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
        *entry = moved.clamp(-limit, limit);
    }
}

/// The entry of `pos`: its side to move and a hash of where each side's pawns stand.
#[inline]
fn pawn_index(pos: &Chess) -> usize {
    let board = pos.board();
    let white = u64::from(board.pawns() & board.white());
    let black = u64::from(board.pawns() & board.black());
    // Two odd multipliers spread the bits; the top bits of the sum are the best mixed.
    let hash = white
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(black.wrapping_mul(0xD6E8_FEB8_6659_FD93).rotate_left(29));
    let slot = (hash >> (64 - ENTRIES.trailing_zeros())) as usize;
    let side = usize::from(pos.turn() == Color::Black);
    side * ENTRIES + slot
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::parse_fen;

    #[test]
    fn positions_with_the_same_pawns_share_a_correction() {
        let mut table = CorrectionHistory::default();
        let a =
            parse_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3").unwrap();
        // The same pawns, other pieces elsewhere, White to move.
        let b =
            parse_fen("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - 2 3").unwrap();
        // Other pawns.
        let c = parse_fen("rnbqkbnr/pppp1ppp/8/4p3/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 2").unwrap();
        for _ in 0..100 {
            table.update(&a, 0, -50, 10);
        }
        assert!(table.corrected(&a, 0) < -20);
        assert_eq!(table.corrected(&b, 0), table.corrected(&a, 0));
        assert_eq!(table.corrected(&c, 0), 0);
    }

    #[test]
    fn a_correction_is_bounded() {
        let mut table = CorrectionHistory::default();
        let pos = Chess::default();
        for _ in 0..1000 {
            table.update(&pos, 0, 3000, 30);
        }
        let corrected = table.corrected(&pos, 0);
        assert!(corrected <= params::correction_max(), "{corrected}");
        assert!(corrected >= params::correction_max() - 1, "{corrected}");
        // Never into the tablebase scores, whatever the evaluation.
        assert_eq!(table.corrected(&pos, TB_WIN_BOUND), TB_WIN_BOUND - 1);
    }
}
