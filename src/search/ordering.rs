//! Move ordering: hash move first, then captures that do not lose material (by MVV-LVA and
//! capture history), killers, the counter-move to the opponent's last move, quiet moves by
//! history, and last the captures that lose material. A quiet move's history is the sum of the
//! butterfly table (side, from, to, and whether the opponent attacks the from square and the to
//! square: a piece fleeing an attack and the same piece walking into one learn apart) and two
//! continuation tables: how the move (piece, to) fared
//! after the opponent's last move, and after our own move before it. A capture's history is kept
//! by the capturing piece, its destination and the captured kind.

use shakmaty::{Bitboard, Chess, Color, Move, MoveList, Position, Role};

use super::correction::CorrectionHistory;
use super::params;
use super::score::MAX_PLY;
use super::see;
use super::tt::pack_move;

const HASH_MOVE: i32 = 2_000_000;
const GOOD_CAPTURE: i32 = 1_000_000;
const QUEEN_PROMOTION: i32 = 950_000;
pub const FIRST_KILLER: i32 = 900_000;
pub const SECOND_KILLER: i32 = 899_000;
/// The quiet move that last refuted the opponent's previous move (counter-move).
pub const COUNTER_MOVE: i32 = 898_000;
/// Captures that lose material in the exchange come after every quiet move.
const LOSING_CAPTURE: i32 = -1_000_000;
const UNDER_PROMOTION: i32 = -100_000;
/// History scores stay within +-HISTORY_MAX (so they never outrank killers).
pub const HISTORY_MAX: i32 = 16_384;

/// Value of a piece kind for ordering.
fn order_value(role: Role) -> i32 {
    super::params::piece_value(role).ordering
}

/// Coloured piece and destination square of a move: 12 × 64 values.
const PIECE_TO: usize = 12 * 64;

/// The continuation-history key of a move: which coloured piece went where.
pub fn piece_to(color: Color, m: Move) -> usize {
    (color as usize * 6 + m.role() as usize - 1) * 64 + m.to() as usize
}

/// What a node knows of the moves that led to it, for ordering and history updates.
#[derive(Debug, Clone, Copy, Default)]
pub struct Lineage {
    /// The opponent's last move (None at the root or after a null move).
    pub previous: Option<Move>,
    /// Continuation keys (`piece_to`) of the moves one and two plies back.
    pub continuations: [Option<usize>; 2],
    /// The squares the opponent attacks (`see::attacked_squares`).
    pub threats: Bitboard,
}

/// Killer moves (quiet moves that caused a cutoff at the same ply), counter-moves (the quiet
/// move that last refuted a given opponent move), the butterfly history and the continuation
/// history; beside them the evaluation's correction history, which is learned the same way and
/// kept as long.
pub struct Heuristics {
    killers: Vec<[Option<Move>; 2]>,
    /// Indexed by the side to move and the from/to squares of the opponent's last move.
    counters: Vec<Option<Move>>,
    /// Indexed by `history_index`: side, from, to and the two threat bits.
    history: Vec<i32>,
    /// Indexed by an earlier move's `piece_to`, then this move's.
    continuation: Vec<i16>,
    /// Indexed by the capture's `piece_to` and the captured kind (`capture_index`).
    captures: Vec<i32>,
    /// What the searches found the static evaluation off by.
    pub correction: CorrectionHistory,
}

impl Default for Heuristics {
    fn default() -> Self {
        Heuristics {
            killers: vec![[None; 2]; MAX_PLY + 1],
            counters: vec![None; 2 * 64 * 64],
            history: vec![0; 2 * 64 * 64 * 4],
            continuation: vec![0; PIECE_TO * PIECE_TO],
            captures: vec![0; PIECE_TO * 6],
            correction: CorrectionHistory::default(),
        }
    }
}

/// The capture-history key of a capture: which coloured piece took what where.
fn capture_index(color: Color, m: Move) -> usize {
    let victim = m.capture().map_or(0, |r| r as usize - 1);
    piece_to(color, m) * 6 + victim
}

/// How far one cutoff at `depth` moves a history entry: it grows with the square of the depth,
/// so that deep cutoffs teach more, up to `params::history_bonus_max()`.
fn history_bonus(depth: i32) -> i32 {
    (params::history_bonus_per_depth() * depth * (depth + 2)).min(params::history_bonus_max())
}

/// A move's slot by side, from and to square (the counter-moves' index).
fn from_to_index(color: Color, m: Move) -> usize {
    let from = m.from().map_or(0, |s| s as usize);
    let to = m.to() as usize;
    (color as usize) * 4096 + from * 64 + to
}

