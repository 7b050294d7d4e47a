//! Pawn structure: passed, doubled and isolated pawns.

use shakmaty::{Bitboard, Board, Color, File, Square};

use super::relative_rank;
use super::score::S;
use super::weights::*;

/// Files next to `file`.
fn adjacent_files(file: File) -> Bitboard {
    let mut files = Bitboard::EMPTY;
    for delta in [-1, 1] {
        if let Some(f) = file.offset(delta) {
            files |= Bitboard::from_file(f);
        }
    }
    files
}

/// Squares strictly in front of `sq` from `color`'s point of view, on the same file.
fn front_span(color: Color, sq: Square) -> Bitboard {
    let mut span = Bitboard::EMPTY;
    let mut next = sq;
    let step = if color == Color::White { 8 } else { -8 };
    while let Some(s) = next.offset(step) {
        span.add(s);
        next = s;
    }
    span
}

/// The squares an enemy pawn must stand on to stop or capture a pawn on `sq`.
fn passed_mask(color: Color, sq: Square) -> Bitboard {
    let mut mask = front_span(color, sq);
    for s in front_span(color, sq) {
        mask |= adjacent_files(s.file()) & Bitboard::from_rank(s.rank());
    }
    mask
}

/// Pawn structure of `color`.
pub fn structure(board: &Board, color: Color) -> S {
    let ours = board.pawns() & board.by_color(color);
    let theirs = board.pawns() & board.by_color(!color);
    let mut total = S::default();
    for sq in ours {
        if (adjacent_files(sq.file()) & ours).is_empty() {
            total += ISOLATED;
        }
        if (front_span(color, sq) & ours).any() {
            total += DOUBLED;
        }
        if (passed_mask(color, sq) & theirs).is_empty() && (front_span(color, sq) & ours).is_empty()
        {
            let rank = relative_rank(color, sq);
            total += PASSED[rank];
            if (front_span(color, sq) & board.occupied()).is_empty() {
                total += PASSED_FREE_PATH * (rank as i32) * 2 / 3;
            }
        }
    }
    total
}
