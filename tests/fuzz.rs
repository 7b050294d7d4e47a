//! Property tests over hostile input: the UCI line parser, FEN parsing, `position ... moves`
//! with random move text, and whole sessions of random lines sent to the engine binary.
//!
//! The normal suite runs a few hundred cases. For a long fuzzing run (ten minutes or more,
//! before a release):
//!
//! ```text
//! FUZZ_SECONDS=600 cargo test --release --test fuzz -- --ignored --nocapture
//! ```
//! which repeats every property with fresh random seeds until the time is up.

mod common;

use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use shakmaty::Position;
use threefold::game::{Game, parse_fen, parse_uci_move};
use threefold::uci::command::parse;

use common::Uci;

/// FENs to mutate: the start position, Kiwipete, an en passant position, an ending.
const SEED_FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

/// Words a UCI line is made of, valid and nearly valid.
const WORDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "stop",
    "ponderhit",
    "setoption",
    "name",
    "value",
    "debug",
    "on",
    "off",
    "register",
    "later",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "ponder",
    "searchmoves",
    "Hash",
    "Threads",
    "Move Overhead",
    "Clear Hash",
    "Ponder",
    "Contempt",
    "UCI_AnalyseMode",
    "true",
    "false",
    "e2e4",
    "e7e5",
    "g1f3",
    "e1g1",
    "a7a8q",
    "0000",
    "e2e5",
    "-",
    "w",
    "b",
    "KQkq",
    "8/8/8/8/8/8/8/8",
    "\t",
    "\0",
    "\r",
    "\u{feff}",
];

/// Numbers around the edges that parsers get wrong.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u64..2000).prop_map(|n| n.to_string()),
        any::<u64>().prop_map(|n| n.to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        Just("99999999999999999999999999999999".to_owned()),
        Just("-0".to_owned()),
        Just("1e9".to_owned()),
        Just("255".to_owned()),
        Just("256".to_owned()),
    ]
}

/// A token: a UCI word, a number, or arbitrary text.
fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => proptest::sample::select(WORDS).prop_map(str::to_owned),
        2 => number(),
        1 => any::<String>(),
        1 => proptest::sample::select(SEED_FENS).prop_map(str::to_owned),
    ]
}

/// A line of tokens joined by spaces.
fn token_line() -> impl Strategy<Value = String> {
    proptest::collection::vec(token(), 0..12).prop_map(|t| t.join(" "))
}

/// Any line at all: tokens, arbitrary Unicode, or a very long one.
fn any_line() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => token_line(),
        2 => any::<String>(),
        1 => (1usize..20_000, any::<char>()).prop_map(|(n, c)| c.to_string().repeat(n)),
    ]
}

/// A FEN with a few characters replaced, inserted or removed.
fn mutated_fen() -> impl Strategy<Value = String> {
    let edits =
        proptest::collection::vec((any::<prop::sample::Index>(), any::<char>(), 0u8..3), 1..4);
    (proptest::sample::select(SEED_FENS), edits).prop_map(|(fen, edits)| {
        let mut chars: Vec<char> = fen.chars().collect();
        for (at, c, kind) in edits {
            let i = at.index(chars.len().max(1));
            match kind {
                0 if i < chars.len() => chars[i] = c,
                1 => chars.insert(i.min(chars.len()), c),
                _ if i < chars.len() => {
                    chars.remove(i);
                }
                _ => {}
            }
        }
        chars.into_iter().collect()
    })
}

fn parser_never_panics(line: &str) -> Result<(), TestCaseError> {
    let _ = parse(line);
    Ok(())
}

/// A FEN is either rejected or gives a position whose own FEN parses back to the same position.
fn fen_is_rejected_or_consistent(text: &str) -> Result<(), TestCaseError> {
    if let Ok(pos) = parse_fen(text) {
        let again = shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal);
        let reparsed = parse_fen(&again.to_string());
        prop_assert!(reparsed.is_ok(), "{text} -> {again} does not parse back");
        let game = Game::new(pos);
        prop_assert_eq!(game.occurrences(), 1);
    }
    Ok(())
}

/// Random move text is played only when legal; the game then holds exactly the legal prefix.
fn moves_are_played_only_when_legal(
    fen_index: usize,
    texts: &[String],
) -> Result<(), TestCaseError> {
    let start = parse_fen(SEED_FENS[fen_index % SEED_FENS.len()])
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    let mut game = Game::new(start);
    for text in texts {
        let before = game.moves().len();
        let legal =
            parse_uci_move(game.position(), text).is_ok_and(|m| game.position().is_legal(m));
        match game.play_uci(text) {
            Ok(_) => prop_assert!(legal && game.moves().len() == before + 1),
            Err(_) => prop_assert!(!legal && game.moves().len() == before),
        }
    }
    Ok(())
}

/// Move text: mostly a legal-looking square pair, sometimes junk.
fn move_text() -> impl Strategy<Value = String> {
    let square = (0u8..8, 0u8..8).prop_map(|(f, r)| format!("{}{}", (b'a' + f) as char, r + 1));
    prop_oneof![
        4 => (square.clone(), square, proptest::option::of(proptest::sample::select(vec!['q', 'r', 'b', 'n', 'k', 'p', 'x']))).prop_map(|(a, b, p)| {
            format!("{a}{b}{}", p.map(String::from).unwrap_or_default())
        }),
        1 => any::<String>(),
        1 => Just("0000".to_owned()),
    ]
}

