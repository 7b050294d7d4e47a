//! Training positions from Threefold's own games: self-play at a small node budget (varied a
//! little per move so games from one opening differ), each game from a random book opening.
//! Quiet positions (side to move not in check, the chosen move neither a capture nor a
//! promotion, no mate score) are kept and labelled with the game's result.
//!
//! The games are played by [`crate::selfplay::game`] with its default adjudication: a game
//! ends by the rules (mate, stalemate, dead position, fivefold, 75 moves, and the threefold and
//! fifty-move claims a player would make) or both sides agree on ±10 pawns for 8 plies, or 400
//! plies are played (draw).

use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::{Chess, EnPassantMode, Position};

use crate::rng::Rng;
use crate::search::score::is_mate;
use crate::search::{Limits, SEARCH_STACK_BYTES, Searcher};
use crate::selfplay::game::{Adjudication, play_game};

/// Positions this close to the opening are not kept (the book chose them, not the engine).
const SKIP_PLIES: usize = 6;
/// Positions with a score beyond this are decided already and teach little.
const KEEP_BELOW: i32 = 1_500;
/// Hash table per game thread, in MiB.
const HASH_MIB: usize = 16;
/// How often the main thread looks whether the game threads are done.
const POLL: Duration = Duration::from_millis(50);

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

/// How far `run` has got, reported every so often while it plays.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    pub games: usize,
    pub positions: usize,
    pub elapsed: Duration,
}

/// Plays `options.games` games from `openings` on `options.threads` threads, writing each
/// game's labelled positions to `out` as it ends, and calling `progress` every `report_every`
/// while games are being played and once at the end. Returns the number of positions written.
pub fn run(
    openings: &[Chess],
    options: &Options,
    out: &mut (dyn Write + Send),
    report_every: Duration,
    progress: &mut dyn FnMut(Progress),
) -> std::io::Result<usize> {
    let started = Instant::now();
    let next_game = AtomicUsize::new(0);
    let games_done = AtomicUsize::new(0);
    let positions_done = AtomicUsize::new(0);
    let sink = Mutex::new((out, None::<std::io::Error>));
    std::thread::scope(|scope| {
        let mut workers = Vec::new();
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
                    let (out, error) = &mut *sink;
                    for fen in &game.positions {
                        if let Err(e) = writeln!(out, "{fen};{:.1}", game.white_score) {
                            *error = Some(e);
                        }
                    }
                    positions_done.fetch_add(game.positions.len(), Ordering::Relaxed);
                    games_done.fetch_add(1, Ordering::Relaxed);
                }
            };
            let spawned = std::thread::Builder::new()
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(scope, worker);
            match spawned {
                Ok(handle) => workers.push(handle),
                Err(e) => log::error!("tune generate: cannot start a game thread: {e}"),
            }
        }
        let mut next_report = started + report_every;
        while !workers.iter().all(|w| w.is_finished()) {
            std::thread::sleep(POLL.min(report_every));
            if Instant::now() >= next_report {
                next_report += report_every;
                progress(Progress {
                    games: games_done.load(Ordering::Relaxed),
                    positions: positions_done.load(Ordering::Relaxed),
                    elapsed: started.elapsed(),
                });
            }
        }
        progress(Progress {
            games: games_done.load(Ordering::Relaxed),
            positions: positions_done.load(Ordering::Relaxed),
            elapsed: started.elapsed(),
        });
    });
    let (_, error) = sink
        .into_inner()
        .map_err(|_| std::io::Error::other("a game thread panicked"))?;
    match error {
        Some(e) => Err(e),
        None => Ok(positions_done.into_inner()),
    }
}

/// Plays one self-play game from `opening` (see [`crate::selfplay::game`]) and keeps its
/// quiet positions.
pub fn play(searcher: &mut Searcher, opening: &Chess, nodes: u64, rng: &mut Rng) -> Played {
    let mut limits = || Limits {
        nodes: Some(nodes + rng.below(nodes / 2 + 1)),
        ..Limits::default()
    };
    let game = play_game(searcher, opening, &Adjudication::default(), &mut limits);
    let positions = game
        .moves
        .iter()
        .enumerate()
        .filter(|(ply, played)| {
            let quiet = !played.best.is_capture() && played.best.promotion().is_none();
            *ply >= SKIP_PLIES
                && quiet
                && !played.position.is_check()
                && !is_mate(played.score)
                && played.score.abs() < KEEP_BELOW
        })
        .map(|(_, played)| Fen::from_position(&played.position, EnPassantMode::Legal).to_string())
        .collect();
    Played {
        positions,
        white_score: game.result.white_score(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::parse_fen;
    use crate::selfplay::openings::read_openings;

    #[test]
    fn a_game_ends_and_labels_its_quiet_positions() {
        let openings = read_openings(
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\nnot a fen\n\
             rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - bm Nc6; id \"x\";\n",
        );
        assert_eq!(openings.len(), 2);
        let mut out = Vec::new();
        let options = Options {
            games: 2,
            nodes: 300,
            threads: 2,
            seed: 7,
        };
        let mut reports = Vec::new();
        let mut progress = |p: Progress| reports.push(p);
        let every = Duration::from_millis(1);
        let written = run(&openings, &options, &mut out, every, &mut progress).expect("written");
        // Two games of a hundred searches take far longer than the 1 ms between reports.
        assert!(reports.len() >= 2);
        for pair in reports.windows(2) {
            assert!(pair[0].games <= pair[1].games && pair[0].positions <= pair[1].positions);
            assert!(pair[0].elapsed <= pair[1].elapsed);
        }
        let last = reports[reports.len() - 1];
        assert_eq!((last.games, last.positions), (2, written));
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
}
