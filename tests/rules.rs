//! The draw rules on the seed games of REPETITION.md (copied to tests/data/): the occurrence
//! count after every ply, the final claim flags, and the named facts of each historic case.

use serde_json::Value;
use shakmaty::{CastlingMode, Position};
use threefold::game::rules::AutomaticEnd;
use threefold::game::{Game, parse_fen, uci_text};

fn seed_games() -> serde_json::Map<String, Value> {
    let text = include_str!("data/seed-games.json");
    match serde_json::from_str(text) {
        Ok(Value::Object(map)) => map,
        other => panic!("seed-games.json is not an object: {other:?}"),
    }
}

/// The game of a seed case, after its first `plies` moves (all when None).
fn game(name: &str, plies: Option<usize>) -> Game {
    let cases = seed_games();
    let case = &cases[name];
    let fen = case["fen"].as_str().expect("fen");
    let mut game = Game::new(parse_fen(fen).expect("seed FEN parses"));
    let moves = case["moves"].as_array().expect("moves");
    for m in moves.iter().take(plies.unwrap_or(moves.len())) {
        game.play_uci(m.as_str().expect("move text"))
            .expect("seed move is legal");
    }
    game
}

fn fen_of(game: &Game) -> String {
    shakmaty::fen::Fen::from_position(game.position(), shakmaty::EnPassantMode::Legal).to_string()
}

#[test]
fn every_seed_game_has_the_listed_occurrences_and_final_flags() {
    let cases = seed_games();
    assert!(
        cases.len() >= 15,
        "expected all seed games, found {}",
        cases.len()
    );
    for (name, case) in &cases {
        let game = game(name, None);
        let expected: Vec<usize> = case["occurrences"]
            .as_array()
            .expect("occurrences")
            .iter()
            .map(|v| v.as_u64().expect("count") as usize)
            .collect();
        assert_eq!(
            game.occurrence_counts(),
            expected,
            "{name}: occurrences after each ply"
        );
        let last = &case["final"];
        assert_eq!(
            fen_of(&game),
            last["fen"].as_str().expect("final fen"),
            "{name}: final FEN"
        );
        let claims = game.claims();
        let flag = last["can_claim_threefold"].as_bool().expect("flag");
        if game.automatic_end().is_some() {
            // The data's flag is python-chess's, which looks at the repetitions only; a game
            // that has ended (here by fivefold) leaves nothing to claim.
            assert_eq!(
                claims,
                Default::default(),
                "{name}: nothing to claim after the end"
            );
            assert_eq!(flag, game.occurrences() >= 3, "{name}: the data's flag");
        } else {
            assert_eq!(
                claims.can_claim_threefold(),
                flag,
                "{name}: can claim threefold (now or by announcement)"
            );
        }
        assert_eq!(
            game.occurrences() >= 5,
            last["fivefold"].as_bool().expect("flag"),
            "{name}: fivefold"
        );
    }
}

#[test]
fn pirc_bf2_check_is_only_a_twofold_and_kd2_the_threefold() {
    // 11...Bf2+ (ply 22) came with White still able to castle; 12.Kd2 lost those rights, so
    // 13...Bf2+ and 15...Bf2+ are only the first and second occurrence of their position.
    let after_11_bf2 = game("pirc_austrian_perpetual", Some(22));
    assert_eq!(after_11_bf2.occurrences(), 1);
    let after_13_bf2 = game("pirc_austrian_perpetual", Some(26));
    assert_eq!(
        after_13_bf2.occurrences(),
        1,
        "13...Bf2+: same placement, but White can no longer castle"
    );
    let after_15_bf2 = game("pirc_austrian_perpetual", Some(30));
    assert_eq!(after_15_bf2.occurrences(), 2, "15...Bf2+ is only a twofold");
    assert!(!after_15_bf2.claims().threefold_now);
    let after_16_kd2 = game("pirc_austrian_perpetual", Some(31));
    assert_eq!(after_16_kd2.occurrences(), 3, "16.Kd2 is the threefold");
    assert!(after_16_kd2.claims().threefold_now);
}

#[test]
fn karpov_miles_white_cannot_claim_but_black_can_by_announcing_ra4() {
    let after_26_nb5 = game("karpov_miles_1986", None);
    assert_eq!(
        after_26_nb5.occurrences(),
        2,
        "the first occurrence had Black able to castle queenside"
    );
    let claims = after_26_nb5.claims();
    assert!(
        !claims.threefold_now,
        "White's claim after 26.Nb5 is invalid"
    );
    let announced: Vec<String> = claims
        .threefold_by_moves
        .iter()
        .map(|&m| uci_text(m, CastlingMode::Standard))
        .collect();
    assert_eq!(
        announced,
        vec!["a8a4"],
        "Black claims by announcing 26...Ra4"
    );
}

