//! Position keys under FIDE identity (Laws of Chess 9.2.3).
//!
//! Two positions are the same when the side to move, the placement, the castling rights and
//! the *legal* en passant captures agree. shakmaty's `EnPassantMode::Legal` hashes the en
//! passant file only when a capture is really possible, which is exactly that rule.

use shakmaty::{Chess, EnPassantMode, Move, Position, zobrist::Zobrist64};

/// The 64-bit Zobrist key of a position, with FIDE en passant identity.
pub fn position_key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The key of the position after `m`, given the key of `pos`; incremental where shakmaty can.
pub fn key_after(pos: &Chess, key: u64, m: Move, after: &Chess) -> u64 {
    pos.update_zobrist_hash(Zobrist64(key), m, EnPassantMode::Legal)
        .map_or_else(|| position_key(after), |z| z.0)
}
