//! `threefold arbiter` on the seed games (tests/data/seed-games.pgn, written from the JSON by
//! bench/suites/seed_pgn.py) and on hand-made records.

use std::process::Command;

use threefold::arbiter::ClaimRule;
use threefold::arbiter::pgn::{GameRecord, judge_games};
use threefold::game::rules::AutomaticEnd;

fn judge(pgn: &str) -> Vec<GameRecord> {
    let mut games = Vec::new();
    judge_games(pgn.as_bytes(), |g| games.push(g)).expect("reads");
    games
}

fn seed(event: &str) -> GameRecord {
    judge(include_str!("data/seed-games.pgn"))
        .into_iter()
        .find(|g| g.tags.get("Event") == Some(event))
        .unwrap_or_else(|| panic!("no seed game {event}"))
}

#[test]
fn every_seed_game_is_read_without_error() {
    let games = judge(include_str!("data/seed-games.pgn"));
    assert_eq!(games.len(), 15);
    for g in &games {
        assert_eq!(g.verdict.error, None, "{:?}", g.tags.get("Event"));
    }
}

#[test]
fn fischer_petrosian_threefold_by_announcing_34_qe2() {
    let v = seed("fischer_petrosian_1971").verdict;
    assert_eq!(v.repetitions.len(), 1);
    let labels: Vec<&str> = v.repetitions[0].plies.iter().map(|&p| v.label(p)).collect();
    assert_eq!(labels, vec!["start", "32.Qe2", "34.Qe2"]);
    let white = v
        .claims
        .iter()
        .find(|c| c.side == shakmaty::Color::White)
        .expect("White can claim");
    assert_eq!(
        (white.ply, white.by_announcing_san.as_deref()),
        (7, Some("34.Qe2"))
    );
}

#[test]
fn pest_paris_fivefold_at_ply_52_and_later_moves_void() {
    let v = seed("pest_paris_1842").verdict;
    let end = v.automatic_end.expect("automatic end");
    assert_eq!((end.rule, end.ply), (AutomaticEnd::FivefoldRepetition, 52));
    assert_eq!(v.label(52), "26...Bc7");
    assert_eq!(v.void_moves(), 2);
    assert!(!v.result_consistent("1-0"));
    assert!(v.result_consistent("1/2-1/2"));
}

#[test]
fn karpov_miles_only_black_can_claim_by_announcing_ra4() {
    let v = seed("karpov_miles_1986").verdict;
    assert!(v.repetitions.is_empty(), "no position occurred three times");
    let threefold: Vec<_> = v
        .claims
        .iter()
        .filter(|c| c.rule == ClaimRule::Threefold)
        .collect();
    assert_eq!(threefold.len(), 1, "{threefold:?}");
    assert_eq!(threefold[0].side, shakmaty::Color::Black);
    assert_eq!(threefold[0].ply, 8, "after 26.Nb5");
    assert_eq!(threefold[0].by_announcing.as_deref(), Some("a8a4"));
    assert_eq!(threefold[0].by_announcing_san.as_deref(), Some("26...Ra4"));
}

#[test]
fn pinned_en_passant_repeats_free_en_passant_does_not() {
    let pinned = seed("ep_pinned_pawn").verdict;
    assert_eq!(pinned.repetitions.len(), 1);
    assert_eq!(
        pinned.repetitions[0].plies,
        vec![1, 5, 9],
        "the position after d2-d4 counts"
    );
    let free = seed("ep_free_pawn").verdict;
    assert!(
        free.repetitions.is_empty(),
        "after d2-d4 en passant was possible: a different position"
    );
}

#[test]
fn hamparia_li_fivefold_and_bongcloud_castling_rights() {
    let v = seed("hamparia_li_2018").verdict;
    let end = v.automatic_end.expect("fivefold");
    assert_eq!((end.rule, end.ply), (AutomaticEnd::FivefoldRepetition, 16));
    let bongcloud = seed("carlsen_nakamura_2021").verdict;
    assert_eq!(bongcloud.repetitions.len(), 1);
    assert_eq!(
        bongcloud.repetitions[0].plies,
        vec![4, 8, 12],
        "1...e5 (ply 2) had castling rights"
    );
}

