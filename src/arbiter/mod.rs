//! `threefold arbiter`: judges game records by the repetition and move-count rules.
//!
//! For each game: the positions that occurred three or more times, the first point at which each
//! side could claim a draw (threefold or fifty moves; now, or by announcing a move), the first
//! automatic end (checkmate, stalemate, fivefold, seventy-five moves, dead position), and whether
//! the recorded result agrees. Plies count from 1 for the first move; ply 0 is the start position.
//!
//! The judge works move by move with memory bounded by the moves since the last capture or pawn
//! move (earlier positions can never recur), so any number of games streams through it.

pub mod command;
pub mod judge;
pub mod pgn;
pub mod report;

pub use judge::{Claim, ClaimRule, End, Judge, Repetition, Verdict};
