//! Pawn structure: passed, doubled, isolated, backward, supported and phalanx pawns (the pawns
//! alone decide these, so `pawn_table.rs` caches them), and the passed pawns' race with the
//! pieces: a free path and the kings' distances to the square in front.

use shakmaty::{Bitboard, Board, Color, File, Square, attacks};

use super::relative_rank;
use super::score::S;
use super::weights::Weights;

/// What the pawns alone say about the position.
#[derive(Debug, Clone, Copy, Default)]
pub struct PawnInfo {
    /// Structure score, White's minus Black's.
    pub structure: S,
    /// Passed pawns of both colours.
    pub passers: Bitboard,
}

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

/// One square toward `color`'s promotion rank.
fn forward(color: Color) -> i32 {
    if color == Color::White { 8 } else { -8 }
}

/// Squares strictly in front of `sq` from `color`'s point of view, on the same file.
fn front_span(color: Color, sq: Square) -> Bitboard {
    let mut span = Bitboard::EMPTY;
    let mut next = sq;
    while let Some(s) = next.offset(forward(color)) {
        span.add(s);
        next = s;
    }
    span
}

/// Squares on the adjacent files strictly in front of `sq` (where enemy pawns could attack
/// what stands on `sq` or its path).
pub(crate) fn attack_span(color: Color, sq: Square) -> Bitboard {
    let mut span = Bitboard::EMPTY;
    for s in front_span(color, sq) {
        span |= adjacent_files(s.file()) & Bitboard::from_rank(s.rank());
    }
    span
}

/// The squares an enemy pawn must stand on to stop or capture a pawn on `sq`.
fn passed_mask(color: Color, sq: Square) -> Bitboard {
    front_span(color, sq) | attack_span(color, sq)
}

/// Pawn structure of both sides, from the pawns alone.
pub fn pawn_info(board: &Board, w: &Weights) -> PawnInfo {
    let (white, white_passers) = structure(board, Color::White, w);
    let (black, black_passers) = structure(board, Color::Black, w);
    PawnInfo {
        structure: white - black,
        passers: white_passers | black_passers,
    }
}

/// Pawn structure of `color`, and its passed pawns.
fn structure(board: &Board, color: Color, w: &Weights) -> (S, Bitboard) {
    let ours = board.pawns() & board.by_color(color);
    let theirs = board.pawns() & board.by_color(!color);
    let their_attacks = pawn_attacks(theirs, !color);
    let mut total = S::default();
    let mut passers = Bitboard::EMPTY;
    for sq in ours {
        let rank = relative_rank(color, sq);
        let neighbours = adjacent_files(sq.file()) & ours;
        let supported = attacks::pawn_attacks(!color, sq) & ours;
        let phalanx = neighbours & Bitboard::from_rank(sq.rank());
        if neighbours.is_empty() {
            total += w.isolated;
        } else if is_backward(color, sq, neighbours, their_attacks) {
            total += w.backward;
        }
        if (front_span(color, sq) & ours).any() {
            total += w.doubled;
        }
        total += w.supported[rank] * supported.count() as i32;
        if phalanx.any() {
            total += w.phalanx[rank];
        }
        if (passed_mask(color, sq) & theirs).is_empty() && (front_span(color, sq) & ours).is_empty()
        {
            total += w.passed[rank];
            passers.add(sq);
        }
    }
    (total, passers)
}

/// A pawn whose neighbours have all advanced past it and whose next square an enemy pawn
/// guards: it can neither be defended by a pawn nor advance safely.
fn is_backward(color: Color, sq: Square, neighbours: Bitboard, their_attacks: Bitboard) -> bool {
    let behind_or_level = neighbours & !attack_span(color, sq);
    let Some(stop) = sq.offset(forward(color)) else {
        return false;
    };
    behind_or_level.is_empty() && their_attacks.contains(stop)
}

