//! Syzygy endgame tablebases: loading them, WDL probes inside the search, and DTZ ranking of
//! the root moves.
//!
//! The fifty-move rule decides what counts: a *cursed win* (a win the fifty-move rule turns into
//! a draw) and a *blessed loss* are draws for the engine, and at the root a win is kept only
//! when it can be completed before the halfmove clock reaches 100 (a mate on the hundredth
//! halfmove counts: mate comes first). Where the DTZ tables store a distance rounded and the
//! rounding decides the boundary, a search over the tables settles it exactly, within the
//! budget the search gives it (a share of the clock, of `go nodes`, of what `go depth` is worth);
//! a move it could not settle is a possible win or loss ([`RootResult::WinOrDraw`],
//! [`RootResult::DrawOrLoss`]), and what it settled is kept for the next search.
//!
//! The tables know nothing of the game before the root: a root move that completes a draw by
//! rule with the game's positions (a threefold, the fiftieth move, as [`drawn_end`] judges a
//! line) is a draw whatever the tables say of the position it reaches. Such a draw ranks above
//! every table loss and below every table win.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use shakmaty::{Chess, Move, Position};
use shakmaty_syzygy::{AmbiguousWdl, Dtz, MaybeRounded, Tablebase, Wdl};

use super::line::drawn_end;
use super::score::{MATE_BOUND, MAX_PLY};
use crate::game::rules::FIFTY_MOVE_HALFMOVES;
use crate::game::{Game, position_key};

/// Positions probed at most by [`Tables::rank_root_moves`], the ranking without a search's
/// budget (tests and tools); a search gives its own budget to
/// [`Tables::rank_root_moves_within`].
pub const UNBUDGETED_PROBE_LIMIT: u64 = 200_000;

/// Entries the boundary search keeps between searches (answers and DTZ probes each); past it
/// they are forgotten before the next ranking, so memory stays bounded (under 100 MB).
const SETTLED_LIMIT: usize = 1 << 20;

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
    /// What the boundary search has settled so far, and the last root ranked: kept between
    /// searches, as the tables under them never change.
    settled: Mutex<Settled>,
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
        Ok(Arc::new(Tables {
            tablebase,
            files,
            settled: Mutex::new(Settled::default()),
        }))
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

    /// [`Tables::rank_root_moves_within`] with every move settled and no budget but
    /// [`UNBUDGETED_PROBE_LIMIT`] probes.
    pub fn rank_root_moves(&self, game: &Game, moves: &[Move]) -> Option<RootRanking> {
        let mut budget = |probes: u64| probes <= UNBUDGETED_PROBE_LIMIT;
        self.rank_root_moves_within(game, moves, Settle::Every, &mut budget)
    }

    /// Every root move of `game` (of `moves`) with its result under the fifty-move rule and
    /// the game's history, best first. Winning, the moves that reach the next zeroing move (or
    /// mate) sooner rank higher, so the win is completed before the clock runs out; losing, the
    /// moves that resist longer. A move that completes a draw by rule with the game's positions
    /// is a draw. None when a table is missing or there is no move.
    ///
    /// Where the DTZ tables round a distance and the rounding decides whether a move's result
    /// comes before halfmove 100, a search over the tables settles it: the moves that could
    /// change the best result first, then (with [`Settle::Every`]) the others. `budget` is asked
    /// before each new table probe of that search, with the probes so far; once it says no, the
    /// moves left open stay [`RootResult::WinOrDraw`] or [`RootResult::DrawOrLoss`], ranked
    /// just above the worse of their two results, and the ranking says it is not complete.
    /// What the search settles is kept for the next ranking, and so is the last complete
    /// ranking: the same root again costs no probe.
    pub fn rank_root_moves_within(
        &self,
        game: &Game,
        moves: &[Move],
        settle: Settle,
        budget: &mut dyn FnMut(u64) -> bool,
    ) -> Option<RootRanking> {
        let root = game.position();
        if !self.covers(root) || moves.is_empty() {
            return None;
        }
        let mut settled = self.settled.lock().unwrap_or_else(PoisonError::into_inner);
        let identity = RootIdentity::of(game, moves);
        if let Some((known, ranking)) = &settled.last
            && *known == identity
            && ranking.complete
            && (ranking.settled == Settle::Every || settle == Settle::Best)
        {
            return Some(RootRanking {
                probes: 0,
                ..ranking.clone()
            });
        }
        settled.trim();
        let mut boundary = Boundary {
            tables: self,
            settled: &mut settled,
            probes: 0,
            budget,
            exhausted: false,
        };
        // First every move by its own probe, a rounded distance at the limit left open.
        let mut first = Vec::with_capacity(moves.len());
        for &m in moves {
            let open = if drawn_end(game, &[m]).is_some() {
                Open::Known(RootResult::Draw)
            } else {
                let mut child = root.clone();
                child.play_unchecked(m);
                boundary.first_look(m, child)?
            };
            first.push((m, open));
        }
        // Then the open ones, those that could change the best result first.
        let mut complete = true;
        while let Some(index) = next_to_settle(&first, settle) {
            match boundary.settle(&first[index].1) {
                Some(result) => first[index].1 = Open::Known(result),
                None => {
                    complete = false;
                    break;
                }
            }
        }
        let probes = boundary.probes;
        let mut ranked: Vec<(Move, RootResult)> =
            first.iter().map(|(m, open)| (*m, open.ranked())).collect();
        // Stable: moves ranked alike keep the order they were given in.
        ranked.sort_by_key(|&(_, result)| std::cmp::Reverse(result));
        let ranking = RootRanking {
            moves: ranked,
            probes,
            complete,
            settled: settle,
        };
        if complete {
            settled.last = Some((identity, ranking.clone()));
        }
        Some(ranking)
    }
}

