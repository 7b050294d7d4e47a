//! UCI sessions against the built binary: handshake, limits, timing of isready/stop, end of
//! input. Bad input has its own file, `bad_input.rs`.

mod common;

use std::time::{Duration, Instant};

use common::{Uci, first_iteration, is_legal, position_after};

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
fn a_node_limit_below_the_first_iteration_still_plays_the_searchs_move() {
    // `go nodes 1`, a bot's or a GUI's weakest setting: the first iteration is finished
    // whatever the limit (as Stockfish and Ethereal do), so the move is the search's, with its
    // score shown; before, it was the first legal move (1.Rb1 here), with no score.
    let mut e = started();
    e.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    for go in ["go nodes 1", "go nodes 5"] {
        e.send(go);
        let (lines, mv) = e.bestmove(10 * SECOND);
        assert_eq!(mv, "a1a8", "{go}: {lines:?}");
        let depth_one = first_iteration(&lines);
        assert!(depth_one.contains(" score mate 1 "), "{go}: {depth_one}");
    }
    // The limit still ends the search right after that iteration.
    e.send("position startpos");
    e.send("go nodes 1");
    let (lines, mv) = e.bestmove(10 * SECOND);
    assert!(
        lines.iter().all(|l| !l.starts_with("info depth 2 ")),
        "{lines:?}"
    );
    let first_pv = first_iteration(&lines)
        .split(" pv ")
        .nth(1)
        .and_then(|pv| pv.split_whitespace().next());
    assert_eq!(first_pv, Some(mv.as_str()), "{lines:?}");
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
fn quit_during_search_exits_within_100_ms() {
    let mut e = started();
    e.send("setoption name Threads value 2");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    let sent = Instant::now();
    e.send("quit");
    assert!(e.exited_within(5 * SECOND));
    let took = sent.elapsed();
    assert!(took < Duration::from_millis(100), "quit took {took:?}");
}

#[test]
fn broken_stdout_ends_the_process_cleanly() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_threefold"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("engine starts");
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().expect("stdin");
    // The first answer meets a closed pipe; the engine must leave, even in the middle of a search.
    let _ = stdin.write_all(b"position startpos\ngo infinite\n");
    let _ = stdin.flush();
    let deadline = Instant::now() + 5 * SECOND;
    let status = loop {
        if let Ok(Some(status)) = child.try_wait() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "engine still running with stdout closed"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut stderr = String::new();
    if let Some(mut err) = child.stderr.take() {
        use std::io::Read;
        let _ = err.read_to_string(&mut stderr);
    }
    assert!(status.success(), "{status:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
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

/// The `wdl W D L` triple of an info line.
fn wdl_of(line: &str) -> Option<[u32; 3]> {
    let words: Vec<&str> = line.split(' ').collect();
    let at = words.iter().position(|w| *w == "wdl")?;
    let mut numbers = words[at + 1..at + 4].iter().map(|w| w.parse::<u32>().ok());
    Some([numbers.next()??, numbers.next()??, numbers.next()??])
}

#[test]
fn show_wdl_gives_per_mille_chances_and_a_drawn_line_is_mostly_draw() {
    let mut e = started();
    e.send("setoption name UCI_ShowWDL value true");
    e.send("position startpos moves e2e4 d7d5 e4d5 d8d5");
    e.send("go depth 6");
    let (lines, _) = e.bestmove(10 * SECOND);
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(!infos.is_empty());
    for info in &infos {
        let wdl = wdl_of(info).unwrap_or_else(|| panic!("no wdl in {info}"));
        assert_eq!(wdl.iter().sum::<u32>(), 1000, "{info}");
    }
    // King and bishop against king: a dead draw, proven by the search.
    e.send("position fen 8/8/4k3/8/8/3BK3/8/8 w - - 0 1");
    e.send("go depth 4");
    let (lines, _) = e.bestmove(10 * SECOND);
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("info");
    assert_eq!(wdl_of(last), Some([0, 1000, 0]), "{last}");
    // Without the option there is no wdl.
    e.send("setoption name UCI_ShowWDL value false");
    e.send("go depth 2");
    let (lines, _) = e.bestmove(10 * SECOND);
    assert!(lines.iter().all(|l| !l.contains(" wdl ")), "{lines:?}");
}

/// The field names of an info line, in order (`pv`'s moves and the values left out).
fn field_order(line: &str) -> Vec<&str> {
    const FIELDS: [&str; 13] = [
        "depth",
        "seldepth",
        "multipv",
        "score",
        "wdl",
        "lowerbound",
        "upperbound",
        "nodes",
        "nps",
        "hashfull",
        "tbhits",
        "time",
        "pv",
    ];
    let mut names = Vec::new();
    for word in line.split(' ').skip(1) {
        if word == "pv" {
            names.push(word);
            break;
        }
        if FIELDS.contains(&word) {
            names.push(word);
        }
    }
    names
}

#[test]
fn info_fields_come_in_stockfish_order_with_wdl_right_after_the_score() {
    // En Croissant's parser reads `wdl` only right after the score, and some GUIs need
    // `multipv` on every line: the order Stockfish and Lc0 use.
    let mut e = started();
    e.send("setoption name UCI_ShowWDL value true");
    for multipv in [1, 3] {
        e.send(&format!("setoption name MultiPV value {multipv}"));
        e.send("position startpos moves e2e4");
        e.send("go depth 5");
        let (lines, _) = e.bestmove(10 * SECOND);
        let infos: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .collect();
        assert!(infos.len() >= 5 * multipv, "{lines:?}");
        for info in infos {
            assert_eq!(
                field_order(info),
                [
                    "depth", "seldepth", "multipv", "score", "wdl", "nodes", "nps", "hashfull",
                    "tbhits", "time", "pv"
                ],
                "{info}"
            );
            let words: Vec<&str> = info.split(' ').collect();
            let score_at = words.iter().position(|w| *w == "score").expect("score");
            assert!(matches!(words[score_at + 1], "cp" | "mate"), "{info}");
            assert_eq!(words[score_at + 3], "wdl", "{info}");
        }
    }
}

#[test]
fn a_long_search_names_the_root_move_it_is_on() {
    // After 3 s the main thread reports each root move it starts, numbered from 1, as
    // `info depth D currmove M currmovenumber N` (the spelling of the UCI protocol).
    // The search goes on until a report comes (a loaded machine may spend seconds in one root
    // move), then is stopped.
    let mut e = started();
    e.send("position startpos");
    e.send("go infinite");
    let mut lines = e.read_until(60 * SECOND, |l| l.contains(" currmove "));
    e.send("stop");
    lines.extend(e.bestmove(10 * SECOND).0);
    let currmoves: Vec<&String> = lines.iter().filter(|l| l.contains(" currmove ")).collect();
    assert!(!currmoves.is_empty(), "{lines:?}");
    for line in currmoves {
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(words.len(), 7, "{line}");
        assert_eq!(
            [words[0], words[1], words[3], words[5]],
            ["info", "depth", "currmove", "currmovenumber"],
            "{line}"
        );
        let number: usize = words[6].parse().expect("a number");
        assert!((1..=20).contains(&number), "{line}");
        assert_eq!(words[4].len(), 4, "{line}");
    }
}
