//! UCI sessions against the built binary: handshake, limits, timing of isready/stop,
//! bad input, end of input.

mod common;

use std::time::{Duration, Instant};

use common::{Uci, is_legal, position_after};

const SECOND: Duration = Duration::from_secs(1);

fn started() -> Uci {
    Uci::handshake()
}

#[test]
fn handshake_lists_identity_and_options() {
    let mut e = Uci::start();
    e.send("uci");
    let lines = e.read_until(5 * SECOND, |l| l == "uciok");
    assert!(
        lines.iter().any(|l| l.starts_with("id name Threefold")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("id author ")),
        "{lines:?}"
    );
    for option in ["Hash", "Threads", "Move Overhead", "Clear Hash", "Ponder"] {
        let prefix = format!("option name {option} type ");
        assert!(
            lines.iter().any(|l| l.starts_with(&prefix)),
            "missing {option}: {lines:?}"
        );
    }
    e.send("isready");
    assert_eq!(
        e.read_until(5 * SECOND, |l| l == "readyok")
            .last()
            .map(String::as_str),
        Some("readyok")
    );
}

#[test]
fn every_limit_returns_a_legal_move() {
    let moves = ["e2e4", "c7c5", "g1f3"];
    let pos = position_after(None, &moves);
    let mut e = started();
    for go in [
        "go depth 5",
        "go nodes 20000",
        "go movetime 150",
        "go wtime 2000 btime 2000 winc 20 binc 20",
        "go wtime 1 btime 1",
        "go btime 1000 wtime 1000 movestogo 1",
        "go mate 1",
        "go depth 1",
        "go nodes 1",
        "go",
    ] {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send(go);
        if go == "go" {
            std::thread::sleep(Duration::from_millis(50));
            e.send("stop");
        }
        let (_, mv) = e.bestmove(20 * SECOND);
        assert!(is_legal(&pos, &mv), "'{go}' gave illegal bestmove '{mv}'");
    }
}

#[test]
fn depth_search_reports_info_lines() {
    let mut e = started();
    e.send("position startpos");
    e.send("go depth 6");
    let (lines, mv) = e.bestmove(30 * SECOND);
    assert!(is_legal(&position_after(None, &[]), &mv));
    for d in 1..=6 {
        let prefix = format!("info depth {d} ");
        let line = lines
            .iter()
            .find(|l| l.starts_with(&prefix))
            .unwrap_or_else(|| panic!("no depth {d}: {lines:?}"));
        for field in [
            " seldepth ",
            " score cp ",
            " nodes ",
            " nps ",
            " time ",
            " hashfull ",
            " pv ",
        ] {
            assert!(line.contains(field), "'{field}' missing in {line}");
        }
    }
}

#[test]
fn isready_and_stop_are_answered_during_infinite_search() {
    let mut e = started();
    e.send("position startpos moves d2d4");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    e.send("isready");
    e.read_until(SECOND, |l| l == "readyok");
    assert!(
        t.elapsed() < Duration::from_millis(100),
        "readyok took {:?}",
        t.elapsed()
    );
    let t = Instant::now();
    e.send("stop");
    let (_, mv) = e.bestmove(SECOND);
    assert!(
        t.elapsed() < Duration::from_millis(100),
        "bestmove took {:?}",
        t.elapsed()
    );
    assert!(is_legal(&position_after(None, &["d2d4"]), &mv));
}

#[test]
fn infinite_search_waits_for_stop_even_when_done() {
    // Mate in one: the search finishes its depths quickly but must not answer before `stop`.
    let mut e = started();
    e.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    e.send("go infinite");
    let early = e.drain(Duration::from_millis(400));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "answered before stop: {early:?}"
    );
    e.send("stop");
    let (_, mv) = e.bestmove(SECOND);
    assert_eq!(mv, "a1a8");
}

