//! Repetition detection along the game and the search path.
//!
//! The search keeps one stack of keys: the game's positions since its last irreversible move,
//! then the positions of the current line. A position that repeats one *after* the root is a
//! draw at once (whoever repeated once can repeat again); one that repeats the root position
//! or one from *before* it is a draw only when it makes a threefold with the game history.
//!
//! A second occurrence of the root or an earlier position is no draw yet, but it would be one
//! if the game itself repeated that position: a score that rests on it may be wrong in a later
//! search of a game that has since repeated positions (see [`Recurrence::Twofold`]).

use shakmaty::{Bitboard, attacks};

use super::cuckoo::reversible_move;

/// The key stack of the current line: the game's keys since its last irreversible move, then
/// one key per ply searched.
///
/// ```
/// use threefold::search::repetition::KeyStack;
/// // The game so far: positions A, B, then the root C (keys are any u64).
/// let mut keys = KeyStack::new(&[0xA, 0xB, 0xC]);
/// keys.push(0xD);
/// keys.push(0xC); // the root again, inside the search: a second occurrence only
/// assert!(!keys.is_draw(4));
/// keys.push(0xD); // a position first reached after the root, repeated: a draw at once
/// assert!(keys.is_draw(5));
/// assert!(!keys.is_draw(0)); // unless a capture or pawn move came between (clock 0)
/// keys.pop();
/// keys.pop();
/// keys.push(0xA); // A was seen once in the game: twice is no draw yet
/// assert!(!keys.is_draw(3));
/// ```
#[derive(Debug, Clone, Default)]
pub struct KeyStack {
    keys: Vec<u64>,
    /// Index of the root position in `keys`.
    root: usize,
    /// Index below which positions are not compared (the position before a null move).
    floor: usize,
    /// Whether a position of the game (up to the root) occurred there more than once.
    game_repeated: bool,
}

/// What the position on top of a [`KeyStack`] repeats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recurrence {
    /// No earlier occurrence within reach of the halfmove clock.
    New,
    /// A draw: the repetition of a position after the root, or a threefold with the game. The
    /// index of the earlier occurrence the verdict rests on.
    Draw(usize),
    /// The second occurrence of the root or an earlier position: no draw, as the game saw the
    /// position only once. The index of that occurrence. A later search, after the game has
    /// repeated the position, scores this node a draw.
    Twofold(usize),
}

impl KeyStack {
    /// A stack from the game's reversible keys, the root position last.
    pub fn new(game_keys: &[u64]) -> KeyStack {
        let game_repeated = game_keys
            .iter()
            .enumerate()
            .any(|(i, key)| game_keys[i + 1..].contains(key));
        KeyStack {
            keys: game_keys.to_vec(),
            root: game_keys.len().saturating_sub(1),
            floor: 0,
            game_repeated,
        }
    }

    /// Whether the game itself, up to the root, repeated a position since its last
    /// irreversible move. Only then can a twofold of an earlier search have become a draw.
    pub fn game_repeated(&self) -> bool {
        self.game_repeated
    }

    pub fn push(&mut self, key: u64) {
        self.keys.push(key);
    }

    pub fn pop(&mut self) {
        self.keys.pop();
    }

    /// Marks the top as a null-move position; returns the old floor to restore.
    pub fn push_null(&mut self, key: u64) -> usize {
        self.keys.push(key);
        std::mem::replace(&mut self.floor, self.keys.len() - 1)
    }

    /// Undoes [`push_null`](Self::push_null).
    pub fn pop_null(&mut self, old_floor: usize) {
        self.keys.pop();
        self.floor = old_floor;
    }

    /// Index of the position on top of the stack.
    pub fn top(&self) -> usize {
        self.keys.len().saturating_sub(1)
    }

    /// Lowest index a repetition of the top position can reach back to.
    fn lowest(&self, halfmoves: u32) -> usize {
        self.top()
            .saturating_sub(halfmoves as usize)
            .max(self.floor)
    }

    /// Whether the position on top is drawn by repetition; `halfmoves` is its halfmove clock.
    pub fn is_draw(&self, halfmoves: u32) -> bool {
        self.repetition(halfmoves).is_some()
    }

    /// If the position on top is drawn by repetition, the index of the earlier occurrence the
    /// verdict rests on (a score depending on it depends on the path to it).
    pub fn repetition(&self, halfmoves: u32) -> Option<usize> {
        match self.recurrence(halfmoves) {
            Recurrence::Draw(index) => Some(index),
            Recurrence::New | Recurrence::Twofold(_) => None,
        }
    }

    /// What the position on top repeats, given its halfmove clock `halfmoves`.
    ///
    /// ```
    /// use threefold::search::repetition::{KeyStack, Recurrence};
    /// let mut keys = KeyStack::new(&[0xA, 0xB, 0xC]);
    /// keys.push(0xB);
    /// keys.push(0xA);
    /// assert_eq!(keys.recurrence(10), Recurrence::Twofold(0));
    /// keys.push(0xB);
    /// assert_eq!(keys.recurrence(10), Recurrence::Draw(3));
    /// ```
    pub fn recurrence(&self, halfmoves: u32) -> Recurrence {
        let Some(&key) = self.keys.get(self.top()) else {
            return Recurrence::New;
        };
        let lowest = self.lowest(halfmoves);
        let mut twofold = None;
        let mut i = self.top();
        while i >= lowest + 2 {
            i -= 2;
            if self.keys[i] == key {
                // A repetition of a position after the root is a draw at once; one of the
                // root or an earlier position only when it makes a threefold with the game.
                if i > self.root || twofold.is_some() {
                    return Recurrence::Draw(i);
                }
                twofold = Some(i);
            }
        }
        twofold.map_or(Recurrence::New, Recurrence::Twofold)
    }

