//! Syzygy tablebases through UCI, with the few 3-piece tables in tests/data/syzygy (copied from
//! ../shared/syzygy, 33 KB): a tablebase win, a win the fifty-move rule turns into a draw, a
//! drawn pawn ending, and a bad path.

mod common;

use std::time::Duration;

use shakmaty::CastlingMode;
use threefold::game::parse_fen_in;
use threefold::search::tablebase::{RootRanking, RootResult, TB_WIN_BOUND, Tables};

use common::Uci;

const SECOND: Duration = Duration::from_secs(1);
const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");

/// An engine with the test tables loaded.
fn with_tables() -> Uci {
    let mut e = Uci::handshake();
    e.send(&format!("setoption name SyzygyPath value {TABLES}"));
    e.send("isready");
    let lines = e.read_until(5 * SECOND, |l| l == "readyok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string Syzygy: 10 table files, up to 3 pieces")),
        "{lines:?}"
    );
    e
}

/// The `score cp` of the last `info depth` line before `bestmove`.
fn last_cp(lines: &[String]) -> i32 {
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line");
    let words: Vec<&str> = info.split(' ').collect();
    let at = words.iter().position(|w| *w == "cp").expect("a cp score");
    words[at + 1].parse().expect("a number")
}

#[test]
fn a_tablebase_win_is_scored_as_one_with_tbhits() {
    let mut e = with_tables();
    e.send("position fen 4k3/8/8/8/8/8/8/4K2Q w - - 0 1");
    e.send("go depth 6");
    let (lines, mv) = e.bestmove(10 * SECOND);
    assert!(last_cp(&lines) >= TB_WIN_BOUND, "{lines:?}");
    // The root's ranking probes every move's position: every report counts those probes.
    let hits: Vec<u64> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .filter_map(|l| {
            let words: Vec<&str> = l.split(' ').collect();
            let at = words.iter().position(|w| *w == "tbhits")?;
            words[at + 1].parse().ok()
        })
        .collect();
    assert!(!hits.is_empty() && hits.iter().all(|&h| h > 0), "{lines:?}");
    assert!(!mv.is_empty());
}

#[test]
fn a_win_the_fifty_move_rule_frustrates_is_a_draw() {
    let mut e = with_tables();
    // KQvK with mate 13 plies away but only 5 halfmoves left before the clock reaches 100.
    e.send("position fen 4k3/8/8/8/8/8/8/4K2Q w - - 95 1");
    e.send("go depth 4");
    let (lines, _) = e.bestmove(10 * SECOND);
    assert_eq!(last_cp(&lines), 0, "{lines:?}");
    // The same position with a fresh clock is a win.
    e.send("position fen 4k3/8/8/8/8/8/8/4K2Q w - - 0 1");
    e.send("go depth 4");
    let (lines, _) = e.bestmove(10 * SECOND);
    assert!(last_cp(&lines) >= TB_WIN_BOUND, "{lines:?}");
}

#[test]
fn the_search_probes_after_captures() {
    let mut e = with_tables();
    // Kxd3 leaves K+P against K with the defending king in front of the pawn, a draw (the
    // tables say so, and python-chess's prober agrees): the search settles it by a probe after
    // the capture, with no table for the four pieces at the root.
    e.send("position fen 8/8/4k3/8/4P3/3r4/3K4/8 w - - 0 1");
    e.send("go depth 3 searchmoves d2d3");
    let (lines, mv) = e.bestmove(10 * SECOND);
    assert_eq!(mv, "d2d3");
    assert_eq!(last_cp(&lines), 0, "{lines:?}");
    let probed = lines.iter().filter_map(|l| {
        let words: Vec<&str> = l.split(' ').collect();
        let at = words.iter().position(|w| *w == "tbhits")?;
        words[at + 1].parse::<u64>().ok()
    });
    assert!(probed.max().unwrap_or(0) > 0, "{lines:?}");
}

