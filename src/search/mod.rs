//! The search: iterative deepening over a negamax alpha-beta with principal-variation search,
//! quiescence, a transposition table, and draws by repetition, fifty moves and material.
//!
//! - `alphabeta.rs`: the node searches (main and quiescence);
//! - `repetition.rs`: repetition draws along the game and the search path; `cuckoo.rs`: the
//!   table that finds a move repeating a position before it is played;
//! - `line.rs`: how a principal variation ends in a draw by rule;
//! - `ordering.rs`: move ordering (hash move, MVV-LVA, killers, history);
//! - `see.rs`: static exchange evaluation, to order captures and skip losing ones;
//! - `params.rs`: piece values and the search's margins and reductions;
//! - `strength.rs`: limited strength (`UCI_LimitStrength`, `UCI_Elo`);
//! - `tablebase.rs`: Syzygy probes at the root and in the tree;
//! - `tt.rs`: the transposition table; `score.rs`: mate and draw scores;
//! - `limits.rs`, `time.rs`: what `go` asks for and how long to think.

mod alphabeta;
mod cuckoo;
pub mod limits;
pub mod line;
pub mod ordering;
pub mod params;
pub mod repetition;
pub mod score;
pub mod see;
pub mod strength;
pub mod tablebase;
pub mod time;
pub mod tt;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use shakmaty::{Chess, Move, Position};

use crate::game::Game;
use alphabeta::Worker;
pub use limits::{Clock, Limits};
use line::LineEnd;
use ordering::Heuristics;
use repetition::KeyStack;
use score::{INFINITE, MATE, MAX_PLY, is_mate};
use strength::{CANDIDATE_LINES, Strength};
use tablebase::Tables;
use time::{SearchTrend, TimeManager};
use tt::TranspositionTable;

/// Flags the UCI loop sets while a search runs.
#[derive(Debug, Default)]
pub struct Signals {
    /// Stop as soon as possible and answer.
    pub stop: AtomicBool,
    /// The opponent played the predicted move: the ponder search becomes a timed search.
    pub ponderhit: AtomicBool,
}

/// What one finished iteration found, for `info` lines.
#[derive(Debug, Clone)]
pub struct Iteration {
    pub depth: u32,
    pub seldepth: u32,
    /// The line's rank when several are searched (MultiPV); None for a single line.
    pub multipv: Option<usize>,
    /// Tablebase probes so far (None without tables).
    pub tbhits: Option<u64>,
    /// From the side to move's point of view.
    pub score: i32,
    /// Some(true) when the score is a lower bound, Some(false) for an upper bound.
    pub bound: Option<bool>,
    pub nodes: u64,
    pub elapsed: Duration,
    pub hashfull: u32,
    pub pv: Vec<Move>,
    /// How the line ends in a draw by rule, when it does and its score is the draw's.
    pub draw: Option<LineEnd>,
}

/// One searched line: its score (from the side to move's view), its moves, and how it ends in
/// a draw by rule when it does (the search's one verdict on that, see `line::drawn_end`).
#[derive(Debug, Clone, Default)]
pub struct Line {
    pub score: i32,
    pub pv: Vec<Move>,
    pub draw: Option<LineEnd>,
}

/// The answer of a search.
#[derive(Debug, Clone, Default)]
pub struct SearchResult {
    /// None only when the side to move has no legal move.
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    /// The principal variation of the last finished iteration.
    pub pv: Vec<Move>,
    /// How the principal variation ends in a draw by rule, when it does (a forced draw).
    pub draw: Option<LineEnd>,
    /// Every line of the last finished iteration, best first.
    pub lines: Vec<Line>,
}

