//! The search's numbers in one place: piece values, pruning margins, reductions, extensions and
//! windows, so that a tuner (or an SPSA run) finds them all here.
//!
//! Naming legend:
//! - `*_DEPTH`: a remaining depth in plies (the deepest or shallowest a rule applies at);
//! - `*_MARGIN`: centipawns; `*_PER_PLY` / `*_PER_DEPTH`: centipawns per ply of depth;
//! - `*_WINDOW`: half the width of a search window, in centipawns;
//! - plain nouns (`POLL_INTERVAL`): counts, in the unit their doc gives.

use shakmaty::Role;

/// What a piece is worth for each use, in centipawns (`material` in pawns).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PieceValue {
    /// For ordering captures (most valuable victim, least valuable attacker).
    pub ordering: i32,
    /// For static exchange evaluation; the king's is above any exchange.
    pub exchange: i32,
    /// For the win/draw/loss model's material count (`UCI_ShowWDL`): pawn 1, minor 3, rook 5,
    /// queen 9, king 0, as the model was fitted.
    pub material: u32,
}

/// The one table of piece values, by role: pawn, knight, bishop, rook, queen, king. The
/// columns differ where their uses were tuned apart (the bench node count rests on them).
#[rustfmt::skip]
pub const PIECE_VALUES: [PieceValue; 6] = [
    PieceValue { ordering: 100,  exchange: 100,    material: 1 },
    PieceValue { ordering: 300,  exchange: 320,    material: 3 },
    PieceValue { ordering: 320,  exchange: 330,    material: 3 },
    PieceValue { ordering: 500,  exchange: 500,    material: 5 },
    PieceValue { ordering: 900,  exchange: 950,    material: 9 },
    PieceValue { ordering: 2000, exchange: 20_000, material: 0 },
];

/// The values of a piece of kind `role`.
pub fn piece_value(role: Role) -> PieceValue {
    PIECE_VALUES[role as usize - 1]
}

/// How often (in nodes) the clock and the stop flag are read.
pub const POLL_INTERVAL: u64 = 1024;
/// From this long into a search, an aspiration window's failure is reported as an `info` line
/// with `lowerbound` or `upperbound` (earlier ones would only flood the GUI).
pub const BOUND_REPORT_AFTER: std::time::Duration = std::time::Duration::from_secs(3);
/// From this long into a search, the main thread reports each root move it starts on
/// (`currmove`), as Stockfish does.
pub const CURRMOVE_AFTER: std::time::Duration = std::time::Duration::from_secs(3);
/// How often (in nodes) a helper thread publishes its node count and reads the stop flag, and
/// every thread of a search with helpers and a node limit adds its nodes to their sum: `go
/// nodes` counts every thread's nodes, and may pass its limit by about this many a thread.
pub const NODE_COUNT_INTERVAL: u64 = 64;

// Iterative deepening at the root.

/// From this depth on, a single line is searched in a window around the previous iteration's
/// score (aspiration), widened each time the score falls outside it.
pub const ASPIRATION_DEPTH: u32 = 5;
/// Half the width of the first aspiration window; it doubles at each re-search.
pub const ASPIRATION_WINDOW: i32 = 20;

// Pruning of whole nodes (non-PV, not in check).

/// Razoring: at depth 1 and 2, a static evaluation this far (per ply) below alpha goes
/// straight to quiescence.
pub const RAZOR_MARGIN: i32 = 250;
/// The deepest depth razoring applies at.
pub const RAZOR_DEPTH: i32 = 2;
/// Reverse futility pruning: margin per ply of depth (one ply less when improving).
pub const REVERSE_FUTILITY_MARGIN: i32 = 90;
/// The deepest depth reverse futility pruning applies at.
pub const REVERSE_FUTILITY_DEPTH: i32 = 6;
/// Reverse futility pruning spares a side with this many legal moves or fewer: there the
/// static evaluation misses most (a king walking into a mating net, zugzwang), and the node is
/// cheap to search.
pub const REVERSE_FUTILITY_FEW_MOVES: usize = 2;
/// Null-move pruning: the least depth it is tried at.
pub const NULL_MOVE_DEPTH: i32 = 3;
/// Null-move pruning: the base reduction, plus one ply per `NULL_MOVE_DEPTH_PER_PLY` of depth.
pub const NULL_MOVE_REDUCTION: i32 = 3;
pub const NULL_MOVE_DEPTH_PER_PLY: i32 = 4;
/// Null-move pruning: every this many centipawns of static evaluation above beta reduce one
/// ply more, up to `NULL_MOVE_EVAL_PLIES`.
pub const NULL_MOVE_EVAL_PER_PLY: i32 = 200;
pub const NULL_MOVE_EVAL_PLIES: i32 = 3;
/// Internal iterative reduction: from this depth on, a node with no hash move is searched a
/// ply shallower.
pub const IIR_DEPTH: i32 = 4;

