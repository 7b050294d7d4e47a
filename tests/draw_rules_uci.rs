//! The draw rules as a GUI sees them: reports before and after a search, contempt and
//! analysis mode, history kept across bare FENs.

mod common;

use std::time::Duration;

use common::{Uci, first_iteration, is_legal, position_after};

const SECOND: Duration = Duration::from_secs(1);

fn started() -> Uci {
    Uci::handshake()
}

/// The `info string` lines of one search, and its move.
fn search(e: &mut Uci, position: &str, go: &str) -> (Vec<String>, String) {
    e.send(position);
    e.send(go);
    let (lines, mv) = e.bestmove(30 * SECOND);
    let strings = lines
        .into_iter()
        .filter(|l| l.starts_with("info string"))
        .collect();
    (strings, mv)
}

fn shuffle(plies: usize) -> Vec<&'static str> {
    ["g1f3", "g8f6", "f3g1", "f6g8"]
        .iter()
        .cycle()
        .take(plies)
        .copied()
        .collect()
}

#[test]
fn options_are_announced_and_checked() {
    let mut e = Uci::start();
    e.send("uci");
    let lines = e.read_until(5 * SECOND, |l| l == "uciok");
    assert!(
        lines
            .iter()
            .any(|l| l == "option name Contempt type spin default 0 min -1000 max 1000"),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l == "option name UCI_AnalyseMode type check default false"),
        "{lines:?}"
    );
    e.send("setoption name Contempt value 2000");
    e.send("isready");
    let lines = e.read_until(5 * SECOND, |l| l == "readyok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error: option 'Contempt'")),
        "{lines:?}"
    );
}

/// Plays `plies` of the knight shuffle from the start, searches, and expects `report`.
fn shuffle_reports(plies: usize, report: &str) {
    let mut e = started();
    let moves = shuffle(plies);
    let position = format!("position startpos moves {}", moves.join(" "));
    let (strings, mv) = search(&mut e, &position, "go depth 4");
    assert!(strings.iter().any(|l| l.contains(report)), "{strings:?}");
    assert!(is_legal(&position_after(None, &moves), &mv), "{mv}");
}

#[test]
fn threefold_claim_is_reported() {
    shuffle_reports(8, "threefold repetition can be claimed now");
}

#[test]
fn fivefold_is_reported_and_still_answered() {
    shuffle_reports(16, "already drawn by fivefold repetition");
}

#[test]
fn fifty_and_seventy_five_moves_are_reported() {
    let mut e = started();
    let (strings, _) = search(
        &mut e,
        "position fen 8/8/8/4k3/8/8/7P/3QK3 w - - 100 120",
        "go depth 4",
    );
    assert!(
        strings
            .iter()
            .any(|l| l.contains("fifty-move rule can be claimed now")),
        "{strings:?}"
    );
    let (strings, mv) = search(
        &mut e,
        "position fen 8/8/8/4k3/8/8/7P/3QK3 w - - 150 120",
        "go depth 4",
    );
    assert!(
        strings
            .iter()
            .any(|l| l.contains("already drawn by seventy-five-move rule")),
        "{strings:?}"
    );
    assert!(is_legal(
        &position_after(Some("8/8/8/4k3/8/8/7P/3QK3 w - - 150 120"), &[]),
        &mv
    ));
}

#[test]
fn perpetual_check_is_reported_with_its_line() {
    let mut e = started();
    let pirc = "e2e4 d7d6 d2d4 g8f6 b1c3 g7g6 f2f4 f8g7 g1f3 c7c5 f1b5 c8d7 e4e5 f6g4 e5e6 f7e6 f3g5 d7b5 g5e6 g7d4 e6d8";
    let (strings, mv) = search(
        &mut e,
        &format!("position startpos moves {pirc}"),
        "go depth 8",
    );
    assert_eq!(mv, "d4f2");
    let report = strings
        .iter()
        .find(|l| l.contains("draw by perpetual check"))
        .unwrap_or_else(|| panic!("{strings:?}"));
    assert!(
        report.contains("Black gives check on every move"),
        "{report}"
    );
    assert!(report.contains("d4f2 e1d2"), "{report}");
}