    /// Whether the side to move can reach an earlier position with one reversible move, and
    /// that would be a draw (inside the tree, or a threefold with the game). Returns the index
    /// of that position. `occupied` and `own` are the occupied squares and the mover's pieces.
    pub fn upcoming_repetition(
        &self,
        halfmoves: u32,
        occupied: Bitboard,
        own: Bitboard,
    ) -> Option<usize> {
        let top = self.top();
        let lowest = self.lowest(halfmoves);
        let key = *self.keys.get(top)?;
        let mut i = 3;
        while top >= lowest + i {
            let target = top - i;
            i += 2;
            let Some((a, b)) = reversible_move(key ^ self.keys[target]) else {
                continue;
            };
            // The piece stands on one of the two squares; the other and the path are empty.
            let mover = if occupied.contains(a) { a } else { b };
            let blocked = (attacks::between(a, b) & occupied).any()
                || (occupied.contains(a) && occupied.contains(b));
            if blocked || !own.contains(mover) {
                continue;
            }
            if target > self.root || self.occurs_before(target, lowest) {
                return Some(target);
            }
        }
        None
    }

    /// Whether the position at `index` also occurred earlier, no further back than `lowest`.
    fn occurs_before(&self, index: usize, lowest: usize) -> bool {
        let key = self.keys[index];
        (lowest..index).any(|j| (index - j).is_multiple_of(2) && self.keys[j] == key)
    }
}

#[cfg(test)]
mod tests {
    use super::{KeyStack, Recurrence};

    #[test]
    fn twofold_after_the_root_is_a_draw() {
        // Root is key 9; the line goes 1 -> 2 -> 3 -> 4 -> 1.
        let mut s = KeyStack::new(&[9]);
        for k in [1, 2, 3, 4, 1] {
            s.push(k);
        }
        assert!(s.is_draw(4));
        // With an irreversible move inside the window, no repetition counts.
        assert!(!s.is_draw(3));
    }

    #[test]
    fn returning_to_the_root_is_only_a_twofold() {
        let mut s = KeyStack::new(&[1]);
        for k in [2, 3, 4, 1] {
            s.push(k);
        }
        assert!(!s.is_draw(10), "the root position seen twice");
        let mut s = KeyStack::new(&[1, 2, 3, 4, 1]);
        for k in [2, 3, 4, 1] {
            s.push(k);
        }
        assert!(
            s.is_draw(10),
            "the root had occurred before: now a threefold"
        );
    }

    #[test]
    fn repeating_a_pre_root_position_needs_a_threefold() {
        // Game: 7 8 9 10 | root 7? no: game 5 6 7 8, root 9; line 10 -> 7 (7 seen once before).
        let mut s = KeyStack::new(&[5, 6, 7, 8, 9]);
        s.push(6);
        assert!(!s.is_draw(10), "one earlier occurrence is only a twofold");
        s.pop();
        let mut s = KeyStack::new(&[5, 6, 5, 6, 5, 8]);
        s.push(5);
        assert!(s.is_draw(10), "two earlier occurrences make a threefold");
    }

    #[test]
    fn a_twofold_with_the_game_is_told_apart_and_the_game_knows_its_repetitions() {
        let mut s = KeyStack::new(&[5, 6, 7, 8, 9]);
        assert!(!s.game_repeated());
        s.push(6);
        assert_eq!(s.recurrence(10), Recurrence::Twofold(1));
        assert!(!s.is_draw(10));
        assert_eq!(s.recurrence(3), Recurrence::New, "out of the clock's reach");
        let s = KeyStack::new(&[5, 6, 5, 8]);
        assert!(s.game_repeated());
    }

    #[test]
    fn positions_across_a_null_move_are_not_compared() {
        let mut s = KeyStack::new(&[1, 2, 3]);
        let floor = s.push_null(4);
        s.push(5);
        s.push(4);
        assert!(
            s.is_draw(10),
            "repeats the null-move position itself after it"
        );
        s.pop();
        s.pop();
        s.pop_null(floor);
        s.push(2);
        s.push(1);
        assert!(!s.is_draw(10), "1 occurs once before the root only");
    }
}

#[cfg(test)]
mod null_move_tests {
    use super::*;

    /// A null move is no move: a position after it that matches one before it is no
    /// repetition (the side that passed never really let the position recur). Without the
    /// floor that `push_null` sets, this would be scored as a draw.
    #[test]
    fn no_repetition_reaches_back_across_a_null_move() {
        let mut keys = KeyStack::new(&[0xA]);
        keys.push(0xB);
        keys.push(0xC);
        let floor = keys.push_null(0xD);
        keys.push(0xC); // as two plies ago, but across the null move
        assert!(!keys.is_draw(10));
        assert_eq!(keys.repetition(10), None);
        keys.pop();
        keys.pop_null(floor);
        // With the null move undone, the same key two plies up is a repetition again.
        keys.push(0xE);
        keys.push(0xC);
        assert!(keys.is_draw(10));
    }
}
