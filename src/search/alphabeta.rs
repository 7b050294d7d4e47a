//! The node searches: negamax alpha-beta with principal-variation search, and quiescence.
//!
//! The static evaluation is the network's score plus the correction history's entry, through
//! the material rule. At non-PV nodes well above the leaves, a capture that clears beta by a
//! margin in a shallower search cuts the node (ProbCut).
//!
//! Near the leaves of non-PV nodes: razoring, reverse futility and null-move cuts, then late-move,
//! futility, history and exchange (SEE) pruning of single moves; late moves are searched with
//! reductions that grow with depth and move number (less for killers, counter-moves, good
//! history and improving nodes, more at expected cut nodes). A node with no hash move is
//! searched a ply shallower (internal iterative reduction). A hash move that alone holds the
//! node's score is searched a ply deeper (singular extension), found by searching the node
//! without it at half depth.

use shakmaty::{Bitboard, Chess, Color, Move, MoveList, Position, Role};

use super::Report;
use super::ordering::{COUNTER_MOVE, Lineage, MovePicker, capture_score, material_gain, piece_to};
use super::params::{self, CURRMOVE_AFTER, QS_HASH_MOVE, REVERSE_FUTILITY_FEW_MOVES};
use super::repetition::Recurrence;
use super::score::{INFINITE, MATE, MATE_BOUND, MAX_PLY, from_table, is_mate, mated_in, to_table};
use super::see;
use super::tablebase::{Outcome, TB_WIN, TB_WIN_BOUND};
use super::tt::{Bound, Entry, Scope, pack_move};
use super::worker::Worker;
use crate::game::rules::{FIFTY_MOVE_HALFMOVES, fifty_moves_complete};
use crate::game::{gives_check, is_dead_by_material, key_after, position_key};

