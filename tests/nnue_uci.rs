//! The network as a UCI user meets it: `UseNNUE` and `EvalFile` (a bad file refused with the
//! previous evaluation kept, a good one loaded), `eval` printing the network's score, and the
//! bench's node count with the network: the same on every run, and not the hand-written one's.
//! Each test sets `UseNNUE` itself, so they hold whichever evaluation is the default.

mod common;

use std::time::Duration;

use common::Uci;
use threefold::eval::nnue::{EMBEDDED_FILE, Network, USE_NNUE_BY_DEFAULT};

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

#[test]
fn with_the_network_the_bench_is_its_own_and_repeatable() {
    let mut uci = Uci::handshake();
    ask(&mut uci, "setoption name UseNNUE value true");
    let first = bench_nodes(&mut uci);
    let second = bench_nodes(&mut uci);
    assert_eq!(first, second, "the network's bench repeats");
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
    // Another network is another search (net 5 is the one before the built-in net).
    assert_ne!(EMBEDDED_FILE, "nnue/net5-h128.nnue");
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/nnue/net5-h128.nnue");
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
    // The built-in net's width, as `eval` names it.
    let net = format!("NNUE ({} hidden", Network::embedded().hidden());
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
