//! Chess960: perft of the 960 standard positions (tests/data/chess960.perft, the counts of
//! chessprogramming.org "Chess960 Perft Results"), and castling through UCI with `UCI_Chess960`.

mod common;

use std::time::Duration;

use shakmaty::CastlingMode;
use threefold::game::parse_fen_in;
use threefold::perft::perft;

use common::Uci;

const SECOND: Duration = Duration::from_secs(1);

/// (FEN, [(depth, count)]) for each position of the data file.
fn positions() -> Vec<(String, Vec<(u32, u64)>)> {
    let text = include_str!("data/chess960.perft");
    let mut out: Vec<(String, Vec<(u32, u64)>)> = Vec::new();
    for line in text.lines() {
        if let Some(fen) = line.strip_prefix("epd ") {
            out.push((fen.to_owned(), Vec::new()));
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut fields = rest
                .split_whitespace()
                .map(|f| f.parse::<u64>().expect("number"));
            let (depth, count) = (fields.next().expect("depth"), fields.next().expect("count"));
            out.last_mut()
                .expect("epd first")
                .1
                .push((depth as u32, count));
        }
    }
    out
}

/// Every position to depth 4 (563 million leaves, counted in seconds); `PERFT960_DEPTH=6`
/// checks all the counts of the file.
#[test]
fn perft_of_the_960_positions() {
    let max_depth: u32 = std::env::var("PERFT960_DEPTH")
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(4);
    let all = positions();
    assert_eq!(all.len(), 960);
    for (fen, counts) in &all {
        let pos = parse_fen_in(fen, CastlingMode::Chess960).expect("Chess960 FEN parses");
        for &(depth, expected) in counts.iter().filter(|(d, _)| *d <= max_depth) {
            assert_eq!(perft(&pos, depth), expected, "perft {depth} of {fen}");
        }
    }
}

#[test]
fn chess960_fens_need_the_option() {
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let err = threefold::game::parse_fen(fen).expect_err("not standard castling");
    assert!(err.to_string().contains("UCI_Chess960"), "{err}");
}

#[test]
fn impossible_standard_rights_are_dropped_not_read_as_chess960() {
    // Kings at home, KQkq: a standard FEN whose White queenside right has no a1 rook. Dropped
    // as python-chess drops it, not refused as a Chess960 position (Chess960 would read Q as
    // the b1 rook).
    let fen = "r3k2r/8/8/8/8/8/8/1R2K2R w KQkq - 0 1";
    let parsed = threefold::game::parse_fen_noting(fen, CastlingMode::Standard).expect("parses");
    let rights =
        shakmaty::fen::Fen::from_position(&parsed.position, shakmaty::EnPassantMode::Legal);
    assert_eq!(rights.to_string().split(' ').nth(2), Some("Kkq"));
    assert!(parsed.dropped.is_some_and(|d| d.contains("KQkq -> Kkq")));
    // A king away from e1 with a right is Chess960's, and so are file letters.
    for fen in [
        "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1",
        "r3k2r/8/8/8/8/8/8/1R2K2R w KBkq - 0 1",
    ] {
        let err = threefold::game::parse_fen(fen).expect_err("a Chess960 position");
        assert!(err.to_string().contains("UCI_Chess960"), "{fen}: {err}");
    }
    // Through UCI: `go` plays a legal move in it, not the null move.
    let mut e = Uci::handshake();
    e.send(&format!("position fen {fen}"));
    e.send("go depth 4");
    let lines = e.read_until(10 * SECOND, |l| l.starts_with("bestmove"));
    let best = lines.last().cloned().unwrap_or_default();
    assert!(
        best.starts_with("bestmove ") && !best.contains("0000"),
        "{lines:?}"
    );
}

/// The `Key:` line of `d`.
fn key(e: &mut Uci) -> String {
    e.send("d");
    let lines = e.read_until(5 * SECOND, |l| l.starts_with("Key: "));
    lines.last().cloned().unwrap_or_default()
}

