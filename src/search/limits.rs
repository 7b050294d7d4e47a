//! What a `go` command asks for: depth, nodes, mate, time, and which root moves to consider.

use std::time::Instant;

use shakmaty::{Chess, Move, Position};

/// The clock for the side to move, from `wtime/btime/winc/binc/movestogo`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Clock {
    /// Milliseconds left on the clock.
    pub time_ms: u64,
    /// Increment per move in milliseconds.
    pub increment_ms: u64,
    /// Moves until the next time control, if the control has one.
    pub moves_to_go: Option<u32>,
}

/// Every limit a `go` command can set. With none of them the search runs until `stop`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Soft node budget: no new iteration starts once about this many nodes are searched,
    /// scaled as the clock's soft limit is by the search's stability (0.4 to 2.5 times; an
    /// iteration already under way finishes, up to `nodes` if that is set too). For self-play
    /// data generation, where whole iterations give steadier scores than a cut-off one.
    pub soft_nodes: Option<u64>,
    /// Search for a mate in this many moves, then stop.
    pub mate: Option<u32>,
    pub movetime_ms: Option<u64>,
    pub clock: Option<Clock>,
    pub infinite: bool,
    /// Search the predicted position until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// When `go` arrived: the clock, every limit and the `time` of the reports count from
    /// then, the tablebases' ranking of the root included. None: from the start of the search.
    pub started: Option<Instant>,
}

impl Limits {
    /// True when the search must not print `bestmove` until told to (`infinite`, `ponder`).
    pub fn waits_for_stop(&self) -> bool {
        self.infinite || self.ponder
    }

    /// The legal moves of `root` the search may choose from: those of `searchmoves` when any
    /// of them is legal, else all.
    pub fn root_moves(&self, root: &Chess) -> Vec<Move> {
        let legal = root.legal_moves();
        let chosen: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| self.searchmoves.is_empty() || self.searchmoves.contains(m))
            .collect();
        if chosen.is_empty() {
            legal.to_vec()
        } else {
            chosen
        }
    }
}