/// Settings that persist between searches.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    pub move_overhead_ms: u64,
    /// What a draw costs the side to move at the root, in centipawns (the other side gains it).
    pub contempt: i32,
    /// Search threads: the main one and `threads - 1` helpers (Lazy SMP).
    pub threads: usize,
    /// How many best lines to find (MultiPV).
    pub multi_pv: usize,
    /// Remaining depth from which positions with as many pieces as the largest tables are
    /// probed (smaller ones always are).
    pub syzygy_probe_depth: i32,
    /// Limited strength (`UCI_LimitStrength`), None for full strength.
    pub strength: Option<Strength>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            move_overhead_ms: 10,
            contempt: 0,
            threads: 1,
            multi_pv: 1,
            syzygy_probe_depth: 1,
            strength: None,
        }
    }
}

/// Stack for every search thread: deep lines copy positions on every ply.
pub const SEARCH_STACK_BYTES: usize = 64 * 1024 * 1024;

/// Everything a search keeps between moves: the hash table and the move-ordering tables.
pub struct Searcher {
    pub tt: TranspositionTable,
    pub heuristics: Heuristics,
    /// The move-ordering tables of the helper threads, one each.
    helper_heuristics: Vec<Heuristics>,
    pub settings: Settings,
    /// Syzygy tables, when `SyzygyPath` names some.
    pub tables: Option<Arc<Tables>>,
}

impl Searcher {
    pub fn new(hash_mib: usize) -> Searcher {
        cuckoo::init();
        Searcher {
            tt: TranspositionTable::new(hash_mib),
            heuristics: Heuristics::default(),
            helper_heuristics: Vec::new(),
            settings: Settings::default(),
            tables: None,
        }
    }

    /// Forgets everything learned (`ucinewgame`).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.heuristics.clear();
        self.helper_heuristics.clear();
    }

    /// Searches the current position of `game` within `limits`. `report` receives each
    /// finished iteration. Returns when a limit is reached or `signals.stop` is set.
    ///
    /// With `settings.threads` above one, helper threads search the same position at the same
    /// time with no limit of their own (Lazy SMP); they share only the hash table, which is how
    /// their work reaches the main thread. The main thread alone decides the move and stops them.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        signals: &Signals,
        report: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        self.tt.new_search();
        self.heuristics.new_search();
        let strength = self.settings.strength;
        let limited = strength.map(|s| limits_for_strength(limits, s));
        let limits = limited.as_ref().unwrap_or(limits);
        // A limited engine searches alone: helpers would add strength the budget does not count.
        let helpers = if strength.is_some() {
            0
        } else {
            self.settings.threads.max(1) - 1
        };
        self.helper_heuristics.truncate(helpers);
        self.helper_heuristics
            .resize_with(helpers, Heuristics::default);
        self.helper_heuristics
            .iter_mut()
            .for_each(Heuristics::new_search);
        let root = game.position().clone();
        let mut root_moves = root_moves(&root, limits);
        let tables = self.tables.as_deref();
        // In the tables, only the moves that keep the best result under the fifty-move rule.
        let mut root_tb = None;
        if let Some((kept, result)) = tables.and_then(|t| t.rank_root_moves(&root, &root_moves)) {
            root_moves = kept;
            root_tb = Some(result);
        }
        let Some(&fallback) = root_moves.first() else {
            return SearchResult::default();
        };
        let tt = &self.tt;
        let settings = self.settings;
        let helper_signals = Signals::default();
        let helper_limits = Limits {
            infinite: true,
            searchmoves: limits.searchmoves.clone(),
            ..Limits::default()
        };
        let helper_nodes: Vec<AtomicU64> = (0..helpers).map(|_| AtomicU64::new(0)).collect();
        let mut result = SearchResult {
            best: Some(fallback),
            ..SearchResult::default()
        };
        thread::scope(|scope| {
            let mut handles = Vec::new();
            for (id, heuristics) in self.helper_heuristics.iter_mut().enumerate() {
                let mut helper = Worker::new(
                    tt,
                    heuristics,
                    &helper_signals,
                    &helper_limits,
                    game,
                    settings,
                    root_moves.clone(),
                );
                helper.tables = tables;
                let published = &helper_nodes[id];
                let spawned = thread::Builder::new()
                    .name(format!("search-helper-{}", id + 1))
                    .stack_size(SEARCH_STACK_BYTES)
                    .spawn_scoped(scope, move || {
                        helper_search(helper, game, id + 1, published)
                    });
                match spawned {
                    Ok(handle) => handles.push(handle),
                    Err(e) => log::error!("cannot start search helper {}: {e}", id + 1),
                }
            }
            // Set on every way out of this block, a panic included, so the scope's join of the
            // helpers can never wait forever.
            let stop_helpers = StopOnDrop(&helper_signals.stop);
            let mut worker = Worker::new(
                tt,
                &mut self.heuristics,
                signals,
                limits,
                game,
                settings,
                root_moves,
            );
            worker.tables = tables;
            worker.root_tb = root_tb;
            let mut report_all = |it: &Iteration| {
                let helper_total: u64 =
                    helper_nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum();
                report(&Iteration {
                    nodes: it.nodes + helper_total,
                    ..it.clone()
                });
            };
            let searched_lines = match strength {
                Some(_) => settings.multi_pv.max(CANDIDATE_LINES),
                None => settings.multi_pv,
            };
            iterative_deepening(
                &mut worker,
                game,
                &mut result,
                &mut report_all,
                settings.multi_pv,
                searched_lines,
            );
            drop(stop_helpers);
            result.nodes = worker.nodes;
            for handle in handles {
                match handle.join() {
                    Ok(nodes) => result.nodes += nodes,
                    Err(_) => log::error!("a search helper failed"),
                }
            }
        });
        if let Some(strength) = strength {
            play_at_strength(&mut result, strength);
        }
        if result.ponder.is_none() {
            result.ponder = result
                .best
                .and_then(|m| ponder_from_table(&self.tt, &root, m));
        }
        result
    }
}

