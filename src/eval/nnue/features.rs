//! The network's inputs: which of the 768 features a piece on a square is for each
//! perspective, and which features a move switches on and off.
//!
//! For the perspective of colour `p`, a piece of colour `c` and role `r` on square `sq` is
//! feature `384 * (c != p) + 64 * r + s`, with `r` 0 pawn, 1 knight, 2 bishop, 3 rook, 4 queen,
//! 5 king and `s` the square (a1 = 0, h8 = 63) for White's perspective, flipped vertically
//! (`sq ^ 56`) for Black's. So both perspectives see "their own" pieces as moving up the board,
//! and a position and its colour-swapped mirror image give each side the same features.
//!
//! A network with mirrored inputs ([`InputLayout::Mirrored`]) also flips a perspective's squares
//! left to right (`sq ^ 7`, [`mirror`]) while that side's king stands on the e- to h-files, so
//! each side sees its own king on the a- to d-files: a position and its left-right mirror image
//! (without castling rights) score the same, and the weights learn one half of the board from
//! both. A king move between the d- and e-files changes every feature of its side's
//! perspective, which is then computed anew ([`Changes::king_crossing`]).
//!
//! ```
//! use shakmaty::{Board, Color, Square};
//! use threefold::eval::nnue::{InputLayout, index, mirror};
//!
//! let board = Board::default();
//! // White's king on e1 is on the e-h half: White's perspective is mirrored, e1 seen as d1.
//! assert!(InputLayout::Mirrored.mirrors(&board, Color::White));
//! assert!(!InputLayout::Plain.mirrors(&board, Color::White));
//! let king = Color::White.king();
//! assert_eq!(mirror(index(Color::White, king, Square::E1)), index(Color::White, king, Square::D1));
//! ```

use shakmaty::{Board, Chess, Color, File, Move, Piece, Position, Role, Square};

/// Features per perspective: 2 colours x 6 roles x 64 squares.
pub const INPUTS: usize = 768;
/// Features of one colour (the first half is the perspective's own pieces).
const HALF: usize = 384;

/// The feature of `piece` on `sq` seen from `perspective`.
pub fn index(perspective: Color, piece: Piece, sq: Square) -> usize {
    let theirs = usize::from(piece.color != perspective);
    let role = usize::from(piece.role as u8) - 1;
    let square = match perspective {
        Color::White => sq as usize,
        Color::Black => sq as usize ^ 56,
    };
    HALF * theirs + 64 * role + square
}

/// How a network's inputs see the board: as it stands, or mirrored left to right for a side
/// whose king is on the e- to h-files (`nnue/FORMAT.md`, version 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InputLayout {
    /// Every square as it stands (format versions 1 and 2).
    #[default]
    Plain,
    /// A perspective's squares flipped left to right while its king is on the e- to h-files.
    Mirrored,
}

impl InputLayout {
    /// The layout's number in a file (network format version 3, training checkpoints).
    pub fn code(self) -> u32 {
        match self {
            InputLayout::Plain => 0,
            InputLayout::Mirrored => 1,
        }
    }

    /// The layout a file's number names, if this build knows it.
    pub fn from_code(code: u32) -> Option<InputLayout> {
        match code {
            0 => Some(InputLayout::Plain),
            1 => Some(InputLayout::Mirrored),
            _ => None,
        }
    }

    /// Whether `perspective`'s features are mirrored on `board`.
    #[inline]
    pub fn mirrors(self, board: &Board, perspective: Color) -> bool {
        self == InputLayout::Mirrored && king_on_east_half(board, perspective)
    }
}

/// Whether `colour`'s king stands on the e- to h-files (false without a king).
#[inline]
fn king_on_east_half(board: &Board, colour: Color) -> bool {
    board.king_of(colour).is_some_and(on_east_half)
}

/// Whether `sq` is on the e- to h-files, where a mirrored perspective's king makes it flip.
#[inline]
fn on_east_half(sq: Square) -> bool {
    sq.file() >= File::E
}

/// The feature of the same piece on the square mirrored left to right (the file flipped, the
/// rank kept); its own inverse.
#[inline]
pub fn mirror(feature: usize) -> usize {
    feature ^ 7
}

/// The feature `feature` (of [`index`]) as a perspective sees it when `mirrored`.
#[inline]
pub fn oriented(feature: usize, mirrored: bool) -> usize {
    if mirrored { mirror(feature) } else { feature }
}

/// The same piece's feature from the other perspective.
pub fn other_perspective(feature: usize) -> usize {
    let flipped = feature ^ 56;
    if flipped < HALF {
        flipped + HALF
    } else {
        flipped - HALF
    }
}

