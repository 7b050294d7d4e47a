//! Perpetual-check proofs at a fixed node budget: a dozen quick cases of the proof suite
//! (`bench/data/perpetuals.jsonl`, from real games, judged by Stockfish 15.1) must show 0.00
//! with the draw named in the result, from the bare FEN and with the game's history; false
//! perpetuals (checks that run out, a side better off playing on) must not.

use serde_json::Value;
use threefold::game::{Game, parse_fen};
use threefold::search::line::LineEnd;
use threefold::search::{Limits, SearchResult, Searcher, Signals};

/// Nodes each case may search: a fraction of a second on one core.
const NODE_BUDGET: u64 = 300_000;

fn cases() -> Vec<Value> {
    let text = include_str!("data/proof-cases.jsonl");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("a JSON case per line"))
        .collect()
}

fn game(case: &Value, with_history: bool) -> Game {
    let field = |name: &str| case[name].as_str().expect("string field").to_owned();
    if !with_history {
        return Game::new(parse_fen(&field("fen")).expect("the case's FEN"));
    }
    let mut game = Game::new(parse_fen(&field("start_fen")).expect("the case's start FEN"));
    for m in case["moves"].as_array().expect("moves") {
        game.play_uci(m.as_str().expect("move text"))
            .expect("the game's moves are legal");
    }
    game
}

fn search(game: &Game) -> SearchResult {
    let limits = Limits {
        nodes: Some(NODE_BUDGET),
        ..Limits::default()
    };
    Searcher::new(16).search(game, &limits, &Signals::default(), &mut |_| {})
}

fn check_all(kind: &str, with_history: bool) {
    let mut failures = Vec::new();
    let mut count = 0;
    for case in cases().iter().filter(|c| c["kind"] == kind) {
        count += 1;
        let result = search(&game(case, with_history));
        let id = case["id"].as_str().unwrap_or("?");
        let proven = result.score == 0
            && matches!(result.draw, Some(LineEnd::Repetition { .. }))
            && result.best.is_some();
        if kind == "perpetual" && !proven {
            failures.push(format!(
                "{id}: score {} draw {:?}",
                result.score, result.draw
            ));
        }
        if kind == "false" && result.score == 0 {
            failures.push(format!("{id}: shown as 0.00"));
        }
    }
    assert!(count >= 10, "at least ten {kind} cases, found {count}");
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn perpetuals_are_proven_from_the_bare_fen() {
    check_all("perpetual", false);
}

#[test]
fn perpetuals_are_proven_with_the_game_history() {
    check_all("perpetual", true);
}

#[test]
fn false_perpetuals_are_not_shown_as_draws() {
    check_all("false", false);
}
