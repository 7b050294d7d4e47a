//! Threefold: a UCI chess engine that honours the repetition and move-count draw rules exactly.
//!
//! - [`game`]: the game record, position keys under FIDE identity, draw rules;
//! - [`eval`]: the static evaluation;
//! - [`search`]: iterative deepening alpha-beta, transposition table, time management;
//! - [`uci`]: the protocol front end;
//! - [`arbiter`]: judges PGN game records by the draw rules (`threefold arbiter`);
//! - [`analyse`]: annotates games with the engine along their real history (`threefold analyse`);
//! - [`perft`] and [`bench`]: move generator checks and the fixed-node benchmark;
//! - [`tune`]: Texel tuning of the evaluation weights (`threefold tune`);
//! - [`datagen`]: self-play training data for an NNUE evaluation (`threefold datagen`).

pub mod analyse;
pub mod arbiter;
pub mod bench;
pub mod datagen;
pub mod eval;
pub mod game;
pub mod perft;
pub mod search;
pub mod tune;
pub mod uci;
