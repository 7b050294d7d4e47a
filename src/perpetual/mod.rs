//! Perpetual check, proved exactly: does the attacker have a check on every move, whatever
//! the defender replies? Exact chess, no evaluation: the answer is *proven* (with the
//! strategy, a certificate anyone can check), *refuted* (with the defender's answers to every
//! try), or *unknown* (the budget ran out first). `docs/perpetual.md` says why a proof means a
//! draw at least under FIDE's rules and describes the certificate.
//!
//! It needs only the game (positions, moves, the rules); the root of the search, `analyse` and
//! `threefold perpetual` use it.
//!
//! ```
//! use shakmaty::Color;
//! use threefold::game::{Game, parse_fen};
//! use threefold::perpetual::{Budget, Verdict, prove};
//!
//! // White, a rook down and facing mate, checks from h5 and e8 for ever.
//! let game = Game::new(parse_fen("6k1/6p1/8/7Q/8/1P6/PPqr4/K7 w - - 0 1").unwrap());
//! let report = prove(&game, Color::White, Budget::nodes(10_000)).unwrap();
//! let Verdict::Proven(proof) = &report.verdict else { panic!("{report:?}") };
//! assert_eq!(proof.strategy.len(), 2);
//!
//! // Black has checks (Qc1+, Rd1+) but none that last.
//! let report = prove(&game, Color::Black, Budget::nodes(10_000)).unwrap();
//! assert!(matches!(report.verdict, Verdict::Refuted(_)), "{report:?}");
//! ```

pub mod certificate;
pub mod command;
mod prover;

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::time::Duration;

use shakmaty::{Chess, Color, Move, Position};

use crate::game::{Game, gives_check, position_key};
use prover::{Ident, Prover};

/// How much the prover may spend: attacker-to-move positions searched, and time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Budget {
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
}

impl Budget {
    /// A budget of `nodes` positions and no time limit.
    pub fn nodes(nodes: u64) -> Budget {
        Budget {
            nodes: Some(nodes),
            time: None,
        }
    }
}

/// Why a question has no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProveError {
    /// The game is over in the position (checkmate or stalemate): nobody moves.
    NoLegalMove,
    /// The attacker has nothing but its king, and a king never gives check.
    NothingToCheckWith(Color),
}

impl fmt::Display for ProveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProveError::NoLegalMove => write!(f, "the position has no legal move"),
            ProveError::NothingToCheckWith(side) => write!(
                f,
                "{} has only its king, which cannot give check",
                crate::record::notation::side_name(*side)
            ),
        }
    }
}

impl std::error::Error for ProveError {}

/// A perpetual check proven: the attacker's strategy.
#[derive(Debug, Clone)]
pub struct Proof {
    /// Every attacker-to-move position the strategy can reach, with the check it plays there;
    /// the start first when the attacker is to move. Every legal reply to each check leads to
    /// one of them, or the check mates.
    pub strategy: Vec<(Chess, Move)>,
    /// The longest of the shortest ways back to a position of the strategy, in attacker moves
    /// (None for a strategy too big to measure, over [`CYCLE_MEASURE_LIMIT`] positions).
    pub longest_cycle: Option<usize>,
    /// From the start, the strategy's checks and the defender's first-ordered replies until a
    /// position comes back.
    pub main_line: Vec<Move>,
    /// With the game's history, a position of the strategy occurs a third time by the
    /// attacker's move with this number at the latest.
    pub threefold_within: usize,
}

/// A perpetual check refuted: the checks run out whatever the attacker tries.
#[derive(Debug, Clone)]
pub struct Refutation {
    /// When the defender is to move at the start: the move after which the attacker has no
    /// perpetual.
    pub first_reply: Option<Move>,
    /// Every attacker-to-move position of the refutation, the first one first, with each check
    /// the attacker has there and the defender's answer. A position with no pairs is one where
    /// the attacker has no check.
    pub positions: Vec<(Chess, Vec<(Move, Move)>)>,
    /// One defender line: the attacker's first-ordered checks and the answers, until the
    /// checks run out.
    pub line: Vec<Move>,
}

/// The prover's answer.
#[derive(Debug, Clone)]
pub enum Verdict {
    Proven(Proof),
    Refuted(Refutation),
    /// The budget ran out first.
    Unknown,
}

