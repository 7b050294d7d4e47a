//! Cuts near the leaves of non-PV nodes not in check: of whole nodes (razoring, reverse
//! futility, the null move, and ProbCut well above the leaves: a capture that clears beta by a
//! margin in a shallower search), and of single moves at shallow depth (late-move, futility,
//! history and exchange (SEE) pruning), with the tests on the board they rest on (a bare king,
//! few legal moves).

use shakmaty::{Bitboard, Chess, Color, Move, Position};

use super::alphabeta::{NodeEval, NodeKind, Window};
use super::ordering::MovePicker;
use super::params::{self, REVERSE_FUTILITY_FEW_MOVES};
use super::quiescence::{is_tactical, tactical_order};
use super::score::{from_table, is_mate, to_table};
use super::see;
use super::tablebase::TB_WIN_BOUND;
use super::tt::Bound;
use super::worker::Worker;
use crate::game::{key_after, position_key};

impl Worker<'_> {
    /// Cuts of a whole non-PV node not in check near the leaves: razoring, reverse futility and
    /// the null move. Returns the score of the cut.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn prune_node(
        &mut self,
        pos: &Chess,
        key: u64,
        depth: i32,
        window: &Window,
        node: &NodeEval,
        ply: usize,
        kind: &NodeKind,
    ) -> Option<i32> {
        let (alpha, beta, eval) = (window.alpha, window.beta, node.eval);
        // Razoring: hopelessly below alpha near the leaves, see if a capture saves it. Not in
        // a mate hunt (a bare king and no pawns), where the lone king's evaluation cannot tell
        // a mating net from a safe square (see `has_bare_king`): with net 16, razoring the lone
        // king's nodes put two rooks' mate in two off by a ply.
        if depth <= params::razor_depth()
            && eval + params::razor_margin() * depth <= alpha
            && !is_mate_hunt(pos)
        {
            let score = self.quiescence(pos, key, alpha, alpha + 1, ply);
            if score <= alpha {
                return Some(score.max(window.draw_floor));
            }
        }
        // Reverse futility: far above beta at low depth, assume a quiet move holds it. The
        // margin must also cover material en prise, a threat the static evaluation cannot
        // see (a king walking out of a perpetual check often leaves its queen to a rook),
        // and the side must have moves to choose from: a king with one square left may be
        // walking into a mate (with net 3, two rooks' mate in two was found at depth 7,
        // not 3), and neither side may have a bare king, whose evaluation cannot tell a
        // mating net from a safe square (see `has_bare_king`).
        // The plain test comes first, so the rest is looked at only where it passes.
        let margin = params::reverse_futility_margin() * (depth - i32::from(node.improving));
        if depth <= params::reverse_futility_depth()
            && !is_mate(beta)
            && eval - margin >= beta
            && eval - margin - see::threatened_material(pos) >= beta
            && !has_bare_king(pos)
            && !has_few_moves(pos)
        {
            return Some(eval);
        }
        if let Some(score) = self.try_null_move(pos, depth, beta, eval, ply, kind.cut) {
            return Some(score);
        }
        self.probcut(pos, key, depth, beta, node, ply, kind.cut)
    }

    /// ProbCut: well above the leaves, a capture that wins enough material to clear beta by a
    /// margin, in the exchange and then in a search some plies shallower, would very likely
    /// hold beta at full depth too; the node is cut on it and the shallower result stored.
    /// Returns the score of the cut.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn probcut(
        &mut self,
        pos: &Chess,
        key: u64,
        depth: i32,
        beta: i32,
        node: &NodeEval,
        ply: usize,
        cut: bool,
    ) -> Option<i32> {
        let probcut_beta = beta + params::probcut_margin();
        if depth < params::probcut_depth() || beta.abs() >= TB_WIN_BOUND {
            return None;
        }
        // A search nearly as deep already found the node below that line.
        let reduced = depth - params::probcut_reduction();
        if let Some(e) = node.entry
            && e.depth >= reduced
            && !e.this_search
            && from_table(e.score, ply) < probcut_beta
        {
            return None;
        }
        let mut moves = pos.legal_moves();
        moves.retain(|m| is_tactical(*m));
        let mut picker = MovePicker::new(&mut moves, |m| tactical_order(m, node.hash_move));
        while let Some((m, _)) = picker.next_move() {
            if !see::wins_at_least(pos, m, probcut_beta - node.static_eval) {
                continue;
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            let child_key = key_after(pos, key, m, &child);
            self.shared.tt.prefetch(child_key);
            self.path.played[ply] = Some(m);
            self.eval.moved(ply, pos, m);
            self.path.keys.push(child_key);
            // Captures and promotions reset the fifty-move clock and cannot repeat a position,
            // so the child may go straight to quiescence.
            let mut score =
                -self.quiescence(&child, child_key, -probcut_beta, -probcut_beta + 1, ply + 1);
            if score >= probcut_beta {
                score = -self.search(
                    &child,
                    child_key,
                    reduced - 1,
                    -probcut_beta,
                    -probcut_beta + 1,
                    ply + 1,
                    !cut,
                );
            }
            self.path.keys.pop();
            if self.budget.stopped {
                return None;
            }
            if score >= probcut_beta {
                let scope = self.scope_of(score);
                self.shared.tt.store(
                    key,
                    Some(m),
                    to_table(score, ply),
                    node.raw_eval,
                    reduced,
                    Bound::Lower,
                    scope,
                );
                return Some(score);
            }
        }
        None
    }

    /// Null-move pruning: let the opponent move twice; if we still beat beta, cut.
    /// Not in pawn-only endings, where passing can be the only good move (zugzwang).
    pub(super) fn try_null_move(
        &mut self,
        pos: &Chess,
        depth: i32,
        beta: i32,
        static_eval: i32,
        ply: usize,
        cut: bool,
    ) -> Option<i32> {
        if depth < params::null_move_depth() || static_eval < beta || !has_pieces(pos) {
            return None;
        }
        let passed = pos.clone().swap_turn().ok()?;
        let key = position_key(&passed);
        let reduction = params::null_move_reduction()
            + depth / params::null_move_depth_per_ply()
            + ((static_eval - beta) / params::null_move_eval_per_ply())
                .min(params::null_move_eval_plies());
        self.path.played[ply] = None;
        self.eval.passed(ply);
        let floor = self.path.keys.push_null(key);
        let score = -self.search(
            &passed,
            key,
            depth - 1 - reduction,
            -beta,
            -beta + 1,
            ply + 1,
            !cut,
        );
        self.path.keys.pop_null(floor);
        if self.budget.stopped || score < beta {
            return None;
        }
        Some(if is_mate(score) { beta } else { score })
    }

    /// Moves not worth searching near the leaves of a non-PV node, once a move has been
    /// searched: late quiet moves (by count), quiet moves that cannot lift a hopeless static
    /// evaluation to alpha (futility), quiet moves with a bad history, and moves that lose too
    /// much material in the exchange.
    pub(super) fn prune_at_shallow_depth(
        &self,
        pos: &Chess,
        m: Move,
        quiet: bool,
        quiets_tried: usize,
        node: &Shallow,
    ) -> bool {
        if node.depth > params::shallow_depth() || node.in_check || node.gives_check {
            return false;
        }
        let depth = node.depth;
        if quiet {
            if late_quiets_exhausted(depth, node.improving, quiets_tried) {
                return true;
            }
            if node.eval + params::futility_margin() + params::futility_per_depth() * depth
                <= node.alpha
            {
                return true;
            }
            // History pruning: a quiet move that has failed here often (a killer or the
            // counter-move scores above any history).
            if depth <= params::history_prune_depth()
                && node.order_score < -params::history_prune_per_depth() * depth
            {
                return true;
            }
            !see::wins_at_least(
                pos,
                m,
                -params::see_quiet_per_depth_squared() * depth * depth,
            )
        } else {
            !see::wins_at_least(pos, m, -params::see_capture_per_depth() * depth)
        }
    }
}

