//! The fixed-depth benchmark: a deterministic node count (OpenBench's signature) and speed.

use std::time::Instant;

use crate::game::{Game, parse_fen};
use crate::search::{Limits, Searcher, Signals};

/// Depth searched in every bench position.
pub const BENCH_DEPTH: u32 = 9;

/// Openings, middlegames and endgames, with some tactics and a perpetual-check line.
pub const BENCH_POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r2q1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R2Q1RK1 w - - 0 9",
    "2r3k1/1q3ppp/p3p3/1p1nP3/3N4/1P3Q2/P4PPP/3R2K1 w - - 0 25",
    "8/5pk1/6p1/7p/P4P1P/6P1/5K2/8 w - - 0 40",
    "6k1/5p2/6p1/8/7P/8/5PK1/3R4 w - - 0 50",
    "4r1k1/pp3ppp/8/3b4/8/1P3N2/P4PPP/4R1K1 b - - 0 30",
];

/// Result of a bench run.
#[derive(Debug, Clone, Copy)]
pub struct BenchResult {
    pub nodes: u64,
    pub nps: u64,
}

/// Searches every bench position to `depth` with a fresh 16 MiB table; prints one line per
/// position through `line`.
pub fn run(depth: u32, line: &mut dyn FnMut(String)) -> BenchResult {
    let mut searcher = Searcher::new(16);
    let signals = Signals::default();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut nodes = 0;
    let started = Instant::now();
    for (i, fen) in BENCH_POSITIONS.iter().enumerate() {
        let Ok(pos) = parse_fen(fen) else {
            continue;
        };
        searcher.clear();
        let game = Game::new(pos);
        let result = searcher.search(&game, &limits, &signals, &mut |_| {});
        nodes += result.nodes;
        line(format!(
            "position {:>2}: {:>10} nodes  {fen}",
            i + 1,
            result.nodes
        ));
    }
    let ms = started.elapsed().as_millis().max(1) as u64;
    BenchResult {
        nodes,
        nps: nodes * 1000 / ms,
    }
}
