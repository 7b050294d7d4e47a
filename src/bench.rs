//! The fixed-depth benchmark: a deterministic node count (OpenBench's signature) and speed.

use std::sync::Arc;
use std::time::Instant;

use crate::eval::nnue::Network;
use crate::game::{Game, parse_fen};
use crate::search::{Limits, Searcher, Signals};

/// Depth searched in every bench position.
pub const BENCH_DEPTH: u32 = 11;

/// Openings, middlegames and endgames, with some tactics and a perpetual-check line, then
/// positions from Threefold's games.
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
    // From Threefold's own games against Ethereal, Toga II, Glaurung and itself (any ply, either
    // side to move; none in check or at a claimable draw).
    "r2qkbnr/ppp2p2/2b1p3/3pN2p/3P2p1/1QP1P3/PP3PPP/RNB2RK1 b kq - 1 9",
    "rn3rk1/2qp1ppp/p1p5/1P3pbP/P7/1P6/1B1PBPP1/R2QK2R w KQ - 0 17",
    "1k1r2r1/1pq1bppp/p3pn1n/2p1N3/P3PB2/1QNB3P/5PP1/1R3RK1 b - - 3 23",
    "5rk1/2p2pp1/R3q2p/3bN3/1pBP4/2n1B2P/3Q1PP1/6K1 b - - 7 31",
    "5n2/4k1p1/8/5Q2/1Pp2P2/8/2NK4/5q2 w - - 6 41",
    "4r2k/pp5p/6PR/P7/5K2/2P3N1/1P6/8 b - - 2 50",
    "8/PR6/7p/4k3/6PP/7K/8/8 w - - 3 63",
    "rnbqk3/pp2pp2/2p2n1r/1B6/3PP1pp/N1P3N1/PP4PP/R1Q1K2R b KQq - 1 11",
    "r1q1kr2/1ppbbpQ1/1nn1p2R/3pP3/3P4/pPPB1NB1/P4PP1/1K1R2N1 w q - 3 20",
    "8/2pp1pp1/pp1k4/8/1P1P1K2/2P4r/P4pr1/2R5 b - - 1 28",
    "6k1/7p/p4qp1/4pP2/2bp2P1/7P/2nB3K/1R6 w - - 0 36",
    "8/5p2/4pnk1/1P1p4/3P4/Q2P1P2/P1B3K1/8 b - - 0 47",
    "8/3R4/1b3PP1/1k2N3/2p4K/2P5/PP6/8 b - - 0 58",
    "r1b2rk1/ppp3pp/2nq1n2/3ppp2/8/P2P1NP1/PBPQPPBP/1R3RK1 b - - 1 10",
    "r3k2r/qppb2pp/p3pn2/P4p2/2Bn1P2/BPN5/2PP2PP/R2QK2R w KQkq - 1 16",
    "4rrk1/p4ppp/2N5/8/3Qb3/8/1Pq1PPPP/4KB1R b - - 2 25",
    "8/p3k1pp/bp6/3B4/4PP2/2R2P2/P5K1/3r4 w - - 7 34",
    "8/p4b1k/2P1p2p/1q2Qpp1/2N5/P7/5PPP/4R1K1 b - - 0 44",
    "6k1/2p3p1/1p4K1/p2P2P1/P1P5/1P3R2/6r1/8 w - - 1 55",
    "5k2/8/1R2P3/1Np2K2/P1P5/1P6/3r4/8 w - - 1 73",
    "rn1qk2r/pbp1nppp/1p6/3p4/3P2P1/2P3NP/P1P1PKB1/R1BQ1R2 b kq - 3 12",
    "4rb1R/pp4p1/2k5/2p2b2/1n6/N3P3/PPP1NK2/R7 w - - 3 21",
    "r2r2k1/1p2bbpp/2Q1p1n1/2p1P2N/Pp1P4/1B3N2/1P4PP/2R2R1K b - - 0 27",
    "1r4k1/3b1pp1/B3p2p/p7/4p2P/K6R/2r2bP1/8 w - - 2 39",
    "8/R6p/P5k1/2K1ppp1/2Bn4/3P4/7r/8 b - - 2 48",
    "8/8/8/5kp1/1p6/1Pr1R2P/4KP2/8 b - - 14 60",
    "8/8/3k4/8/5K1Q/8/8/8 w - - 13 78",
    "r1b2rk1/pp2b1pp/nq2p3/2pP1p2/3Pn3/3BPN2/PPQBNPPP/2R2RK1 b - - 0 13",
    "2kr2r1/1p3p2/p1p2p1p/3b2p1/8/P1NR1P2/1PP2bPP/1K3B1R w - - 2 22",
    "5rk1/3R2pp/4pp2/2Q5/q1p2P2/8/2P3PP/4R2K b - - 0 30",
    "6k1/R5p1/1n3pB1/6r1/8/6P1/5P1P/6K1 w - - 1 43",
    "4r2k/4q1pp/2pRBp2/p3n3/Pp1QP2P/1P6/1P4P1/7K b - - 12 52",
];

/// Result of a bench run.
#[derive(Debug, Clone, Copy)]
pub struct BenchResult {
    pub nodes: u64,
    pub nps: u64,
}

/// Searches every bench position to `depth` with a fresh 16 MiB table; prints one line per
/// position through `line`.
pub fn run(depth: u32, network: Option<Arc<Network>>, line: &mut dyn FnMut(String)) -> BenchResult {
    let mut searcher = Searcher::new(16);
    searcher.network = network;
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