/// The answer with what it cost.
#[derive(Debug, Clone)]
pub struct Report {
    pub start: Chess,
    pub attacker: Color,
    pub verdict: Verdict,
    /// Attacker-to-move positions searched.
    pub nodes: u64,
    /// Attacker-to-move positions whose answer is known (the table's size).
    pub explored: usize,
    pub elapsed: Duration,
}

/// Strategies bigger than this are not measured for their longest cycle (a search from each
/// position).
pub const CYCLE_MEASURE_LIMIT: usize = 2_000;

/// Whether `attacker` has a perpetual check in the current position of `game`: when it is to
/// move, a check whose every reply leads on to another; when the defender is to move, after
/// every move the defender has.
pub fn prove(game: &Game, attacker: Color, budget: Budget) -> Result<Report, ProveError> {
    prove_until(game, attacker, budget, &|| false)
}

/// [`prove`], also ending (unknown, unless already answered) as soon as `halt` returns true:
/// it is asked before every position the prover expands, as the clock is (the search's stop
/// flag).
pub fn prove_until(
    game: &Game,
    attacker: Color,
    budget: Budget,
    halt: &dyn Fn() -> bool,
) -> Result<Report, ProveError> {
    let start = game.position().clone();
    if start.legal_moves().is_empty() {
        return Err(ProveError::NoLegalMove);
    }
    let board = start.board();
    if (board.by_color(attacker) & !board.kings()).is_empty() {
        return Err(ProveError::NothingToCheckWith(attacker));
    }
    let mut prover = Prover::new(budget, halt);
    let verdict = if start.turn() == attacker {
        match prover.attacker_to_move(&start) {
            Some(true) => proof(&prover, game, std::slice::from_ref(&start))
                .map_or(Verdict::Unknown, Verdict::Proven),
            Some(false) => {
                refutation(&prover, &start, None).map_or(Verdict::Unknown, Verdict::Refuted)
            }
            None => Verdict::Unknown,
        }
    } else {
        defender_to_move(&mut prover, game, &start)
    };
    Ok(Report {
        start,
        attacker,
        verdict,
        nodes: prover.nodes,
        explored: prover.explored(),
        elapsed: prover.elapsed(),
    })
}

/// Whether the side to move in `pos` has a legal check: without one it has no perpetual, and
/// the question need not be asked.
pub fn can_check(pos: &Chess) -> bool {
    prover::checks(pos).next().is_some()
}

/// The defender moves first: a perpetual needs every move to lead to one.
fn defender_to_move(prover: &mut Prover, game: &Game, start: &Chess) -> Verdict {
    let mut unknown = false;
    let mut starts = Vec::new();
    for m in prover::ordered_replies(start.legal_moves()) {
        let mut next = start.clone();
        next.play_unchecked(m);
        match prover.attacker_to_move(&next) {
            Some(true) => starts.push(next),
            Some(false) => {
                return refutation(prover, &next, Some(m))
                    .map_or(Verdict::Unknown, Verdict::Refuted);
            }
            None => unknown = true,
        }
    }
    if unknown {
        Verdict::Unknown
    } else {
        proof(prover, game, &starts).map_or(Verdict::Unknown, Verdict::Proven)
    }
}

/// The proven strategy from `starts` (attacker to move in each), read off the prover's table
/// and checked on the positions themselves (the table is indexed by key): None if a check is
/// not legal or gives no check, or a reply leads to a position not proven.
fn proof(prover: &Prover, game: &Game, starts: &[Chess]) -> Option<Proof> {
    let mut index: HashMap<Ident, usize> = HashMap::new();
    let mut positions: Vec<Chess> = Vec::new();
    let mut edges: Vec<Vec<usize>> = Vec::new();
    let mut checks: Vec<Move> = Vec::new();
    let mut add = |pos: &Chess, positions: &mut Vec<Chess>, edges: &mut Vec<Vec<usize>>| {
        *index.entry(Ident::new(pos)).or_insert_with(|| {
            positions.push(pos.clone());
            edges.push(Vec::new());
            positions.len() - 1
        })
    };
    for s in starts {
        add(s, &mut positions, &mut edges);
    }
    // Breadth first: the positions are numbered in the order they are met, so the next one to
    // expand is always the next number.
    let mut at = 0;
    while at < positions.len() {
        let pos = positions[at].clone();
        let check = prover.proven_check(&pos)?;
        if !pos.is_legal(check) || !gives_check(&pos, check) {
            return None;
        }
        checks.push(check);
        let mut after = pos;
        after.play_unchecked(check);
        for reply in after.legal_moves() {
            let mut next = after.clone();
            next.play_unchecked(reply);
            let to = add(&next, &mut positions, &mut edges);
            edges[at].push(to);
        }
        at += 1;
    }
    let strategy: Vec<(Chess, Move)> = positions.into_iter().zip(checks).collect();
    let longest_cycle = (strategy.len() <= CYCLE_MEASURE_LIMIT).then(|| longest_cycle(&edges));
    // Occurrences in the game so far, the current position included.
    let mut seen: HashMap<u64, usize> = HashMap::new();
    for &k in game.reversible_keys() {
        *seen.entry(k).or_default() += 1;
    }
    let used: usize = strategy
        .iter()
        .map(|(p, _)| seen.get(&position_key(p)).copied().unwrap_or(0).min(2))
        .sum();
    let threefold_within = 2 * strategy.len() - used + 1;
    Some(Proof {
        main_line: main_line(prover, game.position(), starts.first()?),
        strategy,
        longest_cycle,
        threefold_within,
    })
}

