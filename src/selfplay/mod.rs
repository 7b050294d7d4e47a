//! Self-play, the floor under every tool that plays the engine against itself: `threefold
//! datagen`, `threefold tune generate` and OpenBench's `genfens` request over UCI.
//!
//! - `openings.rs`: book and random-move openings, and `genfens`;
//! - `game.rs`: one self-play game under the engine's draw rules, with adjudication.

pub mod game;
pub mod openings;
