//! Search behaviour through the library: mates with the right distance, draws scored 0.

use std::sync::Arc;

use shakmaty::fen::Fen;
use shakmaty::{Chess, EnPassantMode, Position};
use threefold::eval::nnue::Network;
use threefold::game::{Game, parse_fen, position_key, uci_text};
use threefold::search::tablebase::{Outcome, Tables};

/// The few 3-piece Syzygy tables the tests carry.
const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");

/// A move in standard UCI notation.
fn text(m: shakmaty::Move) -> String {
    uci_text(m, shakmaty::CastlingMode::Standard)
}
use threefold::search::line::LineEnd;
use threefold::search::score::{UciScore, uci_score};
use threefold::search::{Limits, SearchResult, Searcher, Signals};

fn search(fen: &str, depth: u32) -> SearchResult {
    search_with(fen, depth, |_| {})
}

/// Searches `fen` to `depth` with a searcher that `configure` has set up (its evaluation).
fn search_with(fen: &str, depth: u32, configure: impl FnOnce(&mut Searcher)) -> SearchResult {
    let game = Game::new(parse_fen(fen).expect("test FEN parses"));
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut searcher = Searcher::new(8);
    configure(&mut searcher);
    searcher.search(&game, &limits, &Signals::default(), &mut |_| {})
}

fn assert_mate(fen: &str, depth: u32, moves: i32, best: Option<&str>) {
    let result = search(fen, depth);
    assert_eq!(uci_score(result.score), UciScore::MateIn(moves), "{fen}");
    if let Some(best) = best {
        assert_eq!(result.best.map(text).as_deref(), Some(best), "{fen}");
    }
}

