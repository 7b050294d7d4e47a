//! One self-play game, shared by `threefold datagen` and `threefold tune generate`: the engine
//! plays both sides from an opening, each move a fresh search at the limits the caller gives,
//! until the rules or adjudication end the game.
//!
//! The rules are the engine's own ([`crate::game`]): checkmate, stalemate, dead positions,
//! fivefold, seventy-five moves, and the threefold and fifty-move claims a player would make as
//! soon as they are valid. Adjudication: both sides agree on a score of at least
//! `decisive_score` for `decisive_plies` plies in a row (a win), optionally a score within
//! `draw_score` for `draw_plies` plies after `draw_after_ply` (a draw), or `max_plies` (a draw).

use shakmaty::{Chess, Color, Move, Position};

use crate::game::Game;
use crate::search::{Limits, Searcher, Signals};

use crate::data::format::GameResult;

/// When a game is called before the rules end it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Adjudication {
    /// A score this large (centipawns, either side's view) ...
    pub decisive_score: i32,
    /// ... held this many plies in a row wins.
    pub decisive_plies: usize,
    /// Draw adjudication: a score within this (centipawns) ... (None: no draw adjudication)
    pub draw_score: Option<i32>,
    /// ... held this many plies in a row ...
    pub draw_plies: usize,
    /// ... once this many plies are played, is a draw.
    pub draw_after_ply: usize,
    /// Games longer than this are called drawn.
    pub max_plies: usize,
}

impl Default for Adjudication {
    /// The settings `tune generate` has always used: ±10 pawns for 8 plies, 400 plies, no draw
    /// adjudication.
    fn default() -> Self {
        Adjudication {
            decisive_score: 1_000,
            decisive_plies: 8,
            draw_score: None,
            draw_plies: 12,
            draw_after_ply: 80,
            max_plies: 400,
        }
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Checkmate, or a draw by the rules.
    Rules,
    /// A win or draw by adjudication, or the ply limit.
    Adjudicated,
}

/// One move of a self-play game: the move, the score of its search for the side to move, and
/// the position it was played from.
#[derive(Debug, Clone)]
pub struct PlayedMove {
    pub position: Chess,
    pub best: Move,
    pub score: i32,
}

/// A finished game.
#[derive(Debug, Clone)]
pub struct SelfPlayGame {
    pub start: Chess,
    pub moves: Vec<PlayedMove>,
    pub result: GameResult,
    pub ending: Ending,
}

/// Plays one game from `opening`; `limits` gives the limits of each search in turn.
pub fn play_game(
    searcher: &mut Searcher,
    opening: &Chess,
    adjudication: &Adjudication,
    limits: &mut dyn FnMut() -> Limits,
) -> SelfPlayGame {
    let mut game = Game::new(opening.clone());
    let mut moves = Vec::new();
    let mut decisive_run = 0;
    let mut last_sign = 0;
    let mut quiet_run = 0;
    let signals = Signals::default();
    let (result, ending) = loop {
        if let Some(result) = result_by_rule(&game) {
            break (result, Ending::Rules);
        }
        if game.moves().len() >= adjudication.max_plies {
            break (GameResult::Draw, Ending::Adjudicated);
        }
        let result = searcher.search(&game, &limits(), &signals, &mut |_| {});
        let Some(best) = result.best else {
            break (GameResult::Draw, Ending::Rules);
        };
        let pos = game.position();
        let white_view = if pos.turn() == Color::White {
            result.score
        } else {
            -result.score
        };
        // Adjudicate once both sides have agreed on a decisive score for a while.
        let sign = if white_view.abs() >= adjudication.decisive_score {
            white_view.signum()
        } else {
            0
        };
        decisive_run = if sign != 0 && sign == last_sign {
            decisive_run + 1
        } else {
            usize::from(sign != 0)
        };
        last_sign = sign;
        if decisive_run >= adjudication.decisive_plies {
            let winner = if sign > 0 { Color::White } else { Color::Black };
            break (GameResult::won_by(Some(winner)), Ending::Adjudicated);
        }
        if let Some(limit) = adjudication.draw_score {
            quiet_run = if white_view.abs() <= limit {
                quiet_run + 1
            } else {
                0
            };
            if quiet_run >= adjudication.draw_plies
                && game.moves().len() >= adjudication.draw_after_ply
            {
                break (GameResult::Draw, Ending::Adjudicated);
            }
        }
        moves.push(PlayedMove {
            position: pos.clone(),
            best,
            score: result.score,
        });
        game.play(best);
    };
    SelfPlayGame {
        start: opening.clone(),
        moves,
        result,
        ending,
    }
}

/// The result when the rules end the game here (claims of threefold and fifty moves are made
/// as soon as they are valid).
pub fn result_by_rule(game: &Game) -> Option<GameResult> {
    let pos = game.position();
    if pos.is_checkmate() {
        return Some(GameResult::won_by(Some(!pos.turn())));
    }
    let claims = game.claims();
    if game.automatic_end().is_some() || claims.threefold_now || claims.fifty_now {
        return Some(GameResult::Draw);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkmate_scores_for_the_side_that_gave_it() {
        let mut game = Game::new(Chess::default());
        for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            game.play_uci(m).expect("legal");
        }
        assert_eq!(result_by_rule(&game), Some(GameResult::BlackWins));
    }
}