/// True for a line a UCI client can read: one of the engine's messages, printable.
fn is_protocol_line(line: &str) -> bool {
    let printable = !line.chars().any(char::is_control);
    let mut words = line.split(' ');
    let known = match words.next() {
        Some("id" | "option" | "uciok" | "readyok" | "info") => true,
        Some("bestmove") => words.next().is_some_and(|m| {
            m == "0000"
                || (4..=5).contains(&m.len()) && m.chars().all(|c| c.is_ascii_alphanumeric())
        }),
        _ => false,
    };
    // The search thread's panic guard answers with this; it must never be needed.
    printable && known && !line.contains("internal error")
}

/// Commands left out of engine sessions: `quit` ends the session, and the debug commands
/// (`d`, `eval`, `perft`, `bench`) print free text or run for minutes by design.
fn is_session_safe(line: &str) -> bool {
    let first = line.split_whitespace().next().unwrap_or("");
    let lower = line.to_lowercase();
    let debug_command = matches!(first, "d" | "eval" | "perft" | "bench" | "quit")
        || (first == "go" && line.split_whitespace().nth(1) == Some("perft"));
    // Huge hash tables and a thousand threads are tested on their own, not at random.
    let big_resources = lower.contains("hash value") || lower.contains("threads value");
    !debug_command && !lower.contains("quit") && !big_resources
}

/// Sends `lines` (raw bytes allowed) to a fresh engine, then `stop` and `isready`: the engine
/// must answer `readyok`, and every line it printed must be a well-formed protocol line.
fn engine_survives_session(lines: &[Vec<u8>]) -> Result<(), TestCaseError> {
    let mut engine = Uci::start();
    for line in lines {
        engine.send_bytes(line);
    }
    engine.send("stop");
    engine.send("isready");
    let seen = engine.try_read_until(Duration::from_secs(20), |l| l == "readyok");
    let seen = seen.map_err(|why| TestCaseError::fail(format!("{why}; sent {lines:?}")))?;
    for line in &seen {
        prop_assert!(
            is_protocol_line(line),
            "malformed output line {line:?} after {lines:?}"
        );
    }
    // A bounded search still under way (e.g. `go` without `stop` after it) must end by itself too.
    engine.send("position startpos");
    engine.send("go depth 1");
    engine
        .try_read_until(Duration::from_secs(20), |l| l.starts_with("bestmove"))
        .map_err(|why| TestCaseError::fail(format!("{why}; sent {lines:?}")))?;
    Ok(())
}

/// A session's lines: UCI-shaped lines as text, or raw bytes (invalid UTF-8, NUL).
fn session() -> impl Strategy<Value = Vec<Vec<u8>>> {
    let line = prop_oneof![
        5 => any_line().prop_filter("session-safe", |l| is_session_safe(l)).prop_map(|l| l.replace('\n', " ").into_bytes()),
        1 => proptest::collection::vec(any::<u8>(), 0..200)
            .prop_filter("session-safe", |b| is_session_safe(&String::from_utf8_lossy(b)))
            .prop_map(|b| b.into_iter().filter(|&c| c != b'\n').collect()),
    ];
    proptest::collection::vec(line, 1..16)
}

fn check<S: Strategy>(
    cases: u32,
    strategy: S,
    test: impl Fn(S::Value) -> Result<(), TestCaseError>,
) {
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    if let Err(e) = runner.run(&strategy, test) {
        panic!("{e}");
    }
}

fn parser_property(cases: u32) {
    check(cases, any_line(), |l| parser_never_panics(&l));
}

fn fen_property(cases: u32) {
    check(cases, prop_oneof![mutated_fen(), any::<String>()], |f| {
        fen_is_rejected_or_consistent(&f)
    });
}

fn moves_property(cases: u32) {
    check(
        cases,
        (
            any::<usize>(),
            proptest::collection::vec(move_text(), 0..30),
        ),
        |(i, t)| moves_are_played_only_when_legal(i, &t),
    );
}

fn session_property(cases: u32) {
    check(cases, session(), |s| engine_survives_session(&s));
}

#[test]
fn uci_parser_takes_any_line() {
    parser_property(2000);
}

#[test]
fn fen_parser_rejects_or_accepts_consistently() {
    fen_property(2000);
}

#[test]
fn position_moves_take_only_legal_moves() {
    moves_property(500);
}

#[test]
fn engine_survives_random_sessions() {
    session_property(24);
}

/// The long run: every property again and again with fresh seeds for FUZZ_SECONDS seconds.
#[test]
#[ignore]
fn fuzz_for_a_while() {
    let seconds: u64 = std::env::var("FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let (mut rounds, mut sessions) = (0u64, 0u64);
    while Instant::now() < deadline {
        parser_property(5000);
        fen_property(5000);
        moves_property(1000);
        session_property(50);
        rounds += 1;
        sessions += 50;
    }
    println!(
        "fuzzed for {seconds} s: {rounds} rounds, {} parser lines, {} FENs, {} move lists, {sessions} engine sessions",
        rounds * 5000,
        rounds * 5000,
        rounds * 1000
    );
}
