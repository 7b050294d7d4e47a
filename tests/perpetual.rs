//! `threefold perpetual` and the prover behind it: known perpetual checks proven (the Pirc
//! line, the proof suite's cycles), known escapes refuted, every certificate checked here by a
//! verifier of its own (shakmaty's move generator, nothing of the prover's), random endings
//! whose proofs a brute-force search cannot break, and bad input refused with status 2.
//! (CI also checks the suite's certificates with python-chess: bench/ci/perpetual_check.py.)

mod common;

use std::collections::{HashMap, HashSet};

use shakmaty::{Chess, Color, Move, Position};
use threefold::game::{Game, parse_fen, parse_uci_move};
use threefold::perpetual::{Budget, Proof, Refutation, Verdict, prove};
use threefold::record::read::read_text;

/// The attacker's legal checks in `pos`, found by playing every legal move.
fn checks(pos: &Chess) -> Vec<Move> {
    pos.legal_moves()
        .into_iter()
        .filter(|&m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            after.is_check()
        })
        .collect()
}

fn after(pos: &Chess, moves: &[Move]) -> Chess {
    let mut pos = pos.clone();
    for &m in moves {
        assert!(pos.is_legal(m), "{m}");
        pos.play_unchecked(m);
    }
    pos
}

/// The proof holds: each check legal and a check, every reply into the strategy (or mate),
/// the start covered.
fn verify_proof(start: &Chess, attacker: Color, proof: &Proof) -> Result<(), String> {
    let strategy: HashMap<Chess, Move> = proof.strategy.iter().cloned().collect();
    if start.turn() == attacker {
        if !strategy.contains_key(start) {
            return Err("the start is not in the strategy".into());
        }
    } else {
        for m in start.legal_moves() {
            if !strategy.contains_key(&after(start, &[m])) {
                return Err(format!("the defender's {m} at the start leads out"));
            }
        }
    }
    for (pos, &check) in &strategy {
        if pos.turn() != attacker || !checks(pos).contains(&check) {
            return Err(format!("{check} is no check of the attacker's"));
        }
        let after_check = after(pos, &[check]);
        for reply in after_check.legal_moves() {
            if !strategy.contains_key(&after(&after_check, &[reply])) {
                return Err(format!("{check} {reply} leads out of the strategy"));
            }
        }
    }
    Ok(())
}

/// The refutation holds: every check of each listed position answered legally into a listed
/// position, no cycle, the start covered.
fn verify_refutation(start: &Chess, attacker: Color, r: &Refutation) -> Result<(), String> {
    let listed: HashMap<Chess, Vec<(Move, Move)>> = r.positions.iter().cloned().collect();
    let first = match (start.turn() == attacker, r.first_reply) {
        (true, _) => start.clone(),
        (false, Some(m)) if start.is_legal(m) => after(start, &[m]),
        _ => return Err("no legal first reply".into()),
    };
    if !listed.contains_key(&first) {
        return Err("the first position is not listed".into());
    }
    let mut edges: HashMap<&Chess, Vec<Chess>> = HashMap::new();
    for (pos, pairs) in &listed {
        let answered: HashSet<Move> = pairs.iter().map(|p| p.0).collect();
        let all: HashSet<Move> = checks(pos).into_iter().collect();
        if answered != all || answered.len() != pairs.len() {
            return Err("the checks are not answered one each".into());
        }
        for &(check, reply) in pairs {
            let after_check = after(pos, &[check]);
            if !after_check.is_legal(reply) {
                return Err(format!("{check} {reply}: not legal"));
            }
            let next = after(&after_check, &[reply]);
            if !listed.contains_key(&next) {
                return Err(format!("{check} {reply} leads to a position not listed"));
            }
            edges.entry(pos).or_default().push(next);
        }
    }
    // No cycle: repeatedly drop the positions with no edge left to an undropped one.
    let mut left: HashSet<&Chess> = listed.keys().collect();
    loop {
        let sinks: Vec<&Chess> = left
            .iter()
            .copied()
            .filter(|p| {
                edges
                    .get(p)
                    .is_none_or(|next| next.iter().all(|n| !left.contains(n)))
            })
            .collect();
        if sinks.is_empty() {
            break;
        }
        for s in sinks {
            left.remove(s);
        }
    }
    if left.is_empty() {
        Ok(())
    } else {
        Err(format!("a cycle among {} positions", left.len()))
    }
}

