//! The forward pass from the accumulators to a score: SCReLU on both perspectives, the
//! output layer, and the scaling to centipawns (the formula is in `network.rs`).

use shakmaty::{Chess, Position};

use super::accumulator::Accumulator;
use super::network::Network;
use super::simd;

/// Network scores are clamped to this, far inside the search's mate and tablebase scores.
pub const MAX_EVAL: i32 = 10_000;

/// The score in centipawns for the side to move of `pos`, from the accumulators of `pos`
/// (the output bucket comes from its number of pieces).
pub fn evaluate(net: &Network, acc: &Accumulator, pos: &Chess) -> i32 {
    let turn = pos.turn();
    let bucket = net.bucket(pos.board().occupied().count());
    let (ours, theirs) = net.output_weights(bucket);
    let qa = net.qa();
    let sum = simd::screlu_dot(acc.perspective(turn), ours, qa).wrapping_add(simd::screlu_dot(
        acc.perspective(!turn),
        theirs,
        qa,
    ));
    let qa = i64::from(qa);
    let output = i64::from(sum) / qa + i64::from(net.output_bias(bucket));
    let centipawns = output * i64::from(net.scale()) / (qa * i64::from(net.qb()));
    centipawns.clamp(-i64::from(MAX_EVAL), i64::from(MAX_EVAL)) as i32
}

/// The score of a position from scratch (refreshing an accumulator first): for tests, tools
/// and positions where no accumulator is at hand.
pub fn evaluate_position(net: &Network, pos: &Chess) -> i32 {
    evaluate(net, &Accumulator::of(net, pos), pos)
}
