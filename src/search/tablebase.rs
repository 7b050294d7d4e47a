//! Syzygy endgame tablebases: loading them, WDL probes inside the search, and DTZ ranking of
//! the root moves.
//!
//! The fifty-move rule decides what counts: a *cursed win* (a win the fifty-move rule turns into
//! a draw) and a *blessed loss* are draws for the engine, and at the root a win is kept only
//! when it can be completed before the halfmove clock reaches 100.

use std::cmp::Reverse;
use std::sync::Arc;

use shakmaty::{Chess, Move, Position};
use shakmaty_syzygy::{AmbiguousWdl, Tablebase, Wdl};

use super::score::{MATE_BOUND, MAX_PLY};

/// Score of a tablebase win at the root; a win found `ply` plies down scores `TB_WIN - ply`.
/// Below every mate score, above every evaluation.
pub const TB_WIN: i32 = MATE_BOUND - 1 - MAX_PLY as i32;
/// Scores at or beyond this (either sign) come from the tablebases, not the evaluation.
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;

/// Tables loaded from the directories of `SyzygyPath`.
pub struct Tables {
    tablebase: Tablebase<Chess>,
    /// How many table files were found.
    pub files: usize,
}

/// Why `SyzygyPath` gave no usable tables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError(pub String);

impl Tables {
    /// Loads every table in the `:`-separated directories of `path` (files are opened lazily).
    /// An unreadable directory is an error; so is a path with no tables at all.
    pub fn load(path: &str) -> Result<Arc<Tables>, LoadError> {
        let mut tablebase = Tablebase::new();
        let mut files = 0;
        for dir in path.split(':').map(str::trim).filter(|d| !d.is_empty()) {
            files += tablebase
                .add_directory(dir)
                .map_err(|e| LoadError(format!("cannot read Syzygy directory '{dir}': {e}")))?;
        }
        if files == 0 {
            return Err(LoadError(format!("no Syzygy tables found in '{path}'")));
        }
        Ok(Arc::new(Tables { tablebase, files }))
    }

    /// The most pieces any loaded table covers.
    pub fn max_pieces(&self) -> usize {
        self.tablebase.max_pieces()
    }

    /// True when `pos` may be in the tables (few enough pieces, no castling rights).
    pub fn covers(&self, pos: &Chess) -> bool {
        pos.castles().is_empty() && pos.board().occupied().count() <= self.max_pieces()
    }

    /// Win, draw or loss for the side to move of a position just after a capture or pawn move
    /// (or any position with the clock at 0), with cursed wins and blessed losses as draws.
    pub fn wdl_after_zeroing(&self, pos: &Chess) -> Option<Outcome> {
        let wdl = self.tablebase.probe_wdl_after_zeroing(pos).ok()?;
        Some(match wdl {
            Wdl::Win => Outcome::Win,
            Wdl::Loss => Outcome::Loss,
            Wdl::CursedWin | Wdl::Draw | Wdl::BlessedLoss => Outcome::Draw,
        })
    }

    /// The root moves that keep the best result the tables promise under the fifty-move rule,
    /// and that result. Winning, only the moves that reach the next zeroing move (or mate)
    /// soonest are kept, so the win is completed before the clock runs out; drawing, every
    /// drawing move; losing, the moves that resist longest. None when a table is missing.
    pub fn rank_root_moves(&self, root: &Chess, moves: &[Move]) -> Option<(Vec<Move>, RootResult)> {
        if !self.covers(root) {
            return None;
        }
        let mut ranked = Vec::with_capacity(moves.len());
        for &m in moves {
            let mut child = root.clone();
            child.play_unchecked(m);
            ranked.push((m, self.rank_move(m, &child)?));
        }
        let best = ranked.iter().map(|(_, rank)| *rank).max()?;
        let kept = ranked
            .iter()
            .filter(|(_, rank)| *rank == best)
            .map(|(m, _)| *m)
            .collect();
        Some((kept, best.result()))
    }

    /// How good root move `m` is, from the child position (the opponent to move).
    fn rank_move(&self, m: Move, child: &Chess) -> Option<MoveRank> {
        if child.is_checkmate() {
            return Some(MoveRank::Win { plies: Reverse(1) });
        }
        let probed = self.tablebase.probe_dtz(child).ok()?;
        let dtz = probed.ignore_rounding().0;
        let wdl = AmbiguousWdl::from_dtz_and_halfmoves(probed, child.halfmoves());
        // The child's result is the opponent's; ambiguous ones (DTZ rounding at the limit) are
        // taken at their worse value for us. A capture or pawn move is itself the zeroing move.
        let plies = if m.is_zeroing() {
            1
        } else {
            dtz.unsigned_abs() + 1
        };
        Some(match wdl {
            AmbiguousWdl::Loss => MoveRank::Win {
                plies: Reverse(plies),
            },
            AmbiguousWdl::Win | AmbiguousWdl::MaybeWin => MoveRank::Loss { plies },
            AmbiguousWdl::MaybeLoss
            | AmbiguousWdl::BlessedLoss
            | AmbiguousWdl::Draw
            | AmbiguousWdl::CursedWin => MoveRank::Draw,
        })
    }
}

/// The result of a position for the side to move, by the tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

/// What the tables promise at the root, for the score shown to the user.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootResult {
    /// A win whose next zeroing move (or mate) is `plies` away.
    Win {
        plies: u32,
    },
    Draw,
    /// A loss the opponent can complete in `plies` plies to its next zeroing move.
    Loss {
        plies: u32,
    },
}

impl RootResult {
    /// The score for the side to move at the root.
    pub fn score(self, draw: i32) -> i32 {
        match self {
            RootResult::Win { plies } => TB_WIN - plies.min(MAX_PLY as u32) as i32,
            RootResult::Draw => draw,
            RootResult::Loss { plies } => -TB_WIN + plies.min(MAX_PLY as u32) as i32,
        }
    }
}

/// A root move's rank; the derived order puts better moves higher.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum MoveRank {
    /// Losing: resisting longer (more plies) is better.
    Loss {
        plies: u32,
    },
    Draw,
    /// Winning: fewer plies to the next zeroing move is better, hence the reversed order.
    Win {
        plies: Reverse<u32>,
    },
}

impl MoveRank {
    fn result(self) -> RootResult {
        match self {
            MoveRank::Loss { plies } => RootResult::Loss { plies },
            MoveRank::Draw => RootResult::Draw,
            MoveRank::Win { plies } => RootResult::Win { plies: plies.0 },
        }
    }
}
