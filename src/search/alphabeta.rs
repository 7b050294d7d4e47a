//! One node of the main search (negamax alpha-beta), in the order Stockfish's search takes:
//! enter it (the stop flag, draws and losses by rule, a repetition in hand), the horizon,
//! probe (hash table, tablebases), evaluate, prune the whole node (`pruning.rs`), search the
//! moves (`moves.rs`), store. Also what a stored score rests on: a draw on this search's path,
//! kept for this search only, or a twofold of a game position, until the game repeats.
//!
//! The static evaluation is the network's score plus the correction history's entry, through
//! the material rule, then shrunk as the fifty-move draw comes near; a node a few plies from
//! that draw whose depth reaches it is searched without pruning or reductions
//! ([`NodeKind::clock`]), so that lines short of the draw do not stand in for it. At the
//! horizon the search goes on in `quiescence.rs`.

use shakmaty::{Chess, Move, MoveList, Position};

use super::evaluation::fifty_move_scale;
use super::moves::is_quiet;
use super::params;
use super::repetition::Recurrence;
use super::score::{INFINITE, MATE, MAX_PLY, from_table, is_mate, mated_in, to_table};
use super::tablebase::{Outcome, TB_WIN, TB_WIN_BOUND};
use super::tt::{Bound, Entry, Scope};
use super::worker::Worker;
use crate::game::is_dead_by_material;
use crate::game::rules::{FIFTY_MOVE_HALFMOVES, fifty_moves_complete};