#[test]
fn a_proven_perpetual_is_shown_from_the_first_iteration() {
    // The Pirc perpetual: at depth 1 the search alone sees a queen down (...Ng4-e3, about
    // -2.9); the prover's first question, asked after the first iteration, proves the checks.
    let mut e = started();
    let pirc = "e2e4 d7d6 d2d4 g8f6 b1c3 g7g6 f2f4 f8g7 g1f3 c7c5 f1b5 c8d7 e4e5 f6g4 e5e6 f7e6 f3g5 d7b5 g5e6 g7d4 e6d8";
    e.send(&format!("position startpos moves {pirc}"));
    e.send("go depth 1");
    let (lines, mv) = e.bestmove(30 * SECOND);
    assert_eq!(mv, "d4f2", "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains("perpetual check proven")),
        "{lines:?}"
    );
    let depth_one = first_iteration(&lines);
    assert!(depth_one.contains("score cp 0 "), "{depth_one}");
    assert!(depth_one.contains("pv d4f2 e1d2"), "{depth_one}");
}

#[test]
fn in_check_the_opponents_perpetual_is_shown_from_the_first_iteration() {
    // Black, a rook and more up, is in check from c8: 30...Kf7 (the search alone: about +4.8
    // at depth 1) lets White's queen and bishop check for ever. In check the prover is asked
    // about the best move at once.
    let mut e = started();
    e.send("position fen 1bQ3k1/7p/2p2rqB/8/p2pp3/P7/2P2PPP/6K1 b - - 1 30");
    e.send("go depth 1");
    let (lines, mv) = e.bestmove(30 * SECOND);
    assert_eq!(mv, "g8f7", "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("g8f7 lets the opponent check for ever")),
        "{lines:?}"
    );
    let depth_one = first_iteration(&lines);
    assert!(depth_one.contains("score cp 0 "), "{depth_one}");
}

#[test]
fn contempt_avoids_a_repetition_except_in_analysis() {
    let position = "position fen 6k1/ppp2ppp/7n/8/8/5N2/PPP2PPP/6K1 w - - 0 1 moves g1h1 g8h8 h1g1 h8g8 g1h1 g8h8 h1g1";
    let mut e = started();
    let (_, at_zero) = search(&mut e, position, "go depth 9");
    assert_eq!(
        at_zero, "h8g8",
        "at contempt 0 the repetition is Black's best"
    );
    e.send("setoption name Contempt value 50");
    e.send("ucinewgame");
    let (_, with_contempt) = search(&mut e, position, "go depth 9");
    assert_ne!(with_contempt, "h8g8", "contempt 50 plays on");
    e.send("setoption name UCI_AnalyseMode value true");
    e.send("ucinewgame");
    let (_, analysing) = search(&mut e, position, "go depth 9");
    assert_eq!(analysing, "h8g8", "analysis mode ignores contempt");
}