/// A quiet move's butterfly slot: its from/to slot, and whether the opponent attacks the square
/// it leaves and the square it goes to.
fn history_index(color: Color, m: Move, threats: Bitboard) -> usize {
    let fled = m.from().is_some_and(|s| threats.contains(s));
    let entered = threats.contains(m.to());
    from_to_index(color, m) * 4 + usize::from(fled) * 2 + usize::from(entered)
}

impl Heuristics {
    /// Forgets everything (`ucinewgame`).
    pub fn clear(&mut self) {
        *self = Heuristics::default();
    }

    /// Forgets the killers of the previous search but keeps the history.
    pub fn new_search(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
    }

    /// Records the move `m` that refuted the opponent's last move at `ply`. A quiet move
    /// becomes a killer and the counter-move and gains history, which the quiet moves tried
    /// before it lose; a capture gains capture history. The captures tried before it lose
    /// capture history either way.
    #[allow(clippy::too_many_arguments)]
    pub fn record_cutoff(
        &mut self,
        color: Color,
        m: Move,
        lineage: &Lineage,
        ply: usize,
        depth: i32,
        quiets_tried: &[Move],
        captures_tried: &[Move],
    ) {
        let bonus = history_bonus(depth);
        for &other in captures_tried {
            if other != m {
                gravity(&mut self.captures[capture_index(color, other)], -bonus);
            }
        }
        if m.is_capture() {
            gravity(&mut self.captures[capture_index(color, m)], bonus);
            return;
        }
        if m.promotion().is_some() {
            return;
        }
        if let Some(p) = lineage.previous {
            self.counters[from_to_index(color, p)] = Some(m);
        }
        if let Some(k) = self.killers.get_mut(ply)
            && k[0] != Some(m)
        {
            k[1] = k[0];
            k[0] = Some(m);
        }
        self.update_history(color, m, lineage, bonus);
        for &other in quiets_tried {
            if other != m && !other.is_capture() {
                self.update_history(color, other, lineage, -bonus);
            }
        }
    }

    /// Moves the butterfly and continuation entries of `m` by `bonus`.
    fn update_history(&mut self, color: Color, m: Move, lineage: &Lineage, bonus: i32) {
        gravity(
            &mut self.history[history_index(color, m, lineage.threats)],
            bonus,
        );
        let own = piece_to(color, m);
        for earlier in lineage.continuations.into_iter().flatten() {
            let entry = &mut self.continuation[earlier * PIECE_TO + own];
            let mut value = i32::from(*entry);
            gravity(&mut value, bonus);
            *entry = value as i16;
        }
    }

    /// The history of a quiet move: butterfly plus continuation.
    fn quiet_score(&self, color: Color, m: Move, lineage: &Lineage) -> i32 {
        let own = piece_to(color, m);
        let continuation: i32 = lineage
            .continuations
            .into_iter()
            .flatten()
            .map(|earlier| i32::from(self.continuation[earlier * PIECE_TO + own]))
            .sum();
        self.history[history_index(color, m, lineage.threats)] + continuation
    }

    /// The moves of a node, ordered by their scores.
    pub fn order_moves<'a>(
        &self,
        pos: &Chess,
        moves: &'a mut MoveList,
        hash_move: u16,
        lineage: &Lineage,
        ply: usize,
    ) -> MovePicker<'a> {
        let color = pos.turn();
        let killers = self.killers.get(ply).copied().unwrap_or([None; 2]);
        let counter = lineage
            .previous
            .and_then(|p| self.counters[from_to_index(color, p)]);
        MovePicker::new(moves, |m| {
            if hash_move != 0 && pack_move(m) == hash_move {
                HASH_MOVE
            } else if let Some(victim) = m.capture() {
                let mvv_lva = order_value(victim) * 8 - order_value(m.role()) / 10;
                let within_group = mvv_lva
                    + self.captures[capture_index(color, m)] / params::capture_history_per_order();
                if see::wins_at_least(pos, m, 0) {
                    GOOD_CAPTURE + within_group
                } else {
                    LOSING_CAPTURE + within_group
                }
            } else if let Some(promo) = m.promotion() {
                if promo == Role::Queen {
                    QUEEN_PROMOTION
                } else {
                    UNDER_PROMOTION
                }
            } else if killers[0] == Some(m) {
                FIRST_KILLER
            } else if killers[1] == Some(m) {
                SECOND_KILLER
            } else if counter == Some(m) {
                COUNTER_MOVE
            } else {
                self.quiet_score(color, m, lineage)
            }
        })
    }
}

/// Moves a history entry toward +-HISTORY_MAX, slowing as it gets close ("gravity").
fn gravity(entry: &mut i32, bonus: i32) {
    *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
}

