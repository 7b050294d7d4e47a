//! MultiPV through UCI: N lines, ranked, with distinct legal first moves and sorted scores.

mod common;

use std::time::Duration;

use common::{Uci, is_legal, multipv_lines, position_after};

const SECOND: Duration = Duration::from_secs(1);

/// (rank, score in cp with a mate as 0, first move) of each `info` line of `depth`.
fn lines_at(lines: &[String], depth: u32) -> Vec<(usize, i32, String)> {
    multipv_lines(lines, depth)
        .into_iter()
        .map(|(rank, cp, first)| (rank, cp.unwrap_or(0), first))
        .collect()
}

#[test]
fn three_lines_ranked_and_distinct() {
    let mut e = Uci::handshake();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go depth 6");
    let (lines, best) = e.bestmove(10 * SECOND);
    let got = lines_at(&lines, 6);
    assert_eq!(
        got.iter().map(|l| l.0).collect::<Vec<_>>(),
        vec![1, 2, 3],
        "{lines:?}"
    );
    assert!(
        got.windows(2).all(|w| w[0].1 >= w[1].1),
        "scores not sorted: {got:?}"
    );
    let pos = position_after(None, &["e2e4", "e7e5"]);
    for (_, _, first) in &got {
        assert!(is_legal(&pos, first), "{first}");
    }
    let mut firsts: Vec<&String> = got.iter().map(|l| &l.2).collect();
    firsts.dedup();
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "{got:?}");
    assert_eq!(best, got[0].2);
}

#[test]
fn more_lines_than_moves_gives_one_per_move() {
    let mut e = Uci::handshake();
    e.send("setoption name MultiPV value 10");
    // Two legal moves: Kb1 and h4.
    e.send("position fen k7/8/8/8/8/7P/7r/K7 w - - 0 1");
    e.send("go depth 4");
    let (lines, _) = e.bestmove(10 * SECOND);
    let got = lines_at(&lines, 4);
    assert_eq!(
        got.iter().map(|l| l.0).collect::<Vec<_>>(),
        vec![1, 2],
        "{lines:?}"
    );
}

#[test]
fn a_twofold_root_does_not_flatten_the_lines() {
    let mut e = Uci::handshake();
    e.send("setoption name MultiPV value 3");
    // White is a rook up; the root has occurred twice already.
    e.send("position fen 7k/8/8/8/8/8/8/R5K1 w - - 0 1 moves a1a2 h8g8 a2a1 g8h8");
    e.send("go depth 6");
    let (lines, _) = e.bestmove(10 * SECOND);
    let got = lines_at(&lines, 6);
    assert_eq!(got.len(), 3, "{lines:?}");
    assert!(got.iter().all(|l| l.1 > 300), "{got:?}");
}
