//! The repetition guard of limited strength. A level on the hand-written evaluation searches
//! too few nodes to see most repetitions coming, yet even the weakest level must take a forced
//! repetition when it stands worse and must not walk into one when it stands better: the
//! repetition behaviour is the engine's at every level. So after such a level's search, a
//! small search at full strength (`GUARD_NODES`, the network, a hash table of its own) looks
//! at the same position, and its move is played instead of the level's when a draw by rule is
//! in play:
//!
//! - the full-strength line ends in a draw by rule (the engine takes that draw), or
//! - the level's line ends in one, or the level's move lets the opponent claim a draw at once
//!   (the engine decides whether that draw is wanted).
//!
//! The full-strength line is then the last `info` line shown, so the user sees the engine's
//! score of the move played. Elsewhere the guard changes nothing, and the level plays at its
//! calibrated strength.

use std::sync::atomic::Ordering;
use std::time::Instant;

use super::strength::GUARD_NODES;
use super::threads;
use super::tt::TranspositionTable;
use super::{Iteration, Limits, Report, SearchResult, Searcher, Settings, Signals};
use crate::game::Game;

/// The guard's hash table, in MiB: a search of `GUARD_NODES` nodes needs no more.
const GUARD_HASH_MIB: usize = 4;

/// See [`Searcher::search`]: the search at the settings' strength, and for a hand-written
/// level the guard's search after it.
pub(super) fn search(
    searcher: &mut Searcher,
    game: &Game,
    limits: &Limits,
    signals: &Signals,
    report: &mut (dyn FnMut(Report) + Send),
) -> SearchResult {
    // Both searches count their limits from `go`.
    let limits = Limits {
        started: Some(limits.started.unwrap_or_else(Instant::now)),
        ..limits.clone()
    };
    let level = threads::search(searcher, game, &limits, signals, report);
    let guarded = searcher
        .settings
        .strength
        .is_some_and(|s| !s.uses_network());
    let Some(chosen) = level.best.filter(|_| guarded) else {
        return level;
    };
    if signals.stop.load(Ordering::Relaxed) {
        // Told to answer now: the level's move it is.
        return level;
    }
    let mut guard = searcher.guard.take().unwrap_or_else(|| {
        Box::new(Searcher::with_table(
            TranspositionTable::new(GUARD_HASH_MIB),
            None,
        ))
    });
    guard.network = searcher.network.clone();
    guard.tables = searcher.tables.clone();
    guard.settings = Settings {
        strength: None,
        threads: 1,
        multi_pv: 1,
        ..searcher.settings
    };
    let guard_limits = Limits {
        nodes: Some(limits.nodes.map_or(GUARD_NODES, |n| n.min(GUARD_NODES))),
        soft_nodes: None,
        ..limits
    };
    let mut last: Option<Iteration> = None;
    let engine = guard.search(game, &guard_limits, signals, &mut |r| {
        if let Report::Line(it) = r
            && it.bound.is_none()
        {
            last = Some(it.clone());
        }
    });
    searcher.guard = Some(guard);
    let Some(line) = last.filter(|_| engine.best.is_some()) else {
        return level;
    };
    let draw_in_play =
        engine.draw.is_some() || level.draw.is_some() || lets_opponent_claim(game, chosen);
    if !draw_in_play {
        return level;
    }
    if engine.best != level.best {
        log::debug!(
            "limited strength: a draw by rule is in play, the full-strength move {:?} replaces {:?}",
            engine.best,
            level.best
        );
    }
    report(Report::Line(&line));
    SearchResult {
        nodes: level.nodes + engine.nodes,
        ..engine
    }
}

/// Whether after `m` the opponent can claim a draw (threefold or fifty moves), at once or by
/// announcing its move.
fn lets_opponent_claim(game: &Game, m: shakmaty::Move) -> bool {
    let mut after = game.clone();
    after.play(m);
    let claims = after.claims();
    claims.can_claim_threefold() || claims.can_claim_fifty_moves()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::strength::Strength;

    fn searcher_at(elo: u32) -> Searcher {
        let mut searcher = Searcher::new(16);
        searcher.settings.strength = Strength::at(elo);
        searcher
    }

    /// A queen down, Black's only draw is 11...Bf2+ with perpetual check (the Pirc line of
    /// the seed cases); the weakest level, which searches 980 nodes by hand, still plays it.
    #[test]
    fn the_weakest_level_takes_the_perpetual_when_worse() {
        let mut game = Game::new(crate::game::start_position(
            shakmaty::CastlingMode::Standard,
        ));
        for m in [
            "e2e4", "d7d6", "d2d4", "g8f6", "b1c3", "g7g6", "f2f4", "f8g7", "g1f3", "c7c5", "f1b5",
            "c8d7", "e4e5", "f6g4", "e5e6", "f7e6", "f3g5", "d7b5", "g5e6", "g7d4", "e6d8",
        ] {
            game.play_uci(m).expect("a legal move");
        }
        let mut searcher = searcher_at(1320);
        let limits = Limits {
            movetime_ms: Some(5_000),
            ..Limits::default()
        };
        let mut shown = Vec::new();
        let result = searcher.search(&game, &limits, &Signals::default(), &mut |r| {
            if let Report::Line(it) = r {
                shown.push(it.score);
            }
        });
        let best = result
            .best
            .map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string());
        assert_eq!(best.as_deref(), Some("d4f2"));
        assert!(result.draw.is_some(), "{result:?}");
        assert_eq!(
            shown.last(),
            Some(&result.score),
            "the last line shown is the move's"
        );
    }

    /// After two knight shuffles, Nf3-g1 lets Black announce Nf6-g8 and claim the threefold
    /// (the start position a third time); a pawn move does not.
    #[test]
    fn a_move_that_hands_the_opponent_a_claim_is_seen() {
        let mut game = Game::new(crate::game::start_position(
            shakmaty::CastlingMode::Standard,
        ));
        for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6"] {
            game.play_uci(m).expect("a legal move");
        }
        let mv =
            |text: &str| crate::game::parse_uci_move(game.position(), text).expect("a legal move");
        assert!(lets_opponent_claim(&game, mv("f3g1")));
        assert!(!lets_opponent_claim(&game, mv("e2e4")));
    }
}
