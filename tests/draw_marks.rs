//! The hash table's marks on what a stored score rests on, pinned by searches that make them.
//!
//! A score can rest on a twofold of the root (a line back to it, not yet a draw): once the game
//! has repeated the root, the same line is a threefold, and a later search must read the old
//! score only as a bound toward the draw. A score can rest on the fifty-move clock of a game set
//! up with the clock running: it holds for that search only. In each test the reference is a
//! search with an empty table; a table that breaks the marks gives another answer.

use shakmaty::Position;
use threefold::game::{Game, parse_fen, position_key};
use threefold::search::{Limits, Searcher, Signals};

/// The score of a search of `game` to `depth` with `searcher`'s table as it stands.
fn score(searcher: &mut Searcher, game: &Game, depth: u32) -> i32 {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    searcher
        .search(game, &limits, &Signals::default(), &mut |_| {})
        .score
}

/// Perpetual checks from the proof suite (`bench/data/perpetuals.jsonl`), each with the four
/// plies that bring the root back, and a depth at which a search from the bare position sees
/// only the twofold (it does not score the draw) while after the cycle it sees the threefold.
const CYCLES: [(&str, [&str; 4], u32); 4] = [
    (
        "2r5/1ppbPk1Q/p5r1/3q1pBp/4NnpP/1P2R3/P4P1P/5R1K b - - 3 31",
        ["g6g7", "h7h6", "g7g6", "h6h7"],
        4,
    ),
    (
        "2r5/1ppbPkrQ/p7/3q1pBp/4NnpP/1P2R3/P4P1P/5R1K w - - 4 32",
        ["h7h6", "g7g6", "h6h7", "g6g7"],
        3,
    ),
    (
        "2r5/1ppbPkrQ/p7/3q1pBp/4NnpP/1P2R3/P4P1P/5R1K w - - 4 32",
        ["h7h6", "g7g6", "h6h7", "g6g7"],
        4,
    ),
    (
        "1r3k2/2q4R/p3p2p/1b2P1R1/2p1P3/8/2n1K1P1/8 w - - 2 48",
        ["h7h8", "f8f7", "h8h7", "f7f8"],
        4,
    ),
];

#[test]
fn a_score_resting_on_a_twofold_is_read_toward_the_draw_once_the_game_repeats() {
    for (fen, cycle, depth) in CYCLES {
        let before = Game::new(parse_fen(fen).expect("test FEN"));
        let mut after = before.clone();
        for m in cycle {
            after.play_uci(m).expect("legal cycle move");
        }
        assert_eq!(after.position().board(), before.position().board());
        assert_eq!(after.occurrences(), 2, "{fen}: the cycle repeats the root");

        // The search makes the mark: at this depth the line back to the root is a twofold,
        // not a draw, and the score says so.
        let mut searcher = Searcher::new(16);
        let first = score(&mut searcher, &before, depth);
        assert_ne!(first, 0, "{fen} at depth {depth}: a twofold is not a draw");
        // After the game's cycle the same line is a threefold: an empty table sees the draw.
        let reference = score(&mut Searcher::new(16), &after, depth);
        assert_eq!(
            reference, 0,
            "{fen} at depth {depth}: the threefold is a draw"
        );
        // The first search's table, read back, must not hide it.
        let second = score(&mut searcher, &after, depth);
        assert_eq!(
            second, reference,
            "{fen} at depth {depth}: the table of the search before the cycle (which scored \
             {first}) gives another score than an empty table"
        );
    }
}

/// K+Q v K with three plies left before halfmove 100 and no mate in them: the search scores the
/// fifty-move draw. That draw rests on the clock, which started before the first position the
/// search knows (the game was set up with it at 97): the root's score holds for this search
/// only, and a later search of the same placement, with another clock, must not take it. (With
/// the clock's index into the positions saturated at the root's, the root's draw was kept for
/// good; at a longer distance the marks inherited from hash cutoffs below hide that.)
#[test]
fn a_draw_resting_on_a_clock_set_up_running_is_kept_for_its_search_only() {
    let running = Game::new(parse_fen("6k1/8/8/8/8/8/4K3/3Q4 w - - 97 80").expect("test FEN"));
    let fresh = Game::new(parse_fen("6k1/8/8/8/8/8/4K3/3Q4 w - - 0 80").expect("test FEN"));
    let mut searcher = Searcher::new(16);
    assert_eq!(
        score(&mut searcher, &running, 6),
        0,
        "no mate in three plies"
    );
    // What the next search would read of the root: its move only, no score.
    searcher.tt.new_search();
    let entry = searcher
        .tt
        .probe(position_key(running.position()))
        .expect("the root is stored");
    assert!(
        entry.depth < 0,
        "the clock's draw is kept beyond its search: {entry:?}"
    );
    // And the same placement with a fresh clock is the win it is.
    let won = score(&mut searcher, &fresh, 8);
    let reference = score(&mut Searcher::new(16), &fresh, 8);
    assert!(won > 1000 && reference > 1000, "{won} {reference}");
}
