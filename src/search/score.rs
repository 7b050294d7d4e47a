//! Score conventions: centipawns, mate distances, and how mates are stored in the hash table.

/// Larger than any real score.
pub const INFINITE: i32 = 32_001;
/// The score of giving mate right now; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Deepest ply the search reaches; also bounds mate distances.
pub const MAX_PLY: usize = 128;
/// Scores beyond this are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// The value of a draw for the side to move, before contempt.
pub const DRAW: i32 = 0;

/// The value of a draw for the side to move `ply` plies from the root, when a draw costs the
/// side to move at the root `contempt` centipawns and gains the other side as much. Every draw
/// the search scores (repetition, fifty moves, stalemate, dead position, tablebase draw) is
/// worth this.
///
/// ```
/// use threefold::search::score::draw_value;
/// assert_eq!(draw_value(0, 3), 0);
/// assert_eq!(draw_value(25, 0), -25); // the root side pays the contempt
/// assert_eq!(draw_value(25, 1), 25); // its opponent gains it
/// ```
pub fn draw_value(contempt: i32, ply: usize) -> i32 {
    if ply.is_multiple_of(2) {
        DRAW - contempt
    } else {
        DRAW + contempt
    }
}

/// The score of the side to move when it is checkmated at `ply`.
///
/// ```
/// use threefold::search::score::{MATE, is_mate, mated_in};
/// assert_eq!(mated_in(0), -MATE);
/// assert!(mated_in(3) > mated_in(1)); // a later mate is less bad
/// assert!(is_mate(mated_in(3)) && !is_mate(900));
/// ```
pub fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// True for scores that announce a forced mate for either side.
pub fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// True when `score` is a mate for the side to move in at most `moves` moves (`go mate`).
///
/// ```
/// use threefold::search::score::{MATE, mates_within};
/// assert!(mates_within(MATE - 3, 2) && !mates_within(MATE - 3, 1));
/// assert!(!mates_within(-MATE + 2, 5));
/// ```
pub fn mates_within(score: i32, moves: u32) -> bool {
    is_mate(score) && score > 0 && (MATE - score + 1) / 2 <= moves as i32
}

/// Converts a score relative to the root into one relative to the node at `ply`, for storing.
/// Mate scores count plies from the node, so a stored mate stays right in other lines.
///
/// ```
/// use threefold::search::score::{MATE, from_table, mated_in, to_table};
/// // Mate in 5 plies from the root, found at a node 3 plies deep: mate in 2 from that node.
/// assert_eq!(to_table(MATE - 5, 3), MATE - 2);
/// // Read back at a node 7 plies deep, it is mate in 9 plies from the root.
/// assert_eq!(from_table(MATE - 2, 7), MATE - 9);
/// assert_eq!(to_table(mated_in(6), 4), mated_in(2)); // being mated, likewise
/// assert_eq!(to_table(-35, 4), -35); // other scores are stored as they are
/// ```
pub fn to_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The score of a move for the side that played it, from the score of the position after it
/// (the opponent's point of view): negated, and a mate one ply further away, as the position
/// after the move is one ply below the one it was played in.
///
/// ```
/// use threefold::search::score::{MATE, mated_in, score_of_move};
/// assert_eq!(score_of_move(mated_in(0)), MATE - 1); // the move mates
/// assert_eq!(score_of_move(mated_in(2)), MATE - 3); // mate in 2 moves
/// assert_eq!(score_of_move(MATE - 1), mated_in(2)); // the reply mates
/// assert_eq!(score_of_move(-35), 35);
/// ```
pub fn score_of_move(after: i32) -> i32 {
    from_table(-after, 1)
}

/// The inverse of [`to_table`]: a stored score, seen from the node at `ply`.
pub fn from_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// A score as UCI reports it: centipawns, or mate in moves (negative when being mated).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UciScore {
    Centipawns(i32),
    MateIn(i32),
}

/// Converts a search score into UCI's `cp` or `mate` form: mate in moves, not plies, counting
/// the move that mates.
///
/// ```
/// use threefold::search::score::{MATE, mated_in};
/// use threefold::search::score::{UciScore, uci_score};
/// assert_eq!(uci_score(MATE - 1), UciScore::MateIn(1)); // mate with this move
/// assert_eq!(uci_score(MATE - 3), UciScore::MateIn(2)); // this move, a reply, then mate
/// assert_eq!(uci_score(mated_in(2)), UciScore::MateIn(-1));
/// assert_eq!(uci_score(-35), UciScore::Centipawns(-35));
/// ```
pub fn uci_score(score: i32) -> UciScore {
    if score >= MATE_BOUND {
        UciScore::MateIn((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        UciScore::MateIn(-(MATE + score) / 2)
    } else {
        UciScore::Centipawns(score)
    }
}
