//! Limited strength through UCI: `UCI_LimitStrength` and `UCI_Elo` announced, clamped, and
//! obeyed (a small node budget, a varied but never absurd choice of move).

mod common;

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use common::{Uci, is_legal, position_after};
use threefold::search::strength::{HAND_WRITTEN_MAX_ELO, MAX_ELO, MIN_ELO, Strength};

const SECOND: Duration = Duration::from_secs(1);

fn limited(elo: u32) -> Uci {
    let mut e = Uci::handshake();
    e.send("setoption name UCI_LimitStrength value true");
    e.send(&format!("setoption name UCI_Elo value {elo}"));
    e
}

/// The node count of the last `info` line that has one.
fn last_nodes(lines: &[String]) -> u64 {
    lines
        .iter()
        .rev()
        .find_map(|l| {
            let words: Vec<&str> = l.split(' ').collect();
            let i = words.iter().position(|w| *w == "nodes")?;
            words.get(i + 1)?.parse().ok()
        })
        .expect("an info line with nodes")
}

#[test]
fn options_are_announced_with_the_elo_range() {
    let mut e = Uci::start();
    e.send("uci");
    let lines = e.read_until(5 * SECOND, |l| l == "uciok");
    assert!(
        lines.contains(&"option name UCI_LimitStrength type check default false".to_owned()),
        "{lines:?}"
    );
    let announced =
        format!("option name UCI_Elo type spin default 1320 min {MIN_ELO} max {MAX_ELO}");
    assert!(lines.contains(&announced), "{lines:?}");
}

#[test]
fn elo_outside_the_range_is_clamped_with_a_message() {
    let mut e = Uci::handshake();
    e.send(&format!("setoption name UCI_Elo value {}", MAX_ELO + 700));
    let lines = e.read_until(5 * SECOND, |l| l.starts_with("info string"));
    assert!(
        lines
            .last()
            .is_some_and(|l| l.contains(&format!("playing at {MAX_ELO}"))),
        "{lines:?}"
    );
    e.send("setoption name UCI_Elo value 100");
    let lines = e.read_until(5 * SECOND, |l| l.starts_with("info string"));
    assert!(
        lines.last().is_some_and(|l| l.contains("playing at 1320")),
        "{lines:?}"
    );
    e.send("setoption name UCI_Elo value strong");
    let lines = e.read_until(5 * SECOND, |l| l.starts_with("info string"));
    assert!(
        lines
            .last()
            .is_some_and(|l| l.contains("error") && l.contains("keeping 1320")),
        "{lines:?}"
    );
    e.send("isready");
    e.read_until(5 * SECOND, |l| l == "readyok");
}

#[test]
fn a_lower_elo_searches_fewer_nodes_and_answers_early() {
    let mut nodes = Vec::new();
    for elo in [1320, 1600] {
        let mut e = limited(elo);
        e.send("position startpos moves e2e4 e7e5");
        let started = Instant::now();
        // The node budget, not the 20 s, ends these searches.
        e.send("go movetime 20000");
        let (lines, best) = e.bestmove(10 * SECOND);
        assert!(started.elapsed() < 5 * SECOND, "elo {elo}: {lines:?}");
        assert!(
            is_legal(&position_after(None, &["e2e4", "e7e5"]), &best),
            "{best}"
        );
        assert!(
            lines
                .iter()
                .filter(|l| is_search_line(l))
                .all(|l| l.contains(" multipv 1 ")),
            "MultiPV 1 shows one line: {lines:?}"
        );
        nodes.push(last_nodes(&lines));
    }
    let mut e = Uci::handshake();
    e.send("position startpos moves e2e4 e7e5");
    e.send("go depth 12");
    let (lines, _) = e.bestmove(30 * SECOND);
    nodes.push(last_nodes(&lines));
    assert!(
        nodes[0] < nodes[1] && nodes[1] < nodes[2],
        "nodes at 1320, 1600, full strength (depth 12): {nodes:?}"
    );
}

/// The levels just below full strength (the network's) and at the top of the hand-written
/// ones: one line, to the level's budget, whatever the clock.
#[test]
fn the_one_line_levels_search_their_budget_whatever_the_clock() {
    for elo in [HAND_WRITTEN_MAX_ELO, MAX_ELO - 1] {
        let budget = Strength::at(elo).expect("a limited level").node_budget();
        for go in ["go movetime 20000", "go wtime 600000 btime 600000"] {
            let mut e = limited(elo);
            e.send("position startpos moves e2e4 e7e5");
            let started = Instant::now();
            e.send(go);
            let (lines, best) = e.bestmove(30 * SECOND);
            // The budget ends the search, long before the clock would.
            assert!(started.elapsed() < 10 * SECOND, "{elo} {go}: {lines:?}");
            assert!(
                is_legal(&position_after(None, &["e2e4", "e7e5"]), &best),
                "{best}"
            );
            let nodes = last_nodes(&lines);
            assert!(
                nodes <= budget + 1000,
                "{elo} {go}: {nodes} nodes for {budget}"
            );
            assert!(
                lines
                    .iter()
                    .filter(|l| is_search_line(l))
                    .all(|l| l.contains(" multipv 1 ")),
                "{lines:?}"
            );
        }
    }
}