/// Proves and verifies whatever comes out; the verdict.
fn judged(game: &Game, attacker: Color, nodes: u64) -> Verdict {
    let report = prove(game, attacker, Budget::nodes(nodes)).expect("a question");
    let start = game.position();
    match &report.verdict {
        Verdict::Proven(p) => verify_proof(start, attacker, p).expect("the proof holds"),
        Verdict::Refuted(r) => verify_refutation(start, attacker, r).expect("it holds"),
        Verdict::Unknown => {}
    }
    report.verdict
}

fn fen_game(fen: &str) -> Game {
    Game::new(parse_fen(fen).expect("test FEN"))
}

#[test]
fn the_pirc_perpetual_is_proven_from_the_first_check() {
    let text = include_str!("data/seed-games.pgn");
    let record = read_text(text)
        .expect("reads")
        .into_iter()
        .find(|g| g.tags.get("Event") == Some("pirc_austrian_perpetual"))
        .expect("the Pirc game");
    // After 11.Nxd8 (ply 21) Black checks with the bishop for ever.
    let mut game = Game::new(record.start.clone());
    for m in &record.main.moves[..21] {
        game.play(m.mv);
    }
    let Verdict::Proven(proof) = judged(&game, Color::Black, 100_000) else {
        panic!("the Pirc perpetual is not proven");
    };
    assert_eq!(
        proof.main_line.first().map(|m| m.to().to_string()),
        Some("f2".to_owned()),
        "{proof:?}"
    );
    // White to move at ply 22 (after 11...Bf2+): White is the defender, every reply is in.
    game.play(record.main.moves[21].mv);
    assert!(matches!(
        judged(&game, Color::Black, 100_000),
        Verdict::Proven(_)
    ));
}

/// Proof-suite perpetual checks (`bench/data/perpetuals.jsonl`), each with its attacker.
const PERPETUALS: [(&str, Color); 6] = [
    (
        "r3qr1k/p1p1b3/4pnQp/3p4/8/2NB4/PPP2PPP/R5K1 w - - 1 17",
        Color::White,
    ),
    (
        "6Q1/pp6/8/8/1kp2N2/1n2R1P1/3r4/1K6 b - - 0 50",
        Color::Black,
    ),
    (
        "3Q2k1/pp3r1p/6pP/8/3NP3/2p5/2br2PK/4q3 b - - 3 41",
        Color::White,
    ),
    (
        "1bQ5/5k1p/2p2rqB/8/p2pp3/P7/2P2PPP/6K1 w - - 2 31",
        Color::White,
    ),
    ("6k1/6p1/8/7Q/8/1P6/PPqr4/K7 w - - 0 1", Color::White),
    ("3k4/8/8/8/8/8/8/Q3K3 w - - 0 1", Color::White),
];

#[test]
fn known_perpetual_checks_are_proven_and_their_certificates_hold() {
    for (fen, attacker) in PERPETUALS {
        let verdict = judged(&fen_game(fen), attacker, 200_000);
        assert!(matches!(verdict, Verdict::Proven(_)), "{fen}: {verdict:?}");
    }
}

#[test]
fn checks_that_an_interposition_or_a_king_walk_ends_are_refuted() {
    for (fen, attacker, why) in [
        // Qxg7+ Kxg7 and nothing checks; every other check is walked out of.
        (
            "6k1/5pp1/7p/8/8/8/8/Q5K1 w - - 0 1",
            Color::White,
            "king walk",
        ),
        // The rook checks once; the bishop's interposition on b8 ends it.
        (
            "k7/2b5/8/8/8/8/8/1R4K1 w - - 0 1",
            Color::White,
            "interposition",
        ),
        // In check from the bishop, White cannot escape with a check.
        ("4k3/8/8/8/8/8/3b4/R3K3 w - - 0 1", Color::White, "in check"),
        // A repetition of quiet king moves is no perpetual check.
        (
            "8/8/1p1k4/1P6/1P2K3/8/8/8 b - - 2 131",
            Color::Black,
            "quiet",
        ),
    ] {
        let verdict = judged(&fen_game(fen), attacker, 200_000);
        assert!(matches!(verdict, Verdict::Refuted(_)), "{why}: {verdict:?}");
    }
}

