//! The threads of one search (Lazy SMP): the main thread iterates and reports, helper threads
//! search the same position with no limit of their own and share only the hash table; the main
//! thread alone decides the move and stops them, on every way out (a panic included). Also the
//! limited-strength wrapper: its node budget before the search, its choice of line after.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;

use shakmaty::{Chess, Move, Position};

use super::evaluation::EvalStack;
use super::ordering::Heuristics;
use super::root::{iterative_deepening, max_depth, ponder_from_table};
use super::score::INFINITE;
use super::strength::Strength;
use super::tablebase::{RootRanking, Settle, Tables};
use super::time::TimeManager;
use super::tt::TranspositionTable;
use super::worker::Worker;
use super::{
    Iteration, Limits, MAX_DEPTH, Report, SEARCH_STACK_BYTES, SearchResult, Searcher, Settings,
    Signals,
};
use crate::game::Game;
use crate::rng::Rng;

/// See [`Searcher::search`]. In steps: prepare the threads, plan the root moves (with the
/// tablebases' ranking), choose the evaluation, start the helpers, search on the main thread
/// (it alone reports and decides), stop and join the helpers, then limited strength's choice of
/// line and the ponder move. Every limit counts from `limits.started`, which the caller
/// (`guard.rs`) has set.
pub(super) fn search(
    searcher: &mut Searcher,
    game: &Game,
    limits: &Limits,
    signals: &Signals,
    report: &mut (dyn FnMut(Report) + Send),
) -> SearchResult {
    searcher.tt.new_search();
    searcher.heuristics.new_search();
    let strength = searcher.settings.strength;
    let limited = strength.map(|s| limits_for_strength(limits, s));
    let limits = limited.as_ref().unwrap_or(limits);
    let helpers = prepare_helpers(searcher);
    let root = game.position().clone();
    // Tables beyond `SyzygyProbeLimit` pieces are not there for this search.
    let tables = searcher
        .tables
        .as_deref()
        .filter(|_| root.board().occupied().count() <= searcher.settings.syzygy_probe_limit);
    let mut ranking_budget = RankingBudget::new(limits, signals, &searcher.settings);
    let plan = RootPlan::new(game, limits, tables, &mut ranking_budget);
    let Some(&fallback) = plan.kept.first() else {
        return SearchResult::default();
    };
    // The limited levels up to `HAND_WRITTEN_MAX_ELO` play with the hand-written evaluation:
    // they were calibrated on it (docs/uci.md, "Limited strength"). The hash table keeps static
    // evaluations, so it is cleared when the evaluation in use changes.
    let network = searcher
        .network
        .as_deref()
        .filter(|_| strength.is_none_or(Strength::uses_network));
    if searcher.table_uses_network != network.is_some() {
        searcher.tt.clear();
        searcher.table_uses_network = network.is_some();
    }
    let tt = &searcher.tt;
    let settings = searcher.settings;
    let helper_signals = Signals::default();
    let helper_limits = Limits {
        infinite: true,
        searchmoves: limits.searchmoves.clone(),
        ..Limits::default()
    };
    let helper_nodes: Vec<AtomicU64> = (0..helpers).map(|_| AtomicU64::new(0)).collect();
    // `go nodes` counts every thread's nodes: with helpers, each thread adds its own to one sum
    // and stops itself when the sum reaches the limit (the main thread may not be running).
    let all_nodes = AtomicU64::new(0);
    let node_budget = limits
        .nodes
        .filter(|_| helpers > 0)
        .map(|limit| (&all_nodes, limit));
    let mut result = SearchResult {
        best: Some(fallback),
        ..SearchResult::default()
    };
    thread::scope(|scope| {
        let mut handles = Vec::new();
        for (id, heuristics) in searcher.helper_heuristics.iter_mut().enumerate() {
            let mut helper = Worker::new(
                tt,
                heuristics,
                &helper_signals,
                &helper_limits,
                game,
                settings,
                plan.kept.clone(),
            );
            helper.shared.tables = tables;
            helper.eval = EvalStack::new(network, &root);
            helper.shared.node_budget = node_budget;
            handles.extend(start_helper(scope, helper, game, id, &helper_nodes[id]));
        }
        // Set on every way out of this block, a panic included, so the scope's join of the
        // helpers can never wait forever.
        let stop_helpers = StopOnDrop(&helper_signals.stop);
        // Reports count the helpers' nodes too.
        let mut report_all = |r: Report| match r {
            Report::Line(it) => {
                let helper_total: u64 =
                    helper_nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum();
                report(Report::Line(&Iteration {
                    nodes: it.nodes + helper_total,
                    ..it.clone()
                }));
            }
            other => report(other),
        };
        let mut worker = Worker::new(
            tt,
            &mut searcher.heuristics,
            signals,
            limits,
            game,
            settings,
            plan.moves,
        );
        worker.shared.tables = tables;
        worker.eval = EvalStack::new(network, &root);
        worker.root.tb = plan.ranking;
        worker.stats.tbhits = plan.probes;
        if ranking_budget.ponderhit {
            // The ponder search became a timed one during the ranking: its clock runs.
            worker.budget.ponder_clock_started = true;
            worker.budget.time = ranking_budget.time.clone();
        }
        worker.shared.node_budget = node_budget;
        worker.reporter = Some(&mut report_all);
        let searched_lines = searched_lines(&settings);
        iterative_deepening(
            &mut worker,
            game,
            &mut result,
            settings.multi_pv,
            searched_lines,
        );
        drop(stop_helpers);
        result.nodes = worker.stats.nodes;
        for handle in handles {
            match handle.join() {
                Ok(nodes) => result.nodes += nodes,
                Err(_) => log::error!("a search helper failed"),
            }
        }
    });
    finish(&mut result, strength, &searcher.tt, &root);
    result
}

