//! Syzygy endgame tablebases: loading them, WDL probes inside the search, and DTZ ranking of
//! the root moves.
//!
//! The fifty-move rule decides what counts: a *cursed win* (a win the fifty-move rule turns into
//! a draw) and a *blessed loss* are draws for the engine, and at the root a win is kept only
//! when it can be completed before the halfmove clock reaches 100 (a mate on the hundredth
//! halfmove counts: mate comes first). Where the DTZ tables store a distance rounded and the
//! rounding decides the boundary, a small search over the tables settles it exactly.
//!
//! The tables know nothing of the game before the root: a root move that completes a draw by
//! rule with the game's positions (a threefold, the fiftieth move, as [`drawn_end`] judges a
//! line) is a draw whatever the tables say of the position it reaches. Such a draw ranks above
//! every table loss and below every table win.

use std::collections::HashMap;
use std::sync::Arc;

use shakmaty::{Chess, Move, Position};
use shakmaty_syzygy::{AmbiguousWdl, Dtz, MaybeRounded, Tablebase, Wdl};

use super::line::drawn_end;
use super::score::{MATE_BOUND, MAX_PLY};
use crate::game::rules::FIFTY_MOVE_HALFMOVES;
use crate::game::{Game, position_key};

/// Positions probed at most to settle the root moves at the fifty-move boundary (a few
/// milliseconds); past it a move still unsettled is taken at its worse value for the side to
/// move at the root.
const EXACT_PROBE_LIMIT: usize = 50_000;

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

    /// Every root move of `game` (of `moves`) with its result under the fifty-move rule and
    /// the game's history, best first. Winning, the moves that reach the next zeroing move (or
    /// mate) sooner rank higher, so the win is completed before the clock runs out; losing, the
    /// moves that resist longer. A move that completes a draw by rule with the game's positions
    /// is a draw. None when a table is missing or there is no move.
    pub fn rank_root_moves(&self, game: &Game, moves: &[Move]) -> Option<RootRanking> {
        let root = game.position();
        if !self.covers(root) || moves.is_empty() {
            return None;
        }
        let mut ranked = Vec::with_capacity(moves.len());
        let mut boundary = Boundary::new(self);
        let mut probes = 0;
        for &m in moves {
            let result = if drawn_end(game, &[m]).is_some() {
                RootResult::Draw
            } else {
                let mut child = root.clone();
                child.play_unchecked(m);
                probes += u64::from(!child.is_checkmate());
                self.rank_move(m, &child, &mut boundary)?
            };
            ranked.push((m, result));
        }
        // Stable: moves ranked alike keep the order they were given in.
        ranked.sort_by_key(|&(_, result)| std::cmp::Reverse(result));
        Some(RootRanking {
            moves: ranked,
            probes: probes + boundary.probes as u64,
        })
    }

    /// What root move `m` leads to, from the child position (the opponent to move).
    fn rank_move(&self, m: Move, child: &Chess, boundary: &mut Boundary) -> Option<RootResult> {
        if child.is_checkmate() {
            return Some(RootResult::Win { plies: 1 });
        }
        let probed = self.tablebase.probe_dtz(child).ok()?;
        let dtz = probed.ignore_rounding().0;
        let wdl = AmbiguousWdl::from_dtz_and_halfmoves(probed, child.halfmoves());
        // The child's result is the opponent's. A capture or pawn move is itself the zeroing
        // move.
        let plies = if m.is_zeroing() {
            1
        } else {
            dtz.unsigned_abs() + 1
        };
        // A rounded DTZ landing exactly on halfmove 100 may be one ply short: settle it by
        // searching the tables (plies left before the clock passes 100); if that search gives
        // up, the move is taken at its worse value for us.
        let left = FIFTY_MOVE_HALFMOVES.saturating_sub(child.halfmoves());
        Some(match wdl {
            AmbiguousWdl::Loss => RootResult::Win { plies },
            AmbiguousWdl::MaybeLoss => match boundary.loses_within(child, left) {
                Some(true) => RootResult::Win { plies },
                _ => RootResult::Draw,
            },
            AmbiguousWdl::MaybeWin => match boundary.wins_within(child, left) {
                Some(false) => RootResult::Draw,
                _ => RootResult::Loss { plies },
            },
            AmbiguousWdl::Win => RootResult::Loss { plies },
            AmbiguousWdl::BlessedLoss | AmbiguousWdl::Draw | AmbiguousWdl::CursedWin => {
                RootResult::Draw
            }
        })
    }
}

/// What the tables say about the root: every move with its result, best first, and the number
/// of table probes that took (for `tbhits`). Never empty.
#[derive(Debug, Clone)]
pub struct RootRanking {
    pub moves: Vec<(Move, RootResult)>,
    pub probes: u64,
}

impl RootRanking {
    /// The best result a move keeps.
    pub fn result(&self) -> RootResult {
        self.moves.first().map_or(RootResult::Draw, |&(_, r)| r)
    }

    /// The moves ranked alike, in groups, the best group first.
    pub fn groups(&self) -> Vec<Vec<Move>> {
        self.moves
            .chunk_by(|a, b| a.1 == b.1)
            .map(|group| group.iter().map(|&(m, _)| m).collect())
            .collect()
    }

