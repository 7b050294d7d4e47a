//! One thread's search state, [`Worker`]: its fields in a few groups, its constructor, and its
//! polling (the stop flag, the node budget, the clock, `ponderhit`), inside an iteration and
//! between iterations. The node searches themselves are in `alphabeta.rs`, the iterations in
//! `root.rs`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use shakmaty::Move;

use super::evaluation::EvalStack;
use super::limits::Limits;
use super::ordering::Heuristics;
use super::params::{NODE_COUNT_INTERVAL, POLL_INTERVAL};
use super::proofs::RootProofs;
use super::repetition::KeyStack;
use super::score::{INFINITE, MAX_PLY, draw_value, mates_within};
use super::tablebase::{RootRanking, Tables};
use super::time::{BASE_SOFT_SHARE, SINGLE_REPLY_SOFT_SHARE, SearchTrend, TimeManager};
use super::tt::TranspositionTable;
use super::{Report, Settings, Signals};
use crate::game::Game;

/// What every thread of one search shares.
pub struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub signals: &'a Signals,
    /// Syzygy tables to probe, if loaded.
    pub tables: Option<&'a Tables>,
    /// Where this thread publishes its node count for the `info` lines and the node limit
    /// (helpers only).
    pub published_nodes: Option<&'a AtomicU64>,
    /// With helpers and a node limit: every thread's nodes, added in steps of
    /// `NODE_COUNT_INTERVAL`, and the limit; each thread stops itself once the sum reaches it.
    pub node_budget: Option<(&'a AtomicU64, u64)>,
}

/// When the search must end: what `go` asked for, the clock, and whether it has ended.
pub struct Budget<'a> {
    pub limits: &'a Limits,
    pub time: TimeManager,
    pub started: Instant,
    /// Set once a ponder search has received `ponderhit`.
    pub ponder_clock_started: bool,
    /// Set once the main thread has finished an iteration: a node limit stops it only then, so
    /// that even `go nodes 1` plays a move compared with the others, with a score shown (as
    /// Stockfish and Ethereal do). The clock and `stop` are heeded at once.
    pub iteration_done: bool,
    pub stopped: bool,
}

/// The line being searched, ply by ply: the positions' keys back into the game, and what each
/// ply has found or tried so far.
pub struct Path {
    pub keys: KeyStack,
    /// Triangular principal variation table: `pv[ply]` is the best line from that ply.
    pub pv: Vec<Vec<Move>>,
    /// The static evaluation at each ply of the current line (-INFINITE when in check).
    pub evals: Vec<i32>,
    /// The move played at each ply of the current line (None for a null move).
    pub played: Vec<Option<Move>>,
    /// The move left out at each ply while testing whether the hash move is singular.
    pub excluded: Vec<Option<Move>>,
    /// Lowest key-stack index that a draw by rule in the current subtree depended on (below 0
    /// for a halfmove clock that started before the first position on the stack); a node above
    /// that index has a path-dependent score, kept in the hash table for this search only.
    pub dependency: isize,
    /// Whether the current subtree met a twofold of a game position (see
    /// `repetition::Recurrence::Twofold`): its score holds until the game repeats positions.
    pub twofold: bool,
    /// Double singular extensions taken on the current line (see `Singular::Extend`).
    pub double_extensions: i32,
}

/// The root of the search: its moves, the iteration under way, and how it went so far.
pub struct Root {
    /// The moves searched at the root (all legal ones or `searchmoves`, best by the tables
    /// first; during an iteration, those of one line).
    pub moves: Vec<Move>,
    /// The depth of the current iteration.
    pub depth: i32,
    /// What the tables say of each root move, if the root position is in them.
    pub tb: Option<RootRanking>,
    /// Nodes searched below each root move in the current iteration (for time management).
    pub move_nodes: Vec<(Move, u64)>,
    /// How settled the iterations so far look (for time management).
    pub trend: SearchTrend,
    /// What the perpetual-check prover has proved of root moves (main thread only).
    pub proofs: RootProofs,
}

/// What the search counts, for `info` lines.
#[derive(Debug, Clone, Copy, Default)]
pub struct Stats {
    pub nodes: u64,
    pub seldepth: u32,
    pub tbhits: u64,
    /// The nodes already added to the shared sum of a node limit (`Shared::node_budget`).
    pub nodes_in_sum: u64,
}

