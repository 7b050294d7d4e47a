//! A node's move loop: the moves in order, shallow pruning, late-move reductions that grow
//! with depth and move number (less for killers, counter-moves, good history and improving
//! nodes, more at expected cut nodes), principal-variation search with re-searches, the
//! singular extension (a hash move that alone holds the node's score is searched a ply
//! deeper, found by searching the node without it at half depth), and the principal
//! variation kept ply by ply.

use shakmaty::{Chess, Move, MoveList, Position};

use super::Report;
use super::alphabeta::{NodeEval, NodeKind, Window};
use super::ordering::{COUNTER_MOVE, Lineage, piece_to};
use super::params::{self, CURRMOVE_AFTER};
use super::pruning::{Shallow, is_mate_hunt};
use super::score::{INFINITE, MATE_BOUND};
use super::see;
use super::tt::pack_move;
use super::worker::Worker;
use crate::game::{gives_check, key_after};

impl Worker<'_> {
    /// The moves that led to the node at `ply` (position `pos`), and the squares its opponent
    /// attacks.
    pub(super) fn lineage(&self, ply: usize, pos: &Chess) -> Lineage {
        let turn = pos.turn();
        let played = |back: usize| ply.checked_sub(back).and_then(|p| self.path.played[p]);
        Lineage {
            threats: see::attacked_squares(pos.board(), !turn),
            previous: played(1),
            continuations: [
                played(1).map(|m| piece_to(!turn, m)),
                played(2).map(|m| piece_to(turn, m)),
            ],
        }
    }

    pub(super) fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.path.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        if let Some(rest) = tail.first() {
            line.extend_from_slice(rest);
        }
    }

    /// Root move `m`'s `score` within what the perpetual-check prover proved of it. A score
    /// the proof changed is a draw that rests on the game (on all of it): the root keeps it
    /// for this search only.
    fn bound_by_proofs(&mut self, m: Move, score: i32) -> i32 {
        let bounded = self.root.proofs.bound(m, score, self.draw_score(0));
        if bounded != score {
            self.depends_on(isize::MIN);
        }
        bounded
    }

    /// The move loop: each move in order (the hash move first), singular extension of the hash
    /// move, shallow-depth pruning, late-move reductions with principal-variation re-searches.
    /// Returns the best score and move, or `Err` with the node's score when it ends early (a
    /// multi-cut, the search stopped).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search_moves(
        &mut self,
        pos: &Chess,
        key: u64,
        moves: &mut MoveList,
        depth: i32,
        window: &mut Window,
        node: &NodeEval,
        ply: usize,
        kind: &NodeKind,
    ) -> Result<Searched, i32> {
        let beta = window.beta;
        let lineage = self.lineage(ply, pos);
        let mut picker = self
            .heuristics
            .order_moves(pos, moves, node.hash_move, &lineage, ply);
        let mut best = Searched {
            score: -INFINITE,
            best_move: None,
        };
        let mut quiets_tried: Vec<Move> = Vec::new();
        let mut captures_tried: Vec<Move> = Vec::new();
        let mut index = 0;
        // Root moves started, for `currmove` reports.
        let mut root_number = 0;
        while let Some((m, order_score)) = picker.next_move() {
            if kind.excluded == Some(m) {
                index += 1;
                continue;
            }
            let mut extension = 0;
            if let Some(tt_score) = node
                .singular_score
                .filter(|_| pack_move(m) == node.hash_move)
            {
                match self.singular(pos, key, m, tt_score, depth, ply, kind) {
                    Singular::Extend(plies) => extension = plies,
                    Singular::MultiCut(score) if score >= beta => return Err(score),
                    Singular::MultiCut(_) => {}
                    Singular::Stopped => return Err(0),
                }
            }
            let quiet = is_quiet(m);
            let checks = gives_check(pos, m);
            let shallow = Shallow {
                depth,
                order_score,
                in_check: node.in_check,
                gives_check: checks,
                improving: node.improving,
                eval: node.eval,
                alpha: window.alpha,
            };
            if !kind.pv
                && !kind.clock
                && best.score > -MATE_BOUND
                && self.prune_at_shallow_depth(pos, m, quiet, quiets_tried.len(), &shallow)
            {
                index += 1;
                continue;
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            let child_key = key_after(pos, key, m, &child);
            self.shared.tt.prefetch(child_key);
            let new_depth = depth - 1 + i32::from(checks).max(extension);
            self.path.played[ply] = Some(m);
            if kind.root {
                root_number += 1;
                if self.reporter.is_some() && self.budget.started.elapsed() >= CURRMOVE_AFTER {
                    self.emit(Report::CurrentMove {
                        depth: depth.max(1) as u32,
                        mv: m,
                        number: root_number,
                    });
                }
            }

            self.eval.moved(ply, pos, m);
            self.path.keys.push(child_key);
            let nodes_before = self.stats.nodes;
            let reduction = if index == 0 {
                0
            } else {
                self.reduction(
                    pos,
                    depth,
                    new_depth,
                    index,
                    order_score,
                    quiet,
                    checks,
                    node,
                    kind,
                )
            };
            let doubled = i32::from(extension == 2);
            self.path.double_extensions += doubled;
            let score = self.principal_variation_search(
                &child,
                child_key,
                new_depth,
                reduction,
                index == 0,
                window,
                ply,
                kind.cut,
            );
            self.path.double_extensions -= doubled;
            self.path.keys.pop();
            if kind.root {
                self.count_root_nodes(m, self.stats.nodes - nodes_before);
            }
            index += 1;
            if self.budget.stopped {
                return Err(0);
            }
            let score = if kind.root {
                self.bound_by_proofs(m, score)
            } else {
                score
            };

            if score > best.score {
                best.score = score;
                if score > window.alpha {
                    window.alpha = score;
                    best.best_move = Some(m);
                    self.update_pv(ply, m);
                    if window.alpha >= beta {
                        self.heuristics.record_cutoff(
                            pos.turn(),
                            m,
                            &lineage,
                            ply,
                            depth,
                            &quiets_tried,
                            &captures_tried,
                        );
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push(m);
            } else if m.is_capture() {
                captures_tried.push(m);
            }
        }
        Ok(best)
    }

    /// How many plies a late move is searched shallower (late-move reductions): more for
    /// later moves and deeper nodes, less at PV nodes, more at expected cut nodes, less for
    /// improving positions, killers, counter-moves and moves with a good history. None for
    /// captures, checks, moves in check, the first two moves, and on the principal variation
    /// against a bare king without pawns, where the mating move is often a quiet king move
    /// that move ordering cannot know (see `is_mate_hunt`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn reduction(
        &self,
        pos: &Chess,
        depth: i32,
        new_depth: i32,
        index: usize,
        order_score: i32,
        quiet: bool,
        gives_check: bool,
        node: &NodeEval,
        kind: &NodeKind,
    ) -> i32 {
        if depth < params::lmr_depth()
            || kind.clock
            || index < 2
            || !quiet
            || node.in_check
            || gives_check
            || (kind.pv && is_mate_hunt(pos))
        {
            return 0;
        }
        let mut r = late_move_reduction(depth, index);
        r -= i32::from(kind.pv);
        r += params::cut_node_reduction() * i32::from(kind.cut);
        r += i32::from(!node.improving);
        r -= i32::from(order_score >= COUNTER_MOVE);
        if order_score < COUNTER_MOVE {
            r -= (order_score / params::history_per_ply())
                .clamp(-params::history_plies(), params::history_plies());
        }
        r.min(new_depth - 1).max(0)
    }

    /// A move's score by principal-variation search: the first move with the full window;
    /// the others with a null window at reduced depth, again at full depth if that beats
    /// alpha, and with the full window if the score lands inside it.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn principal_variation_search(
        &mut self,
        child: &Chess,
        child_key: u64,
        new_depth: i32,
        reduction: i32,
        first: bool,
        window: &Window,
        ply: usize,
        cut: bool,
    ) -> i32 {
        let (alpha, beta) = (window.alpha, window.beta);
        // A child searched at full depth with a null window is expected to do the opposite of
        // its parent (the parent of a cut node is an all node, and so on down); one searched
        // reduced is a move the parent expects to fail low, so the child should cut.
        if first {
            return -self.search(child, child_key, new_depth, -beta, -alpha, ply + 1, !cut);
        }
        let reduced = new_depth - reduction;
        let mut s = -self.search(
            child,
            child_key,
            reduced,
            -alpha - 1,
            -alpha,
            ply + 1,
            reduction > 0 || !cut,
        );
        if s > alpha && reduction > 0 {
            s = -self.search(
                child,
                child_key,
                new_depth,
                -alpha - 1,
                -alpha,
                ply + 1,
                !cut,
            );
        }
        if s > alpha && s < beta {
            s = -self.negamax(child, child_key, new_depth, -beta, -alpha, ply + 1);
        }
        s
    }

    /// Searches the node without the hash move `m`, at half depth, in a null window just below
    /// the hash score: if every other move fails low there, `m` alone holds the score and is
    /// extended (by two plies at a non-PV node when the others stay far below, a few times a
    /// line); if one reaches the window, the node likely has several good moves.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn singular(
        &mut self,
        pos: &Chess,
        key: u64,
        m: Move,
        tt_score: i32,
        depth: i32,
        ply: usize,
        kind: &NodeKind,
    ) -> Singular {
        let singular_beta = tt_score - params::singular_margin_per_ply() * depth;
        self.path.excluded[ply] = Some(m);
        let score = self.search(
            pos,
            key,
            (depth - 1) / 2,
            singular_beta - 1,
            singular_beta,
            ply,
            kind.cut,
        );
        self.path.excluded[ply] = None;
        self.path.pv[ply].clear();
        if self.budget.stopped {
            Singular::Stopped
        } else if score < singular_beta {
            let far_below = score < singular_beta - params::double_extension_margin();
            let doubles_left = self.path.double_extensions < params::double_extension_limit();
            Singular::Extend(if !kind.pv && far_below && doubles_left {
                2
            } else {
                1
            })
        } else {
            Singular::MultiCut(singular_beta)
        }
    }

    /// True when the side to move stands better than two plies ago (its previous turn).
    pub(super) fn improving(&self, ply: usize, static_eval: i32) -> bool {
        if static_eval == -INFINITE {
            return false;
        }
        match ply.checked_sub(2).map(|p| self.path.evals[p]) {
            Some(earlier) if earlier != -INFINITE => static_eval > earlier,
            _ => true,
        }
    }
}