/// The longest, over the strategy's positions that lie on a cycle, of the shortest way back.
fn longest_cycle(edges: &[Vec<usize>]) -> usize {
    let mut longest = 0;
    let mut dist = vec![usize::MAX; edges.len()];
    for from in 0..edges.len() {
        dist.fill(usize::MAX);
        let mut queue = VecDeque::from([(from, 0)]);
        let mut back = None;
        while let Some((at, d)) = queue.pop_front() {
            for &to in &edges[at] {
                if to == from {
                    back = Some(d + 1);
                    break;
                }
                if dist[to] == usize::MAX {
                    dist[to] = d + 1;
                    queue.push_back((to, d + 1));
                }
            }
            if back.is_some() {
                break;
            }
        }
        longest = longest.max(back.unwrap_or(0));
    }
    longest
}

/// The strategy's line from the start (through `first`, the first attacker-to-move position)
/// with the defender's first-ordered replies, until an attacker-to-move position comes back.
fn main_line(prover: &Prover, start: &Chess, first: &Chess) -> Vec<Move> {
    let mut line = Vec::new();
    let leads_to_first = |&m: &Move| {
        let mut p = start.clone();
        p.play_unchecked(m);
        p == *first
    };
    if start != first
        && let Some(m) = start.legal_moves().into_iter().find(leads_to_first)
    {
        line.push(m);
    }
    let mut pos = first.clone();
    let mut met = vec![pos.clone()];
    while let Some(check) = prover.proven_check(&pos) {
        line.push(check);
        pos.play_unchecked(check);
        let Some(&reply) = prover::ordered_replies(pos.legal_moves()).first() else {
            break;
        };
        line.push(reply);
        pos.play_unchecked(reply);
        if met.contains(&pos) {
            break;
        }
        met.push(pos.clone());
    }
    line
}

/// The refutation from `first` (attacker to move, refuted), read off the prover's table and
/// checked on the positions themselves: None unless every check of each position has a legal
/// answer there.
fn refutation(prover: &Prover, first: &Chess, first_reply: Option<Move>) -> Option<Refutation> {
    let mut index: HashMap<Ident, usize> = HashMap::new();
    let mut positions: Vec<(Chess, Vec<(Move, Move)>)> = Vec::new();
    let mut queue = VecDeque::from([first.clone()]);
    index.insert(Ident::new(first), 0);
    while let Some(pos) = queue.pop_front() {
        let pairs = prover.refutation(&pos)?;
        let checks: Vec<Move> = prover::checks(&pos).collect();
        if checks.len() != pairs.len() || checks.iter().any(|c| !pairs.iter().any(|p| p.0 == *c)) {
            return None;
        }
        for &(check, reply) in &pairs {
            let mut next = pos.clone();
            next.play_unchecked(check);
            if !next.is_legal(reply) {
                return None;
            }
            next.play_unchecked(reply);
            let ident = Ident::new(&next);
            if !index.contains_key(&ident) {
                index.insert(ident, index.len());
                queue.push_back(next);
            }
        }
        positions.push((pos, pairs));
    }
    let mut line: Vec<Move> = first_reply.into_iter().collect();
    let mut pos = first.clone();
    while let Some((check, reply)) = prover.refutation(&pos).and_then(|p| p.first().copied()) {
        if line.len() > 2 * prover::MAX_LINE {
            return None;
        }
        line.extend([check, reply]);
        pos.play_unchecked(check);
        pos.play_unchecked(reply);
    }
    Some(Refutation {
        first_reply,
        positions,
        line,
    })
}
