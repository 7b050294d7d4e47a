//! Threefold: a UCI chess engine that honours the repetition and move-count draw rules exactly.
//!
//! The modules, each using only those above it in this list:
//!
//! - [`game`]: the game record, position keys under FIDE identity, draw rules;
//! - [`rng`]: the one random-number generator (seedable, so seeded runs repeat);
//! - [`perft`]: move generator checks;
//! - [`record`]: game records (PGN) read once, leniently, for every tool that reads games, and
//!   moves written for readers;
//! - [`perpetual`]: perpetual check proved exactly, with a certificate (`threefold perpetual`);
//! - [`eval`]: the static evaluation (hand-written, and the NNUE network);
//! - [`search`]: iterative deepening alpha-beta, transposition table, time management;
//! - [`bench`](mod@bench): the fixed-depth benchmark;
//! - [`data`]: the training-data format and files, shared by `datagen` and `train`;
//! - [`selfplay`]: openings and self-play games, shared by `datagen`, `tune` and `genfens`;
//! - [`arbiter`]: judges PGN game records by the draw rules (`threefold arbiter`);
//! - [`datagen`]: self-play training data for an NNUE evaluation (`threefold datagen`), and
//!   the openings that OpenBench's `genfens` asks for;
//! - [`uci`]: the protocol front end (options, output, score display, debug commands);
//! - [`analyse`]: annotates games with the engine along their real history (`threefold analyse`);
//! - [`tune`]: Texel tuning of the evaluation weights (`threefold tune`);
//! - [`train`]: the NNUE trainer (`threefold train`).

pub mod analyse;
pub mod arbiter;
pub mod bench;
pub mod data;
pub mod datagen;
pub mod eval;
pub mod game;
pub mod perft;
pub mod perpetual;
pub mod record;
pub mod rng;
pub mod search;
pub mod selfplay;
pub mod train;
pub mod tune;
pub mod uci;
