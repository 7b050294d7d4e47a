//! Scores that know halfmove 100 is coming. In endings where the stronger side has nothing to
//! capture and no pawn to move, the game is a draw unless a mate lands by halfmove 100. An
//! exhaustive mate search written here (no engine code) says whether one does; the engine's
//! iterations that reach halfmove 100 must agree: 0.00 when no mate fits, a mate when one does.

use std::collections::HashMap;

use shakmaty::{Chess, Position};
use threefold::game::rules::FIFTY_MOVE_HALFMOVES;
use threefold::game::{Game, parse_fen, position_key};
use threefold::search::score::{UciScore, uci_score};
use threefold::search::{Limits, Report, Searcher, Signals};

/// Exhaustive: can the side to move in `pos` force checkmate within `plies` plies? A capture
/// leaves a bare king against a bare king in these endings (no mate ever), so it fails.
struct MateSearch {
    memo: HashMap<(u64, u32), bool>,
}

impl MateSearch {
    fn new() -> MateSearch {
        MateSearch {
            memo: HashMap::new(),
        }
    }

    /// The side to move mates within `plies` (its own moves and the replies).
    fn mates_within(&mut self, pos: &Chess, plies: u32) -> bool {
        if plies == 0 {
            return false;
        }
        let key = (position_key(pos), plies);
        if let Some(&known) = self.memo.get(&key) {
            return known;
        }
        let answer = pos.legal_moves().iter().any(|&m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            after.is_checkmate() || (!m.is_capture() && self.cannot_escape(&after, plies - 1))
        });
        self.memo.insert(key, answer);
        answer
    }

    /// The side to move (the defender) is mated within `plies` whatever it plays: every reply
    /// leaves a mate within the plies after it. Stalemate and captures escape.
    fn cannot_escape(&mut self, pos: &Chess, plies: u32) -> bool {
        let moves = pos.legal_moves();
        if plies < 2 || moves.is_empty() {
            return false;
        }
        moves.iter().all(|&m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            !m.is_capture() && self.mates_within(&after, plies - 1)
        })
    }
}

/// The score of every iteration of a search of `fen` to `depth`, by depth (fresh tables).
fn scores_by_depth(fen: &str, depth: u32) -> Vec<(u32, i32)> {
    let game = Game::new(parse_fen(fen).expect("test FEN parses"));
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut searcher = Searcher::new(16);
    let mut scores = Vec::new();
    searcher.search(&game, &limits, &Signals::default(), &mut |report| {
        if let Report::Line(it) = report
            && it.bound.is_none()
        {
            scores.push((it.depth, it.score));
        }
    });
    scores
}

/// Lone queens and rooks against a bare king, with the clock so near 100 that only some of
/// them can still mate: the placements and clocks of the check below.
const ENDINGS: [&str; 6] = [
    "6k1/8/8/8/8/8/4K3/3Q4 w - -",
    "8/8/8/4k3/8/8/2Q5/K7 w - -",
    "k7/8/1K6/8/8/8/8/6Q1 w - -",
    "6k1/8/5K2/8/8/8/8/R7 w - -",
    "8/8/8/3k4/8/8/8/R3K3 w - -",
    "7k/8/8/6K1/8/8/8/1R6 w - -",
];

/// Plies left before halfmove 100 in the check below.
const PLIES_LEFT: [u32; 4] = [3, 5, 8, 10];

#[test]
fn iterations_that_reach_halfmove_100_score_what_an_exhaustive_mate_search_says() {
    let mut reference = MateSearch::new();
    let mut wrong = Vec::new();
    let mut seen = (0, 0);
    for ending in ENDINGS {
        for left in PLIES_LEFT {
            let halfmoves = FIFTY_MOVE_HALFMOVES - left;
            let fen = format!("{ending} {halfmoves} 80");
            let pos = parse_fen(&fen).expect("test FEN parses");
            let mates = reference.mates_within(&pos, left);
            if mates {
                seen.0 += 1;
            } else {
                seen.1 += 1;
            }
            // The iteration that reaches halfmove 100 and the two after it.
            for (depth, score) in scores_by_depth(&fen, left + 2) {
                if depth < left {
                    continue;
                }
                let right = match uci_score(score) {
                    UciScore::MateIn(n) => n > 0 && mates && (2 * n - 1) as u32 <= left,
                    UciScore::Centipawns(cp) => !mates && cp == 0,
                };
                if !right {
                    wrong.push(format!(
                        "{fen}: depth {depth} scores {score}; mate within {left} plies: {mates}"
                    ));
                }
            }
        }
    }
    // Both kinds are checked: endings that still mate and endings that no longer can.
    assert!(seen.0 >= 3 && seen.1 >= 3, "{seen:?}");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
