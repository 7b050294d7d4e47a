//! Each class of bad input in README's "Bad input" table, sent to the built binary: the answer
//! the table promises, and an engine that still plays afterwards.

mod common;

use std::time::Duration;

use common::{Uci, is_legal, position_after};

const SECOND: Duration = Duration::from_secs(1);

/// Sends `bad`, expects exactly one `info string error` naming `needle`, then checks the
/// engine is still ready.
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

/// The engine still answers a search with a legal move in `moves` from the start position.
fn still_plays(e: &mut Uci, moves: &[&str]) {
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    e.send("go depth 3");
    let (_, mv) = e.bestmove(10 * SECOND);
    assert!(is_legal(&position_after(None, moves), &mv), "{mv}");
}

/// The FEN the engine holds now, from `d`.
fn current_fen(e: &mut Uci) -> String {
    e.send("d");
    let lines = e.read_until(5 * SECOND, |l| l.starts_with("Fen: "));
    lines
        .last()
        .map(|l| l["Fen: ".len()..].to_owned())
        .unwrap_or_default()
}

/// After a refused `position`, `go` searches nothing: one error line and `bestmove 0000`.
fn no_position_to_search(e: &mut Uci) {
    e.send("go depth 3");
    let (lines, mv) = e.bestmove(10 * SECOND);
    assert_eq!(mv, "0000", "{lines:?}");
    let errors: Vec<_> = lines
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .collect();
    assert_eq!(errors.len(), 1, "{lines:?}");
    assert!(errors[0].contains("no position to search"), "{errors:?}");
    assert!(
        !lines.iter().any(|l| l.starts_with("info depth")),
        "{lines:?}"
    );
}

#[test]
fn unknown_command() {
    let mut e = Uci::handshake();
    rejects(&mut e, "xyzzy foo", "unknown command 'xyzzy foo'");
    rejects(&mut e, "\u{0}\u{7}garbage\u{1b}[2J", "unknown command '?");
    still_plays(&mut e, &["e2e4"]);
}

#[test]
fn malformed_fen_leaves_no_position_to_search() {
    let mut e = Uci::handshake();
    for (bad, needle) in [
        (
            "position fen rnbqkbnr/pppppppp/8/8 w KQkq - 0 1",
            "malformed FEN",
        ),
        (
            "position fen not/a/fen w - - 0 1",
            "no position is set until a valid 'position' command",
        ),
        ("position fen", "position needs 'startpos' or 'fen <fen>'"),
    ] {
        e.send("position startpos moves e2e4 e7e5");
        rejects(&mut e, bad, needle);
        no_position_to_search(&mut e);
    }
    still_plays(&mut e, &["d2d4"]);
}

#[test]
fn fen_of_an_impossible_position_is_refused() {
    let mut e = Uci::handshake();
    // No kings; the side not to move in check; a pawn on the first rank; two white kings.
    for fen in [
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/K3K3 w - - 0 1",
    ] {
        e.send("position startpos moves e2e4");
        rejects(
            &mut e,
            &format!("position fen {fen}"),
            "no position is set until a valid 'position' command",
        );
        no_position_to_search(&mut e);
    }
    still_plays(&mut e, &[]);
}

#[test]
fn illegal_move_leaves_no_position_to_search() {
    let mut e = Uci::handshake();
    rejects(
        &mut e,
        "position startpos moves g1f3 g8f6 f3f5 b8c6",
        "illegal move 'f3f5' (move 3 of the list); no position is set until a valid 'position' command",
    );
    no_position_to_search(&mut e);
    rejects(
        &mut e,
        "position startpos moves e2e4 zz99",
        "malformed move 'zz99'",
    );
    no_position_to_search(&mut e);
    rejects(
        &mut e,
        "position startpos moves e2e4 e7e5 e1e3",
        "illegal move 'e1e3'",
    );
    no_position_to_search(&mut e);
    still_plays(&mut e, &["e2e4", "e7e5"]);
}

#[test]
fn fens_with_impossible_castling_or_en_passant_rights_lose_them() {
    let mut e = Uci::handshake();
    for (fen, kept, dropped) in [
        // White has no rooks for KQ.
        (
            "r3k2r/8/8/8/8/8/8/4K3 w KQkq - 0 1",
            "r3k2r/8/8/8/8/8/8/4K3 w kq - 0 1",
            "castling rights KQkq -> kq",
        ),
        // No black pawn on e5 made the double step that e6 claims.
        (
            "4k3/8/8/8/8/8/8/R3K3 w Q e6 0 1",
            "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
            "en passant square e6",
        ),
    ] {
        e.send("position startpos moves e2e4 e7e6");
        e.send(&format!("position fen {fen}"));
        e.send("isready");
        let lines = e.read_until(5 * SECOND, |l| l == "readyok");
        let notes: Vec<_> = lines
            .iter()
            .filter(|l| l.starts_with("info string"))
            .collect();
        assert_eq!(notes.len(), 1, "{lines:?}");
        assert!(
            notes[0].contains("dropped") && notes[0].contains(dropped),
            "{notes:?}"
        );
        assert!(!notes[0].contains("error"), "{notes:?}");
        assert_eq!(current_fen(&mut e), kept);
        e.send("go depth 3");
        let (_, mv) = e.bestmove(10 * SECOND);
        assert!(is_legal(&position_after(Some(kept), &[]), &mv), "{mv}");
    }
}

