//! Which recorded positions the trainer learns from (and `datagen --stats` counts as quiet):
//! positions whose score the search's static evaluation can be asked to match.
//!
//! ```
//! use shakmaty::{Chess, Position};
//! use threefold::data::filter::is_quiet;
//! let pos = Chess::default();
//! let e4 = pos.legal_moves().into_iter().find(|m| m.to().to_string() == "e4").unwrap();
//! assert!(is_quiet(&pos, e4, 30));
//! assert!(!is_quiet(&pos, e4, 31_990)); // a mate score
//! ```

use shakmaty::{Chess, Move, Position};

use crate::search::score::is_mate;

/// The default training filter: the side to move is not in check, the move played is neither
/// a capture nor a promotion, and the score is not a mate.
pub fn is_quiet(pos: &Chess, m: Move, score: i16) -> bool {
    !pos.is_check() && !m.is_capture() && m.promotion().is_none() && !is_mate(i32::from(score))
}
