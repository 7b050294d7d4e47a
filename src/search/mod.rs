//! The search: iterative deepening over a negamax alpha-beta with principal-variation search,
//! quiescence, a transposition table, and draws by repetition, fifty moves and material.
//!
//! This file holds the public API only ([`Searcher`], [`Settings`], [`Limits`], [`Signals`],
//! [`SearchResult`], [`Line`], [`Iteration`]); the work is done in:
//!
//! - `guard.rs`: limited strength's repetition guard, a small full-strength search that
//!   decides the move wherever a draw by rule is in play;
//! - `threads.rs`: one search's threads (Lazy SMP helpers, stop on every way out) and the
//!   limited-strength wrapper;
//! - `root.rs`: iterative deepening, MultiPV lines, aspiration windows;
//! - `worker.rs`: one thread's state (`Worker`, its field groups), its constructor and
//!   its polling of the stop flag, the budget and the clock;
//! - `alphabeta.rs`: one node of the main search, from entering it to storing its score, and
//!   what a stored score rests on; `moves.rs`: its move loop (reductions, principal-variation
//!   search, singular extensions); `pruning.rs`: the cuts near the leaves; `quiescence.rs`: the
//!   search at the horizon;
//! - `params.rs`: every search constant (piece values, margins, reductions), with a legend;
//! - `repetition.rs`: repetition draws along the game and the search path; `cuckoo.rs`: the
//!   table that finds a move repeating a position before it is played;
//! - `line.rs`: how a principal variation ends in a draw by rule;
//! - `proofs.rs`: the perpetual-check prover at the root, between iterations;
//! - `evaluation.rs`: the static evaluation of each node (hand-written, or the network
//!   from accumulators kept ply by ply);
//! - `ordering.rs`: move ordering (hash move, MVV-LVA, killers, history);
//! - `correction.rs`: the correction history, what the searches found the evaluation off by;
//! - `see.rs`: static exchange evaluation, to order captures and skip losing ones;
//! - `strength.rs`: limited strength (`UCI_LimitStrength`, `UCI_Elo`);
//! - `tablebase.rs`: Syzygy probes at the root and in the tree;
//! - `tt.rs`: the transposition table; `score.rs`: mate and draw scores;
//! - `limits.rs`, `time.rs`: what `go` asks for and how long to think.

mod alphabeta;
pub mod correction;
mod cuckoo;
pub mod evaluation;
mod guard;
pub mod limits;
pub mod line;
mod moves;
pub mod ordering;
pub mod params;
mod proofs;
mod pruning;
mod quiescence;
pub mod repetition;
mod root;
pub mod score;
pub mod see;
pub mod strength;
pub mod tablebase;
mod threads;
pub mod time;
pub mod tt;
mod worker;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use shakmaty::Move;

use crate::eval::nnue::{Network, default_network};
use crate::game::Game;
pub use limits::{Clock, Limits};
use line::LineEnd;
use ordering::Heuristics;
use strength::Strength;
use tablebase::{RootResult, Tables};
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
    /// Tablebase probes so far (the root's ranking included; 0 without tables).
    pub tbhits: u64,
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
    /// The tables' verdict on the line's first move, when it is the score shown.
    pub tables: Option<RootResult>,
}

/// What a running search tells its caller.
#[derive(Debug, Clone, Copy)]
pub enum Report<'a> {
    /// A finished iteration's line, or a bound after an aspiration window failed.
    Line(&'a Iteration),
    /// The main thread starts on root move `mv`, the `number`th of this iteration (from 1):
    /// sent only once the search has run `CURRMOVE_AFTER` (for `currmove` lines).
    CurrentMove { depth: u32, mv: Move, number: usize },
    /// The perpetual-check prover settled a root move (see `proofs.rs`).
    Perpetual(&'a ProvenPerpetual),
}

/// A perpetual check the prover proved at the root.
#[derive(Debug, Clone)]
pub struct ProvenPerpetual {
    /// The root move it is about: the strategy's first check when `ours`, otherwise a move
    /// after which the opponent checks for ever.
    pub mv: Move,
    /// True when the side to move has the perpetual (`mv` is worth a draw at least); false
    /// when `mv` lets the opponent have one (`mv` is worth a draw at most).
    pub ours: bool,
    /// The strategy's attacker-to-move positions.
    pub strategy: usize,
    /// From the root: `mv`, then the strategy's line until a position comes back.
    pub line: Vec<Move>,
}

/// One searched line: its score (from the side to move's view), its moves, and how it ends in
/// a draw by rule when it does (the search's one verdict on that, see `line::drawn_end`).
#[derive(Debug, Clone, Default)]
pub struct Line {
    /// The score shown: the tables' verdict on the line's first move where the root is in the
    /// tables, unless the search found a mate or the line ends in a draw by rule; otherwise
    /// the search's.
    pub score: i32,
    /// The search's own score of the line (the same as `score` without tables).
    pub searched: i32,
    pub pv: Vec<Move>,
    pub draw: Option<LineEnd>,
    /// The tables' verdict on the line's first move, when it is the score shown.
    pub tables: Option<RootResult>,
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

/// Settings that persist between searches. Their defaults are the engine's: the UCI options
/// take theirs from here (`uci::options`).
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
    /// Positions with more pieces than this are never probed, whatever tables are loaded
    /// (OpenBench's `SyzygyProbeLimit`, for tests restricted to N-piece tables).
    pub syzygy_probe_limit: usize,
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
            syzygy_probe_limit: 7,
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
    /// The network that evaluates (`UseNNUE`, `EvalFile`); None for the hand-written
    /// evaluation.
    pub network: Option<Arc<Network>>,
    /// Whether the static evaluations kept in the hash table are the network's (searches at
    /// limited strength evaluate by hand, whatever `network` says).
    table_uses_network: bool,
    /// The searcher of limited strength's repetition guard (`guard.rs`), made when first
    /// needed.
    guard: Option<Box<Searcher>>,
}

impl Searcher {
    pub fn new(hash_mib: usize) -> Searcher {
        Searcher::with_table(TranspositionTable::new(hash_mib), default_network())
    }

    /// A searcher with the default settings that keeps its positions in `tt` and evaluates
    /// with `network` (None: by hand).
    fn with_table(tt: TranspositionTable, network: Option<Arc<Network>>) -> Searcher {
        cuckoo::init();
        Searcher {
            tt,
            heuristics: Heuristics::default(),
            helper_heuristics: Vec::new(),
            settings: Settings::default(),
            tables: None,
            table_uses_network: network.is_some(),
            network,
            guard: None,
        }
    }

    /// Forgets everything learned (`ucinewgame`).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.heuristics.clear();
        self.helper_heuristics.clear();
        if let Some(guard) = &mut self.guard {
            guard.clear();
        }
    }

    /// Searches the current position of `game` within `limits`. `report` receives each
    /// finished iteration, and on long searches the bounds of failed aspiration windows and
    /// the root move being searched. Returns when a limit is reached or `signals.stop` is set.
    ///
    /// With `settings.threads` above one, helper threads search the same position at the same
    /// time with no limit of their own (Lazy SMP); they share only the hash table, which is how
    /// their work reaches the main thread. The main thread alone decides the move and stops them.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        signals: &Signals,
        report: &mut (dyn FnMut(Report) + Send),
    ) -> SearchResult {
        guard::search(self, game, limits, signals, report)
    }
}

/// The deepest depth iterative deepening may reach.
pub const MAX_DEPTH: u32 = 120;
