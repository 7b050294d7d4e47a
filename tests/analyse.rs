//! `threefold analyse`: verdicts on positions whose verdict is known from other analysis
//! (`tests/data/analyse-cases.jsonl`, built by `bench/suites/analyse_cases.py` from the perpetual
//! suite, judged by Stockfish 15.1 and Ethereal, and the arbiter's seed-game data), at a fixed
//! node budget; the seed games' acceptance points; mates as White sees them; the Immortal Draw
//! and forced draws held by deeper searches (`tests/data/analyse-games.pgn`); the annotated
//! PGN's structure.

use serde_json::Value;
use shakmaty::Position;
use threefold::analyse::read::{GameInput, parse_games};
use threefold::analyse::study::{GameAnalysis, MoveRange, VerdictKind, analyse_game};
use threefold::analyse::write;
use threefold::game::{parse_fen, parse_uci_move};
use threefold::search::{Limits, Searcher, Signals};

/// Nodes per position: a fraction of a second on one core.
const NODE_BUDGET: u64 = 60_000;

fn limits() -> Limits {
    let nodes = std::env::var("ANALYSE_NODES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(NODE_BUDGET);
    Limits {
        nodes: Some(nodes),
        ..Limits::default()
    }
}

fn cases() -> Vec<Value> {
    include_str!("data/analyse-cases.jsonl")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("a JSON case per line"))
        .collect()
}

/// The case as a game read from PGN would be, and the move number to analyse from (that of
/// the judged ply).
fn input(case: &Value) -> (GameInput, MoveRange) {
    let start = parse_fen(case["start_fen"].as_str().expect("start_fen")).expect("the case's FEN");
    let ply = case["ply"].as_u64().expect("ply") as usize;
    let mut pos = start.clone();
    let mut moves = Vec::new();
    let mut from = pos.fullmoves().get();
    for (i, text) in case["moves"].as_array().expect("moves").iter().enumerate() {
        if i + 1 == ply {
            from = pos.fullmoves().get();
        }
        let m = parse_uci_move(&pos, text.as_str().expect("move")).expect("legal case move");
        pos.play_unchecked(m);
        moves.push(m);
    }
    let game = GameInput {
        file: "case".to_owned(),
        index: 1,
        tags: vec![(
            "Event".to_owned(),
            case["id"].as_str().unwrap_or("?").to_owned(),
        )]
        .into(),
        start,
        moves,
        error: None,
        recorded: Default::default(),
    };
    (game, MoveRange { from, to: u32::MAX })
}

fn kinds_at(analysis: &GameAnalysis, ply: usize) -> Vec<VerdictKind> {
    analysis
        .verdicts
        .iter()
        .filter(|v| v.ply == ply)
        .map(|v| v.kind)
        .collect()
}

fn agrees(expect: &str, kinds: &[VerdictKind]) -> bool {
    use VerdictKind::*;
    match expect {
        "missed_perpetual" => kinds.contains(&MissedPerpetual),
        // The reference line was not all checks; the search may still find one that is.
        "missed_repetition" => {
            kinds.contains(&MissedRepetition) || kinds.contains(&MissedPerpetual)
        }
        "drawn_while_winning" => kinds.contains(&DrawnWhileWinning),
        "claim_available" => kinds.contains(&ClaimAvailable),
        "nothing" => !kinds
            .iter()
            .any(|k| matches!(k, MissedPerpetual | MissedRepetition | DrawnWhileWinning)),
        other => panic!("unknown expectation {other}"),
    }
}

/// Per expectation, the share of its cases that must agree at the node budget. Claims come
/// from the rules code: every one. A verdict on a case where the reference engine sees none is
/// a wrong verdict: at most one case in fifty (the king-and-pawn escape of
/// escaped-perpetual-039 needs depth 33 of this search). The verdicts themselves may be missed
/// at this budget where the reference engines saw them in seconds, within these floors; every
/// disagreement is printed. "Drawn while winning" needs the other moves to hold +1.50 when
/// searched again, and its six cases stand near that line: with the history bundle's search
/// 2 or 3 of them agree from one budget to the next (2 at 60,000 and 100,000 nodes, 3 at
/// 80,000 and 120,000), as 3 did before it, so the floor is two.
const FLOORS: [(&str, f64); 5] = [
    ("claim_available", 1.0),
    ("nothing", 0.98),
    ("missed_perpetual", 0.8),
    ("missed_repetition", 0.8),
    ("drawn_while_winning", 0.33),
];

