//! Fortresses: rook endings that the side ahead cannot win whatever its material, recognised
//! by where a few pieces stand. Both evaluations score them 0 ([`super::advantage_scale`]):
//! the network, trained on searched scores, reads them as a win of two to six pawns, and the
//! search then walks its king forever instead of seeing the draw.
//!
//! Two fortresses of a rook each, the defender without pawns, are known:
//!
//! - **The rook in front of its rook pawn.** The side ahead has a rook pawn on its seventh
//!   rank and its rook on the queening square; the defending king stands in the far corner
//!   (g7, h7, g8 or h8 against an a-pawn), and the defending rook behind the pawn. The
//!   attacking rook cannot leave the corner without losing the pawn, the attacking king
//!   cannot hide from checks, and the skewer (Rh8, then Rh7+) finds the defending king on the
//!   far corner's squares. Pawns of the side ahead on the defending king's two files, below
//!   it and not yet on the seventh rank, do not change that (rook pawn and knight or rook
//!   pawn: the king shelters in front of them).
//! - **The king in front of the pawn.** Rook and pawn against rook with the defending king in
//!   front of the pawn, on its file or the next: the pawn not beyond its sixth rank and the
//!   attacking king not on the seventh or eighth rank beside it. Philidor's defence holds.
//!
//! A fortress is a static verdict: the search still sees the tactics that break one (a
//! skewer, a promotion, a rook left hanging) as far as it looks.

use shakmaty::{Bitboard, Board, Chess, Color, File, Position, Square, attacks};

use super::relative_rank;

/// True when `strong`, the side ahead, is held in one of the module's fortresses.
///
/// ```
/// use threefold::eval::fortress::holds;
/// use threefold::game::parse_fen;
/// use shakmaty::Color;
///
/// let held = |fen: &str| holds(&parse_fen(fen).unwrap(), Color::White);
/// // The rook in front of its a-pawn, Black's king on g7, a g-pawn below it.
/// assert!(held("R7/P5k1/1K6/6P1/8/8/8/r7 b - - 0 1"));
/// // Black's king on f7 allows Rh8, and Rh7+ wins the rook behind the pawn.
/// assert!(!held("R7/P4k2/1K6/6P1/8/8/8/r7 w - - 0 1"));
/// // Black's king in front of the g-pawn.
/// assert!(held("8/6k1/8/6P1/2K5/8/8/r4R2 w - - 0 1"));
/// // Black's king cut off on the e-file, away from the pawn.
/// assert!(!held("8/4k3/8/6P1/2K5/8/8/r4R2 w - - 0 1"));
/// ```
pub fn holds(pos: &Chess, strong: Color) -> bool {
    let board = pos.board();
    let one_rook = |c: Color| (board.rooks() & board.by_color(c)).count() == 1;
    if (board.knights() | board.bishops() | board.queens()).any()
        || !one_rook(strong)
        || !one_rook(!strong)
        || (board.pawns() & board.by_color(!strong)).any()
    {
        return false;
    }
    rook_in_front_of_its_rook_pawn(pos, strong) || king_in_front_of_the_pawn(board, strong)
}

/// The first fortress; the material (a rook each, no defending pawn) is already checked.
fn rook_in_front_of_its_rook_pawn(pos: &Chess, strong: Color) -> bool {
    let board = pos.board();
    let ours = board.by_color(strong);
    let theirs = board.by_color(!strong);
    let (Some(rook), Some(their_rook), Some(their_king)) = (
        (board.rooks() & ours).first(),
        (board.rooks() & theirs).first(),
        board.king_of(!strong),
    ) else {
        return false;
    };
    let pawn_file = rook.file();
    if !(pawn_file == File::A || pawn_file == File::H) || relative_rank(strong, rook) != 7 {
        return false;
    }
    let on_file = board.pawns() & ours & Bitboard::from(pawn_file);
    match on_file.single_square() {
        Some(pawn) if relative_rank(strong, pawn) == 6 => {}
        _ => return false,
    }
    // Files counted from the pawn's edge of the board: the far corner's files are 6 and 7.
    let from_edge = |sq: Square| sq.file().distance(pawn_file);
    let king_rank = relative_rank(strong, their_king);
    if from_edge(their_king) < 6 || king_rank < 6 {
        return false;
    }
    let others = board.pawns() & ours & !on_file;
    if others
        .into_iter()
        .any(|p| from_edge(p) < 6 || relative_rank(strong, p) >= king_rank.min(6))
    {
        return false;
    }
    rook_guards_the_file(pos, strong, their_rook, pawn_file)
}

