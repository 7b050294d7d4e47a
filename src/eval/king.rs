//! King safety: enemy attacks on the squares around the king, the pawn shield, and files
//! beside the king with no pawn of its own.

use shakmaty::{Bitboard, Board, Color, Role, attacks};

use super::relative_rank;
use super::score::{S, s};
use super::weights::{KING_ATTACK_CAP, Weights};

/// Safety of `color`'s king (negative when it is under attack).
pub fn safety(board: &Board, color: Color, w: &Weights) -> S {
    let Some(king) = board.king_of(color) else {
        return S::default();
    };
    let zone = attacks::king_attacks(king) | Bitboard::from_square(king);
    let occupied = board.occupied();
    let mut units = 0;
    let mut attackers = 0;
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for sq in board.by_role(role) & board.by_color(!color) {
            let hits = attacks::attacks(sq, role.of(!color), occupied) & zone;
            if hits.any() {
                attackers += 1;
                units += w.king_attack_units[role as usize - 1] * hits.count() as i32;
            }
        }
    }
    let mut total = S::default();
    if attackers >= 2 {
        let penalty = (units * units * w.king_attack_scale / 16).min(KING_ATTACK_CAP);
        total -= s(penalty, penalty / 8);
    }
    if relative_rank(color, king) == 0 {
        total += w.pawn_shield * shield_pawns(board, color, king) as i32;
    }
    total + w.king_semi_open_file * semi_open_files_near(board, color, king)
}

/// Files among the king's and its neighbours that hold none of its own pawns.
fn semi_open_files_near(board: &Board, color: Color, king: shakmaty::Square) -> i32 {
    let ours = board.pawns() & board.by_color(color);
    [-1, 0, 1]
        .into_iter()
        .filter_map(|d| king.file().offset(d))
        .filter(|&f| (Bitboard::from_file(f) & ours).is_empty())
        .count() as i32
}

/// Own pawns one or two ranks in front of the king, on its file and the files beside it.
fn shield_pawns(board: &Board, color: Color, king: shakmaty::Square) -> usize {
    let ours = board.pawns() & board.by_color(color);
    let step = if color == Color::White { 8 } else { -8 };
    let mut shield = Bitboard::EMPTY;
    for front in [king.offset(step), king.offset(2 * step)]
        .into_iter()
        .flatten()
    {
        shield |= attacks::king_attacks(front) & Bitboard::from_rank(front.rank());
        shield.add(front);
    }
    (shield & ours).count()
}