/// The limits of a search at limited strength: the node budget of that strength, or less.
fn limits_for_strength(limits: &Limits, strength: Strength) -> Limits {
    let budget = strength.node_budget();
    Limits {
        nodes: Some(limits.nodes.map_or(budget, |n| n.min(budget))),
        ..limits.clone()
    }
}

/// Replaces the best line with the one a player of `strength` would choose among them.
fn play_at_strength(result: &mut SearchResult, strength: Strength) {
    let scores: Vec<i32> = result.lines.iter().map(|l| l.score).collect();
    let chosen = strength.choose(&scores, &mut crate::rng::Rng::from_clock());
    if chosen == 0 {
        return;
    }
    let line = result.lines[chosen].clone();
    log::debug!(
        "limited strength: playing line {} ({} cp)",
        chosen + 1,
        line.score
    );
    result.best = line.pv.first().copied();
    result.ponder = line.pv.get(1).copied();
    result.score = line.score;
    result.draw = line.draw;
    result.pv = line.pv;
}

/// Raises a stop flag when dropped.
struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

impl<'a> Worker<'a> {
    /// A worker ready to search the current position of `game`.
    fn new(
        tt: &'a TranspositionTable,
        heuristics: &'a mut Heuristics,
        signals: &'a Signals,
        limits: &'a Limits,
        game: &Game,
        settings: Settings,
        root_moves: Vec<Move>,
    ) -> Worker<'a> {
        Worker {
            tt,
            heuristics,
            signals,
            limits,
            time: TimeManager::new(limits, settings.move_overhead_ms),
            started: Instant::now(),
            keys: KeyStack::new(game.reversible_keys()),
            root_moves,
            nodes: 0,
            published_nodes: None,
            tables: None,
            probe_depth: settings.syzygy_probe_depth,
            tbhits: 0,
            root_tb: None,
            seldepth: 0,
            stopped: false,
            contempt: settings.contempt,
            dependency: usize::MAX,
            ponder_clock_started: false,
            pv: vec![Vec::new(); MAX_PLY + 1],
            evals: vec![-INFINITE; MAX_PLY + 1],
            played: vec![None; MAX_PLY + 1],
            excluded: vec![None; MAX_PLY + 1],
            root_depth: 0,
            root_move_nodes: Vec::new(),
            trend: SearchTrend::default(),
        }
    }
}

