//! The search behind [`prove`](super::prove): the greatest set of attacker-to-move positions
//! from which a check keeps every reply inside the set, found depth first.
//!
//! A position being searched is assumed in the set while its own checks are tried (a line that
//! comes back to it is a repetition, which is what a perpetual is made of). A result that rests
//! on such an assumption stays *tentative* until the position it rests on is settled: kept if
//! that position is proven, dropped if it is refuted. A refutation never rests on an
//! assumption (assuming more positions in the set only helps the attacker), so it is final at
//! once. Positions past the budget are unknown: never in the set, never refuted.
//!
//! The search deepens: lines of at most 4 attacker moves first, then 8, 16 and so on, keeping
//! what is proven and refuted between rounds, so that a short cycle or a quick escape is found
//! before a long line is followed. The table is indexed by position key; what is read off it
//! (see `super::proof`, `super::refutation`) is checked again on the positions themselves.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::time::Instant;

use shakmaty::{Chess, Move, MoveList, Position, Role};

use super::Budget;
use crate::game::{gives_check, key_after, position_key};

/// Lines deeper than this many attacker moves are unknown (far more than any perpetual needs;
/// it bounds the recursion).
pub const MAX_LINE: usize = 256;

/// The line length of the first round.
const FIRST_LINE: usize = 4;

/// A position under FIDE's identity (placement, side to move, castling rights, a legal en
/// passant capture), hashed by its key.
#[derive(Debug, Clone)]
pub(super) struct Ident {
    key: u64,
    pos: Chess,
}

impl Ident {
    pub(super) fn new(pos: &Chess) -> Ident {
        Ident {
            key: position_key(pos),
            pos: pos.clone(),
        }
    }
}

impl PartialEq for Ident {
    fn eq(&self, other: &Ident) -> bool {
        self.key == other.key && self.pos == other.pos
    }
}

impl Eq for Ident {}

impl Hash for Ident {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.key);
    }
}

/// What is known of an attacker-to-move position.
#[derive(Debug, Clone)]
pub(super) enum State {
    /// Being searched, at this index of the line.
    Open(usize),
    /// In the set if the position at line index `rests_on` is: `check` keeps every reply in.
    Tentative { check: Move, rests_on: usize },
    /// In the set: `check` keeps every reply in it (or mates).
    Proven(Move),
    /// Not in the set: every check the attacker has, with a reply that leads to a refuted
    /// position. No pairs: the attacker has no check at all (or is mated).
    Refuted(Vec<(Move, Move)>),
    /// Past the budget.
    Unknown,
}

/// A position's answer as the line above it sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Answer {
    /// In the set, assuming the open positions from line index `rests_on` on (usize::MAX:
    /// assuming nothing).
    In {
        rests_on: usize,
    },
    Out,
    Unknown,
}

/// The search's state: every position met, the open line, the tentative results.
pub(super) struct Prover<'a> {
    pub(super) table: HashMap<u64, State>,
    tentative: Vec<u64>,
    max_line: usize,
    budget: Budget,
    /// Asked with the clock: true when the caller wants the answer now (a search told to stop).
    halt: &'a dyn Fn() -> bool,
    started: Instant,
    pub(super) nodes: u64,
    out_of_budget: bool,
}

/// Nodes between two looks at the clock (and at the caller's `halt`).
const CLOCK_EVERY: u64 = 256;