#[test]
fn known_verdicts_are_found_at_a_fixed_node_budget() {
    let cases = cases();
    assert!(cases.len() >= 20, "the test set has {} cases", cases.len());
    let mut searcher = Searcher::new(16);
    let signals = Signals::default();
    // Per expectation: cases, agreements.
    let mut tally: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    for case in &cases {
        let (game, range) = input(case);
        let ply = case["ply"].as_u64().expect("ply") as usize;
        let analysis = analyse_game(game, &mut searcher, &limits(), range, &signals);
        let kinds = kinds_at(&analysis, ply);
        let expect = case["expect"].as_str().expect("expect");
        let ok = agrees(expect, &kinds);
        let entry = tally.entry(expect.to_owned()).or_default();
        entry.0 += 1;
        entry.1 += usize::from(ok);
        if !ok {
            eprintln!("{}: expected {expect}, got {kinds:?}", case["id"]);
        }
    }
    let mut short = Vec::new();
    for (expect, floor) in FLOORS {
        let &(n, agreed) = tally
            .get(expect)
            .unwrap_or_else(|| panic!("no {expect} case in the set"));
        let needed = (n as f64 * floor).ceil() as usize;
        eprintln!("{expect}: {agreed} of {n} agree, {needed} needed");
        if agreed < needed {
            short.push(format!("{expect}: {agreed} of {n} agree, {needed} needed"));
        }
    }
    assert!(short.is_empty(), "{short:#?}");
    assert_eq!(tally.len(), FLOORS.len(), "an expectation without a floor");
}

fn seed_game(event: &str) -> GameInput {
    let text = include_str!("data/seed-games.pgn");
    parse_games(text)
        .expect("the seed PGN reads")
        .into_iter()
        .find(|g| g.tags.get("Event") == Some(event))
        .expect("the seed game is there")
}

fn analyse(game: GameInput, from: u32) -> GameAnalysis {
    let mut searcher = Searcher::new(16);
    let range = MoveRange { from, to: u32::MAX };
    analyse_game(game, &mut searcher, &limits(), range, &Signals::default())
}

fn analysis_game(event: &str) -> GameInput {
    let text = include_str!("data/analyse-games.pgn");
    parse_games(text)
        .expect("the PGN reads")
        .into_iter()
        .find(|g| g.tags.get("Event") == Some(event))
        .expect("the game is there")
}

fn analyse_at(game: GameInput, range: MoveRange, nodes: u64) -> GameAnalysis {
    let mut searcher = Searcher::new(16);
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    analyse_game(game, &mut searcher, &limits, range, &Signals::default())
}

fn pgn_game(text: &str) -> GameInput {
    parse_games(text).expect("reads").pop().expect("one game")
}

/// The `score` of `which` ("before", "after") of ply `ply` (1 for the first) in the JSON, or
/// the played move's score for "played".
fn json_score(json: &Value, ply: usize, which: &str) -> Value {
    let record = &json["plies"][ply - 1];
    assert_eq!(record["ply"], ply, "{json}");
    match which {
        "played" => record["played_score"].clone(),
        side => record[side]["score"].clone(),
    }
}

