//! The search behind [`prove`](super::prove): the greatest set of attacker-to-move positions
//! from which a check keeps every reply inside the set, found on a graph that grows where the
//! attacker's strategy needs it.
//!
//! The prover keeps every attacker-to-move position it has met as a node of a graph: an
//! *expanded* node knows each of its checks and, for each check, the node every defender reply
//! leads to; a *frontier* node is known only by its position. Two facts are kept exact on that
//! graph at all times:
//!
//! - **Refuted** nodes: those from which the defender reaches, whatever the attacker checks,
//!   a position where the attacker has no check. A node with no check is refuted; a check is
//!   *dead* once one of its replies leads to a refuted node; an expanded node whose every check
//!   is dead is refuted. This only grows as the graph does (the defender's attractor, kept up
//!   to date at each expansion), and it treats frontier nodes as in the attacker's favour, so
//!   it never refutes a node that has a perpetual.
//! - **Proven** nodes: a closed set of expanded nodes, each with a live check whose every reply
//!   leads back into the set (or that mates). No frontier node in it, so it assumes nothing.
//!
//! Between the two, the search grows the graph: from the start it follows, at each node, one
//! live check and every reply to it, breadth first; the frontier nodes it meets are expanded.
//! When the nodes it meets hold no frontier node, they are the proven strategy. The check
//! followed is kept while it lives, unless another is estimated cheaper to prove (a
//! proof-number estimate: the frontier nodes below it, a mate costing nothing; see
//! [`Prover::strategy_frontier`]). What is read off the prover
//! (see `super::proof`, `super::refutation`) is checked again on the positions themselves, as
//! the graph is indexed by position key.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::time::Instant;

use shakmaty::{Chess, Move, MoveList, Position, Role};

use super::Budget;
use crate::game::{gives_check, key_after, position_key};

/// The longest refutation line shown (in attacker moves); a refutation's line is bounded by
/// its positions, this only bounds what is printed.
pub const MAX_LINE: usize = 256;

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

/// No node, no check: the end of a list in the arrays below.
const NONE: u32 = u32::MAX;

/// An attacker-to-move position of the graph.
#[derive(Debug)]
struct Node {
    pos: Chess,
    /// Its checks, `checks[first_check..end_check]` (empty while a frontier node).
    first_check: u32,
    end_check: u32,
    expanded: bool,
    /// Checks not yet dead.
    live: u32,
    refuted: bool,
    /// The check the search follows here (kept while it lives), NONE before the first choice.
    choice: u32,
    /// In the proven set, with `choice` as its check.
    proven: bool,
    /// The checks (of other nodes) that a reply brings here.
    parents: Vec<u32>,
    /// The last round of the search that met this node (a visited mark that needs no clearing).
    seen: u32,
    /// The node whose check led the last round here first.
    reached_from: u32,
    /// The estimated work to prove it: the frontier nodes below it when the search last met
    /// it (1 for a frontier node, 0 proven).
    estimate: u32,
}

/// A check of an expanded node.
#[derive(Debug)]
struct CheckEdge {
    owner: u32,
    check: Move,
    /// The node each legal reply leads to, in the order of the replies' generation,
    /// `children[first_child..end_child]`; empty for a check that mates.
    first_child: u32,
    end_child: u32,
    /// The index among the replies of the first one found to lead to a refuted node; NONE
    /// while the check lives.
    killer: u32,
}

impl CheckEdge {
    /// Where its replies' nodes lie in the prover's `children`.
    fn replies(&self) -> std::ops::Range<usize> {
        self.first_child as usize..self.end_child as usize
    }
}

/// The search's state: the graph and what it has cost.
pub(super) struct Prover<'a> {
    index: HashMap<u64, u32>,
    nodes_of: Vec<Node>,
    checks: Vec<CheckEdge>,
    children: Vec<u32>,
    budget: Budget,
    /// Asked with the clock: true when the caller wants the answer now (a search told to stop).
    halt: &'a dyn Fn() -> bool,
    started: Instant,
    /// Positions expanded.
    pub(super) nodes: u64,
    out_of_budget: bool,
    round: u32,
}

