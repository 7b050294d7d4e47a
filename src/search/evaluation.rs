//! The static evaluation as the search asks for it, ply by ply: the hand-written evaluation,
//! or the network (NNUE) from accumulators kept one a ply along the current line.
//!
//! With a network, making a move only records what it changes on the board
//! ([`EvalStack::moved`]); the accumulators are brought up to date when a node is evaluated,
//! from the nearest ply whose accumulator is current. Nodes cut before their evaluation
//! (repetitions, hash cutoffs, tables) never pay for an update, and unmaking a move costs
//! nothing: the parent's accumulator is still in its slot. The network's score goes through
//! the material rule ([`crate::eval::scale_network_score`]) on its way out
//! ([`EvalStack::finish`]), after the search has added its correction to it; every evaluation
//! then shrinks as the fifty-move draw comes near ([`fifty_move_scale`]).
//!
//! ```
//! use threefold::eval::nnue::Network;
//! use threefold::search::evaluation::EvalStack;
//! use shakmaty::{Chess, Position};
//!
//! let net = Network::embedded();
//! let root = Chess::default();
//! let mut stack = EvalStack::new(Some(net), &root);
//! let m = root.legal_moves()[0];
//! stack.moved(0, &root, m);
//! let mut child = root.clone();
//! child.play_unchecked(m);
//! // The score kept up to date from the root equals the score computed from scratch.
//! let fresh = threefold::eval::nnue::evaluate_position(net, &child);
//! assert_eq!(stack.evaluate(&child, 1), threefold::eval::scale_network_score(&child, fresh));
//! ```

use shakmaty::{Chess, Move};

use super::params::FIFTY_MOVE_SCALE_FROM;
use super::score::MAX_PLY;
use crate::eval::evaluate as classical;
use crate::eval::nnue::{Accumulator, Changes, Network, evaluate};
use crate::eval::scale_network_score;
use crate::game::rules::FIFTY_MOVE_HALFMOVES;

/// The evaluation of a search thread: which one, and the network's accumulators.
pub struct EvalStack<'a> {
    network: Option<Accumulators<'a>>,
}

/// One accumulator a ply, and what the move into each ply changed.
struct Accumulators<'a> {
    net: &'a Network,
    /// `stack[ply]` is the accumulator of the position at `ply` once `current[ply]` is set.
    stack: Vec<Accumulator>,
    current: Vec<bool>,
    /// What the move into each ply changed; None for a null move (no piece moved).
    changes: Vec<Option<Changes>>,
}

impl<'a> EvalStack<'a> {
    /// The evaluation for a search from `root`: the network if there is one, else the
    /// hand-written evaluation.
    pub fn new(net: Option<&'a Network>, root: &Chess) -> EvalStack<'a> {
        let network = net.map(|net| {
            let mut stack = vec![Accumulator::new(net); MAX_PLY + 1];
            stack[0].refresh(net, root);
            let mut current = vec![false; MAX_PLY + 1];
            current[0] = true;
            Accumulators {
                net,
                stack,
                current,
                changes: vec![None; MAX_PLY + 1],
            }
        });
        EvalStack { network }
    }

    /// The hand-written evaluation, with no state.
    pub fn classical() -> EvalStack<'static> {
        EvalStack { network: None }
    }

    /// True when the network evaluates.
    pub fn uses_network(&self) -> bool {
        self.network.is_some()
    }

    /// Notes that `m` is played from `pos`, the position at `ply`; the position it makes is
    /// the one at `ply + 1`.
    pub fn moved(&mut self, ply: usize, pos: &Chess, m: Move) {
        if let Some(acc) = &mut self.network
            && ply < MAX_PLY
        {
            acc.changes[ply + 1] = Some(Changes::of_move(pos, m));
            acc.current[ply + 1] = false;
        }
    }

    /// Notes that the side to move at `ply` passes (a null move).
    pub fn passed(&mut self, ply: usize) {
        if let Some(acc) = &mut self.network
            && ply < MAX_PLY
        {
            acc.changes[ply + 1] = None;
            acc.current[ply + 1] = false;
        }
    }

    /// The static evaluation of `pos`, the position at `ply` of the current line, in
    /// centipawns for the side to move: [`EvalStack::raw`] through [`EvalStack::finish`].
    pub fn evaluate(&mut self, pos: &Chess, ply: usize) -> i32 {
        let raw = self.raw(pos, ply);
        self.finish(pos, raw)
    }

    /// The evaluation before the material rule: the network's own score, or the hand-written
    /// evaluation (which applies the rule on its endgame terms itself). The hash table keeps
    /// this one, and the search's correction history is added to it.
    pub fn raw(&mut self, pos: &Chess, ply: usize) -> i32 {
        match &mut self.network {
            None => classical(pos),
            Some(acc) => {
                let ply = ply.min(MAX_PLY);
                acc.bring_up_to(ply);
                evaluate(acc.net, &acc.stack[ply], pos)
            }
        }
    }

