//! Threefold: a UCI chess engine that honours the repetition and move-count draw rules exactly.
//!
//! - [`game`]: the game record, position keys under FIDE identity, draw rules;
//! - [`eval`]: the static evaluation;
//! - [`search`]: iterative deepening alpha-beta, transposition table, time management;
//! - [`uci`]: the protocol front end (options, output, score display, debug commands);
//! - [`arbiter`]: judges PGN game records by the draw rules (`threefold arbiter`);
//! - [`analyse`]: annotates games with the engine along their real history (`threefold analyse`);
//! - [`perft`] and [`bench`](mod@bench): move generator checks and the fixed-depth benchmark;
//! - [`rng`]: the one random-number generator (seedable, so seeded runs repeat);
//! - [`tune`]: Texel tuning of the evaluation weights (`threefold tune`);
//! - [`datagen`]: self-play training data for an NNUE evaluation (`threefold datagen`);
//! - [`train`]: the NNUE trainer (`threefold train`).

pub mod analyse;
pub mod arbiter;
pub mod bench;
pub mod datagen;
pub mod eval;
pub mod game;
pub mod perft;
pub mod rng;
pub mod search;
pub mod train;
pub mod tune;
pub mod uci;