#[test]
fn mates_are_counted_from_whites_side_for_either_mover_and_count_the_played_move() {
    let mate = |n: i64| serde_json::json!({ "mate": n });
    // Fool's mate: after 2.g4 Black mates with 2...Qh4#.
    let fools = analyse(
        pgn_game("[Event \"fools\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n"),
        1,
    );
    let json = write::json(&fools);
    assert_eq!(json_score(&json, 3, "after"), mate(-1));
    assert_eq!(json_score(&json, 4, "before"), mate(-1));
    assert_eq!(json_score(&json, 4, "played"), mate(-1));
    let pgn = write::pgn(&fools);
    assert!(pgn.contains("2. g4 $4 {[%eval #-1,"), "{pgn}");
    // Mates in 2 played where the search's first choice mates in 1: the played move's score
    // counts the move itself.
    let white = analyse(
        pgn_game(
            "[Event \"w\"]\n[FEN \"7k/8/6K1/8/8/8/8/5Q2 w - - 0 1\"]\n\n1. Qd1 Kg8 2. Qd8# 1-0\n",
        ),
        1,
    );
    let json = write::json(&white);
    assert_eq!(json_score(&json, 1, "before"), mate(1));
    assert_eq!(json_score(&json, 1, "played"), mate(2));
    // Black to move after 1.Qd1 and mated after White's next move: #1, as after 1...Kg8.
    assert_eq!(json_score(&json, 1, "after"), mate(1));
    assert_eq!(json_score(&json, 2, "after"), mate(1));
    assert_eq!(json_score(&json, 3, "played"), mate(1));
    let pgn = write::pgn(&white);
    assert!(pgn.contains("1. Qd1 {[%eval #1,"), "{pgn}");
    let black = analyse(
        pgn_game(
            "[Event \"b\"]\n[FEN \"5q2/8/8/8/8/6k1/8/7K b - - 0 1\"]\n\n1... Qd6 2. Kg1 Qd1# 0-1\n",
        ),
        1,
    );
    let json = write::json(&black);
    assert_eq!(json_score(&json, 1, "before"), mate(-1));
    assert_eq!(json_score(&json, 1, "played"), mate(-2));
    assert_eq!(json_score(&json, 1, "after"), mate(-1));
    assert_eq!(json_score(&json, 2, "after"), mate(-1));
    assert_eq!(json_score(&json, 3, "played"), mate(-1));
    let pgn = write::pgn(&black);
    assert!(pgn.contains("1... Qd6 {[%eval #-1,"), "{pgn}");
    assert!(pgn.contains("2. Kg1 {[%eval #-1,"), "{pgn}");
}

#[test]
fn the_immortal_draw_blames_no_move_for_the_draw_only_17_kb5_does_not_lose() {
    // Hamppe-Meitner 1872: after 16...Bb7+ 17.Kxb7 is mated, 17.Kb5 allows the perpetual. The
    // search before 17.Kb5 saw White +10 at these budgets (shallower than the one after it).
    for nodes in [30_000, 50_000, 60_000] {
        let range = MoveRange {
            from: 14,
            to: u32::MAX,
        };
        let analysis = analyse_at(analysis_game("hamppe_meitner_1872"), range, nodes);
        let blamed: Vec<&str> = analysis
            .verdicts
            .iter()
            .filter(|v| v.kind == VerdictKind::DrawnWhileWinning)
            .map(|v| v.text.as_str())
            .collect();
        assert!(blamed.is_empty(), "{nodes} nodes: {blamed:#?}");
        let forced = analysis
            .verdicts
            .iter()
            .find(|v| v.kind == VerdictKind::ForcedDraw)
            .unwrap_or_else(|| panic!("{nodes} nodes: no forced draw"));
        assert_eq!(forced.side, shakmaty::Color::Black, "{}", forced.text);
        assert!(forced.ply >= 32, "{}", forced.text);
    }
}

/// The analysis's walk again, with `nodes` a position: the positions of `game` since the last
/// irreversible move before the one after `plies` moves are searched in order with one hash
/// table, as the analysis searches a game; does the search of the last prove a draw? (The
/// walk matters: a draw whose checks return to the root's own positions needs the searches of
/// those positions before it, as the analysis had them. From an empty table, the middle of
/// the Immortal Draw's cycle takes any engine over a million nodes.)
fn deeper_draw(game: &GameInput, plies: &[shakmaty::Move], nodes: u64) -> bool {
    let mut g = threefold::game::Game::new(game.start.clone());
    for &m in plies {
        g.play(m);
    }
    let window = g.reversible_keys().len();
    let mut g = threefold::game::Game::new(game.start.clone());
    let mut searcher = Searcher::new(16);
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    for (i, &m) in plies.iter().enumerate() {
        if i + window > plies.len() {
            searcher.search(&g, &limits, &Signals::default(), &mut |_| {});
        }
        g.play(m);
    }
    let result = searcher.search(&g, &limits, &Signals::default(), &mut |_| {});
    result.draw.is_some() || g.automatic_end().is_some()
}

