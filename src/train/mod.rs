//! The NNUE trainer, `threefold train ...`: a CPU trainer for the
//! `(768 -> N) x 2 -> 1` SCReLU perspective network of `eval::nnue`, with its output
//! buckets.
//!
//! - `data.rs`: positions from `threefold datagen` files ([`crate::data`]: the quiet filter; sparse features,
//!   validation split by game, shuffling);
//! - `net.rs`: the float network, its gradient, clipping and quantisation;
//! - `optim.rs`: AdamW and the learning-rate schedules (step, cosine);
//! - `epochs.rs`: the epoch loop with data-parallel gradient sums over threads;
//! - `metrics.rs`: measures of a net on held-out positions that compare across recipes;
//! - `checkpoint.rs`: float state between epochs, for `--resume`;
//! - `command.rs`: the command line.
//!
//! The loss of a position is `(sigmoid(output) - target)²` with
//! `target = w * result + (1 - w) * sigmoid(score / scale)`, both from the side to move, where
//! the result's weight `w` goes from `--wdl` with all pieces on the board to `--wdl-endgame`
//! with kings and pawns only (`data::ResultWeight`); the network's output times `scale` is its
//! score in centipawns.

pub mod checkpoint;
pub mod command;
pub mod data;
pub mod epochs;
pub mod metrics;
pub mod net;
pub mod optim;

/// Positions from random games (each move uniformly among the legal ones), for tests.
#[cfg(test)]
pub(crate) fn random_positions(games: usize, plies: usize, seed: u64) -> Vec<shakmaty::Chess> {
    use shakmaty::Position;
    let mut rng = crate::rng::Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = shakmaty::Chess::default();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len() as u64) as usize];
            pos.play_unchecked(m);
            out.push(pos.clone());
        }
    }
    out
}