/// Which root moves [`Tables::rank_root_moves_within`] settles exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settle {
    /// Those that could keep the best result: enough to choose the move.
    Best,
    /// Every move: for lines shown beside the best (MultiPV) and for tools.
    Every,
}

/// A root move's result after its own probe: known, or a rounded distance right at the
/// fifty-move limit that a search over the tables must settle.
#[derive(Debug, Clone)]
enum Open {
    Known(RootResult),
    /// A win in `plies` or a draw: the child (the opponent to move) may lose in time.
    MaybeWin {
        child: Chess,
        plies: u32,
    },
    /// A loss in `plies` or a draw: the child may win in time.
    MaybeLoss {
        child: Chess,
        plies: u32,
    },
}

impl Open {
    /// The result as the ranking gives it: unsettled where the search did not settle it.
    fn ranked(&self) -> RootResult {
        match *self {
            Open::Known(result) => result,
            Open::MaybeWin { plies, .. } => RootResult::WinOrDraw { plies },
            Open::MaybeLoss { plies, .. } => RootResult::DrawOrLoss { plies },
        }
    }

    /// The result if the search settles it the worse way for the side to move.
    fn worse(&self) -> RootResult {
        match *self {
            Open::Known(result) => result,
            Open::MaybeWin { .. } => RootResult::Draw,
            Open::MaybeLoss { plies, .. } => RootResult::Loss { plies },
        }
    }

    /// The result if the search settles it the better way for the side to move.
    fn better(&self) -> RootResult {
        match *self {
            Open::Known(result) => result,
            Open::MaybeWin { plies, .. } => RootResult::Win { plies },
            Open::MaybeLoss { .. } => RootResult::Draw,
        }
    }
}

/// The open move to settle next: the one that could do best, if it could beat every move's
/// worse value (with [`Settle::Every`], any open move).
fn next_to_settle(first: &[(Move, Open)], settle: Settle) -> Option<usize> {
    let floor = first.iter().map(|(_, open)| open.worse()).max()?;
    first
        .iter()
        .enumerate()
        .filter(|(_, (_, open))| !matches!(open, Open::Known(_)))
        .filter(|(_, (_, open))| settle == Settle::Every || open.better() > floor)
        .max_by_key(|(_, (_, open))| open.better())
        .map(|(index, _)| index)
}

