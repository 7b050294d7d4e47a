//! The network as a UCI user meets it: `UseNNUE` and `EvalFile` (a bad file refused with the
//! previous evaluation kept, a good one loaded), `eval` printing the network's score, and the
//! bench's node count with the network: the same on every run, and not the hand-written one's,
//! with the accumulators the search updates move by move equal to fresh ones along the lines it
//! plays from the bench positions. Each test sets `UseNNUE` itself, so they hold whichever
//! evaluation is the default.

mod common;

use std::time::Duration;

use common::Uci;
use shakmaty::{Chess, Position};
use threefold::bench::BENCH_POSITIONS;
use threefold::eval::nnue::{EMBEDDED_FILE, Network, USE_NNUE_BY_DEFAULT, evaluate_position};
use threefold::eval::scale_network_score;
use threefold::game::{parse_fen, parse_uci_move};
use threefold::search::evaluation::EvalStack;

const WAIT: Duration = Duration::from_secs(60);

/// Sends `command` and then `isready`; the lines before `readyok`.
fn ask(uci: &mut Uci, command: &str) -> Vec<String> {
    uci.send(command);
    uci.send("isready");
    let mut lines = uci.read_until(WAIT, |l| l == "readyok");
    lines.pop();
    lines
}

/// The node count of `bench 6` (the last line: `N nodes M nps`).
fn bench_nodes(uci: &mut Uci) -> u64 {
    uci.send("bench 6");
    let lines = uci.read_until(WAIT, |l| l.ends_with(" nps") && !l.starts_with("info"));
    let last = lines.last().expect("a bench line");
    last.split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no node count in {last:?}"))
}

#[test]
fn the_options_are_announced() {
    let mut uci = Uci::start();
    uci.send("uci");
    let lines = uci.read_until(WAIT, |l| l == "uciok");
    assert!(
        lines
            .iter()
            .any(|l| *l == format!("option name UseNNUE type check default {USE_NNUE_BY_DEFAULT}")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l == "option name EvalFile type string default <empty>"),
        "{lines:?}"
    );
}

#[test]
fn a_bad_eval_file_is_refused_and_the_engine_keeps_its_evaluation() {
    let mut uci = Uci::handshake();
    let before = bench_nodes(&mut uci);
    for (file, says) in [
        ("/no/such/network.nnue", "cannot read"),
        ("Cargo.toml", "not a Threefold network"),
    ] {
        let lines = ask(&mut uci, &format!("setoption name EvalFile value {file}"));
        assert!(
            lines.iter().any(|l| l.starts_with("info string error:")
                && l.contains(says)
                && l.contains("keeping the previous evaluation")),
            "{file}: {lines:?}"
        );
    }
    // Still the same evaluation, and still usable.
    assert_eq!(bench_nodes(&mut uci), before);
    ask(&mut uci, "position startpos");
    uci.send("go depth 4");
    let (_, best) = uci.bestmove(WAIT);
    let start = common::position_after(None, &[]);
    assert!(common::is_legal(&start, &best), "{best}");
}

/// The principal variation of `go depth {depth}` from `fen` (the last `info depth` line's).
fn played_line(uci: &mut Uci, fen: &str, depth: u32) -> Vec<String> {
    ask(uci, &format!("position fen {fen}"));
    uci.send(&format!("go depth {depth}"));
    let (lines, _) = uci.bestmove(WAIT);
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap_or_else(|| panic!("no info line from {fen}: {lines:?}"));
    let words: Vec<&str> = info.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "pv").expect("a pv");
    words[at + 1..].iter().map(|w| w.to_string()).collect()
}

