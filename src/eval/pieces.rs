//! Material, piece placement (with outposts) and mobility.

use shakmaty::{Bitboard, Board, Color, Role, Square, attacks};

use super::pawns::{attack_span, pawn_attacks};
use super::relative_rank;
use super::score::S;
use super::weights::{MOBILITY_BASE, Weights};

/// Sum of the material values of `color`'s pieces, plus the bishop pair.
pub fn material(board: &Board, color: Color, w: &Weights) -> S {
    let ours = board.by_color(color);
    let mut total = S::default();
    for role in Role::ALL {
        total += w.material[role as usize - 1] * (board.by_role(role) & ours).count() as i32;
    }
    if (board.bishops() & ours).count() >= 2 {
        total += w.bishop_pair;
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

/// A square as the piece-square table indexes it: rank from `color`'s side, files mirrored
/// onto a..d (so the table is left-right symmetric).
pub fn square_index(color: Color, sq: Square) -> usize {
    let file = sq.file() as usize;
    relative_rank(color, sq) * 4 + file.min(7 - file)
}

/// Piece-square terms: simple chess shapes (centrality, advance, the seventh rank) plus a
/// tuned table.
pub fn placement(board: &Board, color: Color, w: &Weights) -> S {
    let mut total = S::default();
    for sq in board.by_color(color) {
        let Some(role) = board.role_at(sq) else {
            continue;
        };
        total += w.centrality[role as usize - 1] * centre_distance(sq);
        total += w.psqt[role as usize - 1][square_index(color, sq)];
        let rank = relative_rank(color, sq);
        match role {
            Role::Pawn => {
                total += w.pawn_advance[rank];
                let file = sq.file() as usize;
                if (3..=4).contains(&file) && (2..=4).contains(&rank) {
                    total += w.pawn_centre;
                }
            }
            Role::Rook if rank == 6 => total += w.rook_seventh,
            Role::King => total += king_placement(sq, rank, w),
            _ => {}
        }
    }
    total + rooks_on_files(board, color, w) + outposts(board, color, w)
}

/// Knights and bishops on the opponent's half (ranks 4 to 6), defended by a pawn, where no
/// enemy pawn can ever attack them.
fn outposts(board: &Board, color: Color, w: &Weights) -> S {
    let own_pawns = board.pawns() & board.by_color(color);
    let their_pawns = board.pawns() & board.by_color(!color);
    let mut total = S::default();
    for role in [Role::Knight, Role::Bishop] {
        for sq in board.by_role(role) & board.by_color(color) {
            let rank = relative_rank(color, sq);
            let defended = (attacks::pawn_attacks(!color, sq) & own_pawns).any();
            if (3..=5).contains(&rank)
                && defended
                && (attack_span(color, sq) & their_pawns).is_empty()
            {
                total += w.outpost[role as usize - 1];
            }
        }
    }
    total
}

fn king_placement(sq: Square, rank: usize, w: &Weights) -> S {
    let mut total = S::default();
    if rank <= 1 {
        total += w.king_home;
    } else {
        total += w.king_advanced * rank as i32;
    }
    if (2..=5).contains(&(sq.file() as usize)) {
        total += w.king_centre_files;
    }
    total
}

/// Rooks on open files (no pawns) and half-open files (no own pawns).
fn rooks_on_files(board: &Board, color: Color, w: &Weights) -> S {
    let mut total = S::default();
    let own_pawns = board.pawns() & board.by_color(color);
    for sq in board.rooks() & board.by_color(color) {
        let file = Bitboard::from_file(sq.file());
        if (file & board.pawns()).is_empty() {
            total += w.rook_open_file;
        } else if (file & own_pawns).is_empty() {
            total += w.rook_semi_open_file;
        }
    }
    total
}

/// Reachable squares of knights, bishops, rooks and queens, not counting squares held by own
/// pieces or attacked by enemy pawns.
pub fn mobility(board: &Board, color: Color, w: &Weights) -> S {
    let occupied = board.occupied();
    let their_pawns = board.pawns() & board.by_color(!color);
    let usable = !board.by_color(color) & !pawn_attacks(their_pawns, !color);
    let mut total = S::default();
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        let i = role as usize - 1;
        for sq in board.by_role(role) & board.by_color(color) {
            let reach = attacks::attacks(sq, role.of(color), occupied) & usable;
            total += w.mobility[i] * (reach.count() as i32 - MOBILITY_BASE[i]);
        }
    }
    total
}