#[test]
fn castling_round_trip_is_king_takes_rook() {
    let mut e = Uci::handshake();
    e.send("setoption name UCI_Chess960 value true");
    // King b1, rooks a1 and e1: both castlings are legal for White.
    e.send("position fen rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w EAea - 0 1");
    e.send("go perft 1");
    let lines = e.read_until(5 * SECOND, |l| l.starts_with("Nodes searched"));
    assert!(lines.iter().any(|l| l == "b1e1: 1"), "{lines:?}");
    assert!(lines.iter().any(|l| l == "b1a1: 1"), "{lines:?}");
    e.send("go depth 2 searchmoves b1e1");
    let (_, mv) = e.bestmove(5 * SECOND);
    assert_eq!(mv, "b1e1");
    // After O-O the king stands on g1 and the rook on f1.
    e.send("position fen rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w EAea - 0 1 moves b1e1");
    e.send("d");
    let lines = e.read_until(5 * SECOND, |l| l.starts_with("Fen: "));
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Fen: rk2r3/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq - 1 1"),
        "{lines:?}"
    );
}

#[test]
fn shredder_fen_and_x_fen_name_the_same_position() {
    let mut e = Uci::handshake();
    e.send("setoption name UCI_Chess960 value true");
    e.send("position fen rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w EAea - 0 1");
    let shredder = key(&mut e);
    e.send("position fen rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w KQkq - 0 1");
    let x_fen = key(&mut e);
    assert_eq!(shredder, x_fen);
}

#[test]
fn standard_castling_is_written_e1g1_and_king_takes_rook_in_chess960() {
    let moves = "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6";
    for (chess960, castle) in [(false, "e1g1"), (true, "e1h1")] {
        let mut e = Uci::handshake();
        e.send(&format!("setoption name UCI_Chess960 value {chess960}"));
        e.send(&format!("position startpos moves {moves}"));
        e.send(&format!("go depth 1 searchmoves {castle}"));
        let (_, mv) = e.bestmove(5 * SECOND);
        assert_eq!(mv, castle);
    }
}

/// `go perft 1` lists the castling move in the notation of the game's castling mode.
fn castling_listed(e: &mut Uci) -> Vec<String> {
    e.send("go perft 1");
    let lines = e.read_until(5 * SECOND, |l| l.starts_with("Nodes searched"));
    lines
        .into_iter()
        .filter(|l| l.starts_with("e1g1") || l.starts_with("e1h1"))
        .collect()
}

#[test]
fn bare_fens_of_a_chess960_game_keep_chess960_castling() {
    // After ucinewgame, bare FENs of a game from the standard array (Shredder-FEN rights).
    let mut e = Uci::handshake();
    e.send("setoption name UCI_Chess960 value true");
    e.send("ucinewgame");
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b HAha - 1 1",
        "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w HAha - 2 2",
        "rnbqkb1r/pppp1ppp/4pn2/8/8/4PN2/PPPP1PPP/RNBQKB1R w HAha - 0 3",
        "rnbqk2r/ppppbppp/4pn2/8/8/4PN2/PPPPBPPP/RNBQK2R w HAha - 2 4",
    ] {
        e.send(&format!("position fen {fen}"));
    }
    assert_eq!(castling_listed(&mut e), vec!["e1h1: 1"]);
    e.send("go depth 1 searchmoves e1h1");
    let (_, mv) = e.bestmove(5 * SECOND);
    assert_eq!(mv, "e1h1");

    // The option switched on in the middle of a game: the bare FEN continues it in Chess960.
    let mut e = Uci::handshake();
    e.send("position startpos moves g1f3 g8f6 e2e3 e7e6 f1e2");
    e.send("setoption name UCI_Chess960 value true");
    e.send("position fen rnbqk2r/ppppbppp/4pn2/8/8/4PN2/PPPPBPPP/RNBQK2R w HAha - 2 4");
    assert_eq!(castling_listed(&mut e), vec!["e1h1: 1"]);
    e.send("d");
    let lines = e.read_until(5 * SECOND, |l| l.starts_with("Moves played"));
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Moves played: 6"),
        "the history is kept: {lines:?}"
    );
}