/// The best of the moves searched.
pub(super) struct Searched {
    pub(super) score: i32,
    pub(super) best_move: Option<Move>,
}

/// What the singular-extension test found.
pub(super) enum Singular {
    /// Every other move fails low: the hash move alone holds the node, and is searched this
    /// many plies deeper.
    Extend(i32),
    /// Another move reaches this score too (a cutoff if it is at least beta).
    MultiCut(i32),
    Stopped,
}

/// A move that neither captures nor promotes.
pub(super) fn is_quiet(m: Move) -> bool {
    !m.is_capture() && m.promotion().is_none()
}

/// The base late-move reduction in plies for the `index`-th move at `depth`: it grows with the
/// logarithms of both, so late moves at high depth lose most. A normal build reads it from a
/// table made once; a tuning build works it out each time, as its parameters may change.
pub(super) fn late_move_reduction(depth: i32, index: usize) -> i32 {
    let (depth, index) = ((depth.max(0) as usize).min(63), index.min(63));
    if params::TUNING {
        return reduction_formula(depth, index);
    }
    static TABLE: std::sync::OnceLock<[[u8; 64]; 64]> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate() {
            for (i, r) in row.iter_mut().enumerate() {
                *r = reduction_formula(d, i) as u8;
            }
        }
        t
    });
    i32::from(table[depth][index])
}