impl<'a> Prover<'a> {
    pub(super) fn new(budget: Budget, halt: &'a dyn Fn() -> bool) -> Prover<'a> {
        Prover {
            index: HashMap::new(),
            nodes_of: Vec::new(),
            checks: Vec::new(),
            children: Vec::new(),
            budget,
            halt,
            started: Instant::now(),
            nodes: 0,
            out_of_budget: false,
            round: 0,
        }
    }

    /// Time since the prover started.
    pub(super) fn elapsed(&self) -> std::time::Duration {
        self.started.elapsed()
    }

    /// Positions the prover has met (the graph's size).
    pub(super) fn explored(&self) -> usize {
        self.nodes_of.len()
    }

    /// Whether the budget is spent: the nodes, the time, or the caller's `halt`. Asked before
    /// every expansion (a look at the clock costs far less than an expansion, and the trace
    /// between two rounds can make the time between expansions long).
    fn spent(&mut self) -> bool {
        if !self.out_of_budget {
            let nodes = self.budget.nodes.is_some_and(|n| self.nodes >= n);
            let time = self
                .budget
                .time
                .is_some_and(|t| self.started.elapsed() >= t)
                || (self.halt)();
            self.out_of_budget = nodes || time;
        }
        self.out_of_budget
    }

    /// Whether the attacker, to move in `pos`, keeps checking whatever the defender does
    /// (None: the budget ran out first).
    ///
    /// Each round traces the strategy (its cost grows with the nodes it meets), then expands
    /// its frontier and, where the expanded nodes' own checks lead on to new frontier nodes,
    /// those too, until an eighth as many nodes as the trace met are expanded: so a deep,
    /// narrow strategy is not traced again for every ply it grows.
    pub(super) fn attacker_to_move(&mut self, pos: &Chess) -> Option<bool> {
        let root = self.node(pos, position_key(pos));
        loop {
            let node = &self.nodes_of[root as usize];
            if node.refuted {
                return Some(false);
            }
            if node.proven {
                return Some(true);
            }
            let (frontier, met) = self.strategy_frontier(root);
            if frontier.is_empty() {
                // The nodes met close on themselves: the strategy.
                self.mark_proven(root);
                return Some(true);
            }
            let quota = frontier.len().max(met / 8);
            let round = self.round;
            let mut queue = std::collections::VecDeque::from(frontier);
            let mut expanded = 0;
            while let Some(n) = queue.pop_front() {
                if expanded >= quota || self.nodes_of[root as usize].refuted {
                    break;
                }
                if self.spent() {
                    return None;
                }
                if self.nodes_of[n as usize].expanded {
                    continue;
                }
                self.expand(n);
                expanded += 1;
                let c = self.choose(n);
                if c == NONE {
                    continue;
                }
                for &child in &self.children[self.checks[c as usize].replies()] {
                    let child_node = &mut self.nodes_of[child as usize];
                    if !child_node.expanded && child_node.seen != round {
                        child_node.seen = round;
                        queue.push_back(child);
                    }
                }
            }
        }
    }

    /// The node of `pos` (attacker to move), made if new: a new node with no check is
    /// refuted at once.
    fn node(&mut self, pos: &Chess, key: u64) -> u32 {
        if let Some(&n) = self.index.get(&key) {
            return n;
        }
        let n = self.nodes_of.len() as u32;
        let escape = checks(pos).next().is_none();
        self.nodes_of.push(Node {
            pos: pos.clone(),
            first_check: 0,
            end_check: 0,
            expanded: escape,
            live: 0,
            refuted: escape,
            choice: NONE,
            proven: false,
            parents: Vec::new(),
            seen: 0,
            reached_from: NONE,
            estimate: 1,
        });
        self.index.insert(key, n);
        n
    }

    /// Expands frontier node `n` (not expanded yet: the caller skips those, to count its quota):
    /// its checks, the node after each reply; the refutations that follow are carried up the
    /// graph.
    fn expand(&mut self, n: u32) {
        debug_assert!(!self.nodes_of[n as usize].expanded);
        self.nodes += 1;
        let pos = self.nodes_of[n as usize].pos.clone();
        let key = position_key(&pos);
        let first_check = self.checks.len() as u32;
        let mut live = 0;
        for check in checks(&pos).collect::<Vec<_>>() {
            let mut after = pos.clone();
            after.play_unchecked(check);
            let after_key = key_after(&pos, key, check, &after);
            let c = self.checks.len() as u32;
            let first_child = self.children.len() as u32;
            let mut killer = NONE;
            for (i, reply) in after.legal_moves().into_iter().enumerate() {
                let mut next = after.clone();
                next.play_unchecked(reply);
                let next_key = key_after(&after, after_key, reply, &next);
                let child = self.node(&next, next_key);
                self.children.push(child);
                let child_node = &mut self.nodes_of[child as usize];
                child_node.parents.push(c);
                if killer == NONE && child_node.refuted {
                    killer = i as u32;
                }
            }
            if killer == NONE {
                live += 1;
            }
            self.checks.push(CheckEdge {
                owner: n,
                check,
                first_child,
                end_child: self.children.len() as u32,
                killer,
            });
        }
        let node = &mut self.nodes_of[n as usize];
        node.first_check = first_check;
        node.end_check = self.checks.len() as u32;
        node.expanded = true;
        node.live = live;
        if live == 0 {
            self.refute(n);
        }
    }

    /// Marks `n` refuted and carries it up: each parent check dies, each parent left with no
    /// live check is refuted in turn.
    fn refute(&mut self, n: u32) {
        self.nodes_of[n as usize].refuted = true;
        let mut stack = vec![n];
        while let Some(x) = stack.pop() {
            let parents = std::mem::take(&mut self.nodes_of[x as usize].parents);
            for &c in &parents {
                let edge = &self.checks[c as usize];
                if edge.killer != NONE {
                    continue;
                }
                let at = self.children[edge.replies()]
                    .iter()
                    .position(|&child| child == x)
                    .map_or(NONE, |i| i as u32);
                let owner = edge.owner;
                self.checks[c as usize].killer = at;
                let o = &mut self.nodes_of[owner as usize];
                o.live -= 1;
                if o.live == 0 && !o.refuted {
                    o.refuted = true;
                    stack.push(owner);
                }
            }
            self.nodes_of[x as usize].parents = parents;
        }
    }

    /// The estimated work to prove check `c`: its replies' nodes' estimates, less those the
    /// current round already meets (`round`; 0 for none), which cost nothing more.
    fn check_estimate(&self, c: u32, round: u32) -> u32 {
        let edge = &self.checks[c as usize];
        self.children[edge.replies()]
            .iter()
            .map(|&child| {
                let node = &self.nodes_of[child as usize];
                if node.proven || (round != 0 && node.seen == round) {
                    0
                } else {
                    node.estimate
                }
            })
            .fold(0u32, u32::saturating_add)
    }

    /// The live check the search follows at expanded node `n`: the one followed before while
    /// it lives, else the one estimated cheapest to prove (a mate costs nothing).
    fn choose(&mut self, n: u32) -> u32 {
        let node = &self.nodes_of[n as usize];
        if node.choice != NONE && self.checks[node.choice as usize].killer == NONE {
            return node.choice;
        }
        let best = (node.first_check..node.end_check)
            .filter(|&c| self.checks[c as usize].killer == NONE)
            .min_by_key(|&c| self.check_estimate(c, 0))
            .unwrap_or(NONE);
        self.nodes_of[n as usize].choice = best;
        best
    }

    /// The frontier nodes that the strategy from `root` (each node's chosen check, every
    /// reply) reaches before any proven node, and how many nodes it meets. No frontier node at
    /// all: the nodes met are closed under the strategy.
    ///
    /// The nodes met are estimated again, the last met first: a frontier node costs 1, an
    /// expanded one what its check's replies first reached from it cost. Where another live
    /// check is estimated cheaper than the one followed (its replies' nodes met elsewhere cost
    /// nothing), the node follows that one instead, and the strategy is traced again (a few
    /// times at most, so that the estimates cannot make it go round in circles).
    fn strategy_frontier(&mut self, root: u32) -> (Vec<u32>, usize) {
        const RETRACES: usize = 4;
        let mut frontier = Vec::new();
        let mut met = 0;
        for _ in 0..RETRACES {
            let order = self.trace(root);
            met = order.len();
            frontier.clear();
            let mut switched = false;
            for &n in order.iter().rev() {
                if !self.nodes_of[n as usize].expanded {
                    frontier.push(n);
                    self.nodes_of[n as usize].estimate = 1;
                    continue;
                }
                let round = self.round;
                let chosen = self.nodes_of[n as usize].choice;
                let edge = &self.checks[chosen as usize];
                let below: u32 = self.children[edge.replies()]
                    .iter()
                    .map(|&child| {
                        let node = &self.nodes_of[child as usize];
                        if node.seen == round && node.reached_from == n && !node.proven {
                            node.estimate
                        } else {
                            0
                        }
                    })
                    .fold(0u32, u32::saturating_add);
                let (first, end) = {
                    let node = &self.nodes_of[n as usize];
                    (node.first_check, node.end_check)
                };
                let cheaper = (first..end)
                    .filter(|&c| c != chosen && self.checks[c as usize].killer == NONE)
                    .map(|c| (self.check_estimate(c, round), c))
                    .min();
                let node = &mut self.nodes_of[n as usize];
                match cheaper {
                    Some((estimate, c)) if estimate < below => {
                        node.choice = c;
                        node.estimate = estimate;
                        switched = true;
                    }
                    _ => node.estimate = below,
                }
            }
            if !switched {
                break;
            }
        }
        (frontier, met)
    }

    /// One round: the nodes the strategy from `root` reaches, breadth first (stopping at
    /// frontier and proven nodes), each marked with the round and the node it was reached from.
    fn trace(&mut self, root: u32) -> Vec<u32> {
        self.round += 1;
        let round = self.round;
        let mut order = Vec::new();
        let mut at = 0;
        self.nodes_of[root as usize].seen = round;
        self.nodes_of[root as usize].reached_from = NONE;
        order.push(root);
        while at < order.len() {
            let n = order[at];
            at += 1;
            if !self.nodes_of[n as usize].expanded {
                continue;
            }
            let c = self.choose(n);
            if c == NONE {
                // Refuted: no node the strategy reaches is (the check that led here would be
                // dead), so this is the root, which the caller has looked at first.
                continue;
            }
            for &child in &self.children[self.checks[c as usize].replies()] {
                let child_node = &mut self.nodes_of[child as usize];
                if child_node.seen != round && !child_node.proven {
                    child_node.seen = round;
                    child_node.reached_from = n;
                    order.push(child);
                }
            }
        }
        order
    }

    /// Marks proven every node the strategy from `root` reaches (all expanded and live, with
    /// no frontier among them: [`Prover::strategy_frontier`] just said so).
    fn mark_proven(&mut self, root: u32) {
        let mut stack = vec![root];
        self.nodes_of[root as usize].proven = true;
        while let Some(n) = stack.pop() {
            let c = self.nodes_of[n as usize].choice;
            for &child in &self.children[self.checks[c as usize].replies()] {
                let child_node = &mut self.nodes_of[child as usize];
                if !child_node.proven {
                    child_node.proven = true;
                    stack.push(child);
                }
            }
        }
    }

    fn find(&self, pos: &Chess) -> Option<&Node> {
        self.index
            .get(&position_key(pos))
            .map(|&n| &self.nodes_of[n as usize])
    }

    /// The proven check of an attacker-to-move position, if it is proven.
    pub(super) fn proven_check(&self, pos: &Chess) -> Option<Move> {
        let node = self.find(pos)?;
        node.proven.then(|| self.checks[node.choice as usize].check)
    }

    /// The refutation of an attacker-to-move position, if it is refuted: each check with the
    /// reply that leads to a position refuted before it. No pairs: the attacker has no check.
    pub(super) fn refutation(&self, pos: &Chess) -> Option<Vec<(Move, Move)>> {
        let node = self.find(pos)?;
        if !node.refuted {
            return None;
        }
        let mut pairs = Vec::new();
        for c in node.first_check..node.end_check {
            let edge = &self.checks[c as usize];
            let mut after = node.pos.clone();
            after.play_unchecked(edge.check);
            let reply = after.legal_moves().get(edge.killer as usize).copied()?;
            pairs.push((edge.check, reply));
        }
        Some(pairs)
    }
}

/// The legal moves of the side to move in `pos` that give check.
pub(super) fn checks(pos: &Chess) -> impl Iterator<Item = Move> + '_ {
    pos.legal_moves()
        .into_iter()
        .filter(move |&m| gives_check(pos, m))
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