#[test]
fn fischer_spassky_same_placement_other_side_to_move_differs() {
    let g = game("fischer_spassky_1972_g20", None);
    let black_to_move = g.key();
    let mut setup = g
        .position()
        .clone()
        .swap_turn()
        .expect("the other side may move");
    let white_to_move = threefold::game::position_key(&setup);
    assert_ne!(black_to_move, white_to_move);
    setup = setup.swap_turn().expect("and back");
    assert_eq!(threefold::game::position_key(&setup), black_to_move);
    assert!(!g.claims().can_claim_threefold());
}

#[test]
fn pest_paris_fivefold_first_at_ply_52() {
    let g = game("pest_paris_1842", None);
    assert_eq!(
        g.first_automatic_end(),
        Some((52, AutomaticEnd::FivefoldRepetition))
    );
    assert_eq!(
        uci_text(g.moves()[51], CastlingMode::Standard),
        "d6c7",
        "26...Bc7 is the 52nd ply"
    );
    assert_eq!(g.automatic_end(), None, "the final position itself is new");
}

#[test]
fn en_passant_counts_only_when_the_capture_is_legal() {
    // Pinned pawn on e4: after d2-d4 no en passant is possible, so the shuffle repeats that
    // position a third time. Free pawn: the position after d2-d4 is unique.
    let pinned = game("ep_pinned_pawn", None);
    let free = game("ep_free_pawn", None);
    assert_eq!(pinned.occurrences_at(1), 1);
    assert_eq!(pinned.occurrences_at(9), 3);
    assert!(pinned.claims().threefold_now);
    assert_eq!(free.occurrences_at(9), 2);
    assert!(!free.claims().threefold_now);
    assert!(
        free.claims().can_claim_threefold(),
        "but by announcing the next shuffle move"
    );
}

#[test]
fn bongcloud_ke8_differs_from_e5() {
    let g = game("carlsen_nakamura_2021", None);
    // After 1...e5 (ply 2) both sides could castle; after 3...Ke8 (ply 6) neither can.
    assert_ne!(g.keys()[2], g.keys()[6]);
    assert_eq!(g.occurrences_at(6), 1);
    assert_eq!(g.occurrences_at(12), 3);
}

#[test]
fn hamparia_li_is_over_by_fivefold() {
    let g = game("hamparia_li_2018", None);
    let (ply, end) = g.first_automatic_end().expect("ends");
    assert_eq!(end, AutomaticEnd::FivefoldRepetition);
    assert_eq!(g.occurrences_at(ply), 5);
}

#[test]
fn seventy_five_moves_unless_mate() {
    let g = Game::new(parse_fen("8/8/8/4k3/8/8/8/3QK3 w - - 150 100").expect("fen"));
    assert_eq!(g.automatic_end(), Some(AutomaticEnd::SeventyFiveMoves));
    let mated = Game::new(parse_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 150 100").expect("fen"));
    assert_eq!(mated.automatic_end(), Some(AutomaticEnd::Checkmate));
    assert!(
        !mated.claims().fifty_now,
        "a mate on the hundredth halfmove is no fifty-move draw"
    );
}

#[test]
fn fifty_move_claims_now_and_by_announcement() {
    let g = Game::new(parse_fen("8/8/8/4k3/8/8/7P/3QK3 w - - 99 100").expect("fen"));
    let claims = g.claims();
    assert!(!claims.fifty_now);
    assert!(claims.can_claim_fifty_moves());
    assert!(claims.fifty_by_moves.iter().all(|m| !m.is_zeroing()));
    assert!(
        g.position()
            .legal_moves()
            .iter()
            .any(|m| m.is_zeroing() && !claims.fifty_by_moves.contains(m))
    );
    let g = Game::new(parse_fen("8/8/8/4k3/8/8/7P/3QK3 b - - 100 100").expect("fen"));
    assert!(g.claims().fifty_now);
}

#[test]
fn nothing_can_be_claimed_once_the_game_has_ended() {
    // Stalemate with the clock at 100, and at 150; the 150th halfmove; a fivefold repetition.
    let stalemate = Game::new(parse_fen("k7/2Q5/1K6/8/8/8/8/8 b - - 100 80").expect("fen"));
    assert_eq!(stalemate.automatic_end(), Some(AutomaticEnd::Stalemate));
    assert_eq!(stalemate.claims(), Default::default());
    let late = Game::new(parse_fen("k7/2Q5/1K6/8/8/8/8/8 b - - 150 80").expect("fen"));
    assert_eq!(late.automatic_end(), Some(AutomaticEnd::Stalemate));
    let seventy_five = Game::new(parse_fen("8/8/8/4k3/8/8/8/3QK3 w - - 150 100").expect("fen"));
    assert!(!seventy_five.claims().can_claim_fifty_moves());
    let mut fivefold = Game::new(parse_fen("4k3/8/8/8/8/8/8/R3K3 w - - 84 1").expect("fen"));
    for _ in 0..4 {
        for m in ["a1a2", "e8d8", "a2a1", "d8e8"] {
            fivefold.play_uci(m).expect("legal");
        }
    }
    assert_eq!(
        fivefold.automatic_end(),
        Some(AutomaticEnd::FivefoldRepetition)
    );
    assert_eq!(fivefold.claims(), Default::default());
    // Announcing a move that stalemates on the 100th halfmove is no fifty-move claim.
    let g = Game::new(parse_fen("k7/8/1K6/8/8/8/8/2Q5 w - - 99 80").expect("fen"));
    let claims = g.claims();
    assert!(claims.can_claim_fifty_moves());
    assert!(
        claims
            .fifty_by_moves
            .iter()
            .all(|&m| m.to_uci(CastlingMode::Standard).to_string() != "c1c7")
    );
}

/// A history for [`ruling`] that knows only the game so far, with `any_repeated` as given.
struct Keys<'a>(&'a Game, bool);