/// The state of one running search (one thread's).
pub struct Worker<'a> {
    pub shared: Shared<'a>,
    pub budget: Budget<'a>,
    pub path: Path,
    pub root: Root,
    pub stats: Stats,
    /// The static evaluation, with the network's accumulators along the current line.
    pub eval: EvalStack<'a>,
    /// The move-ordering tables (killers, histories) of this thread.
    pub heuristics: &'a mut Heuristics,
    /// Contempt and the tablebase probe depth, as the search was started with.
    pub settings: Settings,
    /// Where the main thread's reports go (None for helpers and tests).
    pub reporter: Option<&'a mut (dyn FnMut(Report) + Send)>,
}

impl<'a> Worker<'a> {
    /// A worker ready to search the current position of `game`.
    pub fn new(
        tt: &'a TranspositionTable,
        heuristics: &'a mut Heuristics,
        signals: &'a Signals,
        limits: &'a Limits,
        game: &Game,
        settings: Settings,
        root_moves: Vec<Move>,
    ) -> Worker<'a> {
        Worker {
            shared: Shared {
                tt,
                signals,
                tables: None,
                published_nodes: None,
                node_budget: None,
            },
            budget: Budget {
                limits,
                time: TimeManager::new(limits, settings.move_overhead_ms),
                started: limits.started.unwrap_or_else(Instant::now),
                ponder_clock_started: false,
                iteration_done: false,
                stopped: false,
            },
            path: Path {
                keys: KeyStack::new(game.reversible_keys()),
                pv: vec![Vec::new(); MAX_PLY + 1],
                evals: vec![-INFINITE; MAX_PLY + 1],
                played: vec![None; MAX_PLY + 1],
                excluded: vec![None; MAX_PLY + 1],
                dependency: isize::MAX,
                twofold: false,
                double_extensions: 0,
            },
            root: Root {
                moves: root_moves,
                depth: 0,
                tb: None,
                move_nodes: Vec::new(),
                trend: SearchTrend::default(),
                proofs: RootProofs::default(),
            },
            stats: Stats::default(),
            eval: EvalStack::classical(),
            heuristics,
            settings,
            reporter: None,
        }
    }
}

