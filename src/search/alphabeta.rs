//! The node searches: negamax alpha-beta with principal-variation search, and quiescence.
//!
//! Near the leaves of non-PV nodes: razoring, reverse futility and null-move cuts, then late-move,
//! futility and exchange (SEE) pruning of single moves; late moves are searched with reductions
//! that grow with depth and move number (less for killers, counter-moves, good history and
//! improving nodes). A node with no hash move is searched a ply shallower (internal iterative
//! reduction). A hash move that alone holds the node's score is searched a ply deeper
//! (singular extension), found by searching the node without it at half depth.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use shakmaty::{Chess, Move, MoveList, Position, Role};

use super::limits::Limits;
use super::mates_within;
use super::ordering::{
    COUNTER_MOVE, Heuristics, Lineage, capture_score, material_gain, pick_next, piece_to,
};
use super::repetition::KeyStack;
use super::score::{
    INFINITE, MATE, MATE_BOUND, MAX_PLY, draw_value, from_table, is_mate, mated_in, to_table,
};
use super::see;
use super::tablebase::{Outcome, RootResult, TB_WIN, Tables};
use super::time::{BASE_SOFT_SHARE, SearchTrend, TimeManager};
use super::tt::{Bound, Entry, Scope, TranspositionTable, pack_move};
use crate::eval::evaluate;
use crate::game::rules::FIFTY_MOVE_HALFMOVES;
use crate::game::{is_dead_by_material, key_after, position_key};

/// How often (in nodes) the clock and the stop flag are read.
const POLL_INTERVAL: u64 = 1024;
/// Margin per ply of depth for reverse futility pruning.
const REVERSE_FUTILITY_MARGIN: i32 = 90;
/// Ordering bonus in quiescence for the hash move, above every capture.
const QS_HASH_MOVE: i32 = 100_000;
/// Margin for delta pruning in quiescence.
const DELTA_MARGIN: i32 = 200;
/// Futility pruning of quiet moves: margin at depth 0 and per ply of depth.
const FUTILITY_BASE: i32 = 100;
const FUTILITY_PER_DEPTH: i32 = 80;
/// Deepest remaining depth at which quiet moves are pruned by count, futility or exchange.
const SHALLOW_DEPTH: i32 = 6;
/// History score (butterfly plus continuation) worth one ply less (or more) of late-move
/// reduction.
const HISTORY_PER_PLY: i32 = 10_000;
/// Singular extensions: the least depth, and how far below the hash score (per ply of depth)
/// the other moves must all stay for the hash move to count as singular.
const SINGULAR_DEPTH: i32 = 8;
const SINGULAR_MARGIN_PER_PLY: i32 = 2;
/// Razoring: at depth 1 and 2, a static evaluation this far (per ply) below alpha goes
/// straight to quiescence.
const RAZOR_MARGIN: i32 = 250;
/// Null-move pruning: every this many centipawns of static evaluation above beta reduce one
/// ply more (up to three).
const NULL_MOVE_EVAL_PER_PLY: i32 = 200;

