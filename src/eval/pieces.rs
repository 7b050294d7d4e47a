//! Material, piece placement and mobility.

use shakmaty::{Bitboard, Board, Color, Role, Square, attacks};

use super::relative_rank;
use super::score::S;
use super::weights::*;

/// Sum of the material values of `color`'s pieces, plus the bishop pair.
pub fn material(board: &Board, color: Color) -> S {
    let ours = board.by_color(color);
    let mut total = S::default();
    for role in Role::ALL {
        total += MATERIAL[role as usize - 1] * (board.by_role(role) & ours).count() as i32;
    }
    if (board.bishops() & ours).count() >= 2 {
        total += BISHOP_PAIR;
    }
    total
}

/// Steps from the four centre squares (0 in the centre, 6 in a corner).
fn centre_distance(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    let df = if f < 4 { 3 - f } else { f - 4 };
    let dr = if r < 4 { 3 - r } else { r - 4 };
    df + dr
}

/// Piece-square terms, computed from simple chess shapes rather than tables.
pub fn placement(board: &Board, color: Color) -> S {
    let mut total = S::default();
    for sq in board.by_color(color) {
        let Some(role) = board.role_at(sq) else {
            continue;
        };
        total += CENTRALITY[role as usize - 1] * centre_distance(sq);
        let rank = relative_rank(color, sq);
        match role {
            Role::Pawn => {
                total += PAWN_ADVANCE[rank];
                let file = sq.file() as usize;
                if (3..=4).contains(&file) && (2..=4).contains(&rank) {
                    total += PAWN_CENTRE;
                }
            }
            Role::Rook if rank == 6 => total += ROOK_SEVENTH,
            Role::King => total += king_placement(sq, rank),
            _ => {}
        }
    }
    total + rooks_on_files(board, color)
}

fn king_placement(sq: Square, rank: usize) -> S {
    let mut total = S::default();
    if rank <= 1 {
        total += KING_HOME;
    } else {
        total += KING_ADVANCED * rank as i32;
    }
    if (2..=5).contains(&(sq.file() as usize)) {
        total += KING_CENTRE_FILES;
    }
    total
}

/// Rooks on open files (no pawns) and half-open files (no own pawns).
fn rooks_on_files(board: &Board, color: Color) -> S {
    let mut total = S::default();
    let own_pawns = board.pawns() & board.by_color(color);
    for sq in board.rooks() & board.by_color(color) {
        let file = Bitboard::from_file(sq.file());
        if (file & board.pawns()).is_empty() {
            total += ROOK_OPEN_FILE;
        } else if (file & own_pawns).is_empty() {
            total += ROOK_SEMI_OPEN_FILE;
        }
    }
    total
}

/// Squares attacked by `color`'s pawns.
pub fn pawn_attacks(board: &Board, color: Color) -> Bitboard {
    let mut all = Bitboard::EMPTY;
    for sq in board.pawns() & board.by_color(color) {
        all |= attacks::pawn_attacks(color, sq);
    }
    all
}

/// Reachable squares of knights, bishops, rooks and queens, not counting squares held by own
/// pieces or attacked by enemy pawns.
pub fn mobility(board: &Board, color: Color) -> S {
    let occupied = board.occupied();
    let usable = !board.by_color(color) & !pawn_attacks(board, !color);
    let mut total = S::default();
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        let i = role as usize - 1;
        for sq in board.by_role(role) & board.by_color(color) {
            let reach = attacks::attacks(sq, role.of(color), occupied) & usable;
            total += MOBILITY[i] * (reach.count() as i32 - MOBILITY_BASE[i]);
        }
    }
    total
}
