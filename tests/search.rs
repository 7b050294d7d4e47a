//! Search behaviour through the library: mates with the right distance, draws scored 0.

use threefold::game::{Game, parse_fen, uci_text};
use threefold::search::score::{UciScore, uci_score};
use threefold::search::{Limits, SearchResult, Searcher, Signals};

fn search(fen: &str, depth: u32) -> SearchResult {
    let game = Game::new(parse_fen(fen).expect("test FEN parses"));
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    Searcher::new(8).search(&game, &limits, &Signals::default(), &mut |_| {})
}

fn assert_mate(fen: &str, depth: u32, moves: i32, best: Option<&str>) {
    let result = search(fen, depth);
    assert_eq!(uci_score(result.score), UciScore::MateIn(moves), "{fen}");
    if let Some(best) = best {
        assert_eq!(result.best.map(uci_text).as_deref(), Some(best), "{fen}");
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
    let result = search("q3k3/8/8/3N4/8/8/4P3/4K3 w - - 0 1", 6);
    assert_eq!(result.best.map(uci_text).as_deref(), Some("d5c7"));
    assert!(result.score > 200, "score {}", result.score);
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