/// What the shallow-depth pruning needs to know of the node and the move.
pub(super) struct Shallow {
    pub(super) depth: i32,
    /// The move's ordering score: its history, for a quiet move that is not a killer.
    pub(super) order_score: i32,
    pub(super) in_check: bool,
    pub(super) gives_check: bool,
    pub(super) improving: bool,
    /// The static evaluation, or the hash score where its bound says it is better.
    pub(super) eval: i32,
    pub(super) alpha: i32,
}

/// Late-move pruning: at `depth`, a node that has searched `quiets_tried` quiet moves skips
/// the rest of its quiet moves (those that do not give check) from
/// `(late_move_count + depth²) / 2` on, or twice that when `improving`.
pub(super) fn late_quiets_exhausted(depth: i32, improving: bool, quiets_tried: usize) -> bool {
    let enough = (params::late_move_count() + depth * depth) / (2 - i32::from(improving));
    quiets_tried as i32 >= enough
}

/// The side to move's pieces other than pawns and king.
pub(super) fn own_pieces(pos: &Chess) -> Bitboard {
    let board = pos.board();
    board.by_color(pos.turn()) & !board.pawns() & !board.kings()
}

/// True when the side to move has a piece other than pawns and king.
pub(super) fn has_pieces(pos: &Chess) -> bool {
    own_pieces(pos).any()
}

