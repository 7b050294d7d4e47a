//! The FIDE draw rules on a game record: occurrences of each position, threefold and
//! fifty-move claims (now, or by announcing a move), and the automatic ends (checkmate,
//! stalemate, fivefold repetition, seventy-five moves, dead position).
//!
//! Everything here works on a [`Game`], so the arbiter tool and the engine share one rulebook.

use std::fmt;

use shakmaty::{Chess, Move, Position};

use super::{Game, is_dead_by_material, key_after};

/// Halfmoves without capture or pawn move that allow a fifty-move claim (FIDE 9.3).
pub const FIFTY_MOVE_HALFMOVES: u32 = 100;
/// Halfmoves without capture or pawn move that end the game automatically (FIDE 9.6.2).
pub const SEVENTY_FIVE_MOVE_HALFMOVES: u32 = 150;

/// How a game ended by itself, without a claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AutomaticEnd {
    Checkmate,
    Stalemate,
    /// The same position for the fifth time (9.6.1).
    FivefoldRepetition,
    /// 75 moves by each side without capture or pawn move, and the last move did not mate (9.6.2).
    SeventyFiveMoves,
    /// Neither side can mate by any legal sequence; here, by insufficient material (9.6.2, 5.2.2).
    DeadPosition,
}

impl fmt::Display for AutomaticEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AutomaticEnd::Checkmate => "checkmate",
            AutomaticEnd::Stalemate => "stalemate",
            AutomaticEnd::FivefoldRepetition => "fivefold repetition",
            AutomaticEnd::SeventyFiveMoves => "seventy-five-move rule",
            AutomaticEnd::DeadPosition => "dead position (insufficient material)",
        })
    }
}

/// What the player to move may claim (FIDE 9.2 and 9.3).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Claims {
    /// The current position has appeared at least three times.
    pub threefold_now: bool,
    /// Moves that would make their resulting position appear a third time (claim by announcing).
    pub threefold_by_moves: Vec<Move>,
    /// The last 100 halfmoves had no capture and no pawn move.
    pub fifty_now: bool,
    /// Moves that would complete the 100 halfmoves (claim by announcing).
    pub fifty_by_moves: Vec<Move>,
}

impl Claims {
    /// A threefold claim is valid now or by announcing a move.
    pub fn can_claim_threefold(&self) -> bool {
        self.threefold_now || !self.threefold_by_moves.is_empty()
    }

    /// A fifty-move claim is valid now or by announcing a move.
    pub fn can_claim_fifty_moves(&self) -> bool {
        self.fifty_now || !self.fifty_by_moves.is_empty()
    }
}

impl Game {
    /// How often the position after `ply` plies had occurred up to and including that ply.
    pub fn occurrences_at(&self, ply: usize) -> usize {
        let Some(&key) = self.keys().get(ply) else {
            return 0;
        };
        self.keys()[..=ply].iter().filter(|&&k| k == key).count()
    }

    /// The occurrence count after every ply; index 0 is the start position.
    pub fn occurrence_counts(&self) -> Vec<usize> {
        (0..self.keys().len())
            .map(|ply| self.occurrences_at(ply))
            .collect()
    }

    /// How often a position with `key` has occurred in the game so far.
    pub fn occurrences_of(&self, key: u64) -> usize {
        self.keys().iter().filter(|&&k| k == key).count()
    }