/// The helper threads' history tables, one per helper, kept from search to search; returns how
/// many helpers search. A limited engine searches alone: helpers would add strength the budget
/// does not count.
fn prepare_helpers(searcher: &mut Searcher) -> usize {
    let helpers = if searcher.settings.strength.is_some() {
        0
    } else {
        searcher.settings.threads.max(1) - 1
    };
    let tables = &mut searcher.helper_heuristics;
    tables.truncate(helpers);
    tables.resize_with(helpers, Heuristics::default);
    tables.iter_mut().for_each(Heuristics::new_search);
    helpers
}

/// The root moves of one search. In the tables, the moves best by their result under the
/// fifty-move rule and the game's history come first; those that keep the best result are the
/// ones played from (and the only ones the helpers search).
struct RootPlan {
    /// Every root move, the tables' best first when they rank them.
    moves: Vec<Move>,
    /// The moves the best result keeps (all of them without tables).
    kept: Vec<Move>,
    ranking: Option<RootRanking>,
    /// The tables' probes of the ranking, reported as `tbhits`.
    probes: u64,
}

impl RootPlan {
    fn new(
        game: &Game,
        limits: &Limits,
        tables: Option<&Tables>,
        budget: &mut RankingBudget,
    ) -> RootPlan {
        let moves = limits.root_moves(game.position());
        // One line needs only the moves that could keep the best result settled; more lines
        // show the others' results too.
        let settle = if budget.lines > 1 {
            Settle::Every
        } else {
            Settle::Best
        };
        let ranked = tables.and_then(|t| {
            t.rank_root_moves_within(game, &moves, settle, &mut |probes| budget.allows(probes))
        });
        if let Some(ranking) = ranked.as_ref().filter(|r| !r.complete) {
            log::debug!(
                "tablebase ranking cut short by the search's budget after {} probes",
                ranking.probes
            );
        }
        match ranked {
            Some(ranking) => RootPlan {
                moves: ranking.moves.iter().map(|&(m, _)| m).collect(),
                kept: ranking.kept(),
                probes: ranking.probes,
                ranking: Some(ranking),
            },
            None => RootPlan {
                kept: moves.clone(),
                moves,
                ranking: None,
                probes: 0,
            },
        }
    }
}

/// Table probes the root's ranking may make under `go depth 1` (or `go mate 1`'s two plies
/// halved); each further ply of depth doubles it, up to [`UNBOUNDED_RANKING_PROBES`]. A
/// depth-limited search has no clock, yet its user expects an answer in the time such a
/// search takes.
const RANKING_PROBES_AT_DEPTH_1: u64 = 1_000;

/// Table probes the root's ranking may make when only the clock, `stop` or nothing limits it.
const UNBOUNDED_RANKING_PROBES: u64 = 1_000_000;

