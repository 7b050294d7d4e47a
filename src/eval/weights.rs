//! Every evaluation weight in one place, so that a tuner can find and change them.
//!
//! Values are hand-set starting points (a later issue tunes them by Texel's method).
//! Arrays indexed by piece kind use the order pawn, knight, bishop, rook, queen, king.

use super::score::{S, s};

/// Material value of each piece kind.
pub const MATERIAL: [S; 6] = [
    s(90, 115),
    s(320, 300),
    s(335, 320),
    s(470, 530),
    s(960, 940),
    s(0, 0),
];

/// Piece-square shape: bonus per step of distance from the board centre (negative = likes centre).
pub const CENTRALITY: [S; 6] = [
    s(0, 0),
    s(-7, -6),
    s(-4, -4),
    s(-1, -1),
    s(-2, -5),
    s(0, -9),
];

/// Pawn bonus by rank from its own side (index 0 = rank 1).
pub const PAWN_ADVANCE: [S; 8] = [
    s(0, 0),
    s(0, 0),
    s(2, 3),
    s(6, 8),
    s(10, 16),
    s(16, 30),
    s(25, 50),
    s(0, 0),
];
/// Extra bonus for a pawn on the d or e file on ranks 3 to 5.
pub const PAWN_CENTRE: S = s(12, 0);
/// Rook on its seventh rank.
pub const ROOK_SEVENTH: S = s(15, 20);
/// King on its back two ranks, in the middlegame (safety).
pub const KING_HOME: S = s(20, 0);
/// King per rank advanced from home, in the middlegame.
pub const KING_ADVANCED: S = s(-18, 0);
/// King on the central files c..f of its back rank (less sheltered than a castled king).
pub const KING_CENTRE_FILES: S = s(-12, 0);

/// Passed pawn by rank from its own side.
pub const PASSED: [S; 8] = [
    s(0, 0),
    s(2, 8),
    s(4, 12),
    s(10, 22),
    s(22, 42),
    s(40, 75),
    s(65, 120),
    s(0, 0),
];
/// Passed pawn whose path to promotion is free of pieces.
pub const PASSED_FREE_PATH: S = s(5, 20);
pub const DOUBLED: S = s(-10, -22);
pub const ISOLATED: S = s(-12, -14);

pub const BISHOP_PAIR: S = s(30, 55);
pub const ROOK_OPEN_FILE: S = s(25, 10);
pub const ROOK_SEMI_OPEN_FILE: S = s(10, 8);

/// Mobility per reachable square beyond the typical count, per piece kind.
pub const MOBILITY: [S; 6] = [s(0, 0), s(4, 4), s(5, 5), s(2, 4), s(1, 2), s(0, 0)];
/// Typical number of reachable squares, per piece kind (mobility is measured from it).
pub const MOBILITY_BASE: [i32; 6] = [0, 4, 6, 6, 12, 0];

/// Weight of an attack on the enemy king zone, per attacking piece kind.
pub const KING_ATTACK_UNITS: [i32; 6] = [0, 2, 2, 3, 5, 0];
/// Middlegame penalty per (attack units)^2 / 4 on the king zone, capped by KING_ATTACK_CAP.
pub const KING_ATTACK_SCALE: i32 = 3;
pub const KING_ATTACK_CAP: i32 = 500;
/// Own pawn directly in front of a castled king (one or two ranks ahead, adjacent files).
pub const PAWN_SHIELD: S = s(12, 0);

/// Bonus for the side to move.
pub const TEMPO: i32 = 12;