#[test]
fn a_forced_draw_holds_in_a_deeper_search_and_names_who_forces_it() {
    // Forced draws that are there (the Pirc perpetual, the Immortal Draw) and a balanced
    // middlegame of self-play whose search lines end in shuffling repetitions.
    let games = [
        (
            seed_game("pirc_austrian_perpetual"),
            MoveRange {
                from: 10,
                to: u32::MAX,
            },
        ),
        (
            analysis_game("hamppe_meitner_1872"),
            MoveRange {
                from: 15,
                to: u32::MAX,
            },
        ),
        (
            analysis_game("threefold_selfplay_8"),
            MoveRange { from: 1, to: 30 },
        ),
    ];
    let nodes = limits().nodes.unwrap_or(NODE_BUDGET);
    let mut checked = 0;
    for (game, range) in games {
        let analysis = analyse_at(game.clone(), range, nodes);
        for v in analysis
            .verdicts
            .iter()
            .filter(|v| v.kind == VerdictKind::ForcedDraw)
        {
            let (by, other) = match v.side {
                shakmaty::Color::White => ("White", "Black"),
                shakmaty::Color::Black => ("Black", "White"),
            };
            assert!(
                v.text.contains(&format!("{by} forces a draw"))
                    && v.text.contains(&format!("{other} cannot avoid it")),
                "{}",
                v.text
            );
            // Walked to again with 8 times the budget, the position and the one after the
            // line's first move both prove the draw.
            let mut plies = game.moves[..v.ply].to_vec();
            assert!(deeper_draw(&game, &plies, nodes * 8), "{}", v.text);
            plies.push(v.line[0]);
            assert!(deeper_draw(&game, &plies, nodes * 8), "{}", v.text);
            checked += 1;
        }
    }
    assert!(checked >= 2, "{checked} forced draws checked");
}

#[test]
fn the_pirc_perpetual_is_a_forced_draw_by_blacks_checks_where_it_arises() {
    // At the tests' budget and at the command's default. With more nodes the search sees the
    // draw a ply or two before the checks (10...Bxd4 or 11.Nxd8 to play): a forced draw by
    // repetition there, the defender still free to leave the checks, and the proven perpetual
    // check once they are forced.
    let budget = limits().nodes.unwrap_or(NODE_BUDGET);
    for nodes in [budget, threefold::analyse::command::DEFAULT_NODES] {
        let range = MoveRange {
            from: 10,
            to: u32::MAX,
        };
        let analysis = analyse_at(seed_game("pirc_austrian_perpetual"), range, nodes);
        the_pirc_checks_are_proven(&analysis, nodes);
    }
}

fn the_pirc_checks_are_proven(analysis: &GameAnalysis, nodes: u64) {
    // After 11.Nxd8 (ply 21) Black draws by 11...Bf2+ and the checks.
    let draws: Vec<_> = analysis
        .verdicts
        .iter()
        .filter(|v| v.kind == VerdictKind::ForcedDraw)
        .collect();
    let verdict = draws
        .iter()
        .find(|v| {
            v.text
                .contains("perpetual check (Black gives check on every move)")
        })
        .unwrap_or_else(|| panic!("{nodes} nodes: no forced draw by Black's checks: {draws:#?}"));
    assert_eq!(verdict.side, shakmaty::Color::Black);
    assert!(
        verdict.ply <= 21,
        "{nodes} nodes: it arises by 11.Nxd8, not at ply {}",
        verdict.ply
    );
    assert!(
        verdict.line_san.iter().any(|m| m == "Bf2+"),
        "{:?}",
        verdict.line_san
    );
    // Each forced draw says something the one a ply before did not.
    for pair in draws.windows(2) {
        let kind = |text: &str| text.split(':').nth(1).map(str::to_owned);
        assert!(
            pair[1].ply != pair[0].ply + 1 || kind(&pair[1].text) != kind(&pair[0].text),
            "{nodes} nodes: said twice: {pair:#?}"
        );
    }
    // The exact prover proves the checks a perpetual, and the verdict says so, with the
    // certificate in the JSON.
    let report = verdict.perpetual.as_ref().expect("the prover was asked");
    assert!(
        matches!(report.verdict, threefold::perpetual::Verdict::Proven(_)),
        "{report:?}"
    );
    assert!(
        verdict.text.contains("(proven: a strategy of"),
        "{}",
        verdict.text
    );
    let json = write::json(analysis);
    let certificate = json["verdicts"]
        .as_array()
        .expect("verdicts")
        .iter()
        .find(|v| v["kind"] == "forced_draw" && v["perpetual"]["result"] == "proven")
        .expect("a forced draw with its proof");
    assert!(
        certificate["perpetual"]["strategy"]
            .as_array()
            .is_some_and(|s| !s.is_empty())
    );
}

