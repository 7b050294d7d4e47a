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

/// Perpetual checks from the proof suite (`bench/data/perpetuals.jsonl`, perpetual-047, -048,
/// -063, -066, -092, -100, -145), each with the four plies of its perpetual that bring the root
/// back.
const CYCLES: [(&str, [&str; 4]); 7] = [
    (
        "2r5/1ppbPkrQ/p7/3q1pBp/4NnpP/1P2R3/P4P1P/5R1K w - - 4 32",
        ["h7h6", "g7g6", "h6h7", "g6g7"],
    ),
    (
        "2r5/1ppbPk2/p5rQ/3q1pBp/4NnpP/1P2R3/P4P1P/5R1K w - - 6 33",
        ["h6h7", "g6g7", "h7h6", "g7g6"],
    ),
    (
        "1r5R/2q2k2/p3p2p/1b2P1R1/2p1P3/8/2n1K1P1/8 w - - 0 47",
        ["h8h7", "f7f8", "h7h8", "f8f7"],
    ),
    (
        "1r3k1R/2q5/p3p2p/1b2P1R1/2p1P3/8/2n1K1P1/8 b - - 3 48",
        ["f8f7", "h8h7", "f7f8", "h7h8"],
    ),
    (
        "1rq1r1k1/5R2/p2p2pb/1ppP2Np/3pP3/Q2P2P1/PP4KP/2R5 w - - 4 25",
        ["f7f6", "g8g7", "f6f7", "g7g8"],
    ),
    (
        "1k1r4/p2P2p1/QpB2p2/4p3/2p1Pn2/2q2N1b/P1P2P1P/1K1R4 b - - 5 30",
        ["c3b4", "b1a1", "b4c3", "a1b1"],
    ),
    (
        "r5k1/pp6/8/7Q/3b4/3p3P/P1q5/3RR2K b - - 7 37",
        ["c2c6", "h1h2", "c6c2", "h2h1"],
    ),
];

/// The depths tried for each cycle: shallow enough that the bare search sees only the twofold.
const DEPTHS: std::ops::RangeInclusive<u32> = 1..=8;

/// How many of the cycles must have a depth that makes the mark. Which depths do depends on the
/// evaluation's scores and the search's shape, so a new network may move a cycle out of reach;
/// most must stay in it, or the test no longer tests anything.
const MARKED_AT_LEAST: usize = 4;

#[test]
fn a_score_resting_on_a_twofold_is_read_toward_the_draw_once_the_game_repeats() {
    let mut marked_cycles = 0;
    for (fen, cycle) in CYCLES {
        let before = Game::new(parse_fen(fen).expect("test FEN"));
        let mut after = before.clone();
        for m in cycle {
            after.play_uci(m).expect("legal cycle move");
        }
        assert_eq!(after.position().board(), before.position().board());
        assert_eq!(after.occurrences(), 2, "{fen}: the cycle repeats the root");

        // Every depth, with the network and with the hand-written evaluation, at which the
        // search makes the mark: the line back to the root is a twofold, not a draw, and the
        // score says so; after the game's cycle the same line is a threefold and an empty table
        // sees the draw.
        let mut marked = false;
        for by_hand in [false, true] {
            let searcher = || {
                let mut searcher = Searcher::new(16);
                if by_hand {
                    searcher.network = None;
                }
                searcher
            };
            for depth in DEPTHS {
                let mut first_searcher = searcher();
                let first = score(&mut first_searcher, &before, depth);
                let reference = score(&mut searcher(), &after, depth);
                if first == 0 || reference != 0 {
                    continue;
                }
                marked = true;
                // The first search's table, read back, must not hide the draw.
                let second = score(&mut first_searcher, &after, depth);
                assert_eq!(
                    second, reference,
                    "{fen} at depth {depth} (by hand: {by_hand}): the table of the search \
                     before the cycle (which scored {first}) gives another score than an empty \
                     table"
                );
            }
        }
        marked_cycles += usize::from(marked);
    }
    assert!(
        marked_cycles >= MARKED_AT_LEAST,
        "only {marked_cycles} of {} cycles have a depth in {DEPTHS:?} where the bare search \
         scores the twofold as no draw and the search after the cycle scores the threefold",
        CYCLES.len()
    );
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