impl threefold::game::rules::History for Keys<'_> {
    fn occurrences_of(&self, key: u64) -> usize {
        self.0.occurrences_of(key)
    }
    fn any_repeated(&self) -> bool {
        self.1
    }
}

#[test]
fn the_ruling_asked_for_first_claims_only_stops_early_and_skips_what_is_claimable_now() {
    use threefold::game::rules::{Ask, Ruling, ruling};
    // Clock at 99: every quiet move completes the fifty moves.
    let g = Game::new(parse_fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 80").expect("fen"));
    let all = g.claims();
    assert!(all.fifty_by_moves.len() > 1, "{all:?}");
    let first = Ask {
        threefold: true,
        fifty_moves: true,
        all_moves: false,
    };
    let Ruling::Open(some) = ruling(g.position(), g.key(), &Keys(&g, true), true, first) else {
        panic!("the game goes on");
    };
    assert_eq!(some.fifty_by_moves, all.fifty_by_moves[..1].to_vec());
    let fifty_off = Ask {
        fifty_moves: false,
        ..first
    };
    let Ruling::Open(none) = ruling(g.position(), g.key(), &Keys(&g, true), true, fifty_off) else {
        panic!("the game goes on");
    };
    assert_eq!(none, Default::default());
    // Clock at 100: the claim is there now, so no move is looked for.
    let g = Game::new(parse_fen("4k3/8/8/8/8/8/8/R3K3 w - - 100 80").expect("fen"));
    let Ruling::Open(now) = ruling(g.position(), g.key(), &Keys(&g, true), true, first) else {
        panic!("the game goes on");
    };
    assert!(now.fifty_now && now.fifty_by_moves.is_empty(), "{now:?}");
    // A position seen twice: claim by announcing the move back, unless the history says that
    // nothing has repeated (then the search for it is skipped).
    let mut g = Game::new(parse_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").expect("fen"));
    for m in ["a1a2", "e8d8", "a2a1", "d8e8", "a1a2", "e8d8", "a2a1"] {
        g.play_uci(m).expect("legal");
    }
    let Ruling::Open(back) = ruling(g.position(), g.key(), &Keys(&g, true), true, first) else {
        panic!("the game goes on");
    };
    assert_eq!(
        back.threefold_by_moves
            .iter()
            .map(|&m| uci_text(m, CastlingMode::Standard))
            .collect::<Vec<_>>(),
        vec!["d8e8"]
    );
    let Ruling::Open(skipped) = ruling(g.position(), g.key(), &Keys(&g, false), true, first) else {
        panic!("the game goes on");
    };
    assert!(skipped.threefold_by_moves.is_empty());
    // An ended game allows nothing.
    let mate = Game::new(parse_fen("k7/1Q6/1K6/8/8/8/8/8 b - - 100 80").expect("fen"));
    assert_eq!(
        ruling(
            mate.position(),
            mate.key(),
            &Keys(&mate, true),
            true,
            Ask::ALL
        ),
        Ruling::Ended(AutomaticEnd::Checkmate)
    );
}

#[test]
fn the_fifty_move_predicate() {
    use threefold::game::rules::{FIFTY_MOVE_HALFMOVES, fifty_moves_complete};
    assert!(!fifty_moves_complete(FIFTY_MOVE_HALFMOVES - 1));
    assert!(fifty_moves_complete(FIFTY_MOVE_HALFMOVES));
    assert!(fifty_moves_complete(u32::MAX));
}
