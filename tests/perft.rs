//! Perft: the move generator against the standard counts (chessprogramming.org "Perft Results").

use threefold::game::parse_fen;
use threefold::perft::perft;

fn check(fen: &str, depth: u32, expected: u64) {
    let pos = parse_fen(fen).expect("test FEN parses");
    assert_eq!(perft(&pos, depth), expected, "perft {depth} of {fen}");
}

#[test]
fn start_position_depth_5() {
    check(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        5,
        4_865_609,
    );
}

#[test]
fn kiwipete_depth_4() {
    check(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        4,
        4_085_603,
    );
}

#[test]
fn position_3_depth_5() {
    check("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674_624);
}

#[test]
fn position_4_depth_4() {
    check(
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        4,
        422_333,
    );
}

#[test]
fn position_4_mirrored_depth_4() {
    check(
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        4,
        422_333,
    );
}

#[test]
fn position_5_depth_3() {
    check(
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        3,
        62_379,
    );
}

#[test]
fn position_6_depth_3() {
    check(
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        3,
        89_890,
    );
}
