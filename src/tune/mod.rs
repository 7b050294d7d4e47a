//! Texel tuning of the evaluation weights, in two steps (`threefold tune ...`):
//!
//! - `generate.rs`: self-play games at a small node budget from book openings, writing quiet
//!   positions with the game's result (`FEN;1.0`, `FEN;0.5` or `FEN;0.0`, White's view);
//! - `fit.rs`: finds the weights that minimise the squared error between the game results and
//!   a sigmoid of the evaluation, one integer at a time (Texel's method), and writes them into
//!   `src/eval/weights.rs`.

pub mod command;
pub mod fit;
pub mod generate;