/// The state of one running search.
pub struct Worker<'a> {
    pub tt: &'a TranspositionTable,
    pub heuristics: &'a mut Heuristics,
    pub signals: &'a super::Signals,
    pub limits: &'a Limits,
    pub time: TimeManager,
    pub started: Instant,
    pub keys: KeyStack,
    pub root_moves: Vec<Move>,
    pub nodes: u64,
    /// Where this thread publishes its node count for the `info` lines (helpers only).
    pub published_nodes: Option<&'a AtomicU64>,
    /// Syzygy tables to probe, if loaded.
    pub tables: Option<&'a Tables>,
    /// See `Settings::syzygy_probe_depth`.
    pub probe_depth: i32,
    pub tbhits: u64,
    /// What the tables say of the root position, if it is in them.
    pub root_tb: Option<RootResult>,
    pub seldepth: u32,
    pub stopped: bool,
    /// Centipawns a draw costs the side to move at the root (and gains the other side).
    pub contempt: i32,
    /// Lowest key-stack index that a draw by rule in the current subtree depended on; a node
    /// above that index has a path-dependent score and is not stored in the hash table.
    pub dependency: usize,
    /// Set once a ponder search has received `ponderhit`.
    pub ponder_clock_started: bool,
    /// Triangular principal variation table: `pv[ply]` is the best line from that ply.
    pub pv: Vec<Vec<Move>>,
    /// The static evaluation at each ply of the current line (-INFINITE when in check).
    pub evals: Vec<i32>,
    /// The move played at each ply of the current line (None for a null move).
    pub played: Vec<Option<Move>>,
    /// The move left out at each ply while testing whether the hash move is singular.
    pub excluded: Vec<Option<Move>>,
    /// The depth of the current iteration at the root.
    pub root_depth: i32,
    /// Nodes searched below each root move in the current iteration (for time management).
    pub root_move_nodes: Vec<(Move, u64)>,
    /// How settled the iterations so far look (for time management).
    pub trend: SearchTrend,
}