#[test]
fn recorded_result_is_checked_against_checkmate() {
    let games = judge(
        "[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n",
    );
    let end = games[0].verdict.automatic_end.expect("mate");
    assert_eq!((end.rule, end.ply), (AutomaticEnd::Checkmate, 4));
    assert!(!games[0].verdict.result_consistent("1-0"));
    assert!(games[1].verdict.result_consistent("0-1"));
}

#[test]
fn seventy_five_moves_and_fifty_move_claims() {
    let pgn = "[FEN \"8/8/4k3/8/8/2K5/8/R7 w - - 97 100\"]\n[SetUp \"1\"]\n\n100. Ra2 Kd6 101. Ra3 Ke6 *\n";
    let v = &judge(pgn)[0].verdict;
    let fifty: Vec<_> = v
        .claims
        .iter()
        .filter(|c| c.rule == ClaimRule::FiftyMoves)
        .collect();
    // Black at ply 1 (clock 98) cannot; White at ply 2 (clock 99) by announcing; Black at ply 3 (clock 100) now.
    assert_eq!(fifty.len(), 2, "{fifty:?}");
    assert_eq!(
        (
            fifty[0].side,
            fifty[0].ply,
            fifty[0].by_announcing.is_some()
        ),
        (shakmaty::Color::White, 2, true)
    );
    assert_eq!(
        (
            fifty[1].side,
            fifty[1].ply,
            fifty[1].by_announcing.is_some()
        ),
        (shakmaty::Color::Black, 3, false)
    );
    let pgn = "[FEN \"8/8/4k3/8/8/2K5/8/R7 w - - 149 120\"]\n[SetUp \"1\"]\n\n120. Ra2 Kd6 *\n";
    let end = judge(pgn)[0].verdict.automatic_end.expect("75 moves");
    assert_eq!((end.rule, end.ply), (AutomaticEnd::SeventyFiveMoves, 1));
}

#[test]
fn an_illegal_move_stops_that_game_only() {
    let games = judge("1. e4 e5 2. Ke3 Ke7 *\n\n1. d4 d5 *\n");
    assert_eq!(games.len(), 2);
    let error = games[0].verdict.error.as_deref().expect("error");
    assert!(
        error.contains("'Ke3'") && error.contains("ply 3"),
        "{error}"
    );
    assert_eq!(games[0].verdict.plies, 2);
    assert_eq!(games[1].verdict.error, None);
    assert_eq!(games[1].verdict.plies, 2);
}