/// The features that a move turns off and on: at most two each (a capture removes the mover
/// and the captured piece; castling moves king and rook).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Changes {
    removed: [(Piece, Square); 2],
    removed_count: usize,
    added: [(Piece, Square); 2],
    added_count: usize,
    /// The board after a king move between the d- and e-files (castling included), from
    /// which a mirrored network computes the mover's perspective anew. Boxed: such moves are
    /// few, and every other move's changes stay small to copy.
    king_crossing: Option<Box<Board>>,
}

impl Changes {
    fn none() -> Changes {
        let filler = (
            Piece {
                color: Color::White,
                role: Role::Pawn,
            },
            Square::A1,
        );
        Changes {
            removed: [filler; 2],
            removed_count: 0,
            added: [filler; 2],
            added_count: 0,
            king_crossing: None,
        }
    }

    fn remove(&mut self, piece: Piece, sq: Square) {
        self.removed[self.removed_count] = (piece, sq);
        self.removed_count += 1;
    }

    fn add(&mut self, piece: Piece, sq: Square) {
        self.added[self.added_count] = (piece, sq);
        self.added_count += 1;
    }

    /// What playing `m` (legal in `pos`) changes on the board.
    pub fn of_move(pos: &Chess, m: Move) -> Changes {
        let us = pos.turn();
        let mut changes = Changes::none();
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                changes.remove(Piece { color: us, role }, from);
                if let Some(captured) = capture {
                    changes.remove(
                        Piece {
                            color: !us,
                            role: captured,
                        },
                        to,
                    );
                }
                changes.add(
                    Piece {
                        color: us,
                        role: promotion.unwrap_or(role),
                    },
                    to,
                );
            }
            Move::EnPassant { from, to } => {
                changes.remove(us.pawn(), from);
                changes.remove((!us).pawn(), Square::from_coords(to.file(), from.rank()));
                changes.add(us.pawn(), to);
            }
            Move::Castle { king, rook } => {
                let side = shakmaty::CastlingSide::from_king_side(king < rook);
                changes.remove(us.king(), king);
                changes.remove(us.rook(), rook);
                changes.add(us.king(), side.king_to(us));
                changes.add(us.rook(), side.rook_to(us));
            }
            Move::Put { role, to } => changes.add(Piece { color: us, role }, to),
        }
        let king_square = |list: &[(Piece, Square)]| {
            list.iter()
                .find(|&&(piece, _)| piece == us.king())
                .map(|&(_, sq)| sq)
        };
        if let (Some(from), Some(to)) =
            (king_square(changes.removed()), king_square(changes.added()))
            && on_east_half(from) != on_east_half(to)
        {
            let mut board = pos.board().clone();
            for &(_, sq) in changes.removed() {
                board.discard_piece_at(sq);
            }
            for &(piece, sq) in changes.added() {
                board.set_piece_at(sq, piece);
            }
            changes.king_crossing = Some(Box::new(board));
        }
        changes
    }

    /// The board after the move when it takes the mover's king between the d- and e-files.
    pub fn king_crossing(&self) -> Option<&Board> {
        self.king_crossing.as_deref()
    }

    /// Pieces leaving squares.
    pub fn removed(&self) -> &[(Piece, Square)] {
        &self.removed[..self.removed_count]
    }

    /// Pieces arriving on squares.
    pub fn added(&self) -> &[(Piece, Square)] {
        &self.added[..self.added_count]
    }
}

/// Every piece of the position with its square.
pub fn pieces(pos: &Chess) -> impl Iterator<Item = (Piece, Square)> + '_ {
    pos.board().iter().map(|(sq, piece)| (piece, sq))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_cover_the_range_once_and_flip_between_perspectives() {
        let mut seen = vec![false; INPUTS];
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in Square::ALL {
                    let piece = Piece { color, role };
                    let white = index(Color::White, piece, sq);
                    let black = index(Color::Black, piece, sq);
                    assert!(!seen[white]);
                    seen[white] = true;
                    assert_eq!(other_perspective(white), black);
                    assert_eq!(other_perspective(black), white);
                    // The mirrored piece seen by the other side is the same feature.
                    let mirrored = Piece {
                        color: !color,
                        role,
                    };
                    assert_eq!(index(Color::Black, mirrored, sq.flip_vertical()), white);
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn a_white_pawn_on_e2_is_own_pawn_for_white_and_their_pawn_on_e7_for_black() {
        let pawn = Color::White.pawn();
        assert_eq!(index(Color::White, pawn, Square::E2), Square::E2 as usize);
        assert_eq!(
            index(Color::Black, pawn, Square::E2),
            HALF + Square::E7 as usize
        );
    }
}