#[test]
fn out_of_range_move_counters_are_refused() {
    let mut e = Uci::handshake();
    for (fen, needle) in [
        (
            "4k3/8/8/8/8/8/8/R3K3 w - - 99999999999 80",
            "halfmove clock",
        ),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 4294967296 80", "halfmove clock"),
        ("4k3/8/8/8/8/8/8/R3K3 w - - -1 80", "halfmove clock"),
        ("4k3/8/8/8/8/8/8/R3K3 w - - abc 80", "halfmove clock"),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 99999999999", "fullmove"),
    ] {
        e.send("position startpos");
        rejects(&mut e, &format!("position fen {fen}"), needle);
        no_position_to_search(&mut e);
    }
    still_plays(&mut e, &["e2e4"]);
}

#[test]
fn go_with_nonsense_or_overflowing_numbers() {
    let mut e = Uci::handshake();
    e.send("position startpos");
    rejects(
        &mut e,
        "go depth abc",
        "'go depth' needs a non-negative number",
    );
    // The bad part is dropped; a `go` left with no limit searches until `stop`, as plain `go`.
    e.send("stop");
    e.bestmove(10 * SECOND);
    for line in [
        "go wtime -100 btime -100",
        "go movestogo 300 wtime 500 btime 500",
        "go nodes 99999999999999999999999999 depth 2",
        "go depth 2 movetime 18446744073709551616",
        "go depth 2   \t ",
        "go depth 2 flibble 7",
    ] {
        e.send(line);
        let (_, mv) = e.bestmove(10 * SECOND);
        assert!(is_legal(&position_after(None, &[]), &mv), "{line}: {mv}");
    }
    for line in ["go depth 300", "go mate 300"] {
        e.send(line);
        std::thread::sleep(Duration::from_millis(100));
        e.send("stop");
        e.bestmove(5 * SECOND);
    }
    still_plays(&mut e, &["e2e4"]);
}

#[test]
fn setoption_unknown_name_bad_value_or_out_of_range() {
    let mut e = Uci::handshake();
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
    rejects(&mut e, "setoption name Threads value 0", "Threads");
    rejects(&mut e, "setoption name", "malformed setoption");
    still_plays(&mut e, &[]);
}

/// MemAvailable in MiB, from /proc/meminfo.
fn available_mib() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? / 1024)
}

#[test]
fn hash_larger_than_memory_keeps_the_previous_table() {
    let Some(available) = available_mib() else {
        eprintln!("no /proc/meminfo here: nothing to test");
        return;
    };
    let too_big = available + 1024;
    if too_big > 65_536 {
        eprintln!("{available} MiB available: the option's range cannot ask for more");
        return;
    }
    let mut e = Uci::handshake();
    e.send("setoption name Hash value 32");
    rejects(
        &mut e,
        &format!("setoption name Hash value {too_big}"),
        "keeping the 32 MiB table",
    );
    still_plays(&mut e, &["e2e4"]);
}

#[test]
fn threads_above_the_core_count_are_allowed() {
    let mut e = Uci::handshake();
    e.send("setoption name Threads value 64");
    e.send("isready");
    let lines = e.read_until(5 * SECOND, |l| l == "readyok");
    assert!(lines.iter().all(|l| !l.contains("error")), "{lines:?}");
    e.send("position startpos");
    e.send("go movetime 300");
    let (lines, mv) = e.bestmove(5 * SECOND);
    assert!(is_legal(&position_after(None, &[]), &mv), "{lines:?}");
}

#[test]
fn position_during_a_search_applies_to_the_next_go() {
    let mut e = Uci::handshake();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("position startpos moves e2e4");
    e.send("stop");
    let (_, first) = e.bestmove(5 * SECOND);
    assert!(is_legal(&position_after(None, &[]), &first), "{first}");
    e.send("go depth 3");
    let (_, second) = e.bestmove(5 * SECOND);
    assert!(
        is_legal(&position_after(None, &["e2e4"]), &second),
        "{second}"
    );
}

#[test]
fn setoption_during_a_search_waits_for_it() {
    let mut e = Uci::handshake();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("setoption name Hash value 8");
    e.send("setoption name Clear Hash");
    e.send("setoption name Move Overhead value 50");
    e.send("isready");
    let lines = e.read_until(5 * SECOND, |l| l == "readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "search was cut: {lines:?}"
    );
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.contains("will take effect when the current search ends"))
            .count(),
        2,
        "{lines:?}"
    );
    e.send("stop");
    e.bestmove(5 * SECOND);
    still_plays(&mut e, &[]);
}

#[test]
fn go_twice_without_stop_answers_both() {
    let mut e = Uci::handshake();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("position startpos moves d2d4");
    e.send("go depth 3");
    let (_, first) = e.bestmove(5 * SECOND);
    assert!(is_legal(&position_after(None, &[]), &first), "{first}");
    let (_, second) = e.bestmove(10 * SECOND);
    assert!(
        is_legal(&position_after(None, &["d2d4"]), &second),
        "{second}"
    );
}

#[test]
fn overlong_line_is_ignored() {
    let mut e = Uci::handshake();
    let long = "x".repeat(2 * 1024 * 1024);
    rejects(
        &mut e,
        &long,
        "a line longer than 1048576 bytes was ignored",
    );
    still_plays(&mut e, &["e2e4"]);
}

#[test]
fn invalid_utf8_is_read_lossily() {
    let mut e = Uci::handshake();
    e.send_bytes(b"isre\xffady");
    e.send_bytes(b"position startpos moves e2e4 \xc3\x28");
    e.send("isready");
    let lines = e.read_until(5 * SECOND, |l| l == "readyok");
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.starts_with("info string error: "))
            .count(),
        2,
        "{lines:?}"
    );
    still_plays(&mut e, &["e2e4"]);
}