    /// What the player to move may claim now. Nothing once the game has ended by itself, and
    /// no claim by announcing a move that would itself end the game (it ends by that rule).
    ///
    /// ```
    /// use threefold::game::Game;
    /// let mut game = Game::default();
    /// // Knights out and back: after 7 plies White can announce Nf3-g1, whose position (the
    /// // start, Black to move) would then appear a third time.
    /// for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
    ///     game.play_uci(m).unwrap();
    /// }
    /// let claims = game.claims();
    /// assert!(!claims.threefold_now);
    /// let announced: Vec<String> = claims
    ///     .threefold_by_moves
    ///     .iter()
    ///     .map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string())
    ///     .collect();
    /// assert_eq!(announced, ["f6g8"]);
    /// game.play_uci("f6g8").unwrap();
    /// assert!(game.claims().threefold_now); // the start position, a third time
    /// assert!(!game.claims().can_claim_fifty_moves());
    /// ```
    pub fn claims(&self) -> Claims {
        if self.automatic_end().is_some() {
            return Claims::default();
        }
        let pos = self.position();
        let mut claims = Claims {
            threefold_now: self.occurrences() >= 3,
            fifty_now: pos.halfmoves() >= FIFTY_MOVE_HALFMOVES,
            ..Claims::default()
        };
        for m in pos.legal_moves() {
            let mut after = pos.clone();
            after.play_unchecked(m);
            let occurrences = self.occurrences_of(key_after(pos, self.key(), m, &after)) + 1;
            if threefold_by_announcing(&after, occurrences) {
                claims.threefold_by_moves.push(m);
            }
            if fifty_by_announcing(&after, occurrences) {
                claims.fifty_by_moves.push(m);
            }
        }
        claims
    }

    /// Whether the current position has ended the game by itself.
    pub fn automatic_end(&self) -> Option<AutomaticEnd> {
        automatic_end_of(self.position(), self.occurrences())
    }

    /// The first ply at which the game ended by itself, and how; moves after it are void.
    pub fn first_automatic_end(&self) -> Option<(usize, AutomaticEnd)> {
        let mut pos = self.start().clone();
        for ply in 0..=self.moves().len() {
            if let Some(end) = automatic_end_of(&pos, self.occurrences_at(ply)) {
                return Some((ply, end));
            }
            if let Some(&m) = self.moves().get(ply) {
                pos.play_unchecked(m);
            }
        }
        None
    }
}

/// Whether the position a move led to completes the fifty moves without being checkmate
/// (what a claim by announcing that move needs).
pub fn completes_fifty_moves(after: &Chess) -> bool {
    after.halfmoves() >= FIFTY_MOVE_HALFMOVES && !after.is_checkmate()
}

/// Whether announcing the move that led to `after` (a position that will then have occurred
/// `occurrences` times) claims a threefold: the position appears a third time, and the move
/// does not end the game by itself.
pub fn threefold_by_announcing(after: &Chess, occurrences: usize) -> bool {
    occurrences >= 3 && automatic_end_of(after, occurrences).is_none()
}

/// Whether announcing the move that led to `after` claims a fifty-move draw: it completes the
/// hundred halfmoves and does not end the game by itself (mate, stalemate, fivefold).
pub fn fifty_by_announcing(after: &Chess, occurrences: usize) -> bool {
    after.halfmoves() >= FIFTY_MOVE_HALFMOVES && automatic_end_of(after, occurrences).is_none()
}

/// The automatic end of `pos`, given how often it has occurred. When several rules hold at
/// once, this is the one order of precedence, for the engine and the arbiter alike:
/// checkmate, stalemate, fivefold repetition, seventy-five moves, dead position.
pub fn automatic_end_of(pos: &Chess, occurrences: usize) -> Option<AutomaticEnd> {
    automatic_end_given(pos, occurrences, true)
}

/// As [`automatic_end_of`]; with `material_changed` false the caller knows the material is that
/// of an earlier position that was not dead, and the dead-position test is skipped.
pub fn automatic_end_given(
    pos: &Chess,
    occurrences: usize,
    material_changed: bool,
) -> Option<AutomaticEnd> {
    if pos.legal_moves().is_empty() {
        Some(if pos.is_check() {
            AutomaticEnd::Checkmate
        } else {
            AutomaticEnd::Stalemate
        })
    } else if occurrences >= 5 {
        Some(AutomaticEnd::FivefoldRepetition)
    } else if pos.halfmoves() >= SEVENTY_FIVE_MOVE_HALFMOVES {
        Some(AutomaticEnd::SeventyFiveMoves)
    } else if material_changed && is_dead_by_material(pos) {
        Some(AutomaticEnd::DeadPosition)
    } else {
        None
    }
}