impl Worker<'_> {
    /// True while pondering and the opponent has not yet played the predicted move.
    fn pondering(&self) -> bool {
        self.limits.ponder && !self.ponder_clock_started
    }

    /// At `ponderhit` the ponder search becomes a timed one; the clock starts then, since the
    /// thinking done while the opponent was to move was free.
    fn check_ponderhit(&mut self) {
        if self.pondering() && self.signals.ponderhit.load(Ordering::Relaxed) {
            self.ponder_clock_started = true;
            self.time.restart_clock();
        }
    }

    /// Reads the stop flag, the node budget and the clock; true when the search must stop.
    fn poll(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.limits.nodes.is_some_and(|n| self.nodes >= n) {
            self.stopped = true;
        } else if self.nodes.is_multiple_of(POLL_INTERVAL) {
            if let Some(published) = self.published_nodes {
                published.store(self.nodes, Ordering::Relaxed);
            }
            self.check_ponderhit();
            self.stopped = self.signals.stop.load(Ordering::Relaxed)
                || (!self.pondering() && self.time.hard_expired());
        }
        self.stopped
    }

    /// Decides, between iterations, whether to start another one.
    pub fn should_stop_after_iteration(&mut self, score: i32) -> bool {
        self.check_ponderhit();
        if self.stopped || self.signals.stop.load(Ordering::Relaxed) {
            return true;
        }
        if self.limits.mate.is_some_and(|n| mates_within(score, n)) {
            return true;
        }
        if self.limits.soft_nodes.is_some_and(|n| self.nodes >= n) {
            return true;
        }
        if self.limits.infinite || self.pondering() {
            return false;
        }
        let single_reply = self.root_moves.len() == 1 && self.limits.clock.is_some();
        let scale = self.trend.soft_scale(self.best_move_node_share());
        single_reply || self.time.soft_expired(BASE_SOFT_SHARE * scale)
    }

    /// The share of this iteration's root-move nodes spent below the best move.
    fn best_move_node_share(&self) -> f64 {
        let total: u64 = self.root_move_nodes.iter().map(|(_, n)| n).sum();
        if total == 0 {
            return 1.0;
        }
        let best = self.trend.best();
        let on_best = self
            .root_move_nodes
            .iter()
            .find(|(m, _)| Some(*m) == best)
            .map_or(0, |(_, n)| *n);
        on_best as f64 / total as f64
    }

    /// Adds `nodes` to root move `m`'s count.
    fn count_root_nodes(&mut self, m: Move, nodes: u64) {
        match self.root_move_nodes.iter_mut().find(|(r, _)| *r == m) {
            Some((_, n)) => *n += nodes,
            None => self.root_move_nodes.push((m, nodes)),
        }
    }

    /// The value of a draw for the side to move at `ply` (contempt: the root side pays it).
    pub fn draw_score(&self, ply: usize) -> i32 {
        draw_value(self.contempt, ply)
    }

    /// Records that the score being computed rests on the path down to key-stack `index`.
    fn depends_on(&mut self, index: usize) {
        self.dependency = self.dependency.min(index);
    }

    /// A draw or loss by rule at a non-root node: repetition, fifty moves (mate first), or
    /// dead material.
    fn rule_score(&mut self, pos: &Chess, ply: usize) -> Option<i32> {
        let halfmoves = pos.halfmoves();
        if let Some(earlier) = self.keys.repetition(halfmoves) {
            self.depends_on(earlier);
            return Some(self.draw_score(ply));
        }
        if halfmoves >= FIFTY_MOVE_HALFMOVES {
            // A mate on the hundredth halfmove still counts.
            if pos.is_checkmate() {
                return Some(mated_in(ply));
            }
            // The clock, and so this draw, depends on the moves since the last zeroing one.
            self.depends_on(self.keys.top().saturating_sub(halfmoves as usize));
            return Some(self.draw_score(ply));
        }
        if is_dead_by_material(pos) {
            return Some(self.draw_score(ply));
        }
        None
    }

    /// The moves that led to the node at `ply`, whose side to move is `turn`.
    fn lineage(&self, ply: usize, turn: shakmaty::Color) -> Lineage {
        let played = |back: usize| ply.checked_sub(back).and_then(|p| self.played[p]);
        Lineage {
            previous: played(1),
            continuations: [
                played(1).map(|m| piece_to(!turn, m)),
                played(2).map(|m| piece_to(turn, m)),
            ],
        }
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        if let Some(rest) = tail.first() {
            line.extend_from_slice(rest);
        }
    }

    /// The main search. `key` is the key of `pos`, already on the key stack.
    pub fn negamax(
        &mut self,
        pos: &Chess,
        key: u64,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let outer = std::mem::replace(&mut self.dependency, usize::MAX);
        let score = self.search_node(pos, key, depth, alpha, beta, ply);
        self.dependency = self.dependency.min(outer);
        score
    }

    /// True for the draw score of either side.
    fn is_draw_value(&self, score: i32) -> bool {
        score == self.draw_score(0) || score == self.draw_score(1)
    }

    /// True when the score of the node on top of the key stack rests on positions before it.
    fn path_dependent(&self) -> bool {
        self.dependency < self.keys.top()
    }

    fn search_node(
        &mut self,
        pos: &Chess,
        key: u64,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        let is_root = ply == 0;
        let pv_node = beta - alpha > 1;
        self.pv[ply].clear();
        // The score the side to move is sure of by repeating a position (none yet).
        let mut draw_floor = -INFINITE;
        if !is_root {
            if self.poll() {
                return 0;
            }
            if let Some(score) = self.rule_score(pos, ply) {
                return score;
            }
            if ply >= MAX_PLY - 1 {
                return evaluate(pos);
            }
            // Mate distance pruning: no line from here can beat a mate found nearer the root.
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
            // If the side to move can repeat a position, it can hold at least a draw.
            let draw = self.draw_score(ply);
            if alpha < draw {
                let board = pos.board();
                let own = board.by_color(pos.turn());
                if let Some(target) =
                    self.keys
                        .upcoming_repetition(pos.halfmoves(), board.occupied(), own)
                {
                    self.depends_on(target);
                    alpha = draw;
                    draw_floor = draw;
                    if alpha >= beta {
                        return alpha;
                    }
                }
            }
        }
        if depth <= 0 {
            return self.quiescence(pos, key, alpha, beta, ply).max(draw_floor);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply as u32);
        if is_root {
            self.root_depth = depth;
        }

        // Set while testing whether that move is singular: the node is searched without it.
        let excluded = self.excluded[ply];
        let entry = self.tt.probe(key);
        let hash_move = entry.map_or(0, |e| e.packed_move);
        if let Some(e) =
            entry.filter(|e| !pv_node && !is_root && excluded.is_none() && e.depth >= depth)
            && let Some(score) = table_cutoff(e, pos, ply, alpha, beta)
        {
            return score;
        }

        if !is_root
            && excluded.is_none()
            && let Some(score) = self.probe_tables(pos, depth, alpha, beta, ply)
        {
            return score;
        }

        let in_check = pos.is_check();
        let static_eval = match entry {
            _ if in_check => -INFINITE,
            // The table keeps the evaluation: the same position evaluates the same.
            Some(e) => e.eval,
            None => evaluate(pos),
        };
        self.evals[ply] = static_eval;
        let improving = self.improving(ply, static_eval);
        let eval = refined_eval(static_eval, entry, ply);
        let singular_score = entry
            .filter(|e| {
                !is_root
                    && excluded.is_none()
                    && depth >= SINGULAR_DEPTH
                    && e.depth >= depth - 3
                    && e.bound != Bound::Upper
                    // A draw that rests on the path is no measure for the other moves.
                    && !e.this_search
                    && (ply as i32) < 2 * self.root_depth
            })
            .map(|e| from_table(e.score, ply))
            .filter(|&score| !is_mate(score));

        // Internal iterative reduction: with no hash move the node was not searched before (or
        // not usefully); search it a ply shallower rather than spend full depth on a guess.
        if hash_move == 0 && depth >= 4 {
            depth -= 1;
        }

        if !pv_node && !in_check && !is_root && excluded.is_none() {
            // Razoring: hopelessly below alpha near the leaves, see if a capture saves it.
            if depth <= 2 && eval + RAZOR_MARGIN * depth <= alpha {
                let score = self.quiescence(pos, key, alpha, alpha + 1, ply);
                if score <= alpha {
                    return score.max(draw_floor);
                }
            }
            // Reverse futility: far above beta at low depth, assume a quiet move holds it.
            let margin = REVERSE_FUTILITY_MARGIN * (depth - i32::from(improving));
            if depth <= 6 && !is_mate(beta) && eval - margin >= beta {
                return eval;
            }
            if let Some(score) = self.try_null_move(pos, depth, beta, eval, ply) {
                return score;
            }
        }

        let mut moves: MoveList = if is_root {
            self.root_moves.iter().copied().collect()
        } else {
            pos.legal_moves()
        };
        if moves.is_empty() {
            return if in_check {
                mated_in(ply)
            } else {
                self.draw_score(ply)
            };
        }
        let lineage = self.lineage(ply, pos.turn());
        let mut scores = self
            .heuristics
            .score_moves(pos, &moves, hash_move, &lineage, ply);

        let original_alpha = alpha;
        let mut best_score = -INFINITE;
        let mut best_move = None;
        let mut best_gives_check = false;
        let mut quiets_tried: Vec<Move> = Vec::new();
        let mut index = 0;
        while let Some(m) = pick_next(&mut moves, &mut scores, index) {
            let order_score = scores[index];
            if excluded == Some(m) {
                index += 1;
                continue;
            }
            let mut extension = 0;
            if let Some(tt_score) = singular_score.filter(|_| pack_move(m) == hash_move) {
                match self.singular(pos, key, m, tt_score, depth, ply) {
                    Singular::Extend => extension = 1,
                    Singular::MultiCut(score) if score >= beta => return score,
                    Singular::MultiCut(_) => {}
                    Singular::Stopped => return 0,
                }
            }
            let quiet = !m.is_capture() && m.promotion().is_none();
            let mut child = pos.clone();
            child.play_unchecked(m);
            let gives_check = child.is_check();
            let shallow = Shallow {
                depth,
                in_check,
                gives_check,
                improving,
                eval,
                alpha,
            };
            if !pv_node
                && best_score > -MATE_BOUND
                && self.prune_at_shallow_depth(pos, m, quiet, quiets_tried.len(), &shallow)
            {
                index += 1;
                continue;
            }
            let child_key = key_after(pos, key, m, &child);
            let new_depth = depth - 1 + i32::from(gives_check).max(extension);
            self.played[ply] = Some(m);

            self.keys.push(child_key);
            let nodes_before = self.nodes;
            let score = if index == 0 {
                -self.negamax(&child, child_key, new_depth, -beta, -alpha, ply + 1)
            } else {
                let reduction = if depth >= 3 && index >= 2 && quiet && !in_check && !gives_check {
                    let mut r = late_move_reduction(depth, index);
                    r -= i32::from(pv_node);
                    r += i32::from(!improving);
                    r -= i32::from(order_score >= COUNTER_MOVE);
                    if order_score < COUNTER_MOVE {
                        r -= order_score / HISTORY_PER_PLY;
                    }
                    r.min(new_depth - 1).max(0)
                } else {
                    0
                };
                let reduced = new_depth - reduction;
                let mut s = -self.negamax(&child, child_key, reduced, -alpha - 1, -alpha, ply + 1);
                if s > alpha && reduction > 0 {
                    s = -self.negamax(&child, child_key, new_depth, -alpha - 1, -alpha, ply + 1);
                }
                if s > alpha && s < beta {
                    s = -self.negamax(&child, child_key, new_depth, -beta, -alpha, ply + 1);
                }
                s
            };
            self.keys.pop();
            if is_root {
                self.count_root_nodes(m, self.nodes - nodes_before);
            }
            index += 1;
            if self.stopped {
                return 0;
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    best_gives_check = gives_check;
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        if quiet {
                            self.heuristics.record_cutoff(
                                pos.turn(),
                                m,
                                &lineage,
                                ply,
                                depth,
                                &quiets_tried,
                            );
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push(m);
            }
        }

        // A draw in hand is a floor under the fail-low value too.
        best_score = best_score.max(draw_floor);
        if excluded.is_some() {
            // The node without its best move: a partial answer, not for the table.
            return best_score;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // A draw score resting on a repetition or the fifty-move clock belongs to this path.
        // Along a line of checks (a perpetual: the checked side, or a check as the best move)
        // later iterations of this search may use it, later searches only its move; elsewhere
        // only the move is kept (depth -1), so a quiet repetition met on one path is never
        // taken for the position's value on another.
        let (score, draft, bound, scope) =
            if self.path_dependent() && self.is_draw_value(best_score) {
                if in_check || best_gives_check {
                    (best_score, depth, bound, Scope::ThisSearch)
                } else {
                    (0, -1, Bound::Upper, Scope::Always)
                }
            } else {
                (best_score, depth, bound, Scope::Always)
            };
        self.tt.store(
            key,
            best_move,
            to_table(score, ply),
            static_eval,
            draft,
            bound,
            scope,
        );
        best_score
    }

    /// Searches the node without the hash move `m`, at half depth, in a null window just below
    /// the hash score: if every other move fails low there, `m` alone holds the score and is
    /// extended; if one reaches the window, the node likely has several good moves.
    fn singular(
        &mut self,
        pos: &Chess,
        key: u64,
        m: Move,
        tt_score: i32,
        depth: i32,
        ply: usize,
    ) -> Singular {
        let singular_beta = tt_score - SINGULAR_MARGIN_PER_PLY * depth;
        self.excluded[ply] = Some(m);
        let score = self.negamax(
            pos,
            key,
            (depth - 1) / 2,
            singular_beta - 1,
            singular_beta,
            ply,
        );
        self.excluded[ply] = None;
        self.pv[ply].clear();
        if self.stopped {
            Singular::Stopped
        } else if score < singular_beta {
            Singular::Extend
        } else {
            Singular::MultiCut(singular_beta)
        }
    }

    /// True when the side to move stands better than two plies ago (its previous turn).
    fn improving(&self, ply: usize, static_eval: i32) -> bool {
        if static_eval == -INFINITE {
            return false;
        }
        match ply.checked_sub(2).map(|p| self.evals[p]) {
            Some(earlier) if earlier != -INFINITE => static_eval > earlier,
            _ => true,
        }
    }

    /// Moves not worth searching near the leaves of a non-PV node, once a move has been
    /// searched: late quiet moves (by count), quiet moves that cannot lift a hopeless static
    /// evaluation to alpha (futility), and moves that lose too much material in the exchange.
    fn prune_at_shallow_depth(
        &self,
        pos: &Chess,
        m: Move,
        quiet: bool,
        quiets_tried: usize,
        node: &Shallow,
    ) -> bool {
        if node.depth > SHALLOW_DEPTH || node.in_check || node.gives_check {
            return false;
        }
        let depth = node.depth;
        if quiet {
            let enough = (3 + depth * depth) / (2 - i32::from(node.improving));
            if quiets_tried as i32 >= enough {
                return true;
            }
            if node.eval + FUTILITY_BASE + FUTILITY_PER_DEPTH * depth <= node.alpha {
                return true;
            }
            !see::wins_at_least(pos, m, -50 * depth * depth)
        } else {
            !see::wins_at_least(pos, m, -100 * depth)
        }
    }

    /// A WDL probe right after a capture or pawn move (the clock at 0, so the fifty-move rule is
    /// fully accounted for); returns the score when it settles the node.
    fn probe_tables(
        &mut self,
        pos: &Chess,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<i32> {
        let tables = self.tables?;
        if pos.halfmoves() != 0 || !tables.covers(pos) {
            return None;
        }
        if pos.board().occupied().count() == tables.max_pieces() && depth < self.probe_depth {
            return None;
        }
        let outcome = tables.wdl_after_zeroing(pos)?;
        self.tbhits += 1;
        match outcome {
            Outcome::Draw => Some(self.draw_score(ply)),
            Outcome::Win => Some(TB_WIN - ply as i32).filter(|&score| score >= beta),
            Outcome::Loss => Some(-TB_WIN + ply as i32).filter(|&score| score <= alpha),
        }
    }

    /// Null-move pruning: let the opponent move twice; if we still beat beta, cut.
    /// Not in pawn-only endings, where passing can be the only good move (zugzwang).
    fn try_null_move(
        &mut self,
        pos: &Chess,
        depth: i32,
        beta: i32,
        static_eval: i32,
        ply: usize,
    ) -> Option<i32> {
        if depth < 3 || static_eval < beta || !has_pieces(pos) {
            return None;
        }
        let passed = pos.clone().swap_turn().ok()?;
        let key = position_key(&passed);
        let reduction = 3 + depth / 4 + ((static_eval - beta) / NULL_MOVE_EVAL_PER_PLY).min(3);
        self.played[ply] = None;
        let floor = self.keys.push_null(key);
        let score = -self.negamax(
            &passed,
            key,
            depth - 1 - reduction,
            -beta,
            -beta + 1,
            ply + 1,
        );
        self.keys.pop_null(floor);
        if self.stopped || score < beta {
            return None;
        }
        Some(if is_mate(score) { beta } else { score })
    }

    /// Quiescence: only captures and queen promotions (all moves when in check), with the
    /// static evaluation as a "stand pat" floor. Results go to the hash table at depth 0.
    fn quiescence(&mut self, pos: &Chess, key: u64, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        if self.poll() {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply as u32);
        if is_dead_by_material(pos) {
            return self.draw_score(ply);
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(pos);
        }
        let pv_node = beta - alpha > 1;
        let entry = self.tt.probe(key);
        if let Some(e) = entry.filter(|e| !pv_node && e.depth >= 0)
            && let Some(score) = table_cutoff(e, pos, ply, alpha, beta)
        {
            return score;
        }
        let in_check = pos.is_check();
        let mut best = -INFINITE;
        let mut stand_pat = -INFINITE;
        if !in_check {
            stand_pat = entry.map_or_else(|| evaluate(pos), |e| e.eval);
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
            moves.retain(|m| m.is_capture() || m.promotion() == Some(Role::Queen));
        }
        let hash_move = entry.map_or(0, |e| e.packed_move);
        let mut scores: Vec<i32> = moves
            .iter()
            .map(|&m| capture_score(m) + i32::from(pack_move(m) == hash_move) * QS_HASH_MOVE)
            .collect();
        let mut best_move = None;
        let mut index = 0;
        while let Some(m) = pick_next(&mut moves, &mut scores, index) {
            index += 1;
            if !in_check
                && m.promotion().is_none()
                && (stand_pat + material_gain(m) + DELTA_MARGIN <= alpha
                    || !see::wins_at_least(pos, m, 0))
            {
                continue;
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            let child_key = key_after(pos, key, m, &child);
            let score = -self.quiescence(&child, child_key, -beta, -alpha, ply + 1);
            if self.stopped {
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
        self.tt.store(
            key,
            best_move,
            to_table(best, ply),
            stand_pat,
            0,
            bound,
            Scope::Always,
        );
        best
    }
}

/// What the shallow-depth pruning needs to know of the node and the move.
struct Shallow {
    depth: i32,
    in_check: bool,
    gives_check: bool,
    improving: bool,
    /// The static evaluation, or the hash score where its bound says it is better.
    eval: i32,
    alpha: i32,
}

/// What the singular-extension test found.
enum Singular {
    /// Every other move fails low: the hash move alone holds the node.
    Extend,
    /// Another move reaches this score too (a cutoff if it is at least beta).
    MultiCut(i32),
    Stopped,
}

/// The static evaluation, corrected by the hash score where the bound says which way the
/// true score lies from it.
fn refined_eval(static_eval: i32, entry: Option<Entry>, ply: usize) -> i32 {
    // A score that rests on the path (a repetition below) says nothing of the position's
    // own worth: the static evaluation stands.
    let Some(e) = entry.filter(|e| e.depth >= 0 && static_eval != -INFINITE && !e.this_search)
    else {
        return static_eval;
    };
    let score = from_table(e.score, ply);
    if is_mate(score) {
        return static_eval;
    }
    match e.bound {
        Bound::Exact => score,
        Bound::Lower if score > static_eval => score,
        Bound::Upper if score < static_eval => score,
        _ => static_eval,
    }
}

/// The base late-move reduction in plies for the `index`-th move at `depth`: it grows with the
/// logarithms of both, so late moves at high depth lose most.
fn late_move_reduction(depth: i32, index: usize) -> i32 {
    static TABLE: std::sync::OnceLock<[[u8; 64]; 64]> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (i, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f64).ln() * (i as f64).ln() / 2.25) as u8;
            }
        }
        t
    });
    i32::from(table[(depth as usize).min(63)][index.min(63)])
}

/// True when the side to move has a piece other than pawns and king.
fn has_pieces(pos: &Chess) -> bool {
    let board = pos.board();
    let pieces = board.by_color(pos.turn()) & !board.pawns() & !board.kings();
    pieces.any()
}

/// The stored score of `e` when its bound settles the node's window (and a stored mate can
/// still be given before the fifty-move rule draws).
fn table_cutoff(e: Entry, pos: &Chess, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let score = from_table(e.score, ply);
    let settles = match e.bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    };
    (settles && mate_fits_fifty_moves(score, ply, pos.halfmoves())).then_some(score)
}

/// False for a stored mate that cannot be delivered before the fifty-move rule draws: mate in
/// `n` plies from a node whose clock is `halfmoves` needs `halfmoves + n <= 100`, unless a
/// capture or pawn move on the way resets the clock, which the table entry cannot tell.
fn mate_fits_fifty_moves(score: i32, ply: usize, halfmoves: u32) -> bool {
    if !is_mate(score) {
        return true;
    }
    let plies_to_mate = MATE - score.abs() - ply as i32;
    halfmoves as i32 + plies_to_mate <= FIFTY_MOVE_HALFMOVES as i32
}
