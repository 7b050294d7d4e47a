//! Tablebases on the clock: the root's exact ranking near the fifty-move boundary runs inside
//! the limits of `go`, whatever they are, and the move keeps what the tables promise. A sweep
//! over the halfmove clock from 40 to 99 in won, drawn and lost endings, with the test tables
//! (tests/data/syzygy: the 3-piece ones and KQvKR, whose DTZ table is rounded and whose wins
//! run long enough to sit on the boundary for many clocks).
//!
//! Timing is what this file checks, so its margins are generous: a loaded machine (the other
//! tests run beside it) must not make it fail, while the defect it pins answered seconds late.

mod common;

use std::time::{Duration, Instant};

use shakmaty::{CastlingMode, Move, Position};
use threefold::game::{Game, parse_fen_in, parse_uci_move};
use threefold::search::tablebase::{RootResult, Settle, Tables};

use common::{Uci, last_info_field};

const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");

/// Time past its limit a search may take to answer here (a loaded machine, the pipes).
const MARGIN: Duration = Duration::from_millis(750);

/// Probes the reference ranking may make: far more than any sweep position needs.
const REFERENCE_PROBES: u64 = 5_000_000;

/// The endings swept: a FEN without its clocks. KQvKR from both sides (the win runs long: near
/// the boundary its rounded distances decide), KRvK (won up to halfmove 73 from this position,
/// drawn by the clock after), and K+P v K drawn by the tables.
const ENDINGS: [&str; 4] = [
    "7Q/8/5r2/5k2/8/8/8/5K2 w - -",
    "8/8/6k1/8/8/6r1/8/4K2Q b - -",
    "8/8/8/8/3k4/8/8/R3K3 w - -",
    "8/4k3/8/4K3/4P3/8/8/8 w - -",
];

/// A `go` of the sweep and how long its answer may take.
struct Go {
    command: &'static str,
    within: Duration,
}

/// The limits swept. A clock of 300 ms must never be overrun (that loses the game); the
/// others get their own limit plus [`MARGIN`], and the limits with no time in them (a depth, a
/// node count) a second: the defect took three to seven.
const GOS: [Go; 4] = [
    Go {
        command: "go movetime 200",
        within: Duration::from_millis(200).saturating_add(MARGIN),
    },
    Go {
        command: "go depth 1",
        within: Duration::from_secs(1),
    },
    Go {
        command: "go nodes 2000",
        within: Duration::from_secs(1),
    },
    Go {
        command: "go wtime 300 btime 300",
        within: Duration::from_millis(300),
    },
];

/// Win, draw or loss, whatever the distance.
fn class(result: RootResult) -> i32 {
    match result {
        RootResult::Win { .. } => 1,
        RootResult::Draw => 0,
        RootResult::Loss { .. } => -1,
        open => panic!("a reference result is settled: {open:?}"),
    }
}

/// The tables' best result for the side to move in `game`, settled with no budget to speak of.
fn best_result(tables: &Tables, game: &Game) -> RootResult {
    let moves: Vec<Move> = game.position().legal_moves().to_vec();
    let ranking = tables
        .rank_root_moves_within(game, &moves, Settle::Best, &mut |p| p <= REFERENCE_PROBES)
        .expect("in the tables");
    assert!(ranking.complete, "the reference ranking is complete");
    ranking.result()
}

/// What move `m` keeps, settled exactly.
fn result_of(tables: &Tables, game: &Game, m: Move) -> RootResult {
    tables
        .rank_root_moves_within(game, &[m], Settle::Every, &mut |p| p <= REFERENCE_PROBES)
        .expect("in the tables")
        .result()
}

#[test]
fn the_root_ranking_never_overruns_a_limit_and_the_move_keeps_the_result() {
    let tables = Tables::load(TABLES).expect("test tables load");
    let mut e = Uci::handshake();
    e.send(&format!("setoption name SyzygyPath value {TABLES}"));
    let mut late = Vec::new();
    let mut spoiled = Vec::new();
    for ending in ENDINGS {
        for halfmoves in (40..=99).step_by(3).chain([99]) {
            let fen = format!("{ending} {halfmoves} 80");
            let game = Game::new(parse_fen_in(&fen, CastlingMode::Standard).expect("fen"));
            let best = best_result(&tables, &game);
            for go in &GOS {
                // Each search starts from a fresh engine state but for what the tables'
                // search keeps (it may reuse it: that is its purpose).
                e.send("ucinewgame");
                e.send(&format!("position fen {fen}"));
                e.send("isready");
                e.read_until(Duration::from_secs(10), |l| l == "readyok");
                let sent = Instant::now();
                e.send(go.command);
                let (lines, mv) = e.bestmove(Duration::from_secs(30));
                let took = sent.elapsed();
                if took > go.within {
                    late.push(format!("{fen} {}: {took:?}", go.command));
                }
                let played = parse_uci_move(game.position(), &mv)
                    .unwrap_or_else(|e| panic!("{fen} {}: {mv}: {e}; {lines:?}", go.command));
                let kept = result_of(&tables, &game, played);
                if class(kept) != class(best) {
                    spoiled.push(format!(
                        "{fen} {}: {mv} keeps {kept:?}, the tables {best:?}",
                        go.command
                    ));
                }
            }
        }
    }
    assert!(late.is_empty(), "answered late:\n{}", late.join("\n"));
    assert!(
        spoiled.is_empty(),
        "result spoiled:\n{}",
        spoiled.join("\n")
    );
}

