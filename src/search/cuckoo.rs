//! Upcoming repetitions: can the side to move repeat an earlier position with one reversible move?
//!
//! The key difference between two positions one quiet piece move apart is
//! `piece(from) ^ piece(to) ^ turn`. All such differences (about 3,700 for the five piece kinds
//! of both colours) are stored in a cuckoo hash table, so the question "does one move lead from
//! here back to the position i plies ago?" is one or two table lookups. This finds perpetual
//! checks and forced repetitions a few plies earlier than plain repetition detection.

use std::sync::OnceLock;

use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{Bitboard, Color, Piece, Role, Square, attacks};

const SIZE: usize = 8192;

/// The table of reversible-move key differences and the squares of each move.
struct CuckooTable {
    keys: Vec<u64>,
    moves: Vec<(Square, Square)>,
}

fn first_slot(key: u64) -> usize {
    (key & (SIZE as u64 - 1)) as usize
}

fn second_slot(key: u64) -> usize {
    ((key >> 16) & (SIZE as u64 - 1)) as usize
}

fn piece_key(sq: Square, piece: Piece) -> u64 {
    Zobrist64::zobrist_for_piece(sq, piece).0
}

impl CuckooTable {
    fn build() -> CuckooTable {
        let mut table = CuckooTable {
            keys: vec![0; SIZE],
            moves: vec![(Square::A1, Square::A1); SIZE],
        };
        let turn = Zobrist64::zobrist_for_white_turn().0;
        for color in Color::ALL {
            for role in [
                Role::Knight,
                Role::Bishop,
                Role::Rook,
                Role::Queen,
                Role::King,
            ] {
                let piece = role.of(color);
                for a in Square::ALL {
                    for b in attacks::attacks(a, piece, Bitboard::EMPTY) {
                        if a < b {
                            table.insert(piece_key(a, piece) ^ piece_key(b, piece) ^ turn, (a, b));
                        }
                    }
                }
            }
        }
        table
    }

    /// Cuckoo insertion: a displaced entry moves to its other slot until a free one is found.
    fn insert(&mut self, mut key: u64, mut squares: (Square, Square)) {
        let mut slot = first_slot(key);
        loop {
            std::mem::swap(&mut self.keys[slot], &mut key);
            std::mem::swap(&mut self.moves[slot], &mut squares);
            if key == 0 {
                return;
            }
            slot = if slot == first_slot(key) {
                second_slot(key)
            } else {
                first_slot(key)
            };
        }
    }

    fn lookup(&self, diff: u64) -> Option<(Square, Square)> {
        [first_slot(diff), second_slot(diff)]
            .into_iter()
            .find(|&slot| self.keys[slot] == diff)
            .map(|slot| self.moves[slot])
    }
}

fn table() -> &'static CuckooTable {
    static TABLE: OnceLock<CuckooTable> = OnceLock::new();
    TABLE.get_or_init(CuckooTable::build)
}

/// Builds the table now (so the first search does not pay for it).
pub fn init() {
    table();
}

/// The two squares of the reversible piece move whose key difference is `diff`, if any.
pub fn reversible_move(diff: u64) -> Option<(Square, Square)> {
    table().lookup(diff)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_holds_every_reversible_move() {
        let stored = table().keys.iter().filter(|&&k| k != 0).count();
        // Unordered square pairs: knights 168, bishops 280, rooks 448, queens 728, kings 210.
        assert_eq!(stored, 2 * (168 + 280 + 448 + 728 + 210));
    }

    #[test]
    fn a_knight_move_is_found() {
        let knight = Role::Knight.of(Color::White);
        let turn = Zobrist64::zobrist_for_white_turn().0;
        let diff = piece_key(Square::G1, knight) ^ piece_key(Square::F3, knight) ^ turn;
        let found = reversible_move(diff);
        assert!(found == Some((Square::F3, Square::G1)) || found == Some((Square::G1, Square::F3)));
    }
}