#[test]
fn ponder_then_ponderhit_answers_within_the_clock() {
    let mut e = started();
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder wtime 1000 btime 1000");
    let early = e.drain(Duration::from_millis(300));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "answered while pondering: {early:?}"
    );
    let t = Instant::now();
    e.send("ponderhit");
    let (_, mv) = e.bestmove(5 * SECOND);
    assert!(
        t.elapsed() < Duration::from_millis(900),
        "took {:?}",
        t.elapsed()
    );
    assert!(is_legal(&position_after(None, &["e2e4", "e7e5"]), &mv));
}

#[test]
fn ponder_then_stop_answers() {
    let mut e = started();
    e.send("position startpos moves e2e4");
    e.send("go ponder wtime 60000 btime 60000");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    let (_, mv) = e.bestmove(SECOND);
    assert!(is_legal(&position_after(None, &["e2e4"]), &mv));
}

/// Sends `bad`, expects exactly one `info string error` naming `needle`, then checks the
/// engine still searches.
fn rejects(e: &mut Uci, bad: &str, needle: &str) {
    e.send(bad);
    e.send("isready");
    let lines = e.read_until(5 * SECOND, |l| l == "readyok");
    let errors: Vec<_> = lines
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .collect();
    assert_eq!(errors.len(), 1, "'{bad}' gave {lines:?}");
    assert!(
        errors[0].contains(needle),
        "'{bad}' gave {errors:?}, expected '{needle}'"
    );
}

#[test]
fn bad_input_gets_an_error_and_the_engine_stays_usable() {
    let mut e = started();
    rejects(&mut e, "xyzzy foo", "unknown command 'xyzzy foo'");
    rejects(
        &mut e,
        "position fen rnbqkbnr/pppppppp/8/8 w KQkq - 0 1",
        "malformed FEN",
    );
    rejects(&mut e, "position fen 8/8/8/8/8/8/8/8 w - - 0 1", "FEN");
    rejects(
        &mut e,
        "position startpos moves e2e4 e7e5 e1e3",
        "illegal move 'e1e3'",
    );
    rejects(
        &mut e,
        "position startpos moves e2e4 zz99",
        "malformed move 'zz99'",
    );
    rejects(
        &mut e,
        "setoption name NoSuchOption value 3",
        "unknown option 'NoSuchOption'",
    );
    rejects(
        &mut e,
        "setoption name Hash value 0",
        "option 'Hash' must be an integer from 1 to 65536",
    );
    rejects(&mut e, "setoption name Hash value 100000", "keeping 16");
    rejects(
        &mut e,
        "setoption name Move Overhead value -5",
        "Move Overhead",
    );
    rejects(&mut e, "setoption name Ponder value maybe", "true or false");
    rejects(
        &mut e,
        "go depth abc",
        "'go depth' needs a non-negative number",
    );
    e.send("position startpos moves e2e4");
    e.send("go depth 3");
    let (_, mv) = e.bestmove(10 * SECOND);
    assert!(is_legal(&position_after(None, &["e2e4"]), &mv));
}

#[test]
fn malformed_fen_keeps_previous_position_and_illegal_move_keeps_prefix() {
    let mut e = started();
    e.send("position startpos moves e2e4 e7e5");
    e.send("position fen not/a/fen w - - 0 1");
    e.send("d");
    let lines = e.read_until(5 * SECOND, |l| l.starts_with("Fen: "));
    assert!(
        lines
            .iter()
            .any(|l| l.contains("keeping the previous position")),
        "{lines:?}"
    );
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Fen: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
    );

    e.send("position startpos moves g1f3 g8f6 f3f5 b8c6");
    e.send("d");
    let lines = e.read_until(5 * SECOND, |l| l.starts_with("Fen: "));
    assert!(lines.iter().any(|l| l.contains("illegal move 'f3f5'") && l.contains("after the 2 moves before it")), "{lines:?}");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Fen: rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2")
    );
}