#[test]
fn portisch_korchnoi_shows_blacks_claim_by_announcing_qb5_after_bg2() {
    let analysis = analyse(seed_game("portisch_korchnoi_1970"), 25);
    let claim = analysis
        .verdicts
        .iter()
        .find(|v| v.kind == VerdictKind::ClaimAvailable && v.ply == 7)
        .expect("a claim after 25.Bg2 (ply 7 of the record)");
    assert_eq!(claim.side, shakmaty::Color::Black);
    assert_eq!(claim.line_san, vec!["Qb5".to_owned()]);
    assert!(
        claim.text.contains("by announcing 25...Qb5"),
        "{}",
        claim.text
    );
    // 25.Bg2 is drawn while winning exactly when the search has White +1.50 or better before it.
    let record = analysis
        .plies
        .iter()
        .find(|r| r.ply == 7)
        .expect("25.Bg2 analysed");
    let flagged = analysis
        .verdicts
        .iter()
        .any(|v| v.kind == VerdictKind::DrawnWhileWinning && v.ply == 7);
    assert!(
        !flagged
            || (record.before.score >= 150
                && record.before.draw.is_none()
                && record.before.best != Some(record.played)),
        "25.Bg2 flagged from {} with best {:?}",
        record.before.score,
        record.before.best
    );
}

#[test]
fn a_seed_game_with_its_perpetual_replaced_by_a_losing_move_is_a_missed_perpetual() {
    // The Pirc line up to 11.Nxd8, then 11...Kxd8 instead of the checks.
    let pgn = "[Event \"pirc_missed\"]\n\n1. e4 d6 2. d4 Nf6 3. Nc3 g6 4. f4 Bg7 5. Nf3 c5 6. Bb5+ Bd7 \
               7. e5 Ng4 8. e6 fxe6 9. Ng5 Bxb5 10. Nxe6 Bxd4 11. Nxd8 Kxd8 *\n";
    let game = parse_games(pgn).expect("reads").pop().expect("one game");
    let analysis = analyse(game, 11);
    let missed = analysis
        .verdicts
        .iter()
        .find(|v| v.kind == VerdictKind::MissedPerpetual)
        .expect("a missed perpetual");
    assert_eq!(missed.ply, 22);
    assert_eq!(missed.line_san.first().map(String::as_str), Some("Bf2+"));
    assert!(
        missed
            .text
            .contains("draws by perpetual check (proven: a strategy of"),
        "{}",
        missed.text
    );
}

#[test]
fn the_annotated_pgn_reads_back_with_its_tags_and_moves() {
    let original = seed_game("portisch_korchnoi_1970");
    let analysis = analyse(original.clone(), 24);
    let text = write::pgn(&analysis);
    let again = parse_games(&text)
        .expect("the annotated PGN reads")
        .pop()
        .expect("one game");
    assert_eq!(again.tags, original.tags);
    assert_eq!(again.moves, original.moves);
    assert!(again.error.is_none());
    // One [%eval] per analysed move, the lichess way.
    assert_eq!(
        text.matches("[%eval ").count(),
        analysis.plies.len(),
        "{text}"
    );
    let json = write::json(&analysis);
    assert_eq!(
        json["plies"].as_array().map(Vec::len),
        Some(analysis.plies.len())
    );
    assert!(
        json["verdicts"]
            .as_array()
            .is_some_and(|v| v.iter().any(|v| v["kind"] == "claim_available"))
    );
}

#[test]
fn an_illegal_move_stops_that_game_and_the_next_is_read() {
    let pgn = "[Event \"a\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n[Event \"b\"]\n\n1. d4 *\n";
    let games = parse_games(pgn).expect("reads");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].moves.len(), 2);
    assert!(
        games[0]
            .error
            .as_deref()
            .is_some_and(|e| e.contains("illegal move 'Ke3' at ply 3"))
    );
    assert_eq!(games[1].moves.len(), 1);
    assert!(games[1].error.is_none());
}