/// A ranking cut short by its budget keeps what it settled: the next one (the next `go` on the
/// same root, or a ponder search's) goes on from there rather than starting again, and once
/// complete it is kept whole, so the same root again costs no probe at all.
#[test]
fn a_ranking_cut_short_is_resumed_and_a_complete_one_is_kept() {
    let fen = "7Q/8/5r2/5k2/8/8/8/5K2 w - - 53 80";
    let game = Game::new(parse_fen_in(fen, CastlingMode::Standard).expect("fen"));
    let moves: Vec<Move> = game.position().legal_moves().to_vec();
    let at_once = Tables::load(TABLES).expect("test tables load");
    let whole = at_once
        .rank_root_moves_within(&game, &moves, Settle::Best, &mut |p| p <= REFERENCE_PROBES)
        .expect("in the tables");
    assert!(whole.complete && whole.probes > 2_000, "{}", whole.probes);

    let tables = Tables::load(TABLES).expect("test tables load");
    let step = whole.probes / 5;
    let mut rounds = 0;
    let mut probes = 0;
    let last = loop {
        let ranking = tables
            .rank_root_moves_within(&game, &moves, Settle::Best, &mut |p| p <= step)
            .expect("in the tables");
        rounds += 1;
        probes += ranking.probes;
        assert!(ranking.probes <= step, "{} probes", ranking.probes);
        if ranking.complete {
            break ranking;
        }
        assert!(
            rounds < 20,
            "no progress: {probes} probes in {rounds} rounds"
        );
    };
    // In steps, about the probes of the ranking made at once (each round's first look at every
    // move again, a few dozen, is the only repeated work).
    assert!(rounds >= 5, "{rounds} rounds");
    assert!(
        probes <= whole.probes + rounds * moves.len() as u64,
        "{probes} probes in {rounds} rounds, {} at once",
        whole.probes
    );
    assert_eq!(last.moves, whole.moves);
    // The complete ranking is kept: asked again, it costs nothing.
    let again = tables
        .rank_root_moves_within(&game, &moves, Settle::Best, &mut |_| false)
        .expect("in the tables");
    assert!(again.complete && again.probes == 0);
    assert_eq!(again.moves, whole.moves);
}

/// The `tbhits` of the last `info depth` line with a score.
fn last_tbhits(lines: &[String]) -> u64 {
    last_info_field(lines, "tbhits", 1)[0]
        .parse()
        .expect("a number")
}

/// Pondering, the ranking runs on the opponent's time; at `ponderhit` the clock starts and the
/// ranking yields to it. Pondering long enough to finish the ranking leaves it for the next
/// search of that root, which probes nothing.
#[test]
fn a_ponder_search_ranks_on_the_opponents_time_and_the_clock_starts_at_ponderhit() {
    let fen = "7Q/8/5r2/5k2/8/8/8/5K2 w - - 53 80";
    let mut e = Uci::handshake();
    e.send(&format!("setoption name SyzygyPath value {TABLES}"));
    e.send(&format!("position fen {fen}"));
    e.send("go ponder wtime 300 btime 300");
    std::thread::sleep(Duration::from_millis(100));
    let hit = Instant::now();
    e.send("ponderhit");
    let (lines, _) = e.bestmove(Duration::from_secs(30));
    assert!(hit.elapsed() < Duration::from_millis(300), "{lines:?}");

    // Ponder searches on the same root go on with the ranking where the last one stopped, and
    // once it is complete the next search probes nothing (a few rounds, so that a loaded
    // machine gets there too: unloaded, the first one completes it).
    let mut complete_after = None;
    for round in 1..=8 {
        e.send(&format!("position fen {fen}"));
        e.send("go ponder wtime 300 btime 300");
        std::thread::sleep(Duration::from_secs(3));
        e.send("ponderhit");
        let (lines, _) = e.bestmove(Duration::from_secs(30));
        assert!(last_tbhits(&lines) > 0, "{lines:?}");
        e.send(&format!("position fen {fen}"));
        e.send("go depth 1");
        let (lines, _) = e.bestmove(Duration::from_secs(30));
        if last_tbhits(&lines) == 0 {
            complete_after = Some(round);
            break;
        }
    }
    assert!(complete_after.is_some(), "the ranking never completed");
}