/// The most moves a `MoveList` holds (shakmaty's capacity; no legal position has more than 218).
const MAX_MOVES: usize = 256;

/// The moves of a node with their ordering scores, handed out best first: a selection sort,
/// one step a move, since a cutoff often comes before most moves are looked at. The scores
/// live beside the moves, on the stack.
///
/// ```
/// use shakmaty::{Chess, Move, Position, Role};
/// use threefold::search::ordering::MovePicker;
///
/// // How many ranks a move goes forward.
/// let ranks = |m: Move| m.to().rank() as i32 - m.from().map_or(0, |s| s.rank() as i32);
/// let mut moves = Chess::default().legal_moves();
/// // Knight moves first, then pawn moves by how far they go.
/// let mut picker = MovePicker::new(&mut moves, |m| match m.role() {
///     Role::Knight => 100,
///     _ => ranks(m),
/// });
/// let (first, score) = picker.next_move().unwrap();
/// assert_eq!((first.role(), score), (Role::Knight, 100));
/// let rest: Vec<i32> = std::iter::from_fn(|| picker.next_move()).map(|(_, s)| s).collect();
/// assert_eq!(rest[..3], [100, 100, 100]);
/// assert_eq!(rest[3..], [2; 8].into_iter().chain([1; 8]).collect::<Vec<_>>());
/// ```
pub struct MovePicker<'a> {
    moves: &'a mut MoveList,
    scores: [i32; MAX_MOVES],
    /// How many moves were handed out (they come first in `moves`).
    next: usize,
}

impl<'a> MovePicker<'a> {
    /// `moves`, each scored by `score` (the list is reordered as moves are handed out).
    pub fn new(moves: &'a mut MoveList, mut score: impl FnMut(Move) -> i32) -> MovePicker<'a> {
        let mut scores = [0; MAX_MOVES];
        for (slot, &m) in scores.iter_mut().zip(moves.iter()) {
            *slot = score(m);
        }
        MovePicker {
            moves,
            scores,
            next: 0,
        }
    }

    /// The best-scored move not handed out yet, with its score.
    pub fn next_move(&mut self) -> Option<(Move, i32)> {
        let start = self.next;
        let len = self.moves.len();
        if start >= len {
            return None;
        }
        let mut best = start;
        for i in start + 1..len {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(start, best);
        self.scores.swap(start, best);
        self.next += 1;
        Some((self.moves[start], self.scores[start]))
    }
}

/// Capture ordering for quiescence: most valuable victim, then least valuable attacker.
pub fn capture_score(m: Move) -> i32 {
    let victim = m.capture().map_or(0, order_value);
    let promo = m.promotion().map_or(0, order_value);
    victim * 8 + promo - order_value(m.role()) / 10
}

/// Material won by a capture or promotion, for delta pruning.
pub fn material_gain(m: Move) -> i32 {
    m.capture().map_or(0, order_value) + m.promotion().map_or(0, |r| order_value(r) - 100)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Square;

    /// White's move `from`-`to` in the starting position.
    fn knight(from: Square, to: Square) -> Move {
        Chess::default()
            .legal_moves()
            .into_iter()
            .find(|m| m.from() == Some(from) && m.to() == to)
            .expect("a legal move of the starting position")
    }

    #[test]
    fn a_move_that_flees_an_attack_learns_apart_from_the_same_move_in_peace() {
        let m = knight(Square::G1, Square::F3);
        let with = |threats: Bitboard| Lineage {
            threats,
            ..Lineage::default()
        };
        let fleeing = with(Bitboard::from(Square::G1));
        let mut heuristics = Heuristics::default();
        heuristics.record_cutoff(Color::White, m, &fleeing, 1, 6, &[], &[]);
        assert!(heuristics.quiet_score(Color::White, m, &fleeing) > 0);
        // The same move with no attack on either square, or walking into one, has learned
        // nothing; nor has Black's move between the same squares.
        for other in [Bitboard::EMPTY, Bitboard::from(Square::F3)] {
            assert_eq!(heuristics.quiet_score(Color::White, m, &with(other)), 0);
        }
        assert_eq!(heuristics.quiet_score(Color::Black, m, &fleeing), 0);
        // A move tried before the cutoff loses in its own slot (neither of its squares
        // attacked) only: walking into an attack on c3 has learned nothing.
        let tried = knight(Square::B1, Square::C3);
        heuristics.record_cutoff(Color::White, m, &fleeing, 1, 6, &[tried], &[]);
        assert!(heuristics.quiet_score(Color::White, tried, &fleeing) < 0);
        let into = with(Bitboard::from(Square::C3));
        assert_eq!(heuristics.quiet_score(Color::White, tried, &into), 0);
    }
}