/// A helper thread's search: deepening without reports until the main thread stops it; odd
/// helpers start one ply deeper so the threads do not all search the same depth at once.
/// Returns its node count.
fn helper_search<'a>(
    mut worker: Worker<'a>,
    game: &Game,
    id: usize,
    published: &'a AtomicU64,
) -> u64 {
    worker.published_nodes = Some(published);
    let first = 1 + (id % 2) as u32;
    for depth in first..=MAX_DEPTH {
        worker.seldepth = 0;
        worker.negamax(
            game.position(),
            game.key(),
            depth as i32,
            -INFINITE,
            INFINITE,
            0,
        );
        if worker.stopped || worker.signals.stop.load(Ordering::Relaxed) {
            break;
        }
    }
    published.store(worker.nodes, Ordering::Relaxed);
    worker.nodes
}

/// The legal root moves, restricted to `searchmoves` when given.
fn root_moves(root: &Chess, limits: &Limits) -> Vec<Move> {
    let legal = root.legal_moves();
    let chosen: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
        .collect();
    if chosen.is_empty() {
        legal.to_vec()
    } else {
        chosen
    }
}

/// The deepest depth iterative deepening may reach.
pub const MAX_DEPTH: u32 = 120;

fn iterative_deepening(
    worker: &mut Worker,
    game: &Game,
    result: &mut SearchResult,
    report: &mut dyn FnMut(&Iteration),
    shown_lines: usize,
    searched_lines: usize,
) {
    let max_depth = max_depth(worker.limits);
    let all_moves = worker.root_moves.clone();
    let lines_wanted = searched_lines.clamp(1, all_moves.len().max(1));
    for depth in 1..=max_depth {
        worker.seldepth = 0;
        let previous = result.lines.first().map(|l| l.score);
        worker.root_move_nodes.clear();
        let lines = best_lines(worker, game, depth, &all_moves, lines_wanted, previous);
        worker.root_moves = all_moves.clone();
        if lines.is_empty() || (worker.stopped && depth > 1) {
            break;
        }
        let best = &lines[0];
        result.best = best.pv.first().copied();
        result.ponder = best.pv.get(1).copied();
        result.score = shown_score(worker, best.score);
        result.depth = depth;
        result.pv = best.pv.clone();
        result.draw = best.draw;
        result.lines = lines.clone();
        if worker.stopped {
            break;
        }
        if let Some(m) = result.best {
            worker.trend.record(m, best.score);
        }
        for (index, line) in lines.iter().take(shown_lines.max(1)).enumerate() {
            report(&Iteration {
                depth,
                seldepth: worker.seldepth.max(depth),
                multipv: (shown_lines > 1).then_some(index + 1),
                score: shown_score(worker, line.score),
                tbhits: worker.tables.map(|_| worker.tbhits),
                bound: None,
                nodes: worker.nodes,
                elapsed: worker.started.elapsed(),
                hashfull: worker.tt.hashfull(),
                pv: line.pv.clone(),
                draw: line.draw,
            });
        }
        if worker.should_stop_after_iteration(lines[0].score) {
            break;
        }
    }
}

/// The score to show: the tables' verdict at the root, unless the search found a mate.
fn shown_score(worker: &Worker, score: i32) -> i32 {
    match worker.root_tb {
        Some(result) if !is_mate(score) => result.score(worker.draw_score(0)),
        _ => score,
    }
}