impl Worker<'_> {
    /// Records that the score being computed rests on the path down to key-stack `index`
    /// (below 0: down to a position before the first on the stack).
    pub(super) fn depends_on(&mut self, index: isize) {
        self.path.dependency = self.path.dependency.min(index);
    }

    /// A draw or loss by rule at a non-root node: repetition, fifty moves (mate first), or
    /// dead material.
    pub(super) fn rule_score(&mut self, pos: &Chess, ply: usize) -> Option<i32> {
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
    pub(super) fn search(
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
    pub(super) fn is_draw_value(&self, score: i32) -> bool {
        score == self.draw_score(0) || score == self.draw_score(1)
    }

    /// How long the node's `score` may be kept: a draw resting on the path (a repetition or
    /// the fifty-move clock below) for this search only; a score whose subtree met a twofold
    /// of a game position until the game repeats positions.
    pub(super) fn scope_of(&self, score: i32) -> Scope {
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
    pub(super) fn probe_table(&self, key: u64, ply: usize) -> Option<Entry> {
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
    pub(super) fn inherit(&mut self, e: &Entry) {
        if e.this_search {
            self.depends_on(isize::MIN);
        }
        if e.twofold {
            self.path.twofold = true;
        }
    }

    /// True when the score of the node on top of the key stack rests on positions before it.
    pub(super) fn path_dependent(&self) -> bool {
        self.path.dependency < self.path.keys.top() as isize
    }

    /// One node, in the order Stockfish's search takes: enter (rules, bounds, a repetition in
    /// hand), the horizon, probe (hash table, tablebases), evaluate, prune the whole node,
    /// generate, search the moves, store.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search_node(
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
            clock: fifty_move_draw_within(pos.halfmoves(), depth),
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
            && !kind.clock
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
    pub(super) fn enter_node(
        &mut self,
        pos: &Chess,
        ply: usize,
        window: &mut Window,
    ) -> Option<i32> {
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
    pub(super) fn probe_node(
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
    pub(super) fn evaluate_node(
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
    pub(super) fn static_eval(
        &mut self,
        pos: &Chess,
        entry: Option<Entry>,
        ply: usize,
    ) -> StaticEval {
        let raw = match entry {
            Some(e) => e.eval,
            None => self.eval.raw(pos, ply),
        };
        let corrected = self.heuristics.correction.corrected(pos, raw);
        let value = fifty_move_scale(self.eval.finish(pos, corrected), pos.halfmoves());
        StaticEval {
            raw,
            value,
            scaled_by_rule: value != corrected,
        }
    }

    /// Stores the node's result: its bound against the window its moves were searched in
    /// (`alpha`, `beta`, after mate distance and a repetition in hand narrowed it), and its
    /// scope. A draw score resting on a repetition or the fifty-move clock belongs to this
    /// path: later iterations of this search may use it (graph-history interaction accepted,
    /// see `tt`), later searches only its move.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store_node(
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

    /// A WDL probe right after a capture or pawn move (the clock at 0, so the fifty-move rule is
    /// fully accounted for); returns the score when it settles the node.
    pub(super) fn probe_tables(
        &mut self,
        pos: &Chess,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<i32> {
        let tables = self.shared.tables?;
        let pieces = pos.board().occupied().count();
        let largest = tables.max_pieces().min(self.settings.syzygy_probe_limit);
        if pos.halfmoves() != 0 || !tables.covers(pos) || pieces > largest {
            return None;
        }
        if pieces == largest && depth < self.settings.syzygy_probe_depth {
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
}

/// What kind of node is searched.
pub(super) struct NodeKind {
    pub(super) root: bool,
    /// A principal-variation node: searched with an open window.
    pub(super) pv: bool,
    /// An expected cut node: a null-window node its parent expects to fail high (see
    /// `principal_variation_search`); never a PV node.
    pub(super) cut: bool,
    /// Set while testing whether that move is singular: the node is searched without it.
    pub(super) excluded: Option<Move>,
    /// The fifty-move draw lies within the node's depth, a few plies away: no pruning or
    /// reduction may end a line short of it (see [`fifty_move_draw_within`]).
    pub(super) clock: bool,
}

/// The node's window as it narrows, and the score the side to move has in hand by repeating a
/// position (`-INFINITE` when none).
pub(super) struct Window {
    pub(super) alpha: i32,
    pub(super) beta: i32,
    pub(super) draw_floor: i32,
}

/// A position's static evaluation, and what it was made from.
pub(super) struct StaticEval {
    /// Before the correction and the material rule (what the hash table keeps).
    pub(super) raw: i32,
    /// What the search reads.
    pub(super) value: i32,
    /// The material rule took some of it away.
    pub(super) scaled_by_rule: bool,
}

/// What the node knows before its moves are searched.
pub(super) struct NodeEval {
    /// The node's hash entry, if any.
    pub(super) entry: Option<Entry>,
    pub(super) in_check: bool,
    /// The evaluation as the network (or the hand-written evaluation) gives it, before the
    /// material rule; the hash table keeps it (`-INFINITE` in check).
    pub(super) raw_eval: i32,
    /// The static evaluation: the raw one with the correction history's part, through the
    /// material rule (`-INFINITE` in check).
    pub(super) static_eval: i32,
    /// The material rule took some of the evaluation away (a fortress, a level ending without
    /// pawns): the search's score says nothing of what the raw evaluation missed, and the
    /// correction history does not learn from it.
    pub(super) scaled_by_rule: bool,
    /// The static evaluation, or the hash score where its bound says it is better.
    pub(super) eval: i32,
    pub(super) improving: bool,
    /// The hash move, packed (0 for none).
    pub(super) hash_move: u16,
    /// The hash score that may make the hash move singular.
    pub(super) singular_score: Option<i32>,
}

/// True when the fifty-move draw is at most [`params::FIFTY_MOVE_EXACT_PLIES`] plies away and
/// within `depth`: the node is searched whole (`NodeKind::clock`).
pub(super) fn fifty_move_draw_within(halfmoves: u32, depth: i32) -> bool {
    let left = FIFTY_MOVE_HALFMOVES.saturating_sub(halfmoves) as i32;
    left <= depth && left <= params::FIFTY_MOVE_EXACT_PLIES
}

/// The static evaluation, corrected by the hash score where the bound says which way the
/// true score lies from it.
pub(super) fn refined_eval(static_eval: i32, entry: Option<Entry>, ply: usize) -> i32 {
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

/// The stored score of `e` when its bound settles the node's window (and a stored mate can
/// still be given before the fifty-move rule draws).
pub(super) fn table_cutoff(
    e: Entry,
    pos: &Chess,
    ply: usize,
    alpha: i32,
    beta: i32,
) -> Option<i32> {
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
pub(super) fn mate_fits_fifty_moves(score: i32, ply: usize, halfmoves: u32) -> bool {
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
