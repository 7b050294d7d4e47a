//! What a principal variation means for the game: does it end in a draw by rule (and is a
//! repetition a perpetual check)?

use shakmaty::{Chess, Color, Move, Position};

use super::repetition::KeyStack;
use crate::game::rules::completes_fifty_moves;
use crate::game::{Game, is_dead_by_material, key_after};

/// How a line ends in a repetition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RepetitionLine {
    /// One side gives check with every one of its moves in the line.
    PerpetualCheck(Color),
    /// A repetition without checks on every move.
    Repetition,
}

/// The positions of a line played after the game.
struct Replay {
    keys: KeyStack,
    pos: Chess,
    key: u64,
    /// Per colour (shakmaty's index), whether every move it made gave check.
    all_checks: [bool; 2],
    moves_by: [usize; 2],
}

impl Replay {
    fn new(game: &Game) -> Replay {
        Replay {
            keys: KeyStack::new(game.reversible_keys()),
            pos: game.position().clone(),
            key: game.key(),
            all_checks: [true; 2],
            moves_by: [0; 2],
        }
    }

    fn play(&mut self, m: Move) -> bool {
        if !self.pos.is_legal(m) {
            return false;
        }
        let mover = self.pos.turn() as usize;
        let mut after = self.pos.clone();
        after.play_unchecked(m);
        self.key = key_after(&self.pos, self.key, m, &after);
        self.keys.push(self.key);
        self.all_checks[mover] &= after.is_check();
        self.moves_by[mover] += 1;
        self.pos = after;
        true
    }

    fn is_repetition(&self) -> bool {
        self.keys.is_draw(self.pos.halfmoves())
    }

    /// A legal move of the side to move that completes a repetition, if any.
    fn repeating_move(&self) -> Option<Move> {
        self.pos.legal_moves().into_iter().find(|&m| {
            let mut child = self.pos.clone();
            child.play_unchecked(m);
            let mut keys = self.keys.clone();
            keys.push(key_after(&self.pos, self.key, m, &child));
            keys.is_draw(child.halfmoves())
        })
    }
}

/// If `pv`, played after the game, stops one move short of a repetition (the search cut there
/// because the side to move can repeat), appends that move.
pub fn complete_repetition(game: &Game, pv: &mut Vec<Move>) {
    let mut replay = Replay::new(game);
    if !pv.iter().all(|&m| replay.play(m)) || replay.is_repetition() {
        return;
    }
    if let Some(m) = replay.repeating_move() {
        pv.push(m);
    }
}

/// Plays `pv` after the game and tells whether its last move completes a draw by repetition
/// (as the search counts it: twofold inside the line, threefold with the game before it).
pub fn ends_in_repetition(game: &Game, pv: &[Move]) -> Option<RepetitionLine> {
    let mut replay = Replay::new(game);
    if !pv.iter().all(|&m| replay.play(m)) || !replay.is_repetition() {
        return None;
    }
    let checker = Color::ALL.into_iter().find(|&c| {
        let i = c as usize;
        replay.all_checks[i] && replay.moves_by[i] > 0
    });
    Some(checker.map_or(RepetitionLine::Repetition, RepetitionLine::PerpetualCheck))
}

/// True when `pv`, played after the game, reaches a draw by rule: a repetition (as the search
/// counts it), the fifty-move clock at 100 without mate, a dead position, or stalemate.
pub fn ends_in_draw(game: &Game, pv: &[Move]) -> bool {
    let mut replay = Replay::new(game);
    let drawn = |r: &Replay| {
        r.is_repetition()
            || completes_fifty_moves(&r.pos)
            || is_dead_by_material(&r.pos)
            || r.pos.is_stalemate()
    };
    if drawn(&replay) {
        return true;
    }
    for &m in pv {
        if !replay.play(m) {
            return false;
        }
        if drawn(&replay) {
            return true;
        }
    }
    false
}