/// True when either side has nothing but its king: the game is then about a mate or a draw,
/// and the static evaluation measures how near the edge the lone king stands, not whether a
/// mate is there. With net 5, reverse futility pruning at such nodes put off the rook's mate in
/// three by a ply (found at depth 7, not 6) and Black's rook mate in three by three plies;
/// sparing only the lone king's own nodes moved the cutoffs to the mating side's and put the
/// first mate off further (depth 9 for mate in three). A board with a bare king is rare in real
/// games and cheap to search.
pub(super) fn has_bare_king(pos: &Chess) -> bool {
    let board = pos.board();
    Color::ALL
        .into_iter()
        .any(|side| (board.by_color(side) & !board.kings()).is_empty())
}

/// True when a side has a bare king and no pawn is left: the game is a mate or a draw and
/// nothing else. Late moves are not reduced at principal-variation nodes of such a board: with
/// net 6, Black's rook mate in three (a quiet king move first, ordered late) came at depth 7
/// and White's at 9, now at 5. Switching off futility pruning and reductions at every such node
/// instead cost 48% more `bench` nodes (the queen's mate, position 39, ten times its nodes).
/// With pawns, a bare king's game is about promotion and reductions work as everywhere:
/// reducing less there moved the proof of a rook-ending perpetual, -067, off 0.00.
pub(super) fn is_mate_hunt(pos: &Chess) -> bool {
    pos.board().pawns().is_empty() && has_bare_king(pos)
}

/// True when the side to move has `REVERSE_FUTILITY_FEW_MOVES` legal moves or fewer. A side
/// with two pieces besides its king and pawns is taken to have more without generating them:
/// that keeps the test off the busy nodes (it changes no node of `bench`, and costs it no
/// speed, where generating the moves everywhere cost 5%).
pub(super) fn has_few_moves(pos: &Chess) -> bool {
    own_pieces(pos).count() < 2 && pos.legal_moves().len() <= REVERSE_FUTILITY_FEW_MOVES
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::parse_fen;

    fn pos(fen: &str) -> Chess {
        parse_fen(fen).expect("test FEN")
    }

    #[test]
    fn late_quiet_moves_are_skipped_from_a_count_that_grows_with_depth() {
        let base = params::late_move_count();
        for depth in 1..=6 {
            let enough = ((base + depth * depth) / 2) as usize;
            assert!(!late_quiets_exhausted(depth, false, enough - 1), "{depth}");
            assert!(late_quiets_exhausted(depth, false, enough), "{depth}");
            // Improving: twice as many before the rest are skipped.
            let improving = (base + depth * depth) as usize;
            assert!(
                !late_quiets_exhausted(depth, true, improving - 1),
                "{depth}"
            );
            assert!(late_quiets_exhausted(depth, true, improving), "{depth}");
        }
    }

    #[test]
    fn the_boards_that_pruning_treats_apart_are_told_apart() {
        // A pawn ending: no pieces to move instead of passing (no null move there).
        let pawns = pos("8/5pk1/6p1/7p/P4P1P/6P1/5K2/8 w - - 0 40");
        assert!(!has_pieces(&pawns) && !has_bare_king(&pawns) && !is_mate_hunt(&pawns));
        // K+Q v K: a bare king and no pawn, a mate hunt.
        let queen = pos("6k1/8/8/8/8/8/4K3/3Q4 w - - 0 1");
        assert!(has_pieces(&queen) && has_bare_king(&queen) && is_mate_hunt(&queen));
        // A bare king against pawns is about promotion, not a mate hunt.
        let promotion = pos("8/8/8/8/8/5k2/P7/K7 w - - 0 1");
        assert!(has_bare_king(&promotion) && !is_mate_hunt(&promotion));
        // The side to move counts its own pieces only.
        let black_rook = pos("4k3/8/8/8/8/8/r7/4K3 w - - 0 1");
        assert!(!has_pieces(&black_rook) && own_pieces(&black_rook).is_empty());
    }

    #[test]
    fn few_moves_means_the_king_and_at_most_one_piece_with_two_moves_or_fewer() {
        // White in the corner, the rook on the b-file leaves its king one move.
        let boxed = pos("1r5k/8/8/8/8/8/8/K7 w - - 0 1");
        assert_eq!(boxed.legal_moves().len(), 1);
        assert!(has_few_moves(&boxed));
        // The same king in the open: more than two moves.
        assert!(!has_few_moves(&pos("8/8/8/8/3K4/8/8/7k w - - 0 1")));
        // Two pieces besides king and pawns count as many moves, whatever the board.
        assert!(!has_few_moves(&pos("1r5k/8/8/8/8/8/8/KNN5 w - - 0 1")));
    }
}