/// Plays `line` from `fen` through the search's evaluation stack, which updates the network's
/// accumulators move by move, and compares the evaluation of every position on the line, and
/// of every position one move off it, with the network's computed from scratch. Returns how
/// many evaluations were compared.
fn compare_along(net: &Network, fen: &str, line: &[String]) -> usize {
    let mut pos: Chess = parse_fen(fen).expect("bench FEN");
    let mut stack = EvalStack::new(Some(net), &pos);
    let fresh = |pos: &Chess| scale_network_score(pos, evaluate_position(net, pos));
    let mut compared = 0;
    for (ply, text) in line.iter().enumerate() {
        assert_eq!(
            stack.evaluate(&pos, ply),
            fresh(&pos),
            "{fen} after {ply} plies"
        );
        for m in pos.legal_moves() {
            let mut off = pos.clone();
            off.play_unchecked(m);
            stack.moved(ply, &pos, m);
            assert_eq!(
                stack.evaluate(&off, ply + 1),
                fresh(&off),
                "{fen} after {ply} plies and {m}"
            );
            compared += 1;
        }
        let m = parse_uci_move(&pos, text).expect("the line is legal");
        stack.moved(ply, &pos, m);
        pos.play_unchecked(m);
    }
    assert_eq!(
        stack.evaluate(&pos, line.len()),
        fresh(&pos),
        "{fen} at the end"
    );
    compared + line.len() + 1
}

#[test]
fn with_the_network_the_bench_is_its_own_and_repeatable() {
    let mut uci = Uci::handshake();
    ask(&mut uci, "setoption name UseNNUE value true");
    let first = bench_nodes(&mut uci);
    let second = bench_nodes(&mut uci);
    assert_eq!(first, second, "the network's bench repeats");
    // A broken accumulator update repeats as well, and makes a bench of its own: the node
    // count cannot tell. The lines the engine plays from the bench positions must evaluate,
    // move by move, as they do from scratch.
    let mut compared = 0;
    for fen in BENCH_POSITIONS {
        let line = played_line(&mut uci, fen, 8);
        compared += compare_along(Network::embedded(), fen, &line);
    }
    assert!(compared > 5000, "{compared} evaluations compared");
    let lines = ask(&mut uci, "setoption name UseNNUE value false");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string evaluation: hand-written")),
        "{lines:?}"
    );
    let hand_written = bench_nodes(&mut uci);
    assert_ne!(first, hand_written, "the network changes the search");
    let lines = ask(&mut uci, "setoption name UseNNUE value true");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string evaluation: NNUE, the built-in network")),
        "{lines:?}"
    );
    assert_eq!(bench_nodes(&mut uci), first);
    // The same net named as a file gives the same search.
    let file = format!("{}/{EMBEDDED_FILE}", env!("CARGO_MANIFEST_DIR"));
    let lines = ask(&mut uci, &format!("setoption name EvalFile value {file}"));
    assert!(
        lines.iter().any(|l| l.contains("evaluation: NNUE, '")),
        "{lines:?}"
    );
    assert_eq!(bench_nodes(&mut uci), first);
    // Another network is another search (net 12 is the one before the built-in net).
    assert_ne!(EMBEDDED_FILE, "nnue/net12-h256b8.nnue");
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/nnue/net12-h256b8.nnue");
    ask(&mut uci, &format!("setoption name EvalFile value {file}"));
    assert_ne!(bench_nodes(&mut uci), first);
}

#[test]
fn eval_prints_the_network_score() {
    let mut uci = Uci::handshake();
    ask(&mut uci, "setoption name UseNNUE value true");
    ask(&mut uci, "position startpos moves e2e4");
    let on = ask(&mut uci, "eval");
    let score_in = |lines: &[String], prefix: &str| -> i32 {
        let line = lines
            .iter()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no {prefix} in {lines:?}"));
        line.rsplit("): ")
            .next()
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no score in {line}"))
    };
    // The built-in net's shape, as `eval` names it.
    let net = format!("NNUE ({}", Network::embedded().shape());
    // Black to move: the search's score is the negation of White's view.
    let white = score_in(&on, &format!("{net}, in use)"));
    assert_eq!(score_in(&on, "Search evaluation (NNUE)"), -white);
    ask(&mut uci, "setoption name UseNNUE value false");
    let off = ask(&mut uci, "eval");
    assert!(
        off.iter()
            .any(|l| l.starts_with(&format!("{net}, built in, not in use"))),
        "{off:?}"
    );
    assert!(
        off.iter()
            .any(|l| l.starts_with("Search evaluation (hand-written)")),
        "{off:?}"
    );
    assert_eq!(score_in(&off, &format!("{net}, built in")), white);
}