/// From the start position the weakest level plays its favourite move about 83% of the time
/// (100 searches, 2026-11-28: e2e3 83, d2d3 10, e2e4 7), so 20 searches all gave it one run in
/// 40; 60 searches all give it about one run in 70,000.
#[test]
fn the_weakest_level_varies_its_moves() {
    let mut e = limited(1320);
    let mut played = BTreeSet::new();
    for _ in 0..60 {
        e.send("position startpos");
        e.send("go wtime 60000 btime 60000");
        let (_, best) = e.bestmove(10 * SECOND);
        assert!(is_legal(&position_after(None, &[]), &best), "{best}");
        played.insert(best);
    }
    assert!(played.len() >= 2, "always {played:?}");
}

#[test]
fn the_weakest_level_still_mates_in_one() {
    let mut e = limited(1320);
    for _ in 0..10 {
        // Back-rank mate: Re8#.
        e.send("position fen 6k1/5ppp/8/8/8/8/5PPP/4R1K1 w - - 0 1");
        e.send("go wtime 60000 btime 60000");
        let (lines, best) = e.bestmove(10 * SECOND);
        assert_eq!(best, "e1e8", "{lines:?}");
    }
}

#[test]
fn turning_the_limit_off_restores_full_strength() {
    let mut e = limited(1320);
    e.send("setoption name UCI_LimitStrength value false");
    e.send("position startpos");
    e.send("go depth 8");
    let (lines, _) = e.bestmove(30 * SECOND);
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 8 ")),
        "{lines:?}"
    );
}

/// The fields of an `info` line that do not depend on the clock: depth, score, nodes and pv.
/// A line the search reports (depth, score, pv), not the `currmove` progress lines nor the
/// failed aspiration windows (`lowerbound`, `upperbound`) a long search (a loaded machine)
/// adds, whose number depends on the clock.
fn is_search_line(line: &str) -> bool {
    line.starts_with("info depth")
        && line.contains(" score ")
        && !line.contains(" lowerbound")
        && !line.contains(" upperbound")
}

fn search_facts(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| is_search_line(l))
        .map(|l| {
            let words: Vec<&str> = l.split(' ').collect();
            let field = |name: &str| {
                words
                    .iter()
                    .position(|w| *w == name)
                    .and_then(|i| words.get(i + 1))
                    .map_or("", |w| w)
                    .to_string()
            };
            let pv = words
                .iter()
                .position(|w| *w == "pv")
                .map_or(String::new(), |i| words[i + 1..].join(" "));
            format!(
                "depth {} score {} nodes {} pv {pv}",
                field("depth"),
                field("score"),
                field("nodes")
            )
        })
        .collect()
}

/// Where a search's `info` lines settle: the facts of `go` (or `go nodes 20000` with the limit
/// off) after 1.d4 Nf6, at `elo` with `UseNNUE` as given.
fn facts_at(elo: u32, use_nnue: bool, limit: bool) -> (Vec<String>, String) {
    let mut e = limited(elo);
    e.send(&format!("setoption name UseNNUE value {use_nnue}"));
    e.send(&format!("setoption name UCI_LimitStrength value {limit}"));
    e.send("position startpos moves d2d4 g8f6");
    e.send(if limit { "go" } else { "go nodes 20000" });
    let (lines, best) = e.bestmove(30 * SECOND);
    (search_facts(&lines), best)
}

#[test]
fn the_hand_written_levels_play_with_the_evaluation_they_were_calibrated_on() {
    // The top hand-written level has no random choice, so the same evaluation gives the same
    // search.
    let by_hand = facts_at(HAND_WRITTEN_MAX_ELO, false, true);
    assert!(!by_hand.0.is_empty());
    assert_eq!(facts_at(HAND_WRITTEN_MAX_ELO, true, true), by_hand);
    // At full strength the network does change the search.
    assert_ne!(
        facts_at(HAND_WRITTEN_MAX_ELO, true, false).0,
        facts_at(HAND_WRITTEN_MAX_ELO, false, false).0
    );
}

#[test]
fn the_levels_above_the_hand_written_ones_play_with_the_network() {
    let elo = HAND_WRITTEN_MAX_ELO + 1;
    assert_ne!(facts_at(elo, true, true).0, facts_at(elo, false, true).0);
}

/// `UCI_Elo` at the top of its range is full strength: the same search as with the limit off.
#[test]
fn the_top_of_the_range_is_full_strength() {
    let search = |limit: bool| {
        let mut e = limited(MAX_ELO);
        e.send(&format!("setoption name UCI_LimitStrength value {limit}"));
        e.send("position startpos moves d2d4 g8f6");
        e.send("go nodes 20000");
        let (lines, best) = e.bestmove(30 * SECOND);
        (search_facts(&lines), best)
    };
    let full = search(false);
    assert!(!full.0.is_empty());
    assert_eq!(search(true), full);
}
