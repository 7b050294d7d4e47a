//! Every case of tests/data/seed-behaviour.jsonl (the seed behaviour cases of the project's
//! repetition rule book) through the built binary at one second a move, each case sent as a
//! behaviour-suite runner sends it: the game's moves, then `go`; at full strength and at
//! limited strength, whose repetition behaviour is the engine's at every level.

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

/// The cases that fail with these `setoption` lines sent first (`Name value V` each).
fn failed_cases(options: &[&str]) -> Vec<String> {
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
        for option in options {
            e.send(&format!("setoption name {option}"));
        }
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
    failures
}

#[test]
fn seed_behaviour_cases_at_one_second() {
    let failures = failed_cases(&[]);
    assert!(failures.is_empty(), "failed cases: {failures:#?}");
}

/// The weakest level, the first one-line level and the first network level: a weak level
/// still takes a forced repetition when worse and avoids one when better.
#[test]
fn seed_behaviour_cases_at_limited_strength() {
    for elo in [1320, 2000, 2201] {
        let elo_option = format!("UCI_Elo value {elo}");
        let failures = failed_cases(&["UCI_LimitStrength value true", &elo_option]);
        assert!(failures.is_empty(), "at {elo}, failed cases: {failures:#?}");
    }
}
