//! The search's numbers in one place: piece values, pruning margins, reductions, extensions and
//! windows, so that a tuner (or an SPSA run) finds them all here.
//!
//! Naming legend:
//! - `*_DEPTH`: a remaining depth in plies (the deepest or shallowest a rule applies at);
//! - `*_MARGIN`: centipawns; `*_PER_PLY` / `*_PER_DEPTH`: centipawns per ply of depth;
//! - `*_WINDOW`: half the width of a search window, in centipawns;
//! - plain nouns (`POLL_INTERVAL`): counts, in the unit their doc gives.

use shakmaty::Role;

/// What a piece is worth for each use, in centipawns (`material` in pawns).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PieceValue {
    /// For ordering captures (most valuable victim, least valuable attacker).
    pub ordering: i32,
    /// For static exchange evaluation; the king's is above any exchange.
    pub exchange: i32,
    /// For the win/draw/loss model's material count (`UCI_ShowWDL`): pawn 1, minor 3, rook 5,
    /// queen 9, king 0, as the model was fitted.
    pub material: u32,
}

/// The one table of piece values, by role: pawn, knight, bishop, rook, queen, king. The
/// columns differ where their uses were tuned apart (the bench node count rests on them).
#[rustfmt::skip]
pub const PIECE_VALUES: [PieceValue; 6] = [
    PieceValue { ordering: 100,  exchange: 100,    material: 1 },
    PieceValue { ordering: 300,  exchange: 320,    material: 3 },
    PieceValue { ordering: 320,  exchange: 330,    material: 3 },
    PieceValue { ordering: 500,  exchange: 500,    material: 5 },
    PieceValue { ordering: 900,  exchange: 950,    material: 9 },
    PieceValue { ordering: 2000, exchange: 20_000, material: 0 },
];

/// The values of a piece of kind `role`.
pub fn piece_value(role: Role) -> PieceValue {
    PIECE_VALUES[role as usize - 1]
}