#[test]
fn mate_in_one() {
    assert_mate("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 4, 1, Some("a1a8"));
}

#[test]
fn mate_in_two() {
    assert_mate("7k/8/8/8/8/8/8/RR4K1 w - - 0 1", 6, 2, None);
}

/// Mating nets are seen at the depth of the mate itself, plus a ply, with either evaluation:
/// reverse futility pruning must not take a lone king's static evaluation for safety when it
/// has one square left (before it spared such a king, net 2 found the two-rook mate in two at
/// depth 5 and the rook mate in three at 7, net 3 at 7 and 8).
#[test]
fn mating_nets_are_seen_at_their_own_depth() {
    let cases = [
        ("7k/8/8/8/8/8/8/RR4K1 w - - 0 1", 2),
        ("6k1/8/8/6K1/8/8/8/R7 w - - 0 1", 3),
        ("r7/8/8/8/6k1/8/8/6K1 b - - 0 1", 3),
    ];
    let networks = [None, Some(Arc::new(Network::embedded().clone()))];
    for network in networks {
        for (fen, moves) in cases {
            let depth = 2 * moves as u32;
            let result = search_with(fen, depth, |s| s.network = network.clone());
            assert_eq!(
                uci_score(result.score),
                UciScore::MateIn(moves),
                "{fen} at depth {depth}, network: {}",
                network.is_some()
            );
        }
    }
}

#[test]
fn mate_in_three() {
    assert_mate("6k1/8/8/6K1/8/8/8/R7 w - - 0 1", 8, 3, None);
}

#[test]
fn black_mates_in_three() {
    assert_mate("r7/8/8/8/6k1/8/8/6K1 b - - 0 1", 8, 3, None);
}

#[test]
fn being_mated_is_a_negative_mate() {
    assert_mate("7k/R7/8/8/8/8/8/1R4K1 b - - 0 1", 6, -1, Some("h8g8"));
}

#[test]
fn mate_on_the_hundredth_halfmove_is_still_mate() {
    assert_mate("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80", 4, 1, Some("a1a8"));
}

#[test]
fn fifty_moves_make_an_unfinished_win_a_draw() {
    // Every white move reaches halfmove 100 without mating: the game is drawn.
    let result = search("8/8/8/4k3/8/8/8/3QK3 w - - 99 100", 6);
    assert_eq!(result.score, 0);
    assert!(result.best.is_some());
}

#[test]
fn stalemate_has_no_move_and_scores_zero() {
    let result = search("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 4);
    assert_eq!((result.best, result.score), (None, 0));
}

#[test]
fn insufficient_material_scores_zero() {
    let result = search("8/8/4k3/8/8/3NK3/8/8 w - - 0 1", 6);
    assert_eq!(result.score, 0);
    let result = search("8/8/4k3/8/2b5/4K3/8/8 b - - 0 1", 6);
    assert_eq!(result.score, 0);
}

#[test]
fn winning_a_queen_is_seen() {
    // The knight fork Nc7+ wins the queen on a8 (with a pawn left, so it is not a dead draw).
    // After 1.Nc7+ Kd7 2.Nxa8 Kc6 the knight is trapped in the corner, so a deep enough search
    // sees king and pawn against king, still clearly winning; any other move leaves White a
    // queen down.
    let result = search("q3k3/8/8/3N4/8/8/4P3/4K3 w - - 0 1", 6);
    assert_eq!(result.best.map(text).as_deref(), Some("d5c7"));
    assert!(result.score > 150, "score {}", result.score);
}

#[test]
fn repetition_of_a_position_before_the_root_is_not_yet_a_draw() {
    // White is a queen up; the knights shuffled once before the root. Playing on is right,
    // and the score must not be flattened to 0 by the single earlier occurrence.
    let mut game = Game::new(parse_fen("4k3/8/8/8/8/8/3QK3/6N1 w - - 0 1").expect("fen"));
    for m in ["g1f3", "e8f8", "f3g1", "f8e8"] {
        game.play_uci(m).expect("legal");
    }
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let result = Searcher::new(8).search(&game, &limits, &Signals::default(), &mut |_| {});
    assert!(result.score > 500, "score {}", result.score);
}

#[test]
fn a_draw_by_history_does_not_poison_the_hash_table() {
    // Black, a queen down, can claim a threefold with ...Kh8 thanks to the king shuffle before
    // the root. The same position without that history is simply lost. One searcher (one hash
    // table) for both: the path-dependent draw must not leak into the second search.
    let start = parse_fen("7k/8/8/8/8/8/3Q4/K7 w - - 0 1").expect("fen");
    let mut with_history = Game::new(start);
    for m in ["a1b1", "h8g8", "b1a1", "g8h8", "a1b1", "h8g8", "b1a1"] {
        with_history.play_uci(m).expect("legal");
    }
    let fresh = Game::new(with_history.position().clone());
    let limits = Limits {
        depth: Some(9),
        ..Limits::default()
    };
    let mut searcher = Searcher::new(8);
    let drawn = searcher.search(&with_history, &limits, &Signals::default(), &mut |_| {});
    assert_eq!(drawn.score, 0, "the threefold claim is Black's best");
    assert_eq!(drawn.best.map(text).as_deref(), Some("g8h8"));
    // The root's draw rests on positions before it: its entry may guide move ordering but
    // must not be usable (depth -1 marks a move-only entry) by a later search of the same
    // position, quiescence included. The search that stored it may use it; the next may not.
    searcher.tt.new_search();
    if let Some(entry) = searcher.tt.probe(with_history.key()) {
        assert!(
            entry.depth < 0,
            "path-dependent draw stored as a usable score: {entry:?}"
        );
    }
    let lost = searcher.search(&fresh, &limits, &Signals::default(), &mut |_| {});
    assert!(
        lost.score < -500,
        "without the history Black is lost, got {}",
        lost.score
    );
}

/// The positions up to `plies` plies from `pos`, `pos` included (with repeats).
fn positions_within(pos: &Chess, plies: u32) -> Vec<Chess> {
    let mut all = vec![pos.clone()];
    if plies > 0 {
        for m in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            all.extend(positions_within(&child, plies - 1));
        }
    }
    all
}

#[test]
fn a_fifty_move_draw_from_one_path_is_not_used_on_another() {
    // The same position twice, through one hash table: first with the halfmove clock at 96,
    // where the queen cannot mate before the fifty-move rule draws (every line is a draw, and
    // the tree's entries rest on that clock), then with the clock at 0, where it is a win.
    // Zobrist keys ignore the clock, so a draw stored as a plain score would turn the second
    // search into a draw.
    let limits = Limits {
        depth: Some(8),
        ..Limits::default()
    };
    let mut searcher = Searcher::new(8);
    let late = Game::new(parse_fen("8/8/8/4k3/8/8/8/KQ6 w - - 96 100").expect("fen"));
    let drawn = searcher.search(&late, &limits, &Signals::default(), &mut |_| {});
    assert_eq!(drawn.score, 0, "no mate fits in four plies");
    // What the next search may take from the table (the PV of a search never cuts on it, the
    // rest of its tree does): no score there calls a draw a position of the first search's
    // tree that is won or lost with the clock at 0 (by the tables). The first search's draws
    // rest on its clock.
    searcher.tt.new_search();
    let tables = Tables::load(TABLES).expect("test tables load");
    let mut looked_at = 0;
    let mut kept_draws = Vec::new();
    for pos in positions_within(late.position(), 2) {
        let Some(entry) = searcher.tt.probe(position_key(&pos)) else {
            continue;
        };
        looked_at += 1;
        let decisive = tables
            .wdl_after_zeroing(&pos)
            .is_some_and(|wdl| wdl != Outcome::Draw);
        if decisive && entry.depth >= 0 && entry.score == 0 {
            kept_draws.push(Fen::from_position(&pos, EnPassantMode::Legal).to_string());
        }
    }
    assert!(looked_at > 20, "only {looked_at} entries found");
    assert!(
        kept_draws.is_empty(),
        "draws kept for later searches in {} positions: {kept_draws:?}",
        kept_draws.len()
    );
    let early = Game::new(parse_fen("8/8/8/4k3/8/8/8/KQ6 w - - 0 1").expect("fen"));
    let won = searcher.search(&early, &limits, &Signals::default(), &mut |_| {});
    assert!(
        won.score > 500,
        "with a fresh clock it is a win, got {}",
        won.score
    );
}

#[test]
fn a_perpetual_check_is_carried_in_the_result() {
    // Alekhine-Lasker 1914 after 16...Qe8: White, a piece down, holds only by the perpetual
    // 17.Qxh6+ Kg8 18.Qg5+ Kh8 19.Qh6+. The result says so: score 0, and the line ends in a
    // repetition in which White gives check on every move.
    let game = Game::new(
        parse_fen("r3qr1k/p1p1b3/4pnQp/3p4/8/2NB4/PPP2PPP/R5K1 w - - 1 17").expect("fen"),
    );
    let limits = Limits {
        depth: Some(12),
        ..Limits::default()
    };
    let result = Searcher::new(16).search(&game, &limits, &Signals::default(), &mut |_| {});
    assert_eq!(result.best.map(text).as_deref(), Some("g6h6"));
    assert_eq!(result.score, 0);
    assert_eq!(
        result.draw,
        Some(LineEnd::Repetition {
            perpetual_by: Some(shakmaty::Color::White)
        }),
        "pv {:?}",
        result.pv.iter().map(|&m| text(m)).collect::<Vec<_>>()
    );
}

#[test]
fn contempt_turns_a_taken_repetition_into_an_avoided_one() {
    // Black to move can repeat the position a third time with ...Kg8 in a level endgame.
    let start = parse_fen("6k1/ppp2ppp/7n/8/8/5N2/PPP2PPP/6K1 w - - 0 1").expect("fen");
    let mut game = Game::new(start);
    for m in ["g1h1", "g8h8", "h1g1", "h8g8", "g1h1", "g8h8", "h1g1"] {
        game.play_uci(m).expect("legal");
    }
    let limits = Limits {
        depth: Some(9),
        ..Limits::default()
    };
    let mut searcher = Searcher::new(8);
    let taken = searcher.search(&game, &limits, &Signals::default(), &mut |_| {});
    assert_eq!(taken.best.map(text).as_deref(), Some("h8g8"));
    assert_eq!(taken.score, 0);
    searcher.clear();
    searcher.settings.contempt = 50;
    let avoided = searcher.search(&game, &limits, &Signals::default(), &mut |_| {});
    assert_ne!(avoided.best.map(text).as_deref(), Some("h8g8"));
    assert!(
        avoided.score > -50,
        "playing on must beat the draw's -50, got {}",
        avoided.score
    );
}

/// A small deterministic generator (xorshift), so the shuffle games are the same every run.
fn next_random(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn upcoming_repetition_agrees_with_trying_every_move() {
    use shakmaty::Position;
    use threefold::game::key_after;
    use threefold::search::repetition::KeyStack;

    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut checked = 0;
    let mut found = 0;
    for _ in 0..200 {
        let mut game = Game::new(parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").expect("fen"));
        let mut last_moves: Vec<shakmaty::Move> = Vec::new();
        for ply in 0..60 {
            let pos = game.position().clone();
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            // Often move the piece moved two plies ago back, to make repetitions likely.
            let back = last_moves
                .len()
                .checked_sub(2)
                .map(|i| last_moves[i])
                .and_then(|m| {
                    legal
                        .iter()
                        .copied()
                        .find(|c| c.from() == Some(m.to()) && c.to() == m.from().unwrap_or(m.to()))
                });
            let m = match back {
                Some(b) if next_random(&mut seed) % 10 < 7 => b,
                _ => legal[(next_random(&mut seed) % legal.len() as u64) as usize],
            };
            game.play(m);
            last_moves.push(m);
            if ply < 4 {
                continue;
            }
            // Put the root somewhere in the reversible history, then the rest as the search line.
            let keys = game.reversible_keys();
            let split = 1 + (next_random(&mut seed) as usize % keys.len());
            let mut stack = KeyStack::new(&keys[..split]);
            for &k in &keys[split..] {
                stack.push(k);
            }
            let pos = game.position();
            let board = pos.board();
            let fast = stack
                .upcoming_repetition(
                    pos.halfmoves(),
                    board.occupied(),
                    board.by_color(pos.turn()),
                )
                .is_some();
            let slow = pos.legal_moves().iter().any(|&c| {
                let mut child = pos.clone();
                child.play_unchecked(c);
                let mut line = stack.clone();
                line.push(key_after(pos, game.key(), c, &child));
                line.is_draw(child.halfmoves())
            });
            assert_eq!(
                fast,
                slow,
                "after {:?}",
                game.moves().iter().map(|&m| text(m)).collect::<Vec<_>>()
            );
            checked += 1;
            found += usize::from(fast);
        }
    }
    assert!(
        checked > 5000 && found > 500,
        "checked {checked}, found {found}"
    );
}

#[test]
fn a_soft_node_budget_ends_the_search_after_a_whole_iteration() {
    let game = Game::new(shakmaty::Chess::default());
    let search =
        |limits: Limits| Searcher::new(8).search(&game, &limits, &Signals::default(), &mut |_| {});
    let run = |soft: u64, hard: Option<u64>| {
        search(Limits {
            soft_nodes: Some(soft),
            nodes: hard,
            ..Limits::default()
        })
    };
    let small = run(3_000, None);
    let large = run(30_000, None);
    // The budget is scaled by the search's stability, to 0.4 of it at the least: no search
    // stops before that share is spent.
    assert!(small.nodes >= 3_000 * 2 / 5, "{}", small.nodes);
    assert!(large.nodes >= 30_000 * 2 / 5, "{}", large.nodes);
    assert!(small.depth < large.depth);
    // The iteration under way when the budget is spent is finished, not cut: the search is
    // the one that a depth limit stops at the same depth, node for node.
    for soft in [&small, &large] {
        let to_depth = search(Limits {
            depth: Some(soft.depth),
            ..Limits::default()
        });
        assert_eq!(
            (to_depth.nodes, to_depth.best),
            (soft.nodes, soft.best),
            "depth {}",
            soft.depth
        );
    }
    assert_eq!(run(3_000, None).nodes, small.nodes, "deterministic");
    // A hard limit still cuts an iteration.
    let capped = run(30_000, Some(5_000));
    assert!(capped.nodes <= 5_000 + 64, "{}", capped.nodes);
    assert!(capped.best.is_some());
}

#[test]
fn a_node_limit_counts_the_nodes_of_every_thread() {
    let game = Game::new(shakmaty::Chess::default());
    let limit = 20_000;
    let limits = Limits {
        nodes: Some(limit),
        ..Limits::default()
    };
    for threads in [1, 4] {
        let mut searcher = Searcher::new(8);
        searcher.settings.threads = threads;
        let result = searcher.search(&game, &limits, &Signals::default(), &mut |_| {});
        // Each helper may add the nodes between two publications of its count and the nodes
        // until it next reads the stop flag: two intervals of 64 a thread, and some slack.
        let most = limit + threads as u64 * 3 * 64;
        assert!(
            result.nodes >= limit * 9 / 10 && result.nodes <= most,
            "{threads} threads searched {} nodes for a limit of {limit}",
            result.nodes
        );
        assert!(result.best.is_some());
    }
}
