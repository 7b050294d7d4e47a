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

#[cfg(test)]
mod tests {
    use super::super::Settings;
    use super::super::tt::{Bound, Scope};
    use super::super::worker::Rig;
    use crate::game::{Game, parse_fen, parse_uci_move, position_key};
    use crate::search::score::INFINITE;
    use shakmaty::{Chess, Position};

    /// White, a rook down and facing mate, checks from h5 and e8 (Qe8+ Kh7 Qh5+ Kg8): each
    /// check has one reply, and the cycle comes back here.
    const CYCLE_START: &str = "6k1/6p1/8/7Q/8/1P6/PPqr4/K7 w - - 0 1";

    /// The game after Qe8+ Kh7 (its first position played once) and the position after the
    /// next Qh5+, Black in check, whose only reply Kg8 brings that first position back.
    fn game_and_check() -> (Game, Chess) {
        let mut game = Game::new(parse_fen(CYCLE_START).expect("fen"));
        for m in ["h5e8", "g8h7"] {
            game.play_uci(m).expect("legal");
        }
        let mut check = game.position().clone();
        check.play_unchecked(parse_uci_move(&check, "e8h5").expect("legal"));
        (game, check)
    }

    /// Runs quiescence on `pos` with a null window its stored entry settles and returns the
    /// score and whether the node now rests on a twofold.
    fn cut(rig: &mut Rig, game: &Game, pos: &Chess) -> (i32, bool) {
        let key = position_key(pos);
        let e = rig.tt.probe(key).expect("the position is stored");
        let stored = e.score;
        let (alpha, beta) = match e.bound {
            Bound::Upper => (stored, stored + 1),
            _ => (stored - 1, stored),
        };
        let mut worker = rig.worker(game, Settings::default());
        worker.path.keys.push(key);
        let score = worker.quiescence(pos, key, alpha, beta, 1);
        assert_eq!(score, stored, "the entry settles the node");
        (score, worker.path.twofold)
    }

    #[test]
    fn a_cutoff_by_a_score_resting_on_a_twofold_rests_on_it_too() {
        let (game, check) = game_and_check();
        let mut rig = Rig::new();
        // The search makes the mark itself: below Qh5+ the reply Kg8 is a twofold of the
        // game's first position, so what it stores there rests on that twofold.
        let mut worker = rig.worker(&game, Settings::default());
        worker.search_root(&game, 4, -INFINITE, INFINITE);
        drop(worker);
        let e = rig.tt.probe(position_key(&check)).expect("stored");
        assert!(e.twofold && e.depth >= 0, "{e:?}");
        // A quiescence node cut off by that entry rests on the twofold too, so the main
        // search above it stores its own score until the game repeats, not for good.
        let (_, twofold) = cut(&mut rig, &game, &check);
        assert!(twofold, "the quiescence cutoff dropped the twofold mark");

        // The same entry stored resting on nothing passes nothing on.
        let mut plain = Rig::new();
        plain.tt.store(
            position_key(&check),
            None,
            e.score,
            0,
            e.depth,
            e.bound,
            Scope::Always,
        );
        let (_, twofold) = cut(&mut plain, &game, &check);
        assert!(!twofold);
    }
}