#[test]
fn the_command_line_writes_json_and_fails_on_errors() {
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_threefold"))
            .arg("arbiter")
            .args(args)
            .output()
            .expect("runs")
    };
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/seed-games.pgn");
    let out = run(&["--json", path]);
    // Some seed records go on after a fivefold, or carry "*" for a game the rules ended.
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    let objects: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect();
    assert_eq!(objects.len(), 15);
    for key in [
        "tags",
        "repetitions",
        "claims",
        "automatic_end",
        "result_consistent",
        "error",
    ] {
        assert!(objects[0].get(key).is_some(), "missing {key}");
    }
    let dir = std::env::temp_dir().join(format!("threefold-arbiter-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bad = dir.join("bad.pgn");
    std::fs::write(&bad, "1. e4 e5 2. Qxf7 *\n").expect("write");
    let out = run(&[bad.to_str().expect("utf-8 path")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("illegal move 'Qxf7'"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn same_placement_with_the_other_side_to_move_is_another_position() {
    // White triangulates (Ke1-d1-d2-e1) while Black shuffles (Ke8-d8): the placement with both
    // kings on their e-squares comes back with White and with Black to move, twice each.
    let pgn = "[FEN \"4k3/8/8/8/8/8/8/4K2R w - - 0 1\"]\n[SetUp \"1\"]\n\n\
               1. Kd1 Kd8 2. Kd2 Ke8 3. Ke1 Kd8 4. Kd1 Ke8 5. Kd2 Kd8 6. Ke1 Ke8 7. Kd1 Kd8 8. Kd2 Ke8 9. Ke1 *\n";
    let v = &judge(pgn)[0].verdict;
    assert_eq!(v.error, None);
    let placement = "4k3/8/8/8/8/8/8/4K2R";
    for r in &v.repetitions {
        assert!(
            !r.fen.starts_with(placement),
            "counted across sides to move: {r:?}"
        );
    }
}

#[test]
fn chess960_castling_and_repetitions() {
    let pgn = "[Variant \"Chess960\"]\n[FEN \"r3k2r/8/8/8/8/8/8/1R2K1R1 w GBha - 0 1\"]\n[SetUp \"1\"]\n\n\
               1. O-O O-O-O 2. Kg2 Rd7 3. Kg1 Rdd8 4. Kg2 Rd7 5. Kg1 Rdd8 *\n";
    let v = &judge(pgn)[0].verdict;
    assert_eq!(v.error, None);
    assert_eq!(v.plies, 10);
    assert_eq!(v.repetitions.len(), 1);
    assert_eq!(v.repetitions[0].plies, vec![2, 6, 10]);
}

#[test]
fn the_variant_names_guis_write_for_chess960() {
    for name in [
        "fischerandom",
        "Fischer Random",
        "FischerRandom",
        "chess960",
        "Chess 960",
        "960",
    ] {
        let pgn = format!(
            "[Variant \"{name}\"]\n[FEN \"r3k2r/8/8/8/8/8/8/1R2K1R1 w GBha - 0 1\"]\n[SetUp \"1\"]\n\n\
             1. O-O O-O-O 2. Kg2 Rd7 3. Kg1 Rdd8 4. Kg2 Rd7 5. Kg1 Rdd8 *\n"
        );
        let v = &judge(&pgn)[0].verdict;
        assert_eq!(v.error, None, "{name}");
        assert_eq!(v.plies, 10, "{name}");
    }
    // A variant that is not Chess960 stays standard chess (this FEN is then refused).
    let pgn = "[Variant \"Standard\"]\n[FEN \"r3k2r/8/8/8/8/8/8/1R2K1R1 w GBha - 0 1\"]\n[SetUp \"1\"]\n\n1. Kd2 *\n";
    assert!(judge(pgn)[0].verdict.error.is_some());
}

#[test]
fn a_fen_tag_with_impossible_castling_or_en_passant_rights_loses_them() {
    // White has no rooks for KQ; e6 has no black pawn behind it on e5.
    for fen in [
        "r3k2r/8/8/8/8/8/8/4K3 w KQkq - 0 1",
        "4k3/8/8/8/8/8/8/R3K3 w Q e6 0 1",
    ] {
        let pgn = format!("[FEN \"{fen}\"]\n[SetUp \"1\"]\n\n1. Kd2 *\n");
        let v = &judge(&pgn)[0].verdict;
        assert_eq!(v.error, None, "{fen}");
        assert_eq!(v.plies, 1, "{fen}");
    }
}

#[test]
fn nothing_can_be_claimed_once_the_game_has_ended() {
    let fifty = |v: &threefold::arbiter::Verdict| -> Vec<(shakmaty::Color, usize)> {
        v.claims
            .iter()
            .filter(|c| c.rule == ClaimRule::FiftyMoves)
            .map(|c| (c.side, c.ply))
            .collect()
    };
    // The 150th halfmove ends the game: Black, to move after it, cannot claim.
    let pgn = "[FEN \"8/8/4k3/8/8/2K5/8/R7 w - - 149 120\"]\n[SetUp \"1\"]\n\n120. Ra2 *\n";
    let v = &judge(pgn)[0].verdict;
    assert_eq!(fifty(v), vec![(shakmaty::Color::White, 0)]);
    // Stalemate on the 100th halfmove: no claim for Black.
    let pgn = "[FEN \"k7/8/1K6/8/8/8/8/2Q5 w - - 99 80\"]\n[SetUp \"1\"]\n\n80. Qc7 1/2-1/2\n";
    let v = &judge(pgn)[0].verdict;
    let end = v.automatic_end.expect("stalemate");
    assert_eq!((end.rule, end.ply), (AutomaticEnd::Stalemate, 1));
    assert_eq!(fifty(v), vec![(shakmaty::Color::White, 0)]);
    // The fivefold repetition arrives with the 100th halfmove: White cannot claim then.
    let pgn = "[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 84 1\"]\n[SetUp \"1\"]\n\n\
               1. Ra2 Kd8 2. Ra1 Ke8 3. Ra2 Kd8 4. Ra1 Ke8 5. Ra2 Kd8 6. Ra1 Ke8 \
               7. Ra2 Kd8 8. Ra1 Ke8 1/2-1/2\n";
    let v = &judge(pgn)[0].verdict;
    let end = v.automatic_end.expect("fivefold");
    assert_eq!((end.rule, end.ply), (AutomaticEnd::FivefoldRepetition, 16));
    assert_eq!(fifty(v), vec![(shakmaty::Color::Black, 15)]);
    assert!(v.claims.iter().all(|c| c.ply < 16), "{:?}", v.claims);
}

#[test]
fn stalemate_on_the_150th_halfmove_is_a_stalemate() {
    let pgn = "[FEN \"k7/8/1K6/8/8/8/8/2Q5 w - - 149 80\"]\n[SetUp \"1\"]\n\n80. Qc7 1/2-1/2\n";
    let end = judge(pgn)[0].verdict.automatic_end.expect("an end");
    assert_eq!((end.rule, end.ply), (AutomaticEnd::Stalemate, 1));
}

#[test]
fn each_record_names_its_file_and_its_number_there() {
    let dir = std::env::temp_dir().join(format!("threefold-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let a = dir.join("a.pgn");
    let b = dir.join("b.pgn");
    std::fs::write(&a, "1. e4 e5 *\n\n1. d4 d5 *\n").expect("write");
    std::fs::write(&b, "1. c4 c5 *\n").expect("write");
    let (a, b) = (
        a.to_str().expect("utf-8").to_owned(),
        b.to_str().expect("utf-8").to_owned(),
    );
    let out = Command::new(env!("CARGO_BIN_EXE_threefold"))
        .args(["arbiter", "--json", &a, &b])
        .output()
        .expect("runs");
    let records: Vec<(String, u64)> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("JSON");
            (
                v["file"].as_str().unwrap_or("none").to_owned(),
                v["game"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(
        records,
        vec![(a.clone(), 1), (a.clone(), 2), (b.clone(), 1)]
    );
    let out = Command::new(env!("CARGO_BIN_EXE_threefold"))
        .args(["arbiter", &a, &b])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(&format!("Game 2 of {a}")), "{text}");
    assert!(text.contains(&format!("Game 1 of {b}")), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// What the rulebook on a whole [`Game`] (`game/rules.rs`) says about a game, ply by ply, in
/// the judge's terms: each side's first claim under each rule (ply, announced move), the first
/// automatic end (rule, ply, loser) and the plies of every position seen three or more times.
type Facts = (
    Vec<(ClaimRule, shakmaty::Color, usize, Option<String>)>,
    Option<(AutomaticEnd, usize, Option<shakmaty::Color>)>,
    Vec<Vec<usize>>,
);

fn by_the_rules(start: &shakmaty::Chess, moves: &[shakmaty::Move]) -> Facts {
    use shakmaty::Position;
    let mode = shakmaty::CastlingMode::Standard;
    let mut game = threefold::game::Game::new(start.clone());
    let mut claims = Vec::new();
    let mut end = None;
    for ply in 0..=moves.len() {
        if end.is_none() {
            if let Some(rule) = game.automatic_end() {
                let loser = (rule == AutomaticEnd::Checkmate).then(|| game.position().turn());
                end = Some((rule, ply, loser));
            } else {
                let side = game.position().turn();
                let found = game.claims();
                let first = |now: bool, by: &[shakmaty::Move]| {
                    if now {
                        Some(None)
                    } else {
                        by.first().map(|m| Some(m.to_uci(mode).to_string()))
                    }
                };
                for (rule, claim) in [
                    (
                        ClaimRule::Threefold,
                        first(found.threefold_now, &found.threefold_by_moves),
                    ),
                    (
                        ClaimRule::FiftyMoves,
                        first(found.fifty_now, &found.fifty_by_moves),
                    ),
                ] {
                    let known = claims.iter().any(
                        |&(r, s, _, _): &(ClaimRule, shakmaty::Color, usize, Option<String>)| {
                            r == rule && s == side
                        },
                    );
                    if let (false, Some(by)) = (known, claim) {
                        claims.push((rule, side, ply, by));
                    }
                }
            }
        }
        if let Some(&m) = moves.get(ply) {
            game.play(m);
        }
    }
    let counts = game.occurrence_counts();
    let mut repetitions: Vec<Vec<usize>> = Vec::new();
    for (ply, &key) in game.keys().iter().enumerate() {
        if counts[ply] == 1 {
            let plies: Vec<usize> = (ply..game.keys().len())
                .filter(|&p| game.keys()[p] == key)
                .collect();
            if plies.len() >= 3 {
                repetitions.push(plies);
            }
        }
    }
    (claims, end, repetitions)
}

/// The same facts from the streaming judge.
fn by_the_judge(start: &shakmaty::Chess, moves: &[shakmaty::Move]) -> Facts {
    let mut judge = threefold::arbiter::Judge::new(start.clone(), shakmaty::CastlingMode::Standard);
    for &m in moves {
        let san = shakmaty::san::SanPlus::from_move(judge.position().clone(), m).to_string();
        judge.play(m, &san);
    }
    let v = judge.finish();
    let mut claims: Vec<_> = v
        .claims
        .iter()
        .map(|c| (c.rule, c.side, c.ply, c.by_announcing.clone()))
        .collect();
    claims.sort_by_key(|c| c.2);
    let end = v.automatic_end.map(|e| (e.rule, e.ply, e.loser));
    let mut repetitions: Vec<Vec<usize>> = v.repetitions.iter().map(|r| r.plies.clone()).collect();
    repetitions.sort();
    (claims, end, repetitions)
}

/// Start positions for the random games: the opening, sparse endings with the move clock near
/// 100 and 150, mating material, and en passant next to pinned pawns.
const RULEBOOK_STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "4k3/8/8/8/8/8/8/R3K2R w KQ - 90 60",
    "2r1k3/8/8/8/8/8/8/4K1R1 w - - 140 90",
    "4k3/8/3n4/8/8/4B3/8/4K3 w - - 95 70",
    "7k/8/8/8/8/8/8/1Q2K3 w - - 96 80",
    "k7/8/1K6/8/8/8/8/2Q5 w - - 97 80",
    "8/8/8/8/4k3/8/4P3/4K3 w - - 0 1",
    "4k3/3p4/8/4P3/8/8/8/4K2r w - - 0 1",
    "4r1k1/3p4/8/4P3/8/8/8/4K3 b - - 0 1",
    "8/8/8/K2p3r/8/8/4P3/7k w - - 0 1",
    "4k3/8/8/8/3p4/8/2P5/1B2K2q w - - 0 1",
];

/// A random game from one of [`RULEBOOK_STARTS`]: each choice either takes back the side's own
/// last move (so positions recur) or picks a legal move; it goes on past fivefolds and the
/// seventy-five-move rule, and stops only when no move is legal.
fn random_game(start: usize, choices: &[u16]) -> (shakmaty::Chess, Vec<shakmaty::Move>) {
    use shakmaty::Position;
    let fen = RULEBOOK_STARTS[start % RULEBOOK_STARTS.len()];
    let start = threefold::game::parse_fen(fen).expect("test FEN");
    let mut pos = start.clone();
    let mut moves: Vec<shakmaty::Move> = Vec::new();
    for &choice in choices {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let back = moves
            .len()
            .checked_sub(2)
            .map(|i| moves[i])
            .and_then(|m| m.from().map(|from| (from, m.to())))
            .and_then(|(from, to)| {
                legal
                    .iter()
                    .find(|l| l.from() == Some(to) && l.to() == from)
            });
        let m = match back {
            Some(&m) if choice % 4 != 0 => m,
            _ => legal[usize::from(choice) % legal.len()],
        };
        pos.play_unchecked(m);
        moves.push(m);
    }
    (start, moves)
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    /// One rulebook: the judge, which follows a game as a stream, and the rules on a whole game
    /// name the same claims (ply and announced move), automatic end and repetitions.
    #[test]
    fn the_judge_and_the_rules_agree_on_random_games(
        start in 0..RULEBOOK_STARTS.len(),
        choices in proptest::collection::vec(proptest::prelude::any::<u16>(), 0..260),
    ) {
        let (start, moves) = random_game(start, &choices);
        proptest::prop_assert_eq!(by_the_judge(&start, &moves), by_the_rules(&start, &moves));
    }
}

#[test]
fn the_judge_and_the_rules_agree_on_the_seed_games() {
    let cases: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(include_str!("data/seed-games.json")).expect("seed JSON");
    assert!(cases.len() >= 15);
    for (name, case) in &cases {
        let start = threefold::game::parse_fen(case["fen"].as_str().expect("fen")).expect("FEN");
        let mut game = threefold::game::Game::new(start.clone());
        for m in case["moves"].as_array().expect("moves") {
            game.play_uci(m.as_str().expect("text")).expect("legal");
        }
        let facts = by_the_judge(&start, game.moves());
        assert_eq!(facts, by_the_rules(&start, game.moves()), "{name}");
    }
}

/// Runs `threefold arbiter ARGS` with `stdin` as its input: exit code, stdout, stderr.
fn arbiter(args: &[&str], stdin: &[u8]) -> (Option<i32>, String, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_threefold"))
        .arg("arbiter")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    // A usage error exits before reading its input: a broken pipe is no failure here.
    let _ = child.stdin.take().expect("stdin").write_all(stdin);
    let out = child.wait_with_output().expect("finishes");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn moves_after_checkmate_are_void_and_the_result_is_checked() {
    let games = judge("[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 3. Kf2 Qxf2 1-0\n");
    let v = &games[0].verdict;
    assert_eq!(v.error, None, "moves after the mate are void, not illegal");
    let end = v.automatic_end.expect("mate");
    assert_eq!(
        (end.rule, end.ply, end.loser),
        (AutomaticEnd::Checkmate, 4, Some(shakmaty::Color::White))
    );
    assert_eq!((v.plies, v.void_moves()), (6, 2));
    assert_eq!((v.label(5), v.label(6)), ("3.Kf2", "3...Qxf2"));
    assert!(!v.result_consistent("1-0"));
    assert!(v.result_consistent("0-1"));
    let (code, out, _) = arbiter(&[], b"[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 3. Kf2 1-0\n");
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("checkmate at ply 4"), "{out}");
    assert!(out.contains("the recorded move after it is void"), "{out}");
    assert!(
        out.contains("NOT consistent with the automatic end, which gives 0-1"),
        "{out}"
    );
}

#[test]
fn moves_after_stalemate_are_void_and_a_win_is_inconsistent() {
    let pgn = "[FEN \"k7/8/1K6/8/8/8/8/2Q5 w - - 0 80\"]\n[SetUp \"1\"]\n[Result \"1-0\"]\n\n\
               80. Qc7 Ka7 81. Qb7# 1-0\n";
    let v = &judge(pgn)[0].verdict;
    assert_eq!(v.error, None);
    let end = v.automatic_end.expect("stalemate");
    assert_eq!((end.rule, end.ply), (AutomaticEnd::Stalemate, 1));
    assert_eq!((v.plies, v.void_moves()), (3, 2));
    assert_eq!(v.label(2), "80...Ka7");
    assert!(!v.result_consistent("1-0"));
    assert!(v.result_consistent("1/2-1/2"));
}

#[test]
fn a_mate_recorded_as_a_draw_is_flagged() {
    let pgn = "[Result \"1/2-1/2\"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2\n";
    let (code, out, _) = arbiter(&["--json"], pgn.as_bytes());
    assert_eq!(code, Some(1));
    let v: serde_json::Value =
        serde_json::from_str(out.lines().next().expect("a line")).expect("JSON");
    assert_eq!(v["result_consistent"], false);
    assert_eq!(v["void_moves"], 0);
    let pgn = "[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
    let (code, out, err) = arbiter(&["--json"], pgn.as_bytes());
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("\"result_consistent\":true"), "{out}");
}

#[test]
fn input_that_is_not_pgn_is_an_error() {
    for junk in [
        &b"hello world, this is no chess game"[..],
        b"",
        b"{only a comment}",
        b"\x7fELF\x02\x01\x01\x00\x00\x00\x00",
        // Binary data holding a result byte is not a game without moves.
        b"\x7fELF\x02\x00*\x00\x01\n\x00",
    ] {
        let (code, out, err) = arbiter(&["--json"], junk);
        assert_eq!(code, Some(2), "{junk:?}: {out}{err}");
        assert!(out.is_empty(), "no made-up game for {junk:?}: {out}");
        assert!(err.contains("PGN"), "{err}");
    }
    // A result alone is an (empty) game.
    let (code, out, _) = arbiter(&["--json"], b"*\n");
    assert_eq!(code, Some(0));
    assert_eq!(out.lines().count(), 1);
}

#[test]
fn exit_codes_tell_usage_and_input_errors_from_findings_from_clean() {
    let clean = b"[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n";
    assert_eq!(arbiter(&[], clean).0, Some(0));
    // A threefold repetition is a finding but not a fault.
    let repetition = b"1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2\n";
    let (code, out, _) = arbiter(&[], repetition);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("position seen 3 times"), "{out}");
    assert_eq!(arbiter(&[], b"1. e4 e5 2. Ke3 *\n").0, Some(1));
    assert_eq!(arbiter(&["--jason"], clean).0, Some(2));
    assert_eq!(arbiter(&["/nonexistent/games.pgn"], clean).0, Some(2));
    for help in ["--help", "-h"] {
        let (code, out, _) = arbiter(&[help], b"");
        assert_eq!(code, Some(0));
        assert!(
            out.contains("Usage: threefold arbiter") && out.contains("Exit status"),
            "{out}"
        );
    }
}

#[test]
fn scoresheet_spellings_are_read_as_python_chess_reads_them() {
    // 2.ed5 and 2...Qd5 capture without an x, 3.Nxc3 has a false one (3.Nc3 is quiet), 5.e8Q
    // promotes without '=' (python-chess reads them all), and a move is written square to
    // square with a hyphen.
    let pgn = "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 Kd7 2. e5 Kc6 3. e6 Kd6 4. e7 Kd7 \
               5. e8Q+ Kxe8 6. Ke1-e2 *\n\n\
               1. e4 d5 2. ed5 Qd5 3. Nxc3 Qa5 4. Nf3 *\n";
    let games = judge(pgn);
    assert_eq!(games.len(), 2);
    for (game, plies) in games.iter().zip([11, 7]) {
        assert_eq!(game.verdict.error, None, "{:?}", game.verdict.move_labels);
        assert_eq!(game.verdict.plies, plies);
    }
    assert_eq!(games[0].verdict.label(9), "5.e8=Q+");
    // A move that names no legal move, however it is spelled, still stops the game.
    let games = judge("1. e4 e5 2. Qxd5 *\n");
    assert!(
        games[0]
            .verdict
            .error
            .as_deref()
            .is_some_and(|e| e.contains("'Qxd5' at ply 3"))
    );
}

#[test]
fn claims_are_listed_in_the_order_of_the_game() {
    // Black can claim first (at ply 7, announcing 4...Ng8), White only at ply 10: Black's
    // claim is listed first.
    let pgn = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Nc6 5. Nf3 Nb8 6. Ng1 Nc6 7. Nf3 Nb8 \
               8. Ng1 Nc6 9. Nf3 *\n";
    let (_, out, _) = arbiter(&[], pgn.as_bytes());
    let plies: Vec<usize> = out
        .lines()
        .filter(|l| l.contains(" claim: "))
        .map(|l| {
            let at = l.split(" at ply ").nth(1).expect("a ply");
            at.split(|c: char| !c.is_ascii_digit())
                .next()
                .and_then(|n| n.parse().ok())
                .expect("a number")
        })
        .collect();
    assert!(plies.len() >= 2, "{out}");
    assert!(plies.windows(2).all(|w| w[0] <= w[1]), "{out}");
    let first = out
        .lines()
        .find(|l| l.contains(" claim: "))
        .unwrap_or_default();
    assert!(first.contains("Black"), "{out}");
}

#[test]
fn summary_line_and_only_findings() {
    let pgn = "[Event \"quiet\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n\
               [Event \"shuffle\"]\n[Result \"1/2-1/2\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2\n\n\
               [Event \"mate\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n\n\
               [Event \"bad\"]\n\n1. e4 e5 2. Ke3 *\n";
    let (code, out, _) = arbiter(&[], pgn.as_bytes());
    assert_eq!(code, Some(1));
    assert_eq!(
        out.lines().last(),
        Some(
            "summary: 4 games, 3 with findings, 1 with a result or moves the rules contradict, 1 with errors"
        )
    );
    let (_, out, _) = arbiter(&[], b"1. e4 *\n");
    assert!(out.contains("summary: 1 game, "), "{out}");
    let (_, out, _) = arbiter(&["--only-findings"], pgn.as_bytes());
    assert!(!out.contains("(quiet"), "{out}");
    for event in ["(shuffle", "(mate", "(bad"] {
        assert!(out.contains(event), "{event}: {out}");
    }
    let (_, out, err) = arbiter(&["--only-findings", "--json"], pgn.as_bytes());
    assert_eq!(out.lines().count(), 3, "{out}");
    assert!(err.contains("summary: 4 games"), "{err}");
}

#[test]
fn site_date_and_round_are_printed_beside_the_players() {
    let pgn = "[Event \"Candidates\"]\n[Site \"Madrid ESP\"]\n[Date \"2022.06.17\"]\n[Round \"1.2\"]\n\
               [White \"Nepo\"]\n[Black \"Ding\"]\n[Result \"*\"]\n\n1. e4 *\n";
    let (_, out, _) = arbiter(&[], pgn.as_bytes());
    assert!(
        out.contains("Nepo - Ding (Candidates, Madrid ESP, 2022.06.17, round 1.2)"),
        "{out}"
    );
    let (_, out, _) = arbiter(&["--json"], pgn.as_bytes());
    let v: serde_json::Value =
        serde_json::from_str(out.lines().next().expect("line")).expect("JSON");
    assert_eq!(
        (&v["tags"]["Site"], &v["tags"]["Date"], &v["tags"]["Round"]),
        (
            &serde_json::json!("Madrid ESP"),
            &serde_json::json!("2022.06.17"),
            &serde_json::json!("1.2")
        )
    );
}
