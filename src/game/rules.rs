//! The FIDE draw rules on a game record: occurrences of each position, threefold and
//! fifty-move claims (now, or by announcing a move), and the automatic ends (checkmate,
//! stalemate, fivefold repetition, seventy-five moves, dead position).
//!
//! [`ruling`] is the rulebook on one position, given the history before it: the engine's
//! [`Game`] and the arbiter's streaming judge both ask it, so they cannot disagree.

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

/// A record of the positions so far, as the rules need it to judge the position now.
pub trait History {
    /// How often the position with `key` has occurred so far (the current one included).
    fn occurrences_of(&self, key: u64) -> usize;

    /// False only when no position has occurred twice yet: then no move can make a position
    /// occur a third time, and the search for a threefold claim by announcing can be skipped.
    fn any_repeated(&self) -> bool {
        true
    }
}

/// Which claims [`ruling`] looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ask {
    pub threefold: bool,
    pub fifty_moves: bool,
    /// Every move that claims by announcing (true), or only the first, and none when the claim
    /// can be made now (false: what an arbiter needs, at a fraction of the cost).
    pub all_moves: bool,
}

impl Ask {
    /// Both rules, every move.
    pub const ALL: Ask = Ask {
        threefold: true,
        fifty_moves: true,
        all_moves: true,
    };
}

/// What the rules say about the position now: the game has ended by itself, or it goes on and
/// the player to move may claim what [`Claims`] lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ruling {
    Ended(AutomaticEnd),
    Open(Claims),
}

/// The one rulebook on the position now (`pos`, with key `key`, after the positions in
/// `history`): first whether the game has ended by itself, in the order of precedence of
/// [`automatic_end_given`]; only a game that goes on allows claims (FIDE 9.2, 9.3), now or by
/// announcing a move that does not itself end the game. `material_changed` as in
/// [`automatic_end_given`].
pub fn ruling(
    pos: &Chess,
    key: u64,
    history: &impl History,
    material_changed: bool,
    ask: Ask,
) -> Ruling {
    let occurrences = history.occurrences_of(key);
    if let Some(end) = automatic_end_given(pos, occurrences, material_changed) {
        return Ruling::Ended(end);
    }
    let mut claims = Claims {
        threefold_now: ask.threefold && occurrences >= 3,
        fifty_now: ask.fifty_moves && fifty_moves_complete(pos.halfmoves()),
        ..Claims::default()
    };
    let skip_when_now = !ask.all_moves;
    let mut look_threefold =
        ask.threefold && history.any_repeated() && !(skip_when_now && claims.threefold_now);
    // Only a move that is no capture or pawn move can complete the hundred halfmoves.
    let mut look_fifty = ask.fifty_moves
        && fifty_moves_complete(pos.halfmoves().saturating_add(1))
        && !(skip_when_now && claims.fifty_now);
    if !look_threefold && !look_fifty {
        return Ruling::Open(claims);
    }
    for m in pos.legal_moves() {
        if !look_threefold && m.is_zeroing() {
            continue;
        }
        let mut after = pos.clone();
        after.play_unchecked(m);
        let occurrences = history.occurrences_of(key_after(pos, key, m, &after)) + 1;
        if look_threefold && threefold_by_announcing(&after, occurrences) {
            claims.threefold_by_moves.push(m);
            look_threefold = ask.all_moves;
        }
        if look_fifty && fifty_by_announcing(&after, occurrences) {
            claims.fifty_by_moves.push(m);
            look_fifty = ask.all_moves;
        }
        if !look_threefold && !look_fifty {
            break;
        }
    }
    Ruling::Open(claims)
}

impl History for Game {
    fn occurrences_of(&self, key: u64) -> usize {
        Game::occurrences_of(self, key)
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

    /// What the player to move may claim now (every move that claims by announcing). Nothing
    /// once the game has ended by itself, and no claim by announcing a move that would itself
    /// end the game (it ends by that rule).
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
        match ruling(self.position(), self.key(), self, true, Ask::ALL) {
            Ruling::Ended(_) => Claims::default(),
            Ruling::Open(claims) => claims,
        }
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

/// Whether a halfmove clock (halfmoves since the last capture or pawn move) completes the
/// fifty moves of each side that a claim needs (FIDE 9.3). The one place this is decided.
pub fn fifty_moves_complete(halfmoves: u32) -> bool {
    halfmoves >= FIFTY_MOVE_HALFMOVES
}

/// Whether the position a move led to completes the fifty moves without being checkmate
/// (what a claim by announcing that move needs).
pub fn completes_fifty_moves(after: &Chess) -> bool {
    fifty_moves_complete(after.halfmoves()) && !after.is_checkmate()
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
    fifty_moves_complete(after.halfmoves()) && automatic_end_of(after, occurrences).is_none()
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