#[test]
fn queens_checking_a_king_with_room_are_settled_within_a_small_budget() {
    // The proof suite's hardest cases: a queen checks from many squares, the king has room,
    // and the defender has material to interpose. Each was past 200,000 positions (the first
    // two past 2,000,000) while the prover searched lines depth first.
    for (fen, attacker, proven, nodes) in [
        // The king walks between the f- and h-files; the queen follows it from d4 and a4.
        (
            "8/8/P6Q/5k2/3q4/8/KP5P/8 b - - 0 64",
            Color::Black,
            true,
            10_000,
        ),
        (
            "8/8/P6Q/5k2/q7/8/1P5P/1K6 b - - 2 65",
            Color::Black,
            true,
            10_000,
        ),
        // A game's closing repetition of checks, which the defender could have left.
        (
            "r1b3Q1/ppp1k3/8/4n1r1/3N4/2P2Bn1/PP1q4/R3R1K1 w - - 5 28",
            Color::White,
            false,
            50_000,
        ),
        (
            "1r4k1/p4ppp/Q1p5/2Pp1Pq1/P2P4/6b1/5R1P/4R1K1 w - - 0 29",
            Color::Black,
            false,
            50_000,
        ),
    ] {
        let verdict = judged(&fen_game(fen), attacker, nodes);
        match verdict {
            Verdict::Proven(_) if proven => {}
            Verdict::Refuted(_) if !proven => {}
            _ => panic!("{fen}: {verdict:?}"),
        }
    }
}

#[test]
fn a_check_that_mates_is_as_good_as_a_perpetual() {
    // Qa8 mates: a strategy of one position, no cycle.
    let game = fen_game("6k1/5ppp/8/8/8/8/8/Q5K1 w - - 0 1");
    let Verdict::Proven(p) = judged(&game, Color::White, 1_000) else {
        panic!("a mate in one is refuted?");
    };
    assert_eq!(p.strategy.len(), 1);
    assert_eq!(p.longest_cycle, Some(0));
}

/// A tiny deterministic generator (xorshift), so the property test repeats.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random legal position: both kings, a white piece and one or two more (minor pieces and
/// pawns, mostly Black's), White to move and not in check.
fn random_position(rng: &mut Rng) -> Option<Chess> {
    let extras = ['p', 'p', 'n', 'b', 'P', 'N'];
    let mut board = ['.'; 64];
    let place = |c: char, rng: &mut Rng, board: &mut [char; 64]| loop {
        let sq = rng.below(64) as usize;
        let rank = sq / 8;
        if board[sq] == '.' && !(c.eq_ignore_ascii_case(&'p') && (rank == 0 || rank == 7)) {
            board[sq] = c;
            break;
        }
    };
    place('K', rng, &mut board);
    place('k', rng, &mut board);
    let attackers = ['Q', 'Q', 'Q', 'R', 'B'];
    place(attackers[rng.below(5) as usize], rng, &mut board);
    for _ in 0..1 + rng.below(2) {
        let c = extras[rng.below(extras.len() as u64) as usize];
        place(c, rng, &mut board);
    }
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                '.' => empty += 1,
                c => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(c);
                }
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen.push_str(" w - - 0 1");
    let pos = parse_fen(&fen).ok()?;
    (!pos.is_check() && !pos.legal_moves().is_empty()).then_some(pos)
}

/// Brute force: can the defender, within `moves` attacker moves, reach a position where the
/// attacker has no check (mated counts as no check)? No memory, no cycles: plain search.
fn defender_escapes(pos: &Chess, moves: u32) -> bool {
    if moves == 0 {
        return false;
    }
    let checks = checks(pos);
    if checks.is_empty() {
        return true;
    }
    checks.iter().all(|&c| {
        let after_check = after(pos, &[c]);
        let replies = after_check.legal_moves();
        // A check that mates cannot be escaped.
        !replies.is_empty()
            && replies
                .iter()
                .any(|&r| defender_escapes(&after(&after_check, &[r]), moves - 1))
    })
}

#[test]
fn random_endings_proofs_resist_brute_force_and_every_certificate_holds() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut proven, mut refuted, mut tried) = (0, 0, 0);
    while tried < 60 {
        let Some(pos) = random_position(&mut rng) else {
            continue;
        };
        tried += 1;
        let game = Game::new(pos.clone());
        // `judged` verifies every certificate.
        match judged(&game, Color::White, 20_000) {
            Verdict::Proven(_) => {
                proven += 1;
                assert!(!defender_escapes(&pos, 3), "{}", fen_of(&pos));
            }
            Verdict::Refuted(_) => refuted += 1,
            Verdict::Unknown => {}
        }
    }
    // The sample holds both answers, so both verifiers were exercised.
    eprintln!("{proven} proven, {refuted} refuted of {tried}");
    assert!(
        proven >= 5 && refuted >= 5,
        "{proven} proven, {refuted} refuted"
    );
}

fn fen_of(pos: &Chess) -> String {
    shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string()
}