/// What the tablebases' ranking of the root may spend before the search starts: `stop` ends
/// it, and so do a share of the time budget (from `go`, or from `ponderhit` when it comes
/// during the ranking), half of `go nodes` (a probe counts as a node) and a number of probes
/// that grows with `go depth` (see [`RANKING_PROBES_AT_DEPTH_1`]).
struct RankingBudget<'a> {
    limits: &'a Limits,
    signals: &'a Signals,
    time: TimeManager,
    probe_cap: u64,
    /// Lines the search will show (MultiPV) or choose among (limited strength).
    lines: usize,
    /// Whether `ponderhit` came during the ranking (the clock then runs from it).
    ponderhit: bool,
}

impl<'a> RankingBudget<'a> {
    fn new(limits: &'a Limits, signals: &'a Signals, settings: &Settings) -> RankingBudget<'a> {
        let mut probe_cap = UNBOUNDED_RANKING_PROBES;
        if let Some(nodes) = limits.nodes {
            probe_cap = probe_cap.min(nodes / 2);
        }
        if limits.depth.is_some() || limits.mate.is_some() {
            let doublings = max_depth(limits).min(20) - 1;
            probe_cap = probe_cap.min(RANKING_PROBES_AT_DEPTH_1 << doublings);
        }
        let lines = searched_lines(settings);
        RankingBudget {
            limits,
            signals,
            time: TimeManager::new(limits, settings.move_overhead_ms),
            probe_cap,
            lines,
            ponderhit: false,
        }
    }

    /// Whether the ranking may make its `probes`th probe.
    fn allows(&mut self, probes: u64) -> bool {
        if probes > self.probe_cap || self.signals.stop.load(Ordering::Relaxed) {
            return false;
        }
        if self.limits.ponder && !self.ponderhit {
            if !self.signals.ponderhit.load(Ordering::Relaxed) {
                return true;
            }
            self.ponderhit = true;
            self.time.restart_clock();
        }
        self.time
            .ranking_allowance()
            .is_none_or(|allowance| self.time.elapsed() < allowance)
    }
}

/// Lines the main thread searches: those MultiPV shows, or at limited strength at least the
/// ones it chooses among.
fn searched_lines(settings: &Settings) -> usize {
    match settings.strength {
        Some(s) => settings.multi_pv.max(s.lines()),
        None => settings.multi_pv,
    }
}

/// Starts helper `id` (counted from 0) on its own thread; None (logged) when the thread cannot
/// be started, and the search goes on without it.
fn start_helper<'scope, 'env>(
    scope: &'scope thread::Scope<'scope, 'env>,
    helper: Worker<'env>,
    game: &'env Game,
    id: usize,
    published: &'env AtomicU64,
) -> Option<thread::ScopedJoinHandle<'scope, u64>> {
    let spawned = thread::Builder::new()
        .name(format!("search-helper-{}", id + 1))
        .stack_size(SEARCH_STACK_BYTES)
        .spawn_scoped(scope, move || {
            helper_search(helper, game, id + 1, published)
        });
    match spawned {
        Ok(handle) => Some(handle),
        Err(e) => {
            log::error!("cannot start search helper {}: {e}", id + 1);
            None
        }
    }
}

/// After the threads: limited strength's choice among the lines, and the ponder move from the
/// hash table when the line has none.
fn finish(
    result: &mut SearchResult,
    strength: Option<Strength>,
    tt: &TranspositionTable,
    root: &Chess,
) {
    if let Some(strength) = strength {
        play_at_strength(result, strength);
    }
    if result.ponder.is_none() {
        result.ponder = result.best.and_then(|m| ponder_from_table(tt, root, m));
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
    let chosen = strength.choose(&scores, &mut Rng::from_clock());
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

/// A helper thread's search: deepening without reports until the main thread stops it; odd
/// helpers start one ply deeper so the threads do not all search the same depth at once.
/// Returns its node count.
fn helper_search<'a>(
    mut worker: Worker<'a>,
    game: &Game,
    id: usize,
    published: &'a AtomicU64,
) -> u64 {
    worker.shared.published_nodes = Some(published);
    let first = 1 + (id % 2) as u32;
    for depth in first..=MAX_DEPTH {
        worker.stats.seldepth = 0;
        worker.search_root(game, depth, -INFINITE, INFINITE);
        if worker.budget.stopped || worker.stop_signalled() {
            break;
        }
    }
    published.store(worker.stats.nodes, Ordering::Relaxed);
    worker.stats.nodes
}