#[test]
fn root_moves_keep_the_best_tablebase_result() {
    let tables = Tables::load(TABLES).expect("test tables load");
    let rank = |fen: &str| {
        let pos = parse_fen_in(fen, CastlingMode::Standard).expect("fen");
        let moves: Vec<_> = shakmaty::Position::legal_moves(&pos).to_vec();
        let RootRanking { kept, result, .. } =
            tables.rank_root_moves(&pos, &moves).expect("in the tables");
        let mut kept: Vec<String> = kept
            .iter()
            .map(|m| m.to_uci(CastlingMode::Standard).to_string())
            .collect();
        kept.sort();
        (kept, result, moves.len())
    };
    // K+P v K: of White's six moves only Ke5 (the opposition in front of the pawn) keeps the
    // win; e5 and the other king moves draw. (Checked with python-chess's own prober.)
    let (kept, result, _) = rank("8/4k3/8/3K4/4P3/8/8/8 w - - 0 1");
    assert_eq!(kept, ["d5e5"]);
    assert!(matches!(result, RootResult::Win { .. }), "{result:?}");
    // Black to move against the opposition: all five king moves lose, each to a pawn move
    // three plies on (DTZ 3), so all are kept, and the loss is four plies to that move.
    let (kept, result, all) = rank("8/4k3/8/4K3/4P3/8/8/8 b - - 0 1");
    assert_eq!(kept, ["e7d7", "e7d8", "e7e8", "e7f7", "e7f8"]);
    assert_eq!(kept.len(), all);
    assert_eq!(result, RootResult::Loss { plies: 4 });
    let drawn =
        parse_fen_in("8/4k3/8/4K3/4P3/8/8/8 w - - 0 1", CastlingMode::Standard).expect("fen");
    let moves: Vec<_> = shakmaty::Position::legal_moves(&drawn).to_vec();
    let RootRanking { result, .. } = tables
        .rank_root_moves(&drawn, &moves)
        .expect("in the tables");
    assert_eq!(result, RootResult::Draw);
}

#[test]
fn a_bad_path_is_reported_and_the_engine_plays_on() {
    let mut e = Uci::handshake();
    e.send("setoption name SyzygyPath value /no/such/directory");
    e.send("isready");
    let lines = e.read_until(5 * SECOND, |l| l == "readyok");
    assert!(
        lines.iter().any(|l| l
            .starts_with("info string error: cannot read Syzygy directory '/no/such/directory'")),
        "{lines:?}"
    );
    e.send(&format!(
        "setoption name SyzygyPath value {}",
        env!("CARGO_MANIFEST_DIR")
    ));
    e.send("isready");
    let lines = e.read_until(5 * SECOND, |l| l == "readyok");
    assert!(
        lines.iter().any(|l| l.contains("no Syzygy tables found")),
        "{lines:?}"
    );
    e.send("position fen 4k3/8/8/8/8/8/8/4K2Q w - - 0 1");
    e.send("go depth 3");
    let (lines, mv) = e.bestmove(10 * SECOND);
    assert!(
        !mv.is_empty()
            && lines
                .iter()
                .all(|l| !l.starts_with("info depth") || l.contains(" tbhits 0 ")),
        "{lines:?}"
    );
}

/// KRvK with the mate landing exactly on halfmove 100: 1.Ke2 (also 1.Kf2 and 1.Ra5) mates in 27
/// plies, so from a clock of 73 the mate comes on halfmove 100 (mate beats the fifty-move rule)
/// and it is a win; 1.Kd2 mates later. From a clock of 74 every mate comes too late: a draw.
/// The DTZ table stores this ending rounded, so the boundary must be settled exactly. (The three
/// moves and Kd2's longer mate were checked by an exhaustive mate search without tables.)
#[test]
fn a_mate_landing_on_halfmove_100_is_a_win_one_ply_later_a_draw() {
    let tables = Tables::load(TABLES).expect("test tables load");
    let rank = |fen: &str| {
        let pos = parse_fen_in(fen, CastlingMode::Standard).expect("fen");
        let moves: Vec<_> = shakmaty::Position::legal_moves(&pos).to_vec();
        let RootRanking { kept, result, .. } =
            tables.rank_root_moves(&pos, &moves).expect("in the tables");
        let kept: Vec<String> = kept
            .iter()
            .map(|m| m.to_uci(CastlingMode::Standard).to_string())
            .collect();
        (kept, result)
    };
    let (kept, result) = rank("8/8/8/8/3k4/8/8/R3K3 w - - 73 100");
    assert!(matches!(result, RootResult::Win { .. }), "{result:?}");
    assert_eq!(kept, vec!["a1a5", "e1e2", "e1f2"]);
    let (_, result) = rank("8/8/8/8/3k4/8/8/R3K3 w - - 74 100");
    assert_eq!(result, RootResult::Draw);

    let mut e = with_tables();
    e.send("position fen 8/8/8/8/3k4/8/8/R3K3 w - - 73 100");
    e.send("go depth 6");
    let (lines, mv) = e.bestmove(10 * SECOND);
    assert!(kept.contains(&mv), "{lines:?}");
    assert!(last_cp(&lines) >= TB_WIN_BOUND, "{lines:?}");
    e.send("position fen 8/8/8/8/3k4/8/8/R3K3 w - - 73 100");
    e.send("go depth 6 searchmoves e1e2");
    let (lines, mv) = e.bestmove(10 * SECOND);
    assert_eq!(mv, "e1e2");
    assert!(last_cp(&lines) >= TB_WIN_BOUND, "{lines:?}");
    e.send("position fen 8/8/8/8/3k4/8/8/R3K3 w - - 74 100");
    e.send("go depth 6");
    let (lines, _) = e.bestmove(10 * SECOND);
    assert_eq!(last_cp(&lines), 0, "{lines:?}");
}