/// One iteration's `count` best lines, best first: each a full-window search of the root moves
/// not yet heading a line (MultiPV). Each line is scored on its own, so a draw one move allows
/// does not pull the other lines to 0.00.
fn best_lines(
    worker: &mut Worker,
    game: &Game,
    depth: u32,
    all_moves: &[Move],
    count: usize,
    previous: Option<i32>,
) -> Vec<Line> {
    let mut lines: Vec<Line> = Vec::new();
    for _ in 0..count {
        worker.root_moves = all_moves
            .iter()
            .copied()
            .filter(|m| !lines.iter().any(|l| l.pv.first() == Some(m)))
            .collect();
        let expected = previous.filter(|_| count == 1 && depth >= ASPIRATION_DEPTH);
        let score = match expected {
            Some(guess) => aspiration_search(worker, game, depth, guess),
            None => worker.negamax(
                game.position(),
                game.key(),
                depth as i32,
                -INFINITE,
                INFINITE,
                0,
            ),
        };
        let mut pv = worker.pv[0].clone();
        if pv.is_empty() || (worker.stopped && !lines.is_empty()) {
            break;
        }
        let mut draw = None;
        if score == worker.draw_score(0) {
            // The search stops a line where the side to move can repeat; show that move too.
            line::complete_repetition(game, &mut pv);
            draw = line::drawn_end(game, &pv);
        }
        lines.push(Line { score, pv, draw });
        if worker.stopped {
            break;
        }
    }
    // Later lines may score above earlier ones when a search was cut; keep the order honest.
    lines.sort_by_key(|l| std::cmp::Reverse(l.score));
    lines
}

/// From this depth on, a single line is searched in a window around the previous iteration's
/// score (aspiration), widened each time the score falls outside it.
const ASPIRATION_DEPTH: u32 = 5;
/// Half the width of the first aspiration window, in centipawns.
const ASPIRATION_WINDOW: i32 = 20;

/// The root searched in a narrow window around `guess`; a score outside the window is searched
/// again in a wider one on that side, until the score falls inside (or the search stops).
fn aspiration_search(worker: &mut Worker, game: &Game, depth: u32, guess: i32) -> i32 {
    if is_mate(guess) {
        return worker.negamax(
            game.position(),
            game.key(),
            depth as i32,
            -INFINITE,
            INFINITE,
            0,
        );
    }
    let mut delta = ASPIRATION_WINDOW;
    let mut alpha = (guess - delta).max(-INFINITE);
    let mut beta = (guess + delta).min(INFINITE);
    loop {
        let score = worker.negamax(game.position(), game.key(), depth as i32, alpha, beta, 0);
        if worker.stopped {
            return score;
        }
        delta += delta;
        if score <= alpha {
            // Fail low: the window moves down, and its top down toward the middle.
            beta = (alpha + beta) / 2;
            alpha = (score - delta).max(-INFINITE);
        } else if score >= beta {
            beta = (score + delta).min(INFINITE);
        } else {
            return score;
        }
    }
}

/// The depth limit: `go depth`, twice the moves of `go mate`, or the maximum.
fn max_depth(limits: &Limits) -> u32 {
    let mut depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    if let Some(moves) = limits.mate {
        depth = depth.min((moves.max(1) * 2).min(MAX_DEPTH));
    }
    depth
}

/// True when `score` is a mate for the side to move in at most `moves` moves.
pub(crate) fn mates_within(score: i32, moves: u32) -> bool {
    is_mate(score) && score > 0 && (MATE - score + 1) / 2 <= moves as i32
}

/// The opponent's expected reply after `best`, read from the hash table.
fn ponder_from_table(tt: &TranspositionTable, root: &Chess, best: Move) -> Option<Move> {
    let mut next = root.clone();
    next.play_unchecked(best);
    let entry = tt.probe(crate::game::position_key(&next))?;
    next.legal_moves()
        .iter()
        .copied()
        .find(|&m| tt::pack_move(m) == entry.packed_move)
}