/// Squares attacked by the pawns in `pawns`, which belong to `color`: the set moved one rank
/// forward and one file aside, both ways, without wrapping around the board's edge.
pub fn pawn_attacks(pawns: Bitboard, color: Color) -> Bitboard {
    const NOT_A_FILE: u64 = !0x0101_0101_0101_0101;
    const NOT_H_FILE: u64 = !0x8080_8080_8080_8080;
    let p = pawns.0;
    Bitboard(match color {
        Color::White => ((p & NOT_A_FILE) << 7) | ((p & NOT_H_FILE) << 9),
        Color::Black => ((p & NOT_A_FILE) >> 9) | ((p & NOT_H_FILE) >> 7),
    })
}

/// The passed pawns' terms that depend on the pieces, for `color`: a path free of pieces, and
/// in the endgame the enemy king far from and our king near the square in front of each.
pub fn passers(board: &Board, color: Color, passers: Bitboard, w: &Weights) -> S {
    let mut total = S::default();
    let ours = passers & board.by_color(color);
    for sq in ours {
        let rank = relative_rank(color, sq) as i32;
        if (front_span(color, sq) & board.occupied()).is_empty() {
            total += w.passed_free_path * rank * 2 / 3;
        }
        let (Some(stop), Some(own_king), Some(their_king)) = (
            sq.offset(forward(color)),
            board.king_of(color),
            board.king_of(!color),
        ) else {
            continue;
        };
        // Only pawns past their third rank race the kings.
        let weight = (rank - 2).max(0);
        total += w.passer_their_king_distance * (their_king.distance(stop) as i32 * weight);
        total += w.passer_own_king_distance * (own_king.distance(stop) as i32 * weight);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::weights::WEIGHTS;

    fn pawn_info_default(board: &Board) -> PawnInfo {
        pawn_info(board, &WEIGHTS)
    }

    #[test]
    fn pawn_attacks_of_a_set_are_the_attack_tables_of_its_squares() {
        for color in Color::ALL {
            let mut all = Bitboard::EMPTY;
            let mut expected = Bitboard::EMPTY;
            for sq in Square::ALL {
                let table = attacks::pawn_attacks(color, sq);
                assert_eq!(
                    pawn_attacks(Bitboard::from_square(sq), color),
                    table,
                    "{sq}"
                );
                // Every third square: a set with pawns on both edge files and every rank.
                if (sq as usize).is_multiple_of(3) {
                    all |= Bitboard::from_square(sq);
                    expected |= table;
                }
            }
            assert_eq!(pawn_attacks(all, color), expected, "{color:?}");
        }
    }

    #[test]
    fn a_pawn_behind_its_neighbours_with_a_guarded_stop_square_is_backward() {
        // White d3 with its neighbour already on e4; Black's c5 pawn guards d4.
        let guards = pawn_attacks(Bitboard::from_square(Square::C5), Color::Black);
        let ahead = Bitboard::from_square(Square::E4);
        let level = Bitboard::from_square(Square::E3);
        assert!(is_backward(Color::White, Square::D3, ahead, guards));
        assert!(!is_backward(Color::White, Square::D3, level, guards));
        assert!(!is_backward(
            Color::White,
            Square::D3,
            ahead,
            Bitboard::EMPTY
        ));
        // The same from Black's side: d6 with e5 ahead, White's c4 guarding d5.
        let white_guards = pawn_attacks(Bitboard::from_square(Square::C4), Color::White);
        let black_ahead = Bitboard::from_square(Square::E5);
        assert!(is_backward(
            Color::Black,
            Square::D6,
            black_ahead,
            white_guards
        ));
    }

    #[test]
    fn supported_and_phalanx_pawns_score_by_rank() {
        let board = |fen: &str| -> Board { fen.parse().expect("board") };
        let chain = pawn_info_default(&board("4k3/3p4/8/8/4P3/3P4/8/4K3"));
        let apart = pawn_info_default(&board("4k3/3p4/8/8/4P3/8/3P4/4K3"));
        assert!(chain.structure.mg > apart.structure.mg);
        let passers = pawn_info_default(&board("4k3/p7/8/8/4P3/8/8/4K3")).passers;
        assert!(passers.contains(Square::E4) && passers.contains(Square::A7));
    }
}
