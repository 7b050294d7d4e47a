//! Win/draw/loss expectations from a score, for `UCI_ShowWDL` (`info ... wdl W D L`).
//!
//! A logistic model fitted on Threefold's own games by `bench/training/fit_wdl.py`: the chance
//! that the side to move wins is `1 / (1 + exp((a - cp) / b))`, that it loses
//! `1 / (1 + exp((a + cp) / b))`, the rest is a draw; `a` and `b` grow with the material on the
//! board (a pawn up means less with queens on than in a pawn ending).

use shakmaty::{Chess, Position, Role};

use crate::search::params::piece_value;
use crate::search::score::is_mate;

/// `a = A.0 + A.1 * material`, in centipawns. Fitted on the built-in network's own games
/// (net 3), 2026-11-25: `bench/training/fit_wdl.py --from-datagen DIR --every 5` on batch s11 and
/// the first 1,738 games of s12 (`nnue/DATA.md`: net 3 self-play at 5,000 nodes a move; 3,478
/// games), 90,877 positions. Mean -log likelihood 0.6646; on another fifth of those games'
/// positions (`--offset 2 --evaluate`) 0.6652 against 0.6687 for the previous constants
/// (402.11, -4.3666; 148.66, -0.6462), which were fitted on net 2's games (batch s10).
const A: (f64, f64) = (447.05, -5.0203);
/// `b = B.0 + B.1 * material`, in centipawns (same fit).
const B: (f64, f64) = (170.45, -1.1024);

/// The chances of a line the search proved to end in a draw by rule.
pub const PROVEN_DRAW: [u32; 3] = [0, 1000, 0];

/// Material on the board as the model counts it: pawn 1, minor 3, rook 5, queen 9, in 17..=78.
pub fn material(pos: &Chess) -> u32 {
    let board = pos.board();
    let total: u32 = Role::ALL
        .iter()
        .map(|&role| board.by_role(role).count() as u32 * piece_value(role).material)
        .sum();
    total.clamp(17, 78)
}

/// Per mille chances (win, draw, loss) for the side to move, summing to 1000.
pub fn expected(score: i32, material: u32) -> [u32; 3] {
    if is_mate(score) {
        return if score > 0 {
            [1000, 0, 0]
        } else {
            [0, 0, 1000]
        };
    }
    let m = f64::from(material.clamp(17, 78));
    let a = A.0 + A.1 * m;
    let b = (B.0 + B.1 * m).max(1.0);
    let cp = f64::from(score);
    let chance = |x: f64| 1.0 / (1.0 + ((a - x) / b).exp());
    let win = (chance(cp) * 1000.0).round() as u32;
    let loss = ((chance(-cp) * 1000.0).round() as u32).min(1000 - win);
    [win, 1000 - win - loss, loss]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::MATE_BOUND;

    #[test]
    fn chances_sum_to_1000_and_follow_the_score() {
        let mut last_win = 0;
        for cp in (-3000..=3000).step_by(50) {
            for material in [17, 40, 78] {
                let [w, d, l] = expected(cp, material);
                assert_eq!(w + d + l, 1000, "{cp} {material}");
            }
            let [w, _, _] = expected(cp, 40);
            assert!(w >= last_win, "win chance falls at {cp}");
            last_win = w;
        }
    }

    #[test]
    fn an_even_score_is_most_often_a_draw_and_mates_are_certain() {
        let [w, d, l] = expected(0, 40);
        assert!(d > w && w == l, "{w} {d} {l}");
        assert_eq!(expected(MATE_BOUND + 5, 40), [1000, 0, 0]);
        assert_eq!(expected(-MATE_BOUND - 5, 40), [0, 0, 1000]);
    }
}