impl<'a> Prover<'a> {
    pub(super) fn new(budget: Budget, halt: &'a dyn Fn() -> bool) -> Prover<'a> {
        Prover {
            table: HashMap::new(),
            tentative: Vec::new(),
            max_line: 0,
            budget,
            halt,
            started: Instant::now(),
            nodes: 0,
            out_of_budget: false,
        }
    }

    /// Time since the prover started.
    pub(super) fn elapsed(&self) -> std::time::Duration {
        self.started.elapsed()
    }

    fn spent(&mut self) -> bool {
        if !self.out_of_budget {
            let nodes = self.budget.nodes.is_some_and(|n| self.nodes >= n);
            let time = self.nodes.is_multiple_of(CLOCK_EVERY)
                && (self
                    .budget
                    .time
                    .is_some_and(|t| self.started.elapsed() >= t)
                    || (self.halt)());
            self.out_of_budget = nodes || time;
        }
        self.out_of_budget
    }

    /// Whether the attacker, to move in `pos`, keeps checking whatever the defender does.
    pub(super) fn attacker_to_move(&mut self, pos: &Chess) -> Option<bool> {
        let key = position_key(pos);
        let mut max_line = FIRST_LINE;
        loop {
            self.max_line = max_line;
            match self.attack(pos, key, 0) {
                Answer::In { .. } => return Some(true),
                Answer::Out => return Some(false),
                Answer::Unknown if self.out_of_budget || max_line >= MAX_LINE => return None,
                Answer::Unknown => {}
            }
            // What was unknown at this length may be known at the next.
            self.table
                .retain(|_, state| !matches!(state, State::Unknown));
            max_line = (max_line * 2).min(MAX_LINE);
        }
    }

    /// The answer for an attacker-to-move position at line index `line`.
    fn attack(&mut self, pos: &Chess, key: u64, line: usize) -> Answer {
        match self.table.get(&key) {
            Some(State::Open(at)) => return Answer::In { rests_on: *at },
            Some(State::Tentative { rests_on, .. }) => {
                return Answer::In {
                    rests_on: *rests_on,
                };
            }
            Some(State::Proven(_)) => {
                return Answer::In {
                    rests_on: usize::MAX,
                };
            }
            Some(State::Refuted(_)) => return Answer::Out,
            Some(State::Unknown) => return Answer::Unknown,
            None => {}
        }
        if line >= self.max_line || self.spent() {
            self.table.insert(key, State::Unknown);
            return Answer::Unknown;
        }
        self.nodes += 1;
        self.table.insert(key, State::Open(line));
        let mark = self.tentative.len();

        let mut refutations = Vec::new();
        let mut unknown = false;
        let mut kept = None;
        for (check, after, replies) in ordered_checks(pos) {
            if replies.is_empty() {
                // Checkmate: the defender has no reply at all.
                kept = Some((check, usize::MAX));
                break;
            }
            let mut rests_on = usize::MAX;
            let mut refuted_by = None;
            let mut open = false;
            let after_key = key_after(pos, key, check, &after);
            for reply in replies_by_checks_left(&after, replies) {
                let mut next = after.clone();
                next.play_unchecked(reply);
                let next_key = key_after(&after, after_key, reply, &next);
                match self.attack(&next, next_key, line + 1) {
                    Answer::In { rests_on: r } => rests_on = rests_on.min(r),
                    Answer::Out => {
                        refuted_by = Some(reply);
                        break;
                    }
                    Answer::Unknown => open = true,
                }
            }
            match refuted_by {
                Some(reply) => refutations.push((check, reply)),
                None if open => unknown = true,
                None => {
                    kept = Some((check, rests_on));
                    break;
                }
            }
        }

        match kept {
            Some((check, rests_on)) if rests_on >= line => {
                // Rests on nothing above: this position and what rested on it are proven.
                let mut still = Vec::new();
                for t in self.tentative.drain(mark..) {
                    match self.table.get(&t) {
                        Some(&State::Tentative { check, rests_on }) if rests_on >= line => {
                            self.table.insert(t, State::Proven(check));
                        }
                        Some(State::Tentative { .. }) => still.push(t),
                        _ => {}
                    }
                }
                self.tentative.extend(still);
                self.table.insert(key, State::Proven(check));
                Answer::In {
                    rests_on: usize::MAX,
                }
            }
            Some((check, rests_on)) => {
                // What rested on this position rests on what it rests on: once this line
                // index is reused by another position, the index must not mislead.
                for t in &self.tentative[mark..] {
                    if let Some(State::Tentative { rests_on: r, .. }) = self.table.get_mut(t) {
                        *r = (*r).min(rests_on);
                    }
                }
                self.table.insert(key, State::Tentative { check, rests_on });
                self.tentative.push(key);
                Answer::In { rests_on }
            }
            None => {
                // What was proven here on the assumption that this position is in the set may
                // rest on it: forget it (it is searched again if met again).
                for t in self.tentative.drain(mark..) {
                    self.table.remove(&t);
                }
                if unknown {
                    self.table.insert(key, State::Unknown);
                    Answer::Unknown
                } else {
                    self.table.insert(key, State::Refuted(refutations));
                    Answer::Out
                }
            }
        }
    }

    /// The proven check of an attacker-to-move position, if it is proven.
    pub(super) fn proven_check(&self, pos: &Chess) -> Option<Move> {
        match self.table.get(&position_key(pos)) {
            Some(State::Proven(check)) => Some(*check),
            _ => None,
        }
    }

    /// The refutation of an attacker-to-move position, if it is refuted.
    pub(super) fn refutation(&self, pos: &Chess) -> Option<&[(Move, Move)]> {
        match self.table.get(&position_key(pos)) {
            Some(State::Refuted(pairs)) => Some(pairs),
            _ => None,
        }
    }
}

/// The legal moves of the side to move in `pos` that give check.
pub(super) fn checks(pos: &Chess) -> impl Iterator<Item = Move> + '_ {
    pos.legal_moves()
        .into_iter()
        .filter(move |&m| gives_check(pos, m))
}

/// The attacker's checks with the position after each and the defender's replies there, those
/// that leave the fewest replies first (a mate first of all).
fn ordered_checks(pos: &Chess) -> Vec<(Move, Chess, MoveList)> {
    let mut checks: Vec<(Move, Chess, MoveList)> = checks(pos)
        .map(|m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            let replies = after.legal_moves();
            (m, after, replies)
        })
        .collect();
    checks.sort_by_key(|(_, _, replies)| replies.len());
    checks
}

/// The defender's replies, those most likely to end the checks first: captures (of the
/// checking piece above all), then interpositions and other piece moves, then king moves.
pub(super) fn ordered_replies(mut replies: MoveList) -> MoveList {
    replies.sort_by_key(|m| {
        if m.is_capture() {
            0
        } else if m.role() != Role::King {
            1
        } else {
            2
        }
    });
    replies
}

/// The defender's replies in the search, those after which the attacker has the fewest checks
/// first (none at all first of all): the escapes are found before the replies that walk into
/// more checks. Ties in [`ordered_replies`]'s order.
fn replies_by_checks_left(after: &Chess, replies: MoveList) -> MoveList {
    let mut scored: Vec<(usize, Move)> = ordered_replies(replies)
        .into_iter()
        .map(|r| {
            let mut next = after.clone();
            next.play_unchecked(r);
            (checks(&next).count(), r)
        })
        .collect();
    scored.sort_by_key(|(checks, _)| *checks);
    scored.into_iter().map(|(_, r)| r).collect()
}