/// A root as the ranking sees it: its position and clock, the game's positions a repetition
/// could reach, and the moves ranked.
#[derive(Debug, Clone, PartialEq, Eq)]
struct RootIdentity {
    keys: Vec<u64>,
    halfmoves: u32,
    moves: Vec<Move>,
}

impl RootIdentity {
    fn of(game: &Game, moves: &[Move]) -> RootIdentity {
        RootIdentity {
            keys: game.reversible_keys().to_vec(),
            halfmoves: game.position().halfmoves(),
            moves: moves.to_vec(),
        }
    }
}

/// What the boundary search has found, kept from ranking to ranking.
#[derive(Default)]
struct Settled {
    /// (position key, plies left, winner to move) -> answer.
    answers: HashMap<(u64, u32, bool), bool>,
    /// Position key -> its DTZ probe (None: no table answered).
    dtz: HashMap<u64, Option<MaybeRounded<Dtz>>>,
    /// The last complete ranking and the root it ranks.
    last: Option<(RootIdentity, RootRanking)>,
}

impl Settled {
    /// Forgets the search's findings once they pass [`SETTLED_LIMIT`].
    fn trim(&mut self) {
        if self.answers.len() > SETTLED_LIMIT || self.dtz.len() > SETTLED_LIMIT {
            self.answers.clear();
            self.dtz.clear();
        }
    }
}

/// What the tables say about the root: every move with its result, best first, and the number
/// of table probes that took (for `tbhits`). Never empty.
#[derive(Debug, Clone)]
pub struct RootRanking {
    pub moves: Vec<(Move, RootResult)>,
    /// New table probes this ranking made (0 when the last one was reused).
    pub probes: u64,
    /// Whether every move it was asked to settle is settled (else the budget ran out first,
    /// and some moves that could change the best result are left open).
    pub complete: bool,
    /// Which moves it was asked to settle.
    pub settled: Settle,
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
    settled: &'a mut Settled,
    /// New DTZ probes so far.
    probes: u64,
    /// Asked before each new probe (see [`Tables::rank_root_moves_within`]).
    budget: &'a mut dyn FnMut(u64) -> bool,
    /// Set once the budget said no: every later probe gives up too.
    exhausted: bool,
}