#[test]
fn bare_fens_keep_the_history_when_one_or_two_moves_apart() {
    let mut e = started();
    e.send("ucinewgame");
    // The GUI sets the start position first: bare FENs continue a position it has set.
    e.send("position startpos");
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1",
        "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2",
        // Two plies at once: Ng1 and Ng8.
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4 3",
    ] {
        e.send(&format!("position fen {fen}"));
    }
    e.send("d");
    let lines = e.read_until(5 * SECOND, |l| l.starts_with("Moves played"));
    assert!(lines.iter().any(|l| l == "Occurrences: 2"), "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("Moves played: 4"));
    // Three plies away: a new history.
    e.send("position fen rnbqkbnr/pppppppp/8/8/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    e.send("d");
    let lines = e.read_until(5 * SECOND, |l| l.starts_with("Moves played"));
    assert!(lines.iter().any(|l| l == "Occurrences: 1"), "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("Moves played: 0"));
}

/// `d`'s occurrence count and number of moves played.
fn occurrences_and_moves(e: &mut Uci) -> (String, String) {
    e.send("d");
    let lines = e.read_until(5 * SECOND, |l| l.starts_with("Moves played"));
    let occurrences = lines
        .iter()
        .find(|l| l.starts_with("Occurrences"))
        .cloned()
        .unwrap_or_default();
    (occurrences, lines.last().cloned().unwrap_or_default())
}

#[test]
fn no_history_before_the_first_position_of_a_new_game() {
    // A game that began after 1.Nf3 Nf6 (a bare FEN is its first position) and shuffles the
    // knights back: the position after 1.Nf3 Nf6 has occurred twice, not three times.
    let first = "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2";
    let shuffle = [
        "rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 3 2",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4 3",
        "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 5 3",
        "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 6 4",
    ];
    for new_game in [false, true] {
        let mut e = started();
        if new_game {
            e.send("position startpos moves e2e4");
            e.send("ucinewgame");
        }
        e.send(&format!("position fen {first}"));
        assert_eq!(
            occurrences_and_moves(&mut e),
            ("Occurrences: 1".to_owned(), "Moves played: 0".to_owned()),
            "ucinewgame sent: {new_game}"
        );
        for fen in shuffle {
            e.send(&format!("position fen {fen}"));
        }
        assert_eq!(
            occurrences_and_moves(&mut e),
            ("Occurrences: 2".to_owned(), "Moves played: 4".to_owned())
        );
        let (strings, _) = search(&mut e, "isready", "go depth 1");
        assert!(
            !strings.iter().any(|s| s.contains("threefold")),
            "{strings:?}"
        );
    }
}

#[test]
fn nothing_can_be_claimed_once_the_game_has_ended() {
    // Stalemate with the halfmove clock at 100: the game is over, there is nothing to claim.
    let mut e = started();
    let (strings, mv) = search(
        &mut e,
        "position fen k7/2Q5/1K6/8/8/8/8/8 b - - 100 80",
        "go depth 1",
    );
    assert_eq!(mv, "0000");
    assert!(
        !strings.iter().any(|s| s.contains("claimed")),
        "{strings:?}"
    );
    // The same with a move left: the claim is there.
    let (strings, _) = search(
        &mut e,
        "position fen k7/8/1K6/8/8/8/8/2Q5 b - - 100 80",
        "go depth 1",
    );
    assert!(
        strings
            .iter()
            .any(|s| s.contains("fifty-move rule can be claimed now")),
        "{strings:?}"
    );
}

#[test]
fn a_game_played_on_past_its_end_reports_the_end_not_claims() {
    // Fivefold repetition at ply 16 (the clock reaches 100 there); then the GUI plays on.
    let moves = ["a1a2", "e8d8", "a2a1", "d8e8"].repeat(4).join(" ");
    let mut e = started();
    let (strings, _) = search(
        &mut e,
        &format!("position fen 4k3/8/8/8/8/8/8/R3K3 w - - 84 1 moves {moves} a1b1"),
        "go depth 1",
    );
    assert!(
        !strings.iter().any(|s| s.contains("claimed")),
        "{strings:?}"
    );
    assert!(
        strings
            .iter()
            .any(|s| s.contains("fivefold repetition") && s.contains("ply 16")),
        "{strings:?}"
    );
}

#[test]
fn a_forced_move_into_a_perpetual_shows_the_draw() {
    // Black's king is in check with one legal move (Kb8), and White then checks forever. A
    // forced move needs no thought, but a GUI graphs the score it reports: it must be the
    // perpetual's 0.00, not the +9.87 of Black's extra rook that a depth-1 search sees.
    let mut e = started();
    e.send("position fen k3r3/5pp1/Q4p2/3P3p/3K3P/6P1/3b1P2/3br3 b - - 11 48");
    e.send("go wtime 10000 btime 10000 winc 100 binc 100");
    let (lines, mv) = e.bestmove(30 * SECOND);
    assert_eq!(mv, "a8b8");
    let last = lines
        .iter()
        .rev()
        .find(|l| l.contains(" score "))
        .unwrap_or_else(|| panic!("no score reported: {lines:?}"));
    assert!(last.contains(" score cp 0 "), "{last}");
    assert!(!last.contains(" depth 1 "), "{last}");
}
