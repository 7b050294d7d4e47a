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

/// A small, seedable random number generator (xorshift64*), enough to vary openings and node
/// budgets.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
}