    /// The moves that keep the best result.
    pub fn kept(&self) -> Vec<Move> {
        self.groups().into_iter().next().unwrap_or_default()
    }

    /// The result of root move `m`, if it was ranked.
    pub fn result_of(&self, m: Move) -> Option<RootResult> {
        self.moves
            .iter()
            .find(|&&(ranked, _)| ranked == m)
            .map(|&(_, result)| result)
    }
}

/// An exact search over the tables for the fifty-move boundary: can the winning side force a
/// mate, or a capture or pawn move that keeps the win, within so many plies? The tables answer
/// wherever their distance decides it (a rounded one may be one ply short); only positions
/// right at the limit are looked at a ply deeper.
struct Boundary<'a> {
    tables: &'a Tables,
    /// (position key, plies left, winner to move) -> answer.
    memo: HashMap<(u64, u32, bool), bool>,
    probes: usize,
}

impl<'a> Boundary<'a> {
    fn new(tables: &'a Tables) -> Boundary<'a> {
        Boundary {
            tables,
            memo: HashMap::new(),
            probes: 0,
        }
    }

    /// The DTZ of `pos`, counting the probe; None past the limit or for a missing table.
    fn probe(&mut self, pos: &Chess) -> Option<MaybeRounded<Dtz>> {
        self.probes += 1;
        if self.probes > EXACT_PROBE_LIMIT {
            return None;
        }
        self.tables.tablebase.probe_dtz(pos).ok()
    }

    /// What a distance of `dtz` plies (rounded or not) says about "within `left` plies":
    /// Some(answer) when it decides, None when a rounded distance sits right at the limit.
    fn decided(dtz: MaybeRounded<Dtz>, distance: i32, left: u32) -> Option<bool> {
        let Ok(distance) = u32::try_from(distance) else {
            return Some(false);
        };
        match dtz {
            MaybeRounded::Precise(_) => Some(distance <= left),
            MaybeRounded::Rounded(_) if distance < left => Some(true),
            MaybeRounded::Rounded(_) if distance > left => Some(false),
            MaybeRounded::Rounded(_) => None,
        }
    }

    /// The side to move wins and can force, within `left` plies, a mate or a capture or pawn
    /// move after which it still wins. None when the search gave up.
    fn wins_within(&mut self, pos: &Chess, left: u32) -> Option<bool> {
        if left == 0 {
            return Some(false);
        }
        let dtz = self.probe(pos)?;
        let distance = dtz.ignore_rounding().0;
        if distance <= 0 {
            return Some(false);
        }
        if let Some(answer) = Self::decided(dtz, distance, left) {
            return Some(answer);
        }
        let key = (position_key(pos), left, true);
        if let Some(&answer) = self.memo.get(&key) {
            return Some(answer);
        }
        let mut answer = false;
        for m in pos.legal_moves() {
            let mut after = pos.clone();
            after.play_unchecked(m);
            let reaches = if after.is_checkmate() {
                true
            } else if m.is_zeroing() {
                self.tables.tablebase.probe_wdl_after_zeroing(&after).ok()? == Wdl::Loss
            } else {
                self.loses_within(&after, left - 1)?
            };
            if reaches {
                answer = true;
                break;
            }
        }
        self.memo.insert(key, answer);
        Some(answer)
    }

    /// The side to move loses and cannot avoid, within `left` plies, being mated or a capture
    /// or pawn move after which the opponent still wins. None when the search gave up.
    fn loses_within(&mut self, pos: &Chess, left: u32) -> Option<bool> {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Some(pos.is_check());
        }
        if left == 0 {
            return Some(false);
        }
        let dtz = self.probe(pos)?;
        let distance = -dtz.ignore_rounding().0;
        if distance <= 0 {
            return Some(false);
        }
        if let Some(answer) = Self::decided(dtz, distance, left) {
            return Some(answer);
        }
        let key = (position_key(pos), left, false);
        if let Some(&answer) = self.memo.get(&key) {
            return Some(answer);
        }
        let mut answer = true;
        for m in moves {
            let mut after = pos.clone();
            after.play_unchecked(m);
            let reaches = if m.is_zeroing() {
                self.tables.tablebase.probe_wdl_after_zeroing(&after).ok()? == Wdl::Win
            } else {
                self.wins_within(&after, left - 1)?
            };
            if !reaches {
                answer = false;
                break;
            }
        }
        self.memo.insert(key, answer);
        Some(answer)
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

impl Ord for RootResult {
    /// Better for the side to move is greater: a win sooner over a win later, any win over a
    /// draw, a draw over any loss, a loss later over a loss sooner.
    fn cmp(&self, other: &RootResult) -> std::cmp::Ordering {
        let key = |r: &RootResult| match *r {
            RootResult::Loss { plies } => (0, i64::from(plies)),
            RootResult::Draw => (1, 0),
            RootResult::Win { plies } => (2, -i64::from(plies)),
        };
        key(self).cmp(&key(other))
    }
}

impl PartialOrd for RootResult {
    fn partial_cmp(&self, other: &RootResult) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
