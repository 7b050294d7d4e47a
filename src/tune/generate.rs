//! Training positions from Threefold's own games: self-play at a small node budget (varied a
//! little per move so games from one opening differ), each game from a random book opening.
//! Quiet positions (side to move not in check, the chosen move neither a capture nor a
//! promotion, no mate score) are kept and labelled with the game's result.
//!
//! A game ends by the rules (mate, stalemate, dead position, fivefold, 75 moves, and the
//! threefold and fifty-move claims a player would make) or by adjudication: both sides agree on
//! a score of at least `DECISIVE` for `DECISIVE_PLIES` plies, or `MAX_PLIES` are played (draw).

use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use shakmaty::fen::Fen;
use shakmaty::{Chess, Color, EnPassantMode, Position};

use super::Rng;
use crate::game::{Game, parse_fen};
use crate::search::score::is_mate;
use crate::search::{Limits, SEARCH_STACK_BYTES, Searcher, Signals};

/// Adjudication: a score this large (centipawns, either side's view) ...
const DECISIVE: i32 = 1_000;
/// ... held this many plies in a row ends the game.
const DECISIVE_PLIES: usize = 8;
/// Games longer than this are called drawn.
const MAX_PLIES: usize = 400;
/// Positions this close to the opening are not kept (the book chose them, not the engine).
const SKIP_PLIES: usize = 6;
/// Positions with a score beyond this are decided already and teach little.
const KEEP_BELOW: i32 = 1_500;
/// Hash table per game thread, in MiB.
const HASH_MIB: usize = 16;

/// What `threefold tune generate` was asked for.
#[derive(Debug, Clone)]
pub struct Options {
    pub games: usize,
    pub nodes: u64,
    pub threads: usize,
    pub seed: u64,
}

/// One finished game: its kept positions (FEN) and its result for White (1, 0.5 or 0).
#[derive(Debug, Clone)]
pub struct Played {
    pub positions: Vec<String>,
    pub white_score: f64,
}

/// Plays `options.games` games from `openings` on `options.threads` threads, writing each
/// game's labelled positions to `out` as it ends. Returns the number of positions written.
pub fn run(
    openings: &[Chess],
    options: &Options,
    out: &mut (dyn Write + Send),
) -> std::io::Result<usize> {
    let next_game = AtomicUsize::new(0);
    let sink = Mutex::new((out, 0usize, None::<std::io::Error>));
    std::thread::scope(|scope| {
        for _ in 0..options.threads.max(1) {
            let worker = || {
                let mut searcher = Searcher::new(HASH_MIB);
                loop {
                    let index = next_game.fetch_add(1, Ordering::Relaxed);
                    if index >= options.games {
                        break;
                    }
                    let mut rng =
                        Rng::new(options.seed ^ (index as u64 + 1).wrapping_mul(0x1000_0001));
                    let opening = &openings[rng.below(openings.len() as u64) as usize];
                    searcher.clear();
                    let game = play(&mut searcher, opening, options.nodes, &mut rng);
                    let Ok(mut sink) = sink.lock() else { break };
                    let (out, written, error) = &mut *sink;
                    for fen in &game.positions {
                        if let Err(e) = writeln!(out, "{fen};{:.1}", game.white_score) {
                            *error = Some(e);
                        }
                    }
                    *written += game.positions.len();
                    if (index + 1).is_multiple_of(100) {
                        log::info!("tune generate: {} games, {} positions", index + 1, written);
                    }
                }
            };
            let spawned = std::thread::Builder::new()
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(scope, worker);
            if let Err(e) = spawned {
                log::error!("tune generate: cannot start a game thread: {e}");
            }
        }
    });
    let (_, written, error) = sink
        .into_inner()
        .map_err(|_| std::io::Error::other("a game thread panicked"))?;
    match error {
        Some(e) => Err(e),
        None => Ok(written),
    }
}

/// Plays one self-play game from `opening`.
pub fn play(searcher: &mut Searcher, opening: &Chess, nodes: u64, rng: &mut Rng) -> Played {
    let mut game = Game::new(opening.clone());
    let mut kept = Vec::new();
    let mut decisive_run = 0;
    let mut last_sign = 0;
    let signals = Signals::default();
    let white_score = loop {
        if let Some(score) = result_by_rule(&game) {
            break score;
        }
        if game.moves().len() >= MAX_PLIES {
            break 0.5;
        }
        let limits = Limits {
            nodes: Some(nodes + rng.below(nodes / 2 + 1)),
            ..Limits::default()
        };
        let result = searcher.search(&game, &limits, &signals, &mut |_| {});
        let Some(best) = result.best else {
            break 0.5;
        };
        let pos = game.position();
        let white_view = if pos.turn() == Color::White {
            result.score
        } else {
            -result.score
        };
        // Adjudicate once both sides have agreed on a decisive score for a while.
        let sign = if white_view.abs() >= DECISIVE {
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
        if decisive_run >= DECISIVE_PLIES {
            break if sign > 0 { 1.0 } else { 0.0 };
        }
        let quiet = !best.is_capture() && best.promotion().is_none();
        if game.moves().len() >= SKIP_PLIES
            && quiet
            && !pos.is_check()
            && !is_mate(result.score)
            && result.score.abs() < KEEP_BELOW
        {
            kept.push(Fen::from_position(pos, EnPassantMode::Legal).to_string());
        }
        game.play(best);
    };
    Played {
        positions: kept,
        white_score,
    }
}

/// White's result when the rules end the game here (claims of threefold and fifty moves are
/// made as soon as they are valid).
fn result_by_rule(game: &Game) -> Option<f64> {
    let pos = game.position();
    if pos.is_checkmate() {
        return Some(if pos.turn() == Color::White { 0.0 } else { 1.0 });
    }
    let claims = game.claims();
    if game.automatic_end().is_some() || claims.threefold_now || claims.fifty_now {
        return Some(0.5);
    }
    None
}

/// Reads an EPD or FEN book: one position per line, first four or six fields used.
pub fn read_openings(text: &str) -> Vec<Chess> {
    text.lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().take(6).collect();
            let fen = match fields.len() {
                4 => format!("{} 0 1", fields.join(" ")),
                6 => fields.join(" "),
                _ => return None,
            };
            parse_fen(&fen).ok()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_ends_and_labels_its_quiet_positions() {
        let openings = read_openings(
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\nnot a fen\n",
        );
        assert_eq!(openings.len(), 1);
        let mut out = Vec::new();
        let options = Options {
            games: 2,
            nodes: 300,
            threads: 2,
            seed: 7,
        };
        let written = run(&openings, &options, &mut out).expect("written");
        let text = String::from_utf8(out).expect("utf-8");
        assert_eq!(text.lines().count(), written);
        assert!(written > 0);
        for line in text.lines() {
            let (fen, result) = line.rsplit_once(';').expect("fen;result");
            let pos = parse_fen(fen).expect("a legal position");
            assert!(!pos.is_check());
            assert!(["1.0", "0.5", "0.0"].contains(&result), "{line}");
        }
    }

    #[test]
    fn checkmate_scores_for_the_side_that_gave_it() {
        let mut game = Game::new(Chess::default());
        for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            game.play_uci(m).expect("legal");
        }
        assert_eq!(result_by_rule(&game), Some(0.0));
    }
}