/// The defending rook stands on the pawn's file below the pawn, gives check, or, with the
/// defender to move, reaches the pawn's file below the pawn along its rank. Otherwise the
/// attacking rook leaves the queening square with the promotion threatened and wins.
fn rook_guards_the_file(pos: &Chess, strong: Color, their_rook: Square, pawn_file: File) -> bool {
    let board = pos.board();
    if their_rook.file() == pawn_file {
        return relative_rank(strong, their_rook) < 6;
    }
    let reach = attacks::rook_attacks(their_rook, board.occupied());
    if board
        .king_of(strong)
        .is_some_and(|king| reach.contains(king))
    {
        return true;
    }
    let landing = Square::from_coords(pawn_file, their_rook.rank());
    pos.turn() != strong
        && relative_rank(strong, landing) < 6
        && reach.contains(landing)
        && !board.occupied().contains(landing)
}

/// The second fortress; the material (a rook each, no defending pawn) is already checked.
fn king_in_front_of_the_pawn(board: &Board, strong: Color) -> bool {
    let (Some(pawn), Some(king), Some(their_king)) = (
        (board.pawns() & board.by_color(strong)).single_square(),
        board.king_of(strong),
        board.king_of(!strong),
    ) else {
        return false;
    };
    let files_apart = |sq: Square| sq.file().distance(pawn.file());
    let pawn_rank = relative_rank(strong, pawn);
    pawn_rank <= 5
        && files_apart(their_king) <= 1
        && relative_rank(strong, their_king) > pawn_rank
        && (relative_rank(strong, king) <= 5 || files_apart(king) > 2)
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, EnPassantMode};

    use super::*;
    use crate::game::parse_fen;

    /// The verdict for White as the side ahead, checked again on the board turned over
    /// (colours swapped) and on the board mirrored left to right: a rule of the board's
    /// geometry must not depend on either.
    fn held(fen: &str) -> bool {
        let pos = parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e:?}"));
        let setup = pos.to_setup(EnPassantMode::Legal);
        let swapped = setup
            .clone()
            .into_mirrored()
            .position::<Chess>(CastlingMode::Standard)
            .expect("legal");
        let mut flipped = setup;
        flipped.board.flip_horizontal();
        let flipped = flipped
            .position::<Chess>(CastlingMode::Standard)
            .expect("legal");
        let verdict = holds(&pos, Color::White);
        assert_eq!(
            holds(&swapped, Color::Black),
            verdict,
            "{fen} colours swapped"
        );
        assert_eq!(holds(&flipped, Color::White), verdict, "{fen} mirrored");
        assert!(
            !holds(&pos, Color::Black),
            "{fen}: Black is not the side ahead"
        );
        verdict
    }

    #[test]
    fn the_rook_in_front_of_its_rook_pawn_is_a_fortress_with_the_king_in_the_far_corner() {
        for fen in [
            "R7/P6k/8/8/2K5/8/8/r7 w - - 0 1",
            "R7/P5k1/8/8/8/8/1K6/r7 b - - 0 1",
            "R7/P6k/8/8/8/1K6/r7/8 w - - 0 1",
            "R7/P5k1/1K4P1/8/8/8/r7/8 b - - 0 1",
            "R7/P6k/7P/8/3K4/8/8/r7 w - - 0 1",
        ] {
            assert!(held(fen), "{fen}");
        }
    }

    #[test]
    fn the_defending_rook_must_guard_the_pawn_from_behind() {
        // Checking, or (its side to move) one move from the file: held.
        assert!(held("R7/P5k1/1K6/8/8/8/8/1r6 w - - 0 1"));
        assert!(held("R7/P5k1/8/1K6/8/8/2r5/8 b - - 0 1"));
        // Off the file with White to move: Rb8 and a8=Q.
        assert!(!held("R7/P5k1/8/1K6/8/8/2r5/8 w - - 0 1"));
        // The way back along the rank blocked by White's g-pawn.
        assert!(!held("R7/P5k1/8/6Pr/2K5/8/8/8 b - - 0 1"));
    }

    #[test]
    fn the_rook_pawn_fortress_needs_every_piece_in_place() {
        for (fen, expected) in [
            ("R7/P5k1/6P1/8/2K5/8/8/r7 b - - 0 1", true), // a g-pawn below the king
            ("R7/P6k/6P1/8/2K5/8/8/r7 b - - 0 1", true),
            ("R7/P4k2/8/8/2K5/8/8/r7 w - - 0 1", false), // king on f7: Rh8 and Rh7+
            ("R7/P7/7k/8/2K5/8/8/r7 w - - 0 1", false),  // king on h6, below the pawn
            ("R7/8/P5k1/8/2K5/8/8/r7 w - - 0 1", false), // the pawn on the sixth
            ("1R6/P5k1/8/8/2K5/8/8/r7 w - - 0 1", false), // the rook beside the pawn
            ("R7/P5k1/8/5P2/2K5/8/8/r7 w - - 0 1", false), // an f-pawn: a second front
            ("R5k1/P5P1/8/8/2K5/8/8/r7 b - - 0 1", false), // a g-pawn on the seventh
            ("R7/P5k1/8/8/2K5/8/8/r5n1 w - - 0 1", false), // a knight more for the defender
            ("R7/P5k1/8/8/2K5/7p/8/r7 w - - 0 1", false), // a defending pawn
            ("R7/P5k1/8/8/2K5/8/P7/r7 w - - 0 1", false), // a second a-pawn
        ] {
            assert_eq!(held(fen), expected, "{fen}");
        }
    }

    #[test]
    fn the_king_in_front_of_the_pawn_holds_until_the_pawn_or_the_king_is_too_far_up() {
        for (fen, expected) in [
            ("4k3/8/8/4P3/8/3K4/8/r6R w - - 0 1", true),
            ("8/3k4/8/8/4P3/4K3/8/1r5R b - - 0 1", true),
            ("6k1/8/6P1/5K2/8/8/8/r6R w - - 0 1", true),
            ("k7/8/8/8/P7/8/8/1KR4r w - - 0 1", true),
            ("2K3k1/8/8/6P1/8/8/8/r6R w - - 0 1", true), // king far from the pawn
            ("4k3/8/4P3/8/3K4/8/8/r6R w - - 0 1", true), // the sixth: still Philidor
            ("8/4k3/8/8/8/8/4P3/r3K2R w - - 0 1", true),
            ("8/2k5/8/8/4P3/4K3/8/1r5R b - - 0 1", false), // two files away
            ("8/8/8/4Pk2/8/4K3/8/1r5R b - - 0 1", false),  // beside the pawn
            ("8/4P3/4k3/8/3K4/8/8/r6R w - - 0 1", false),  // the pawn on the seventh
            ("3k4/5K2/4P3/8/8/8/8/r6R w - - 0 1", false),  // the king on the seventh
            ("4k3/8/8/4P3/8/3K4/P7/r6R w - - 0 1", false), // two pawns
        ] {
            assert_eq!(held(fen), expected, "{fen}");
        }
    }
}