#[test]
fn the_command_answers_with_its_exit_status_and_refuses_bad_input() {
    let run = |args: &[&str]| common::run_cli_args(args);
    let cycle = "6k1/6p1/8/7Q/8/1P6/PPqr4/K7 w - - 0 1";
    let proven = run(&["perpetual", "--fen", cycle]);
    assert_eq!(proven.status.code(), Some(0), "{proven:?}");
    assert!(String::from_utf8_lossy(&proven.stdout).starts_with("proven: White"));
    let json = run(&["perpetual", "--fen", cycle, "--json"]);
    let cert: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(cert["result"], "proven");
    assert_eq!(cert["size"], 2);
    let refuted = run(&["perpetual", "--fen", cycle, "--attacker", "black"]);
    assert_eq!(refuted.status.code(), Some(1), "{refuted:?}");
    // A queen's checks against a king with room, on a budget of ten positions.
    let unknown = run(&[
        "perpetual",
        "--fen",
        "3r2k1/ppp1qp2/2r2Np1/5nP1/2B5/2Q4P/PPP2P2/2KR4 b - - 18 36",
        "--attacker",
        "white",
        "--nodes",
        "10",
    ]);
    assert_eq!(unknown.status.code(), Some(3), "{unknown:?}");
    // A UCI position line.
    let line = run(&[
        "perpetual",
        "--position",
        "position fen 6k1/6p1/8/7Q/8/1P6/PPqr4/K7 w - - 0 1 moves h5e8 g8h7",
    ]);
    assert_eq!(line.status.code(), Some(0), "{line:?}");

    for (args, says) in [
        (
            vec!["perpetual", "--fen", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"],
            "no legal move",
        ),
        (
            vec![
                "perpetual",
                "--fen",
                "7k/8/8/8/8/8/8/K5Q1 w - - 0 1",
                "--attacker",
                "black",
            ],
            "only its king",
        ),
        (vec!["perpetual", "--fen", "not a fen"], "FEN"),
        (
            vec!["perpetual", "--position", "position startpos moves e2e5"],
            "illegal move",
        ),
        (
            vec!["perpetual", "--pgn", "no-such-file.pgn"],
            "no-such-file",
        ),
        (vec!["perpetual"], "required"),
    ] {
        let out = run(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn a_pgn_game_and_a_ply_name_the_position_with_its_history() {
    let dir = std::env::temp_dir().join(format!("threefold-perpetual-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("cycle.pgn");
    std::fs::write(
        &path,
        "[FEN \"6k1/6p1/8/7Q/8/1P6/PPqr4/K7 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Qe8+ Kh7 2. Qh5+ Kg8 *\n",
    )
    .expect("write");
    let path = path.to_string_lossy().into_owned();
    let json = common::run_cli_args(&["perpetual", "--pgn", &path, "--json"]);
    let cert: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(cert["result"], "proven", "{cert}");
    // The start has occurred twice: a third time within fewer moves than from a fresh game.
    let fresh = common::run_cli_args(&["perpetual", "--pgn", &path, "--ply", "0", "--json"]);
    let fresh: serde_json::Value = serde_json::from_slice(&fresh.stdout).expect("JSON");
    assert!(
        cert["threefold_within"].as_u64() < fresh["threefold_within"].as_u64(),
        "{cert} {fresh}"
    );
    let past = common::run_cli_args(&["perpetual", "--pgn", &path, "--ply", "9"]);
    assert_eq!(past.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
    // The move parser of the game is the one the prover's input uses.
    let pos = parse_fen("6k1/6p1/8/7Q/8/1P6/PPqr4/K7 w - - 0 1").expect("fen");
    assert!(parse_uci_move(&pos, "h5e8").is_ok());
}

#[test]
fn the_engine_tells_a_proven_perpetual_at_the_root_and_plays_its_check() {
    // Qe8+ Kh7 Qh5+ Kg8: the search shows the draw at once; the prover, asked once the
    // search has some nodes behind it, says it is forced.
    let mut engine = common::Uci::handshake();
    engine.send("position fen 6k1/6p1/8/7Q/8/1P6/PPqr4/K7 w - - 0 1");
    engine.send("go nodes 200000");
    let (lines, best) = engine.bestmove(std::time::Duration::from_secs(30));
    assert_eq!(best, "h5e8", "{lines:?}");
    let told: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string perpetual check proven: h5e8"))
        .collect();
    assert_eq!(told.len(), 1, "{lines:?}");
    assert!(told[0].contains("a strategy of 2 positions"), "{told:?}");
    // Black to move mates at once (...Qc1#): no perpetual of White's to fear, nothing told.
    engine.send("position fen 6k1/6p1/8/7Q/8/1P6/PPqr4/K7 b - - 0 1");
    engine.send("go nodes 200000");
    let (lines, _) = engine.bestmove(std::time::Duration::from_secs(30));
    assert!(
        !lines.iter().any(|l| l.contains("perpetual check proven")),
        "{lines:?}"
    );
}