impl Boundary<'_> {
    /// The DTZ of `pos`, from what is settled or from a new probe if the budget allows; None
    /// past the budget or for a missing table.
    fn probe(&mut self, pos: &Chess) -> Option<MaybeRounded<Dtz>> {
        self.dtz(pos, true)
    }

    /// The DTZ of `pos`, from what is settled or from a new probe (asking the budget first
    /// when `budgeted`); None past the budget or for a missing table.
    fn dtz(&mut self, pos: &Chess, budgeted: bool) -> Option<MaybeRounded<Dtz>> {
        let key = position_key(pos);
        if let Some(&known) = self.settled.dtz.get(&key) {
            return known;
        }
        if budgeted && (self.exhausted || !(self.budget)(self.probes + 1)) {
            self.exhausted = true;
            return None;
        }
        self.probes += 1;
        let dtz = self.tables.tablebase.probe_dtz(pos).ok();
        self.settled.dtz.insert(key, dtz);
        dtz
    }

    /// The result of a root move left open by its own probe, settled by the search over the
    /// tables; None when the budget ran out first.
    fn settle(&mut self, open: &Open) -> Option<RootResult> {
        let left = |child: &Chess| FIFTY_MOVE_HALFMOVES.saturating_sub(child.halfmoves());
        Some(match *open {
            Open::Known(result) => result,
            Open::MaybeWin { ref child, plies } => {
                if self.loses_within(child, left(child))? {
                    RootResult::Win { plies }
                } else {
                    RootResult::Draw
                }
            }
            Open::MaybeLoss { ref child, plies } => {
                if self.wins_within(child, left(child))? {
                    RootResult::Loss { plies }
                } else {
                    RootResult::Draw
                }
            }
        })
    }

    /// What root move `m` leads to by the child's own probe (the opponent to move), without
    /// the budget: a ranking needs at least this. None for a missing table.
    fn first_look(&mut self, m: Move, child: Chess) -> Option<Open> {
        if child.is_checkmate() {
            return Some(Open::Known(RootResult::Win { plies: 1 }));
        }
        let probed = self.dtz(&child, false)?;
        let dtz = probed.ignore_rounding().0;
        let wdl = AmbiguousWdl::from_dtz_and_halfmoves(probed, child.halfmoves());
        // The child's result is the opponent's. A capture or pawn move is itself the zeroing
        // move.
        let plies = if m.is_zeroing() {
            1
        } else {
            dtz.unsigned_abs() + 1
        };
        // A rounded DTZ landing exactly on halfmove 100 may be one ply short: left open for
        // the search over the tables.
        Some(match wdl {
            AmbiguousWdl::Loss => Open::Known(RootResult::Win { plies }),
            AmbiguousWdl::MaybeLoss => Open::MaybeWin { child, plies },
            AmbiguousWdl::MaybeWin => Open::MaybeLoss { child, plies },
            AmbiguousWdl::Win => Open::Known(RootResult::Loss { plies }),
            AmbiguousWdl::BlessedLoss | AmbiguousWdl::Draw | AmbiguousWdl::CursedWin => {
                Open::Known(RootResult::Draw)
            }
        })
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
        if let Some(&answer) = self.settled.answers.get(&key) {
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
        self.settled.answers.insert(key, answer);
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
        if let Some(&answer) = self.settled.answers.get(&key) {
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
        self.settled.answers.insert(key, answer);
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
    /// A win in `plies` if it comes before halfmove 100, else a draw: the budget ran out before
    /// the search over the tables settled which (at worst a draw).
    WinOrDraw {
        plies: u32,
    },
    Draw,
    /// A loss in `plies` if the opponent completes it before halfmove 100, else a draw: not
    /// settled within the budget (at worst a loss).
    DrawOrLoss {
        plies: u32,
    },
    /// A loss the opponent can complete in `plies` plies to its next zeroing move.
    Loss {
        plies: u32,
    },
}

impl RootResult {
    /// Whether the tables settled it (not [`RootResult::WinOrDraw`] or
    /// [`RootResult::DrawOrLoss`]).
    pub fn is_settled(self) -> bool {
        !matches!(
            self,
            RootResult::WinOrDraw { .. } | RootResult::DrawOrLoss { .. }
        )
    }

    /// The score for the side to move at the root: of the worse result where not settled.
    pub fn score(self, draw: i32) -> i32 {
        match self {
            RootResult::Win { plies } => TB_WIN - plies.min(MAX_PLY as u32) as i32,
            RootResult::WinOrDraw { .. } | RootResult::Draw => draw,
            RootResult::DrawOrLoss { plies } | RootResult::Loss { plies } => {
                -TB_WIN + plies.min(MAX_PLY as u32) as i32
            }
        }
    }
}

impl Ord for RootResult {
    /// Better for the side to move is greater: a win sooner over a win later, any win over a
    /// draw, a draw over any loss, a loss later over a loss sooner; a result not settled just
    /// above the worse of its two (a possible win is no worse than a sure draw, and no better
    /// than a sure win).
    fn cmp(&self, other: &RootResult) -> std::cmp::Ordering {
        let key = |r: &RootResult| match *r {
            RootResult::Loss { plies } => (0, i64::from(plies)),
            RootResult::DrawOrLoss { plies } => (1, i64::from(plies)),
            RootResult::Draw => (2, 0),
            RootResult::WinOrDraw { plies } => (3, -i64::from(plies)),
            RootResult::Win { plies } => (4, -i64::from(plies)),
        };
        key(self).cmp(&key(other))
    }
}

impl PartialOrd for RootResult {
    fn partial_cmp(&self, other: &RootResult) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