    /// A raw evaluation of `pos` (perhaps corrected) as the search reads it: a network's score
    /// goes through the material rule, the hand-written evaluation's stays as it is.
    pub fn finish(&self, pos: &Chess, raw: i32) -> i32 {
        if self.network.is_some() {
            scale_network_score(pos, raw)
        } else {
            raw
        }
    }
}

/// A static evaluation `score` of a position whose halfmove clock is `halfmoves`, as the coming
/// fifty-move draw leaves it: unchanged up to [`FIFTY_MOVE_SCALE_FROM`], then shrinking
/// linearly to 0 at halfmove 100. The search evaluates every node through it.
///
/// ```
/// use threefold::search::evaluation::fifty_move_scale;
///
/// assert_eq!(fifty_move_scale(800, 30), 800);
/// assert_eq!(fifty_move_scale(800, 80), 800);
/// assert_eq!(fifty_move_scale(800, 90), 400);
/// assert_eq!(fifty_move_scale(-800, 99), -40);
/// assert_eq!(fifty_move_scale(800, 100), 0);
/// ```
pub fn fifty_move_scale(score: i32, halfmoves: u32) -> i32 {
    if halfmoves <= FIFTY_MOVE_SCALE_FROM {
        return score;
    }
    let left = FIFTY_MOVE_HALFMOVES.saturating_sub(halfmoves) as i32;
    score * left / (FIFTY_MOVE_HALFMOVES - FIFTY_MOVE_SCALE_FROM) as i32
}

impl Accumulators<'_> {
    /// Makes `stack[ply]` current, updating from the nearest current ply below it.
    fn bring_up_to(&mut self, ply: usize) {
        let mut from = ply;
        while !self.current[from] {
            // Ply 0 is always current, so this stops.
            from -= 1;
        }
        for p in from + 1..=ply {
            let (done, rest) = self.stack.split_at_mut(p);
            let parent = &done[p - 1];
            match &self.changes[p] {
                Some(changes) => rest[0].update(parent, self.net, changes),
                None => rest[0].clone_from(parent),
            }
            self.current[p] = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::evaluate_position;
    use crate::game::parse_fen;
    use crate::rng::Rng;
    use shakmaty::Position;

    /// Walks a random tree depth first, as a search does: moves, null moves and returns to
    /// earlier plies, evaluating some nodes and not others. Every evaluation must equal the
    /// network's score computed from scratch.
    fn walk(stack: &mut EvalStack, pos: &Chess, ply: usize, rng: &mut Rng, checked: &mut u32) {
        if rng.below(3) != 0 {
            assert_eq!(
                stack.evaluate(pos, ply),
                scale_network_score(pos, evaluate_position(Network::embedded(), pos)),
                "at ply {ply}: {}",
                shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
            );
            *checked += 1;
        }
        if ply >= 6 {
            return;
        }
        let moves = pos.legal_moves();
        for _ in 0..(1 + rng.below(3)) {
            if !pos.is_check() && rng.below(6) == 0 {
                if let Ok(passed) = pos.clone().swap_turn() {
                    stack.passed(ply);
                    walk(stack, &passed, ply + 1, rng, checked);
                }
                continue;
            }
            if moves.is_empty() {
                return;
            }
            let m = moves[rng.below(moves.len() as u64) as usize];
            let mut child = pos.clone();
            child.play_unchecked(m);
            stack.moved(ply, pos, m);
            walk(stack, &child, ply + 1, rng, checked);
        }
    }

    #[test]
    fn lazy_accumulators_equal_refreshes_along_a_tree_walk() {
        let mut rng = Rng::new(17);
        let mut checked = 0;
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/pPpp1ppp/8/3Pp3/8/8/PPP2PpP/R3K2R w KQkq e6 0 1",
            "r3k2r/1P4P1/8/2pP4/8/8/1p4p1/R3K2R w KQkq c6 0 1",
        ] {
            let root = parse_fen(fen).expect("fen");
            for _ in 0..20 {
                let mut stack = EvalStack::new(Some(Network::embedded()), &root);
                walk(&mut stack, &root, 0, &mut rng, &mut checked);
            }
        }
        assert!(checked > 1000, "{checked} evaluations checked");
    }

    #[test]
    fn without_a_network_the_hand_written_evaluation_answers() {
        let pos = parse_fen("4k3/8/8/8/8/8/4P3/4K2R w K - 0 1").expect("fen");
        let mut stack = EvalStack::classical();
        assert!(!stack.uses_network());
        assert_eq!(stack.evaluate(&pos, 3), classical(&pos));
        assert!(EvalStack::new(Some(Network::embedded()), &pos).uses_network());
    }
}
