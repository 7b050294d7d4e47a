//! What a principal variation means for the game: does it end in a draw by rule (and is a
//! repetition a perpetual check)?

use shakmaty::{Chess, Color, Move, Position};

use super::repetition::KeyStack;
use crate::game::rules::completes_fifty_moves;
use crate::game::{Game, is_dead_by_material, key_after};

/// How a line ends in a draw by rule: the one verdict the search carries in its result and
/// the UCI layer reports (see [`drawn_end`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineEnd {
    /// The last move completes a repetition (as the search counts it: twofold inside the line,
    /// threefold with the game before it); `perpetual_by` is the side that gave check with
    /// every one of its moves in the line, if one did.
    Repetition { perpetual_by: Option<Color> },
    /// The last move reaches the fiftieth move of each side without a capture or pawn move,
    /// and does not mate.
    FiftyMoves,
    /// Neither side can mate any more.
    DeadPosition,
    /// The side to move at the end has no legal move and is not in check.
    Stalemate,
}

/// The draw's name in words, as the user reads it (`info string`, `analyse`):
/// "perpetual check (Black gives check on every move)", "repetition", "the fifty-move rule",
/// "insufficient material", "stalemate".
impl std::fmt::Display for LineEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineEnd::Repetition {
                perpetual_by: Some(color),
            } => {
                let side = if *color == Color::White {
                    "White"
                } else {
                    "Black"
                };
                write!(f, "perpetual check ({side} gives check on every move)")
            }
            LineEnd::Repetition { perpetual_by: None } => f.write_str("repetition"),
            LineEnd::FiftyMoves => f.write_str("the fifty-move rule"),
            LineEnd::DeadPosition => f.write_str("insufficient material"),
            LineEnd::Stalemate => f.write_str("stalemate"),
        }
    }
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

impl Replay {
    /// The draw by rule the position reached so far stands in, if any. A repetition comes
    /// first: it is what ends a line that also reaches halfmove 100 on the same move.
    fn drawn(&self) -> Option<LineEnd> {
        if self.is_repetition() {
            let perpetual_by = Color::ALL.into_iter().find(|&c| {
                let i = c as usize;
                self.all_checks[i] && self.moves_by[i] > 0
            });
            Some(LineEnd::Repetition { perpetual_by })
        } else if completes_fifty_moves(&self.pos) {
            Some(LineEnd::FiftyMoves)
        } else if is_dead_by_material(&self.pos) {
            Some(LineEnd::DeadPosition)
        } else if self.pos.is_stalemate() {
            Some(LineEnd::Stalemate)
        } else {
            None
        }
    }
}

/// Plays `pv` after the game; when its last move ends the game in a draw by rule, says how.
/// A line that reaches such a draw before its last move is not a legal line of play, and gets
/// None, as does one with an illegal move.
///
/// This is the one place that decides "this line ends in a draw by rule": the search asks it
/// for every line it reports and carries the answer in its result.
pub fn drawn_end(game: &Game, pv: &[Move]) -> Option<LineEnd> {
    let mut replay = Replay::new(game);
    for (i, &m) in pv.iter().enumerate() {
        if !replay.play(m) {
            return None;
        }
        if let Some(end) = replay.drawn() {
            return (i + 1 == pv.len()).then_some(end);
        }
    }
    None
}

/// If `pv`, played after the game, stops one move short of a repetition (the search cut there
/// because the side to move can repeat), appends that move. A line that already ends in a
/// draw by rule (a repetition, or halfmove 100) is left as it is.
pub fn complete_repetition(game: &Game, pv: &mut Vec<Move>) {
    let mut replay = Replay::new(game);
    for &m in pv.iter() {
        if !replay.play(m) || replay.drawn().is_some() {
            return;
        }
    }
    if let Some(m) = replay.repeating_move() {
        pv.push(m);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{parse_fen, parse_uci_move};

    fn game(fen: &str) -> Game {
        Game::new(parse_fen(fen).expect("test FEN"))
    }

    fn line(game: &Game, moves: &[&str]) -> Vec<Move> {
        let mut pos = game.position().clone();
        moves
            .iter()
            .map(|text| {
                let m = parse_uci_move(&pos, text).expect("legal test move");
                pos.play_unchecked(m);
                m
            })
            .collect()
    }

    #[test]
    fn a_line_that_reaches_halfmove_100_is_not_extended() {
        // From a match log: the fourth move reaches halfmove 100 (a draw), and the line must
        // end there, not go on with a move that would also repeat a position.
        let g = game("8/1kp5/1p2Q3/2p1N3/b1Pr4/8/4K3/8 b - - 96 99");
        let mut pv = line(&g, &["a4d1", "e2e3", "d1a4", "e3e2"]);
        complete_repetition(&g, &mut pv);
        assert_eq!(pv.len(), 4);
        assert_eq!(drawn_end(&g, &pv), Some(LineEnd::FiftyMoves));
    }

    #[test]
    fn a_line_one_move_short_of_a_perpetual_is_completed() {
        // Alekhine-Lasker 1914: 17.Qxh6+ Kg8 18.Qg5+ Kh8, and 19.Qh6+ repeats.
        let g = game("r3qr1k/p1p1b3/4pnQp/3p4/8/2NB4/PPP2PPP/R5K1 w - - 1 17");
        let mut pv = line(&g, &["g6h6", "h8g8", "h6g5", "g8h8"]);
        assert_eq!(drawn_end(&g, &pv), None);
        complete_repetition(&g, &mut pv);
        assert_eq!(pv.len(), 5);
        assert_eq!(
            drawn_end(&g, &pv),
            Some(LineEnd::Repetition {
                perpetual_by: Some(Color::White)
            })
        );
    }

    #[test]
    fn a_line_that_goes_on_past_a_draw_has_no_verdict() {
        let g = game("r3qr1k/p1p1b3/4pnQp/3p4/8/2NB4/PPP2PPP/R5K1 w - - 1 17");
        let pv = line(&g, &["g6h6", "h8g8", "h6g5", "g8h8", "g5h6", "h8g8"]);
        assert_eq!(drawn_end(&g, &pv), None);
    }
}
