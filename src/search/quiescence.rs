//! Quiescence: at the horizon, captures and queen promotions (every move in check) until the
//! position is quiet, from a stand-pat score; hash cutoffs pass on what their entry rests on.

use shakmaty::{Chess, Move, Position, Role};

use super::alphabeta::table_cutoff;
use super::ordering::{MovePicker, capture_score, material_gain};
use super::params::{self, QS_HASH_MOVE};
use super::score::{INFINITE, MAX_PLY, mated_in, to_table};
use super::see;
use super::tt::{Bound, Scope, pack_move};
use super::worker::Worker;
use crate::game::{is_dead_by_material, key_after};

impl Worker<'_> {
    /// Quiescence: only captures and queen promotions (all moves when in check), with the
    /// static evaluation as a "stand pat" floor. Results go to the hash table at depth 0.
    pub(super) fn quiescence(
        &mut self,
        pos: &Chess,
        key: u64,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.path.pv[ply].clear();
        if self.poll() {
            return 0;
        }
        self.stats.nodes += 1;
        self.stats.seldepth = self.stats.seldepth.max(ply as u32);
        if is_dead_by_material(pos) {
            return self.draw_score(ply);
        }
        if ply >= MAX_PLY - 1 {
            return self.eval.evaluate(pos, ply);
        }
        let pv_node = beta - alpha > 1;
        let entry = self.probe_table(key, ply);
        if let Some(e) = entry.filter(|e| !pv_node && e.depth >= 0)
            && let Some(score) = table_cutoff(e, pos, ply, alpha, beta)
        {
            self.inherit(&e);
            return score;
        }
        let in_check = pos.is_check();
        let mut best = -INFINITE;
        let mut stand_pat = -INFINITE;
        let mut raw_eval = -INFINITE;
        if !in_check {
            let eval = self.static_eval(pos, entry, ply);
            (raw_eval, stand_pat) = (eval.raw, eval.value);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }
        let original_alpha = alpha;
        let mut moves = pos.legal_moves();
        if moves.is_empty() && in_check {
            return mated_in(ply);
        }
        if !in_check {
            moves.retain(|m| is_tactical(*m));
        }
        let hash_move = entry.map_or(0, |e| e.packed_move);
        let mut picker = MovePicker::new(&mut moves, |m| tactical_order(m, hash_move));
        let mut best_move = None;
        while let Some((m, _)) = picker.next_move() {
            if !in_check
                && m.promotion().is_none()
                && (stand_pat + material_gain(m) + params::delta_margin() <= alpha
                    || !see::wins_at_least(pos, m, 0))
            {
                continue;
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            let child_key = key_after(pos, key, m, &child);
            self.shared.tt.prefetch(child_key);
            self.eval.moved(ply, pos, m);
            let score = -self.quiescence(&child, child_key, -beta, -alpha, ply + 1);
            if self.budget.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if pv_node && best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            best_move,
            to_table(best, ply),
            raw_eval,
            0,
            bound,
            Scope::Always,
        );
        best
    }
}

/// The moves quiescence and ProbCut try outside check: captures and queen promotions.
pub(super) fn is_tactical(m: Move) -> bool {
    m.is_capture() || m.promotion() == Some(Role::Queen)
}

/// The order of those moves: the hash move first, then by `capture_score`.
pub(super) fn tactical_order(m: Move, hash_move: u16) -> i32 {
    capture_score(m) + i32::from(pack_move(m) == hash_move) * QS_HASH_MOVE
}