/// `lmr_base + ln(depth) * ln(index) / lmr_divisor` plies, rounded down (0 for a depth or index
/// of 0).
pub(super) fn reduction_formula(depth: usize, index: usize) -> i32 {
    if depth == 0 || index == 0 {
        return 0;
    }
    let base = f64::from(params::lmr_base_percent()) / 100.0;
    let divisor = f64::from(params::lmr_divisor_percent()) / 100.0;
    (base + (depth as f64).ln() * (index as f64).ln() / divisor) as i32
}

#[cfg(test)]
mod tests {
    use super::super::Settings;
    use super::super::params;
    use super::super::worker::Rig;
    use crate::game::{Game, parse_fen};
    use crate::search::score::INFINITE;
    use shakmaty::Move;

    /// Iterative deepening of `fen` to `depth` from an empty table; with `single`, every line
    /// starts with its double extensions spent, so none can fire. The score and the best move.
    fn search(fen: &str, depth: u32, single: bool) -> (i32, Option<Move>) {
        let game = Game::new(parse_fen(fen).expect("test FEN"));
        let mut rig = Rig::new();
        let mut worker = rig.worker(&game, Settings::default());
        let mut score = 0;
        for d in 1..=depth {
            if single {
                worker.path.double_extensions = params::double_extension_limit();
            }
            score = worker.search_root(&game, d, -INFINITE, INFINITE);
        }
        (score, worker.path.pv[0].first().copied())
    }

    /// Two bench positions where a hash move that alone holds a non-PV node's score, far
    /// above the others, is searched two plies deeper: at depth 10 that changes the root's
    /// score (the rook ending: +1.00 with it, +0.49 without) and the move (the middlegame).
    #[test]
    fn a_double_singular_extension_fires_and_changes_the_result() {
        for fen in [
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "2r3k1/1q3ppp/p3p3/1p1nP3/3N4/1P3Q2/P4PPP/3R2K1 w - - 0 25",
        ] {
            let double = search(fen, 10, false);
            let single = search(fen, 10, true);
            assert_ne!(
                double, single,
                "{fen}: the same result without double extensions"
            );
        }
    }
}