fn run_cli(args: &[&str], stdin: &str) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_threefold"))
        .arg("analyse")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("input written");
    child.wait_with_output().expect("it finishes")
}

#[test]
fn the_command_keeps_input_order_reports_bad_games_and_refuses_bad_options() {
    let pgn = "[Event \"first\"]\n\n1. e4 e5 2. Ke3 *\n\n[Event \"second\"]\n\n1. d4 d5 *\n\n\
               [Event \"third\"]\n\n1. c4 *\n";
    let out = run_cli(
        &["--nodes", "2000", "--threads", "2", "--json", "--quiet"],
        pgn,
    );
    assert_eq!(out.status.code(), Some(1), "an illegal move is an error");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let events: Vec<String> = stdout
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("one JSON object per line");
            v["tags"]["Event"].as_str().unwrap_or("?").to_owned()
        })
        .collect();
    assert_eq!(events, ["first", "second", "third"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("illegal move 'Ke3'"));
    // Read as the arbiter reads: input that is not PGN is refused (2), moves after a mate are
    // void, not illegal, and scoresheet spellings are taken.
    for junk in ["", "hello", "{only a comment}"] {
        let out = run_cli(&["--nodes", "200", "--quiet"], junk);
        assert_eq!(out.status.code(), Some(2), "{junk:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("PGN"),
            "{junk:?}"
        );
    }
    let out = run_cli(
        &["--nodes", "200", "--json", "--quiet"],
        "[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 3. Kf2 0-1\n\n1. e4 d5 2. ed5 Nf6 3. Nxc3 *\n",
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let plies: Vec<u64> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("one JSON object per line");
            assert!(v["error"].is_null(), "{l}");
            v["moves"].as_u64().unwrap_or(0)
        })
        .collect();
    assert_eq!(plies, [4, 5]);
    for bad in [
        &["--nodes", "0"][..],
        &["--nodes", "10", "--depth", "3"],
        &["--threads"],
        &["--bogus"],
        &["--from", "9", "--to", "3"],
    ] {
        let out = run_cli(bad, "");
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(out.stdout.is_empty(), "{bad:?}");
    }
}

#[test]
fn the_input_s_comments_clocks_nags_and_variations_survive_beside_the_engine_s() {
    let pgn = "[Event \"notes\"]\n[Result \"*\"]\n\n{Before the game} 1. e4 {[%clk 0:05:00]} e5 $1 \
               {[%eval 9.99] a plan} (1... c5 {Sicilian} 2. Nf3 (2. c3) d6) 2. Nf3 $10 Nc6 $2 *\n";
    let out = run_cli(&["--nodes", "2000", "--quiet"], pgn);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let games = threefold::record::read_text(&text).expect("the output reads back");
    let game = &games[0];
    assert_eq!(game.main.comments, ["Before the game"], "{text}");
    let moves = &game.main.moves;
    assert_eq!(moves.len(), 4, "{text}");
    // The clock and the plan stay, beside the engine's own eval; the input's eval is replaced.
    assert!(
        moves[0]
            .comments
            .iter()
            .any(|c| c.contains("[%clk 0:05:00]") && c.contains("[%eval ")),
        "{text}"
    );
    assert!(
        moves[1].comments.iter().any(|c| c.contains("a plan")),
        "{text}"
    );
    assert!(!text.contains("9.99"), "{text}");
    // NAGs: $10 stays; a move mark stays unless the engine marks the move.
    assert!(moves[2].nags.contains(&10), "{text}");
    assert!(moves[1].nags.contains(&1), "{text}");
    // The input's variation, with its comment and the variation inside it.
    let variation = moves[1]
        .variations
        .iter()
        .find(|v| v.moves.first().is_some_and(|m| m.written == "c5"))
        .unwrap_or_else(|| panic!("1...c5 kept: {text}"));
    assert_eq!(variation.moves.len(), 3, "{text}");
    assert_eq!(variation.moves[0].comments, ["Sicilian"], "{text}");
    assert_eq!(variation.moves[1].variations.len(), 1, "{text}");
}
