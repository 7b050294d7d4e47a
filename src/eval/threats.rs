//! Threats: enemy pieces attacked by lesser pieces (a pawn attacking a knight, a knight a
//! rook, a rook a queen), and enemy pieces attacked but not defended.

use shakmaty::{Bitboard, Board, Color, Role, attacks};

use super::pawns::pawn_attacks;
use super::score::S;
use super::weights::Weights;

/// The squares each side attacks, by piece kind and in all.
pub struct AttackMaps {
    by_role: [[Bitboard; 6]; 2],
    all: [Bitboard; 2],
}

impl AttackMaps {
    pub fn new(board: &Board) -> AttackMaps {
        let mut maps = AttackMaps {
            by_role: [[Bitboard::EMPTY; 6]; 2],
            all: [Bitboard::EMPTY; 2],
        };
        for color in Color::ALL {
            for role in Role::ALL {
                let squares = attacks_by(board, color, role);
                maps.by_role[color as usize][role as usize - 1] = squares;
                maps.all[color as usize] |= squares;
            }
        }
        maps
    }

    fn of(&self, color: Color, role: Role) -> Bitboard {
        self.by_role[color as usize][role as usize - 1]
    }
}

/// Squares `color`'s pieces of kind `role` attack.
fn attacks_by(board: &Board, color: Color, role: Role) -> Bitboard {
    let pieces = board.by_role(role) & board.by_color(color);
    if role == Role::Pawn {
        return pawn_attacks(pieces, color);
    }
    let occupied = board.occupied();
    pieces.into_iter().fold(Bitboard::EMPTY, |all, sq| {
        all | attacks::attacks(sq, role.of(color), occupied)
    })
}

/// The threats `color` makes.
pub fn threats(board: &Board, color: Color, maps: &AttackMaps, w: &Weights) -> S {
    let theirs = board.by_color(!color);
    let pieces = theirs & !board.pawns() & !board.kings();
    let majors = theirs & (board.rooks() | board.queens());
    let by_minors = maps.of(color, Role::Knight) | maps.of(color, Role::Bishop);
    let by_pawns = maps.of(color, Role::Pawn) & pieces;
    let queens_by_rooks = maps.of(color, Role::Rook) & theirs & board.queens();
    let hanging = pieces & maps.all[color as usize] & !maps.all[!color as usize];
    w.threat_by_pawn * by_pawns.count() as i32
        + w.threat_by_minor * (by_minors & majors).count() as i32
        + w.threat_by_rook * queens_by_rooks.count() as i32
        + w.hanging * hanging.count() as i32
}
