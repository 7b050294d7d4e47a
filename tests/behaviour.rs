//! Every case of tests/data/seed-behaviour.jsonl (the seed behaviour cases of the project's
//! repetition rule book) through the built binary at one second a move, each case sent as a
//! behaviour-suite runner sends it: the game's moves, then `go`.

mod common;

use std::time::Duration;

use common::Uci;
use serde_json::Value;

/// A draw score is reported within this many centipawns of 0 (suite.py's default).
const DRAW_CP: i64 = 15;

fn strings(v: &Value, key: &str) -> Vec<String> {
    v[key].as_array().map_or_else(Vec::new, |a| {
        a.iter()
            .filter_map(|m| m.as_str().map(str::to_owned))
            .collect()
    })
}

/// The last `score cp N` (mate scores as +-100000) in the lines.
fn last_score(lines: &[String]) -> Option<i64> {
    lines.iter().rev().find_map(|l| {
        let tokens: Vec<&str> = l.split_whitespace().collect();
        let i = tokens.iter().position(|&t| t == "score")?;
        let value: i64 = tokens.get(i + 2)?.parse().ok()?;
        match *tokens.get(i + 1)? {
            "cp" => Some(value),
            "mate" => Some(if value > 0 { 100_000 } else { -100_000 }),
            _ => None,
        }
    })
}

#[test]
fn seed_behaviour_cases_at_one_second() {
    let cases: Vec<Value> = include_str!("data/seed-behaviour.jsonl")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("case is JSON"))
        .collect();
    assert_eq!(cases.len(), 11);
    let mut failures = Vec::new();
    for case in &cases {
        let id = case["id"].as_str().unwrap_or("?");
        let mut e = Uci::start();
        e.send("uci");
        e.read_until(Duration::from_secs(5), |l| l == "uciok");
        e.send("ucinewgame");
        let moves = strings(case, "moves");
        let fen = case["fen"].as_str().expect("fen");
        if moves.is_empty() {
            e.send(&format!("position fen {fen}"));
        } else {
            e.send(&format!("position fen {fen} moves {}", moves.join(" ")));
        }
        e.send("go movetime 1000");
        let (lines, best) = e.bestmove(Duration::from_secs(10));
        let expect = &case["expect"];
        let best_in = strings(expect, "best_in");
        let best_not_in = strings(expect, "best_not_in");
        let mut ok =
            (best_in.is_empty() || best_in.contains(&best)) && !best_not_in.contains(&best);
        let score = last_score(&lines);
        if case["draw_score"].as_bool() == Some(true) {
            ok &= score.is_some_and(|cp| cp.abs() <= DRAW_CP);
        }
        if !ok {
            failures.push(format!("{id}: bestmove {best}, score {score:?}"));
        }
    }
    assert!(failures.is_empty(), "failed cases: {failures:#?}");
}