impl Worker<'_> {
    /// The value of a draw for the side to move at `ply` (contempt: the root side pays it).
    pub fn draw_score(&self, ply: usize) -> i32 {
        draw_value(self.settings.contempt, ply)
    }

    /// Sends `report` to the caller of the search (the main thread only has one).
    pub fn emit(&mut self, report: Report) {
        if let Some(reporter) = self.reporter.as_mut() {
            reporter(report);
        }
    }

    /// True while pondering and the opponent has not yet played the predicted move.
    pub(super) fn pondering(&self) -> bool {
        self.budget.limits.ponder && !self.budget.ponder_clock_started
    }

    /// At `ponderhit` the ponder search becomes a timed one; the clock starts then, since the
    /// thinking done while the opponent was to move was free.
    fn check_ponderhit(&mut self) {
        if self.pondering() && self.shared.signals.ponderhit.load(Ordering::Relaxed) {
            self.budget.ponder_clock_started = true;
            self.budget.time.restart_clock();
        }
    }

    /// True once this search has been told to stop (by the GUI, or by the main thread for a
    /// helper).
    pub fn stop_signalled(&self) -> bool {
        self.shared.signals.stop.load(Ordering::Relaxed)
    }

    /// Reads the stop flag, the node budget and the clock; true when the search must stop.
    /// Called at every node; the flag and the clock are read every `POLL_INTERVAL` nodes.
    pub fn poll(&mut self) -> bool {
        if self.budget.stopped {
            return true;
        }
        let nodes = self.stats.nodes;
        if nodes.is_multiple_of(NODE_COUNT_INTERVAL) {
            if let Some(published) = self.shared.published_nodes {
                // A helper: it also heeds the main thread's stop this often, so the nodes it
                // adds after the main thread stopped stay few.
                published.store(nodes, Ordering::Relaxed);
                if self.stop_signalled() {
                    self.budget.stopped = true;
                    return true;
                }
            }
            if let Some((all, limit)) = self.shared.node_budget {
                // Only the nodes not yet added: poll may run more than once at one count.
                let new = nodes - self.stats.nodes_in_sum;
                self.stats.nodes_in_sum = nodes;
                let total = all.fetch_add(new, Ordering::Relaxed) + new;
                if total >= limit && self.may_stop_on_nodes() {
                    self.budget.stopped = true;
                    return true;
                }
            }
        }
        if self.budget.limits.nodes.is_some_and(|n| nodes >= n) && self.may_stop_on_nodes() {
            self.budget.stopped = true;
        } else if nodes.is_multiple_of(POLL_INTERVAL) {
            self.check_ponderhit();
            self.budget.stopped =
                self.stop_signalled() || (!self.pondering() && self.budget.time.hard_expired());
        }
        self.budget.stopped
    }

    /// Whether a node limit may stop this worker now: a helper at once, the main thread once it
    /// has an iteration's move ([`Budget::iteration_done`]).
    fn may_stop_on_nodes(&self) -> bool {
        self.shared.published_nodes.is_some() || self.budget.iteration_done
    }

    /// Decides, between iterations, whether to start another one.
    pub fn should_stop_after_iteration(&mut self, score: i32) -> bool {
        self.check_ponderhit();
        if self.budget.stopped || self.stop_signalled() {
            return true;
        }
        let limits = self.budget.limits;
        if limits.mate.is_some_and(|n| mates_within(score, n)) {
            return true;
        }
        // A soft node budget (self-play data) follows the search's stability as the clock
        // does: a best move that has held for iterations and took most of the effort stops
        // short of it, a changing one or a falling score searches on (up to the hard limit).
        if let Some(soft) = limits.soft_nodes {
            let scale = self.root.trend.soft_scale(self.best_move_node_share());
            if self.stats.nodes as f64 >= soft as f64 * scale {
                return true;
            }
        }
        if limits.infinite || self.pondering() {
            return false;
        }
        // A forced move is not worth the clock, but a depth-1 score is not worth showing:
        // the one reply is searched for a small share of the budget, so the score a GUI
        // graphs (a perpetual's 0.00, a mate) is a real one.
        let share = if self.root.moves.len() == 1 {
            SINGLE_REPLY_SOFT_SHARE
        } else {
            BASE_SOFT_SHARE * self.root.trend.soft_scale(self.best_move_node_share())
        };
        self.budget.time.soft_expired(share)
    }

    /// The share of this iteration's root-move nodes spent below the best move.
    fn best_move_node_share(&self) -> f64 {
        let total: u64 = self.root.move_nodes.iter().map(|(_, n)| n).sum();
        if total == 0 {
            return 1.0;
        }
        let best = self.root.trend.best();
        let on_best = self
            .root
            .move_nodes
            .iter()
            .find(|(m, _)| Some(*m) == best)
            .map_or(0, |(_, n)| *n);
        on_best as f64 / total as f64
    }

    /// Adds `nodes` to root move `m`'s count.
    pub fn count_root_nodes(&mut self, m: Move, nodes: u64) {
        match self.root.move_nodes.iter_mut().find(|(r, _)| *r == m) {
            Some((_, n)) => *n += nodes,
            None => self.root.move_nodes.push((m, nodes)),
        }
    }
}

/// What unit tests of the search need to run a [`Worker`] by hand: its tables and flags.
#[cfg(test)]
pub(super) struct Rig {
    pub tt: TranspositionTable,
    pub heuristics: Heuristics,
    pub signals: Signals,
    pub limits: Limits,
}

#[cfg(test)]
impl Rig {
    pub fn new() -> Rig {
        super::cuckoo::init();
        Rig {
            tt: TranspositionTable::new(1),
            heuristics: Heuristics::default(),
            signals: Signals::default(),
            limits: Limits::default(),
        }
    }

    /// A worker for the current position of `game`, all its legal moves at the root.
    pub fn worker(&mut self, game: &Game, settings: Settings) -> Worker<'_> {
        let moves = self.limits.root_moves(game.position());
        Worker::new(
            &self.tt,
            &mut self.heuristics,
            &self.signals,
            &self.limits,
            game,
            settings,
            moves,
        )
    }
}