// Pruning of single moves near the leaves (non-PV).

/// Deepest remaining depth at which moves are pruned by count, futility or exchange.
pub const SHALLOW_DEPTH: i32 = 6;
/// Futility pruning of quiet moves: margin at depth 0 and per ply of depth.
pub const FUTILITY_MARGIN: i32 = 100;
pub const FUTILITY_PER_DEPTH: i32 = 80;
/// Exchange pruning: a quiet move may lose up to this times depth squared in the exchange, a
/// capture up to this times depth.
pub const SEE_QUIET_PER_DEPTH_SQUARED: i32 = 50;
pub const SEE_CAPTURE_PER_DEPTH: i32 = 100;

// Late-move reductions.

/// The base reduction of the `i`-th move at depth `d` is
/// `LMR_BASE + ln(d) * ln(i) / LMR_DIVISOR` plies (rounded down).
pub const LMR_BASE: f64 = 0.75;
pub const LMR_DIVISOR: f64 = 2.25;
/// The least depth at which late moves are reduced.
pub const LMR_DEPTH: i32 = 3;
/// History score (butterfly plus continuation) worth one ply less (or more) of reduction,
/// and the most plies it may take off or add.
pub const HISTORY_PER_PLY: i32 = 8_192;
pub const HISTORY_PLIES: i32 = 2;
/// Extra plies of reduction at an expected cut node, where a late quiet move is unlikely to be
/// the one that matters (the node should fail high on an earlier move).
pub const CUT_NODE_REDUCTION: i32 = 1;

// History tables.

/// A cutoff at depth `d` moves a history entry by `HISTORY_BONUS_PER_DEPTH * d * (d + 2)`, at
/// most `HISTORY_BONUS_MAX`, of the 16,384 an entry can reach (the moves tried before it lose
/// as much).
pub const HISTORY_BONUS_PER_DEPTH: i32 = 16;
pub const HISTORY_BONUS_MAX: i32 = 1_600;
/// Capture history worth one point of a capture's ordering score (MVV-LVA, where a pawn
/// victim is worth 800).
pub const CAPTURE_HISTORY_PER_ORDER: i32 = 4;
/// History pruning: near the leaves of a non-PV node, a quiet move (not a killer or the
/// counter-move) whose history is below `-HISTORY_PRUNE_PER_DEPTH * depth` is not searched,
/// up to this depth.
pub const HISTORY_PRUNE_DEPTH: i32 = 3;
pub const HISTORY_PRUNE_PER_DEPTH: i32 = 2_048;

// Extensions.

/// Singular extensions: the least depth, and how far below the hash score (per ply of depth)
/// the other moves must all stay for the hash move to count as singular.
pub const SINGULAR_DEPTH: i32 = 8;
pub const SINGULAR_MARGIN_PER_PLY: i32 = 2;
/// How much shallower than the node the hash entry may be for the singular test.
pub const SINGULAR_ENTRY_DEPTH_SLACK: i32 = 3;

// Quiescence.

/// Margin for delta pruning: a capture that cannot lift the stand-pat score this close to
/// alpha is skipped.
pub const DELTA_MARGIN: i32 = 200;
/// Ordering bonus in quiescence for the hash move, above every capture.
pub const QS_HASH_MOVE: i32 = 100_000;