#[test]
fn hostile_go_lines_do_not_crash() {
    let mut e = started();
    e.send("position startpos");
    e.send("go depth 300");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    e.bestmove(5 * SECOND);
    e.send("go mate 300");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    e.bestmove(5 * SECOND);
    e.send("go movestogo 300 wtime 500 btime 500");
    e.bestmove(5 * SECOND);
    e.send("go depth 2   \t ");
    e.bestmove(5 * SECOND);
    e.send("");
    e.send("   ");
    e.send("position startpos moves e2e4\r\ngo depth 2\r");
    let (_, mv) = e.bestmove(5 * SECOND);
    assert!(is_legal(&position_after(None, &["e2e4"]), &mv));
    e.send("go nodes 99999999999999999999999999 depth 2");
    e.bestmove(5 * SECOND);
    e.send("isready");
    e.read_until(SECOND, |l| l == "readyok");
}

#[test]
fn no_legal_move_answers_0000() {
    let mut e = started();
    // Black is checkmated (fool's mate).
    e.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    e.send("go depth 5");
    let (lines, mv) = e.bestmove(5 * SECOND);
    assert_eq!(mv, "0000");
    assert!(
        lines.iter().any(|l| l.contains("score mate 0")),
        "{lines:?}"
    );
    // Stalemate.
    e.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    e.send("go movetime 100");
    let (lines, mv) = e.bestmove(5 * SECOND);
    assert_eq!(mv, "0000");
    assert!(lines.iter().any(|l| l.contains("score cp 0")), "{lines:?}");
}

#[test]
fn fivefold_position_still_gets_a_legal_move() {
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let moves: Vec<&str> = shuffle.iter().cycle().take(16).copied().collect();
    let mut e = started();
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    e.send("d");
    let lines = e.read_until(5 * SECOND, |l| l.starts_with("Occurrences: "));
    assert_eq!(lines.last().map(String::as_str), Some("Occurrences: 5"));
    for go in [
        "go depth 1",
        "go depth 6",
        "go wtime 1 btime 1",
        "go nodes 1",
    ] {
        e.send(go);
        let (_, mv) = e.bestmove(10 * SECOND);
        assert!(is_legal(&position_after(None, &moves), &mv), "{go}: {mv}");
    }
}

#[test]
fn perft_and_display() {
    let mut e = started();
    e.send("position startpos");
    e.send("go perft 3");
    let lines = e.read_until(10 * SECOND, |l| l.starts_with("Nodes searched"));
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Nodes searched: 8902")
    );
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.contains(": ") && l.len() <= 12)
            .count(),
        20,
        "{lines:?}"
    );
    e.send("position startpos moves g1f3 g8f6 f3g1 f6g8");
    e.send("d");
    let lines = e.read_until(5 * SECOND, |l| l.starts_with("Moves played"));
    assert!(lines.iter().any(|l| l == "Occurrences: 2"), "{lines:?}");
    assert!(lines.iter().any(|l| l == "Halfmove clock: 4"), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("Key: ")), "{lines:?}");
}

#[test]
fn end_of_input_lets_a_bounded_search_finish() {
    let mut e = Uci::start();
    e.send("position startpos moves e2e4\ngo depth 7");
    e.close_input();
    let (_, mv) = e.bestmove(30 * SECOND);
    assert!(is_legal(&position_after(None, &["e2e4"]), &mv));
    assert!(e.exited_within(5 * SECOND));
}

#[test]
fn end_of_input_stops_an_infinite_search() {
    let mut e = Uci::start();
    e.send("position startpos\ngo infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.close_input();
    let (_, mv) = e.bestmove(5 * SECOND);
    assert!(is_legal(&position_after(None, &[]), &mv));
    assert!(e.exited_within(5 * SECOND));
}

#[test]
fn quit_during_search_exits() {
    let mut e = started();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("quit");
    assert!(e.exited_within(5 * SECOND));
}

#[test]
fn bench_is_deterministic() {
    let run = || {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_threefold"))
            .args(["bench", "6"])
            .output()
            .expect("bench runs");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let last = text.lines().last().unwrap_or("").to_owned();
        let fields: Vec<&str> = last.split(' ').collect();
        assert_eq!(
            (fields.len(), fields[1], fields[3]),
            (4, "nodes", "nps"),
            "{last}"
        );
        fields[0].parse::<u64>().expect("node count")
    };
    let first = run();
    assert!(first > 1000);
    assert_eq!(first, run());
}
