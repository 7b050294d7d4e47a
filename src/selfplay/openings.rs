//! Opening positions for self-play: a random line of an EPD book, or random legal moves from
//! the start position, then (optionally) a few more random plies, kept only when a short search
//! finds the position playable for both sides. Also OpenBench's `genfens` (see
//! [`genfens`]), which uses the same openings.
//!
//! Everything here is a function of the seed alone: the random moves come from [`Rng`], and
//! the check is a single-threaded search at a node limit from a cleared hash table, which is
//! deterministic.

use shakmaty::fen::Fen;
use shakmaty::{Chess, EnPassantMode, Position};

use crate::game::{Game, parse_fen};
use crate::rng::Rng;
use crate::search::{Limits, Searcher, Signals};

/// How the openings are made.
#[derive(Debug, Clone)]
pub struct OpeningRules {
    /// Random plies played from the book position (or the start position): this many, or one
    /// more (chosen at random, so both sides get to move first from the book's positions).
    pub random_plies: usize,
    /// The check: a search of this many nodes ...
    pub check_nodes: u64,
    /// ... must score the position within this many centipawns.
    pub max_score: i32,
}

impl OpeningRules {
    /// Random-move openings: 8 or 9 plies from the start position, kept within ±3 pawns.
    pub fn random() -> OpeningRules {
        OpeningRules {
            random_plies: 8,
            check_nodes: 1_000,
            max_score: 300,
        }
    }

    /// Book openings: 2 or 3 random plies after the book's position, kept within ±3 pawns.
    pub fn book() -> OpeningRules {
        OpeningRules {
            random_plies: 2,
            ..OpeningRules::random()
        }
    }
}

/// Tries this many times before taking a position that failed the check.
const MAX_TRIES: usize = 1_000;

/// An opening: a random book position (or the start position when `book` is empty), random
/// plies after it, checked by a short search with `searcher` (its hash table is cleared).
pub fn opening(
    book: &[Chess],
    rules: &OpeningRules,
    searcher: &mut Searcher,
    rng: &mut Rng,
) -> Chess {
    let mut last = Chess::default();
    for _ in 0..MAX_TRIES {
        let base = if book.is_empty() {
            Chess::default()
        } else {
            book[rng.below(book.len() as u64) as usize].clone()
        };
        let plies = rules.random_plies + rng.below(2) as usize;
        let Some(pos) = random_plies(base, plies, rng) else {
            continue;
        };
        if is_balanced(&pos, rules, searcher) {
            return pos;
        }
        last = pos;
    }
    last
}

/// `plies` random legal moves from `pos`; None when the game ends on the way.
fn random_plies(mut pos: Chess, plies: usize, rng: &mut Rng) -> Option<Chess> {
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let m = moves[rng.below(moves.len() as u64) as usize];
        pos.play_unchecked(m);
    }
    (!pos.legal_moves().is_empty()).then_some(pos)
}

/// True when a short search scores the position within `rules.max_score`.
fn is_balanced(pos: &Chess, rules: &OpeningRules, searcher: &mut Searcher) -> bool {
    if rules.check_nodes == 0 {
        return true;
    }
    searcher.clear();
    let limits = Limits {
        nodes: Some(rules.check_nodes),
        ..Limits::default()
    };
    let game = Game::new(pos.clone());
    let result = searcher.search(&game, &limits, &Signals::default(), &mut |_| {});
    result.best.is_some() && result.score.abs() <= rules.max_score
}

/// A FEN with the legal en passant square only (as `d` and the training data show it).
pub fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// What `genfens` was asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenfensArgs {
    pub count: usize,
    pub seed: u64,
    /// None: random-move openings.
    pub book: Option<String>,
}

/// Reads `genfens N seed S book <None|FILE> [extra ...]` (the words after `genfens`); the
/// extra words OpenBench may add are ignored.
pub fn parse_genfens(words: &[&str]) -> Result<GenfensArgs, String> {
    const USAGE: &str = "usage: genfens N seed S book <None|FILE.epd> [extra]";
    let count = words
        .first()
        .and_then(|n| n.parse::<usize>().ok())
        .ok_or_else(|| format!("genfens needs a count of positions; {USAGE}"))?;
    let mut seed = None;
    let mut book = None;
    let mut i = 1;
    while i + 1 < words.len() {
        match words[i] {
            "seed" => {
                let text = words[i + 1];
                let value = text
                    .parse::<u64>()
                    .or_else(|_| text.parse::<i64>().map(|v| v as u64))
                    .map_err(|_| format!("genfens: seed must be a number, got '{text}'"))?;
                seed = Some(value);
            }
            "book" => {
                let name = words[i + 1];
                book = (!name.eq_ignore_ascii_case("none")).then(|| name.to_owned());
            }
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    let seed = seed.ok_or_else(|| format!("genfens needs a seed; {USAGE}"))?;
    Ok(GenfensArgs { count, seed, book })
}

/// The `count` opening FENs for `seed`, each handed to `each` as soon as it is made:
/// random-move openings without a book, random lines of the book (no random plies after them)
/// with one. The same arguments give the same FENs.
pub fn genfens(args: &GenfensArgs, book: &[Chess], mut each: impl FnMut(String)) {
    let mut rng = Rng::new(args.seed ^ 0x6765_6e66_656e_7321);
    if args.book.is_some() {
        if book.is_empty() {
            return;
        }
        for _ in 0..args.count {
            each(fen_of(&book[rng.below(book.len() as u64) as usize]));
        }
        return;
    }
    let mut searcher = Searcher::new(1);
    let rules = OpeningRules::random();
    for _ in 0..args.count {
        each(fen_of(&opening(&[], &rules, &mut searcher, &mut rng)));
    }
}

/// Reads an EPD or FEN book: one position per line, the first four fields, and the move
/// counters when the fifth and sixth fields are numbers (EPD operations are ignored). Lines
/// that are not legal positions are skipped.
pub fn read_openings(text: &str) -> Vec<Chess> {
    text.lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields.len() < 4 {
                return None;
            }
            let counters = fields.len() >= 6
                && fields[4].parse::<u32>().is_ok()
                && fields[5].parse::<u32>().is_ok();
            let fen = if counters {
                fields[..6].join(" ")
            } else {
                format!("{} 0 1", fields[..4].join(" "))
            };
            parse_fen(&fen).ok()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn genfens_arguments() {
        let args = parse_genfens(&["5", "seed", "42", "book", "None", "extra"]).expect("valid");
        assert_eq!(
            args,
            GenfensArgs {
                count: 5,
                seed: 42,
                book: None
            }
        );
        let args = parse_genfens(&["1", "seed", "-1", "book", "a.epd"]).expect("valid");
        assert_eq!((args.seed, args.book.as_deref()), (u64::MAX, Some("a.epd")));
        assert!(parse_genfens(&["x", "seed", "1"]).is_err());
        assert!(parse_genfens(&["3", "book", "None"]).is_err());
    }
}