impl Worker<'_> {
    /// Records that the score being computed rests on the path down to key-stack `index`
    /// (below 0: down to a position before the first on the stack).
    fn depends_on(&mut self, index: isize) {
        self.path.dependency = self.path.dependency.min(index);
    }

    /// A draw or loss by rule at a non-root node: repetition, fifty moves (mate first), or
    /// dead material.
    fn rule_score(&mut self, pos: &Chess, ply: usize) -> Option<i32> {
        let halfmoves = pos.halfmoves();
        match self.path.keys.recurrence(halfmoves) {
            Recurrence::Draw(earlier) => {
                self.depends_on(earlier as isize);
                return Some(self.draw_score(ply));
            }
            Recurrence::Twofold(_) => self.path.twofold = true,
            Recurrence::New => {}
        }
        if fifty_moves_complete(halfmoves) {
            // A mate on the hundredth halfmove still counts.
            if pos.is_checkmate() {
                return Some(mated_in(ply));
            }
            // The clock, and so this draw, depends on the moves since the last zeroing one: on
            // the path from the position after it, which comes before the first position on
            // the stack when the game was set up with the clock running.
            self.depends_on(self.path.keys.top() as isize - halfmoves as isize);
            return Some(self.draw_score(ply));
        }
        if is_dead_by_material(pos) {
            return Some(self.draw_score(ply));
        }
        None
    }

    /// The moves that led to the node at `ply`, whose side to move is `turn`.
    fn lineage(&self, ply: usize, turn: shakmaty::Color) -> Lineage {
        let played = |back: usize| ply.checked_sub(back).and_then(|p| self.path.played[p]);
        Lineage {
            previous: played(1),
            continuations: [
                played(1).map(|m| piece_to(!turn, m)),
                played(2).map(|m| piece_to(turn, m)),
            ],
        }
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.path.pv.split_at_mut(ply + 1);
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
        self.search(pos, key, depth, alpha, beta, ply, false)
    }

    /// `negamax` for a child whose parent knows what to expect of it: `cut` marks an expected
    /// cut node (a null window the parent searched expecting it to fail high).
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        pos: &Chess,
        key: u64,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        cut: bool,
    ) -> i32 {
        let outer = std::mem::replace(&mut self.path.dependency, isize::MAX);
        let outer_twofold = std::mem::replace(&mut self.path.twofold, false);
        let score = self.search_node(pos, key, depth, alpha, beta, ply, cut);
        self.path.dependency = self.path.dependency.min(outer);
        self.path.twofold |= outer_twofold;
        score
    }

    /// True for the draw score of either side.
    fn is_draw_value(&self, score: i32) -> bool {
        score == self.draw_score(0) || score == self.draw_score(1)
    }

    /// How long the node's `score` may be kept: a draw resting on the path (a repetition or
    /// the fifty-move clock below) for this search only; a score whose subtree met a twofold
    /// of a game position until the game repeats positions.
    fn scope_of(&self, score: i32) -> Scope {
        if self.path_dependent() && self.is_draw_value(score) {
            Scope::ThisSearch
        } else if self.path.twofold {
            Scope::UntilRepeated
        } else {
            Scope::Always
        }
    }

    /// The hash table's entry for `key`, the position at `ply`. A score an earlier search
    /// stored resting on a twofold is, once the game has repeated a position, only a bound
    /// toward the draw: that twofold may be a threefold now.
    fn probe_table(&self, key: u64, ply: usize) -> Option<Entry> {
        let entry = self.shared.tt.probe(key)?;
        Some(if entry.earlier_twofold && self.path.keys.game_repeated() {
            entry.toward_draw(self.draw_score(ply))
        } else {
            entry
        })
    }

    /// A node that returns `e`'s score takes over what that score rests on, so that its
    /// parents store theirs for no longer than the entry may be used: a draw kept for this
    /// search rests on a path (how far back is no longer known, so on all of it), a score
    /// stored on a twofold on that twofold.
    fn inherit(&mut self, e: &Entry) {
        if e.this_search {
            self.depends_on(isize::MIN);
        }
        if e.twofold {
            self.path.twofold = true;
        }
    }

    /// True when the score of the node on top of the key stack rests on positions before it.
    fn path_dependent(&self) -> bool {
        self.path.dependency < self.path.keys.top() as isize
    }

    /// One node, in the order Stockfish's search takes: enter (rules, bounds, a repetition in
    /// hand), the horizon, probe (hash table, tablebases), evaluate, prune the whole node,
    /// generate, search the moves, store.
    #[allow(clippy::too_many_arguments)]
    fn search_node(
        &mut self,
        pos: &Chess,
        key: u64,
        mut depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        cut: bool,
    ) -> i32 {
        let pv = beta - alpha > 1;
        let kind = NodeKind {
            root: ply == 0,
            pv,
            cut: cut && !pv,
            excluded: self.path.excluded[ply],
        };
        self.path.pv[ply].clear();
        let mut window = Window {
            alpha,
            beta,
            draw_floor: -INFINITE,
        };
        if !kind.root
            && let Some(score) = self.enter_node(pos, ply, &mut window)
        {
            return score;
        }
        if depth <= 0 {
            return self
                .quiescence(pos, key, window.alpha, window.beta, ply)
                .max(window.draw_floor);
        }
        self.stats.nodes += 1;
        self.stats.seldepth = self.stats.seldepth.max(ply as u32);
        if kind.root {
            self.root.depth = depth;
        }
        let entry = match self.probe_node(pos, key, depth, &window, ply, &kind) {
            Ok(entry) => entry,
            // A stored bound knows nothing of a draw in hand on this path.
            Err(score) => return score.max(window.draw_floor),
        };
        let node = self.evaluate_node(pos, entry, depth, ply, &kind);
        // Internal iterative reduction: with no hash move the node was not searched before (or
        // not usefully); search it a ply shallower rather than spend full depth on a guess.
        if node.hash_move == 0 && depth >= params::iir_depth() {
            depth -= 1;
        }
        if !kind.pv
            && !node.in_check
            && !kind.root
            && kind.excluded.is_none()
            && let Some(score) = self.prune_node(pos, key, depth, &window, &node, ply, &kind)
        {
            return score;
        }
        let mut moves: MoveList = if kind.root {
            self.root.moves.iter().copied().collect()
        } else {
            pos.legal_moves()
        };
        if moves.is_empty() {
            return if node.in_check {
                mated_in(ply)
            } else {
                self.draw_score(ply)
            };
        }
        // The window the moves are searched in, which the stored bound is judged against.
        let (alpha, beta) = (window.alpha, window.beta);
        let searched =
            match self.search_moves(pos, key, &mut moves, depth, &mut window, &node, ply, &kind) {
                Ok(searched) => searched,
                Err(score) => return score,
            };
        // A draw in hand is a floor under the fail-low value too.
        let best_score = searched.score.max(window.draw_floor);
        if kind.excluded.is_some() {
            // The node without its best move: a partial answer, not for the table.
            return best_score;
        }
        self.store_node(
            pos,
            key,
            searched.best_move,
            best_score,
            alpha,
            beta,
            &node,
            depth,
            ply,
        );
        best_score
    }

    /// Entering a node below the root: the stop flag, draws and losses by rule, the ply limit,
    /// mate distance pruning, and a repetition the side to move can reach (a draw in hand,
    /// which raises alpha and becomes the floor of the result). Returns the score when that
    /// settles the node.
    fn enter_node(&mut self, pos: &Chess, ply: usize, window: &mut Window) -> Option<i32> {
        if self.poll() {
            return Some(0);
        }
        if let Some(score) = self.rule_score(pos, ply) {
            return Some(score);
        }
        if ply >= MAX_PLY - 1 {
            return Some(self.eval.evaluate(pos, ply));
        }
        // Mate distance pruning: no line from here can beat a mate found nearer the root.
        window.alpha = window.alpha.max(mated_in(ply));
        window.beta = window.beta.min(MATE - ply as i32 - 1);
        if window.alpha >= window.beta {
            return Some(window.alpha);
        }
        // If the side to move can repeat a position, it can hold at least a draw.
        let draw = self.draw_score(ply);
        if window.alpha < draw {
            let board = pos.board();
            let own = board.by_color(pos.turn());
            if let Some(target) =
                self.path
                    .keys
                    .upcoming_repetition(pos.halfmoves(), board.occupied(), own)
            {
                self.depends_on(target as isize);
                window.alpha = draw;
                window.draw_floor = draw;
                if window.alpha >= window.beta {
                    return Some(window.alpha);
                }
            }
        }
        None
    }

    /// The hash table's entry for the node, unless it or the tablebases settle the node
    /// (`Err` with the score).
    fn probe_node(
        &mut self,
        pos: &Chess,
        key: u64,
        depth: i32,
        window: &Window,
        ply: usize,
        kind: &NodeKind,
    ) -> Result<Option<Entry>, i32> {
        let entry = self.probe_table(key, ply);
        if let Some(e) =
            entry.filter(|e| !kind.pv && !kind.root && kind.excluded.is_none() && e.depth >= depth)
            && let Some(score) = table_cutoff(e, pos, ply, window.alpha, window.beta)
        {
            self.inherit(&e);
            return Err(score);
        }
        if !kind.root
            && kind.excluded.is_none()
            && let Some(score) = self.probe_tables(pos, depth, window.alpha, window.beta, ply)
        {
            return Err(score);
        }
        Ok(entry)
    }

    /// What the node knows before searching a move: the static evaluation (kept on the path
    /// for `improving`), the evaluation refined by the hash score, the hash move, and the
    /// hash score that may make the hash move singular.
    fn evaluate_node(
        &mut self,
        pos: &Chess,
        entry: Option<Entry>,
        depth: i32,
        ply: usize,
        kind: &NodeKind,
    ) -> NodeEval {
        let in_check = pos.is_check();
        let StaticEval {
            raw: raw_eval,
            value: static_eval,
            scaled_by_rule,
        } = if in_check {
            StaticEval {
                raw: -INFINITE,
                value: -INFINITE,
                scaled_by_rule: false,
            }
        } else {
            self.static_eval(pos, entry, ply)
        };
        self.path.evals[ply] = static_eval;
        let singular_score = entry
            .filter(|e| {
                !kind.root
                    && kind.excluded.is_none()
                    && depth >= params::singular_depth()
                    && e.depth >= depth - params::singular_entry_depth_slack()
                    && e.bound != Bound::Upper
                    // A draw that rests on the path is no measure for the other moves.
                    && !e.this_search
                    && (ply as i32) < 2 * self.root.depth
            })
            .map(|e| from_table(e.score, ply))
            .filter(|&score| !is_mate(score));
        NodeEval {
            entry,
            in_check,
            raw_eval,
            static_eval,
            scaled_by_rule,
            eval: refined_eval(static_eval, entry, ply),
            improving: self.improving(ply, static_eval),
            hash_move: entry.map_or(0, |e| e.packed_move),
            singular_score,
        }
    }

    /// The static evaluation of `pos` (not in check), the position at `ply`: the raw one from
    /// the hash entry (the same position evaluates the same) or the evaluator, plus the
    /// correction history's entry, through the material rule.
    fn static_eval(&mut self, pos: &Chess, entry: Option<Entry>, ply: usize) -> StaticEval {
        let raw = match entry {
            Some(e) => e.eval,
            None => self.eval.raw(pos, ply),
        };
        let corrected = self.heuristics.correction.corrected(pos, raw);
        let value = self.eval.finish(pos, corrected);
        StaticEval {
            raw,
            value,
            scaled_by_rule: value != corrected,
        }
    }

    /// Cuts of a whole non-PV node not in check near the leaves: razoring, reverse futility and
    /// the null move. Returns the score of the cut.
    #[allow(clippy::too_many_arguments)]
    fn prune_node(
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
        // Razoring: hopelessly below alpha near the leaves, see if a capture saves it.
        if depth <= params::razor_depth() && eval + params::razor_margin() * depth <= alpha {
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
    fn probcut(
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

    /// The move loop: each move in order (the hash move first), singular extension of the hash
    /// move, shallow-depth pruning, late-move reductions with principal-variation re-searches.
    /// Returns the best score and move, or `Err` with the node's score when it ends early (a
    /// multi-cut, the search stopped).
    #[allow(clippy::too_many_arguments)]
    fn search_moves(
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
        let lineage = self.lineage(ply, pos.turn());
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
    fn reduction(
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
    fn principal_variation_search(
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

    /// Stores the node's result: its bound against the window its moves were searched in
    /// (`alpha`, `beta`, after mate distance and a repetition in hand narrowed it), and its
    /// scope. A draw score resting on a repetition or the fifty-move clock belongs to this
    /// path: later iterations of this search may use it (graph-history interaction accepted,
    /// see `tt`), later searches only its move.
    #[allow(clippy::too_many_arguments)]
    fn store_node(
        &mut self,
        pos: &Chess,
        key: u64,
        best_move: Option<Move>,
        best_score: i32,
        alpha: i32,
        beta: i32,
        node: &NodeEval,
        depth: i32,
        ply: usize,
    ) {
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let scope = self.scope_of(best_score);
        self.shared.tt.store(
            key,
            best_move,
            to_table(best_score, ply),
            node.raw_eval,
            depth,
            bound,
            scope,
        );
        // The search's score teaches the correction history where its bound says on which
        // side of the static evaluation the truth lies, and when it is the position's own
        // worth: not a mate or a tablebase score, not a draw that rests on the path, and not
        // the gain of a capture or promotion the evaluation could not have seen.
        let informative = match bound {
            Bound::Exact => true,
            Bound::Lower => best_score > node.static_eval,
            Bound::Upper => best_score < node.static_eval,
        };
        if !node.in_check
            && !node.scaled_by_rule
            && informative
            && scope != Scope::ThisSearch
            && best_score.abs() < TB_WIN_BOUND
            && best_move.is_none_or(is_quiet)
        {
            self.heuristics
                .correction
                .update(pos, node.raw_eval, best_score, depth);
        }
    }

    /// Searches the node without the hash move `m`, at half depth, in a null window just below
    /// the hash score: if every other move fails low there, `m` alone holds the score and is
    /// extended (by two plies at a non-PV node when the others stay far below, a few times a
    /// line); if one reaches the window, the node likely has several good moves.
    #[allow(clippy::too_many_arguments)]
    fn singular(
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
    fn improving(&self, ply: usize, static_eval: i32) -> bool {
        if static_eval == -INFINITE {
            return false;
        }
        match ply.checked_sub(2).map(|p| self.path.evals[p]) {
            Some(earlier) if earlier != -INFINITE => static_eval > earlier,
            _ => true,
        }
    }

    /// Moves not worth searching near the leaves of a non-PV node, once a move has been
    /// searched: late quiet moves (by count), quiet moves that cannot lift a hopeless static
    /// evaluation to alpha (futility), quiet moves with a bad history, and moves that lose too
    /// much material in the exchange.
    fn prune_at_shallow_depth(
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
        let tables = self.shared.tables?;
        if pos.halfmoves() != 0 || !tables.covers(pos) {
            return None;
        }
        if pos.board().occupied().count() == tables.max_pieces()
            && depth < self.settings.syzygy_probe_depth
        {
            return None;
        }
        let outcome = tables.wdl_after_zeroing(pos)?;
        self.stats.tbhits += 1;
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

    /// Quiescence: only captures and queen promotions (all moves when in check), with the
    /// static evaluation as a "stand pat" floor. Results go to the hash table at depth 0.
    fn quiescence(&mut self, pos: &Chess, key: u64, mut alpha: i32, beta: i32, ply: usize) -> i32 {
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

/// What kind of node is searched.
struct NodeKind {
    root: bool,
    /// A principal-variation node: searched with an open window.
    pv: bool,
    /// An expected cut node: a null-window node its parent expects to fail high (see
    /// `principal_variation_search`); never a PV node.
    cut: bool,
    /// Set while testing whether that move is singular: the node is searched without it.
    excluded: Option<Move>,
}

/// The node's window as it narrows, and the score the side to move has in hand by repeating a
/// position (`-INFINITE` when none).
struct Window {
    alpha: i32,
    beta: i32,
    draw_floor: i32,
}

/// A position's static evaluation, and what it was made from.
struct StaticEval {
    /// Before the correction and the material rule (what the hash table keeps).
    raw: i32,
    /// What the search reads.
    value: i32,
    /// The material rule took some of it away.
    scaled_by_rule: bool,
}

/// What the node knows before its moves are searched.
struct NodeEval {
    /// The node's hash entry, if any.
    entry: Option<Entry>,
    in_check: bool,
    /// The evaluation as the network (or the hand-written evaluation) gives it, before the
    /// material rule; the hash table keeps it (`-INFINITE` in check).
    raw_eval: i32,
    /// The static evaluation: the raw one with the correction history's part, through the
    /// material rule (`-INFINITE` in check).
    static_eval: i32,
    /// The material rule took some of the evaluation away (a fortress, a level ending without
    /// pawns): the search's score says nothing of what the raw evaluation missed, and the
    /// correction history does not learn from it.
    scaled_by_rule: bool,
    /// The static evaluation, or the hash score where its bound says it is better.
    eval: i32,
    improving: bool,
    /// The hash move, packed (0 for none).
    hash_move: u16,
    /// The hash score that may make the hash move singular.
    singular_score: Option<i32>,
}

/// The best of the moves searched.
struct Searched {
    score: i32,
    best_move: Option<Move>,
}

/// What the shallow-depth pruning needs to know of the node and the move.
struct Shallow {
    depth: i32,
    /// The move's ordering score: its history, for a quiet move that is not a killer.
    order_score: i32,
    in_check: bool,
    gives_check: bool,
    improving: bool,
    /// The static evaluation, or the hash score where its bound says it is better.
    eval: i32,
    alpha: i32,
}

/// What the singular-extension test found.
enum Singular {
    /// Every other move fails low: the hash move alone holds the node, and is searched this
    /// many plies deeper.
    Extend(i32),
    /// Another move reaches this score too (a cutoff if it is at least beta).
    MultiCut(i32),
    Stopped,
}

/// A move that neither captures nor promotes.
fn is_quiet(m: Move) -> bool {
    !m.is_capture() && m.promotion().is_none()
}

/// The moves quiescence and ProbCut try outside check: captures and queen promotions.
fn is_tactical(m: Move) -> bool {
    m.is_capture() || m.promotion() == Some(Role::Queen)
}

/// The order of those moves: the hash move first, then by `capture_score`.
fn tactical_order(m: Move, hash_move: u16) -> i32 {
    capture_score(m) + i32::from(pack_move(m) == hash_move) * QS_HASH_MOVE
}

/// Late-move pruning: at `depth`, a node that has searched `quiets_tried` quiet moves skips
/// the rest of its quiet moves (those that do not give check) from
/// `(late_move_count + depth²) / 2` on, or twice that when `improving`.
fn late_quiets_exhausted(depth: i32, improving: bool, quiets_tried: usize) -> bool {
    let enough = (params::late_move_count() + depth * depth) / (2 - i32::from(improving));
    quiets_tried as i32 >= enough
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
/// logarithms of both, so late moves at high depth lose most. A normal build reads it from a
/// table made once; a tuning build works it out each time, as its parameters may change.
fn late_move_reduction(depth: i32, index: usize) -> i32 {
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
fn reduction_formula(depth: usize, index: usize) -> i32 {
    if depth == 0 || index == 0 {
        return 0;
    }
    let base = f64::from(params::lmr_base_percent()) / 100.0;
    let divisor = f64::from(params::lmr_divisor_percent()) / 100.0;
    (base + (depth as f64).ln() * (index as f64).ln() / divisor) as i32
}

/// The side to move's pieces other than pawns and king.
fn own_pieces(pos: &Chess) -> Bitboard {
    let board = pos.board();
    board.by_color(pos.turn()) & !board.pawns() & !board.kings()
}

/// True when the side to move has a piece other than pawns and king.
fn has_pieces(pos: &Chess) -> bool {
    own_pieces(pos).any()
}

/// True when either side has nothing but its king: the game is then about a mate or a draw,
/// and the static evaluation measures how near the edge the lone king stands, not whether a
/// mate is there. With net 5, reverse futility pruning at such nodes put off the rook's mate in
/// three by a ply (found at depth 7, not 6) and Black's rook mate in three by three plies;
/// sparing only the lone king's own nodes moved the cutoffs to the mating side's and put the
/// first mate off further (depth 9 for mate in three). A board with a bare king is rare in real
/// games and cheap to search.
fn has_bare_king(pos: &Chess) -> bool {
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
fn is_mate_hunt(pos: &Chess) -> bool {
    pos.board().pawns().is_empty() && has_bare_king(pos)
}

/// True when the side to move has `REVERSE_FUTILITY_FEW_MOVES` legal moves or fewer. A side
/// with two pieces besides its king and pawns is taken to have more without generating them:
/// that keeps the test off the busy nodes (it changes no node of `bench`, and costs it no
/// speed, where generating the moves everywhere cost 5%).
fn has_few_moves(pos: &Chess) -> bool {
    own_pieces(pos).count() < 2 && pos.legal_moves().len() <= REVERSE_FUTILITY_FEW_MOVES
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

#[cfg(test)]
mod tests {
    use shakmaty::Position;

    use super::super::Settings;
    use super::super::tt::{Bound, Entry, Scope};
    use super::super::worker::Rig;
    use crate::game::{Game, parse_fen};
    use crate::search::score::{INFINITE, draw_value};

    /// White, a rook down and facing mate, checks from h5 and e8 (Qe8+ Kh7 Qh5+ Kg8): each
    /// check has one reply. The position after Qh5+ Kg8 is the start of this cycle.
    const CYCLE_START: &str = "6k1/6p1/8/7Q/8/1P6/PPqr4/K7 w - - 0 1";

    /// The game that went round the cycle once and a half: the root (White to move, king on h7)
    /// is here for the second time, and Qh5+ Kg8 would bring the start position a third time.
    fn with_history() -> Game {
        let mut game = Game::new(parse_fen(CYCLE_START).expect("fen"));
        for m in ["h5e8", "g8h7", "e8h5", "h7g8", "h5e8", "g8h7"] {
            game.play_uci(m).expect("legal");
        }
        game
    }

    /// The same root position with no game before it.
    fn without_history() -> Game {
        Game::new(with_history().position().clone())
    }

    #[test]
    fn a_threefold_two_plies_deep_is_a_draw() {
        for contempt in [0, 40] {
            let settings = Settings {
                contempt,
                ..Settings::default()
            };
            let mut rig = Rig::new();
            let game = with_history();
            let mut worker = rig.worker(&game, settings);
            // Depth 1 (plus the check extension): the repetition is at the leaves.
            let score = worker.search_root(&game, 1, -INFINITE, INFINITE);
            assert_eq!(score, draw_value(contempt, 0), "contempt {contempt}");
            // The first move of the line is the check (the root's `line::complete_repetition`
            // adds the reply, which only reaches the draw already in hand).
            let first = worker.path.pv[0]
                .first()
                .map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string());
            assert_eq!(first.as_deref(), Some("e8h5"), "contempt {contempt}");
        }
        // Without the game before it the same search sees only the lost material.
        let mut rig = Rig::new();
        let game = without_history();
        let mut worker = rig.worker(&game, Settings::default());
        let score = worker.search_root(&game, 1, -INFINITE, INFINITE);
        assert!(score < -200, "{score}");
    }

    #[test]
    fn a_draw_stored_on_a_repeating_path_gives_no_cutoff_on_another() {
        let mut rig = Rig::new();
        let game = with_history();
        let mut worker = rig.worker(&game, Settings::default());
        assert_eq!(worker.search_root(&game, 1, -INFINITE, INFINITE), 0);
        drop(worker);
        // The next search, from the same position without the history: after Qh5+ Black
        // (to move, in check) is winning. The table holds the draw the first search found
        // there; a null window well above it must not be cut by that draw.
        rig.tt.new_search();
        let game = without_history();
        let mut worker = rig.worker(&game, Settings::default());
        let mut child = game.position().clone();
        let check = crate::game::parse_uci_move(&child, "e8h5").expect("legal");
        child.play_unchecked(check);
        let key = crate::game::position_key(&child);
        worker.path.keys.push(key);
        let score = worker.negamax(&child, key, 1, 100, 101, 1);
        assert!(score >= 101, "Black's score after Qh5+: {score}");
    }

    /// Searches the position after Qe8+ from the cycle's start (Black in check, Kh7 its only
    /// move) on a null window, with `stored` already in the table for the position after Kh7
    /// at full depth, and returns the entry the search leaves for the position after Qe8+.
    fn entry_above(stored: i32, scope: Scope) -> Entry {
        let mut rig = Rig::new();
        let game = Game::new(parse_fen(CYCLE_START).expect("fen"));
        let mut after_check = game.position().clone();
        after_check
            .play_unchecked(crate::game::parse_uci_move(&after_check, "h5e8").expect("legal"));
        let mut after_reply = after_check.clone();
        after_reply
            .play_unchecked(crate::game::parse_uci_move(&after_reply, "g8h7").expect("legal"));
        let reply_key = crate::game::position_key(&after_reply);
        rig.tt
            .store(reply_key, None, stored, 0, 30, Bound::Exact, scope);
        let key = crate::game::position_key(&after_check);
        let mut worker = rig.worker(&game, Settings::default());
        worker.path.keys.push(key);
        let score = worker.negamax(&after_check, key, 2, -1, 0, 1);
        assert_eq!(score, -stored, "the reply's entry settles the node");
        drop(worker);
        rig.tt.probe(key).expect("the node stored its score")
    }

    #[test]
    fn a_node_cut_by_a_draw_kept_for_this_search_keeps_its_own_for_this_search() {
        // The draw below rests on some path; the node's score rests on it, so it must not
        // outlive this search.
        let e = entry_above(0, Scope::ThisSearch);
        assert_eq!(e.score, 0);
        assert!(e.this_search, "{e:?}");
    }

    #[test]
    fn a_node_cut_by_a_score_resting_on_a_twofold_rests_on_it_too() {
        let e = entry_above(300, Scope::UntilRepeated);
        assert_eq!(e.score, -300);
        assert!(e.twofold, "{e:?}");
        // A score that rests on nothing is kept as it is.
        let plain = entry_above(300, Scope::Always);
        assert!(!plain.twofold && !plain.this_search, "{plain:?}");
    }
}
