//! `threefold datagen --from-pgn FILE.pgn --out FILE`: turns PGN games with the engines' scores
//! in comments (as cutechess-cli, fastchess and OpenBench's datagen write them) into training
//! records.
//!
//! The score is the first thing in a move's comment: `{+0.35/12 0.1s}` (pawns, from the view of
//! the side that moved, then the depth), `{-M5/20 ...}` or `{+M3/7 ...}` for mates (stored as
//! `±(32000 - plies)`). The start position is the `FEN` tag (standard, or Chess960 when the
//! `Variant` tag names it: `arbiter::pgn::GameTags` reads the tags as the arbiter does), else
//! the initial position; the result is the `Result` tag (or the
//! result at the end of the movetext). Moves without a score at the start of the game (book
//! moves, `{book}`) become part of the record's start position; the record ends before the
//! first later move without a score (the rest of that game is dropped and counted). Games
//! without a result (`*`), with an illegal move before their first scored move, or with no
//! scored move at all are skipped and counted.

use std::io::{self, Read, Write};
use std::ops::ControlFlow;

use pgn_reader::{RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::{Chess, Color, KnownOutcome, Move, Outcome, Position};

use super::format::{GameRecord, GameResult, white_relative};
use crate::arbiter::pgn::GameTags;
use crate::search::score::MATE;

/// What the conversion did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Conversion {
    pub games_read: u64,
    pub games_written: u64,
    pub positions: u64,
    /// Games without a result, with a bad FEN, or with no scored move.
    pub games_skipped: u64,
    /// Games cut short at an unscored move or an illegal move after scored ones.
    pub games_cut: u64,
}

/// Reads the score at the start of a move comment, from the mover's view, in centipawns.
pub fn parse_score(comment: &str) -> Option<i32> {
    let first = comment.split_whitespace().next()?;
    let (value, depth) = first.split_once('/')?;
    if !depth.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let (negative, unsigned) = match value.as_bytes().first()? {
        b'-' => (true, &value[1..]),
        b'+' => (false, &value[1..]),
        _ => (false, value),
    };
    let score = if let Some(moves) = unsigned.strip_prefix('M') {
        let moves: i32 = moves.parse().ok()?;
        if !(1..=500).contains(&moves) {
            return None;
        }
        // Mate in n moves: 2n - 1 plies for the winner; being mated in n: 2n plies.
        if negative {
            -(MATE - 2 * moves)
        } else {
            MATE - (2 * moves - 1)
        }
    } else {
        let pawns: f64 = unsigned.parse().ok()?;
        if !pawns.is_finite() {
            return None;
        }
        let cp = (pawns * 100.0).round().min(f64::from(MATE - 1000)) as i32;
        if negative { -cp } else { cp }
    };
    Some(score)
}

struct Movetext {
    pos: Chess,
    start: Chess,
    moves: Vec<(Move, Option<i16>)>,
    /// The position before the last move (whose side moved), for its comment's score.
    last_mover: Option<Color>,
    result: Option<GameResult>,
    broken: bool,
}

struct Converter;

impl Visitor for Converter {
    type Tags = GameTags;
    type Movetext = Movetext;
    type Output = Option<(GameRecord, bool)>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, GameTags> {
        ControlFlow::Continue(GameTags::default())
    }

    fn tag(
        &mut self,
        tags: &mut GameTags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        tags.push(name, value);
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: GameTags) -> ControlFlow<Self::Output, Movetext> {
        // A game whose FEN tag cannot be read is skipped (its positions are unknown).
        let (_, start, bad_fen) = tags.start();
        if bad_fen.is_some() {
            return ControlFlow::Break(None);
        }
        let result = tags.tag("Result").and_then(|r| result_of(r.trim()));
        ControlFlow::Continue(Movetext {
            pos: start.clone(),
            start,
            moves: Vec::new(),
            last_mover: None,
            result,
            broken: false,
        })
    }

    fn san(&mut self, movetext: &mut Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        if movetext.broken {
            return ControlFlow::Continue(());
        }
        match san_plus.san.to_move(&movetext.pos) {
            Ok(m) => {
                movetext.last_mover = Some(movetext.pos.turn());
                movetext.pos.play_unchecked(m);
                movetext.moves.push((m, None));
            }
            Err(_) => {
                movetext.broken = true;
                movetext.last_mover = None;
            }
        }
        ControlFlow::Continue(())
    }

    fn comment(
        &mut self,
        movetext: &mut Movetext,
        comment: RawComment<'_>,
    ) -> ControlFlow<Self::Output> {
        let Some(mover) = movetext.last_mover.filter(|_| !movetext.broken) else {
            return ControlFlow::Continue(());
        };
        if let Some(last) = movetext.moves.last_mut()
            && last.1.is_none()
            && let Some(score) = parse_score(&String::from_utf8_lossy(comment.as_bytes()))
        {
            last.1 = Some(white_relative(score, mover));
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _movetext: &mut Movetext) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(&mut self, movetext: &mut Movetext, outcome: Outcome) -> ControlFlow<Self::Output> {
        if movetext.result.is_none()
            && let Outcome::Known(known) = outcome
        {
            movetext.result = Some(match known {
                KnownOutcome::Decisive { winner } => GameResult::won_by(Some(winner)),
                KnownOutcome::Draw => GameResult::Draw,
            });
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, movetext: Movetext) -> Self::Output {
        let result = movetext.result?;
        let mut start = movetext.start;
        let mut moves = movetext.moves.into_iter().peekable();
        while let Some((m, None)) = moves.peek() {
            start.play_unchecked(*m);
            moves.next();
        }
        let mut scored = Vec::new();
        let mut cut = movetext.broken;
        for (m, score) in moves {
            match score {
                Some(score) => scored.push((m, score)),
                None => {
                    cut = true;
                    break;
                }
            }
        }
        if scored.is_empty() {
            return None;
        }
        Some((
            GameRecord {
                start,
                moves: scored,
                result,
            },
            cut,
        ))
    }
}

fn result_of(text: &str) -> Option<GameResult> {
    match text {
        "1-0" => Some(GameResult::WhiteWins),
        "0-1" => Some(GameResult::BlackWins),
        "1/2-1/2" => Some(GameResult::Draw),
        _ => None,
    }
}

/// Converts every game of `input`, writing the records to `out`.
pub fn convert(input: impl Read, out: &mut impl Write) -> io::Result<Conversion> {
    let mut reader = Reader::new(input);
    let mut done = Conversion::default();
    let mut visitor = Converter;
    while let Some(output) = reader.read_game(&mut visitor)? {
        done.games_read += 1;
        match output {
            Some((record, cut)) => {
                out.write_all(&record.to_bytes())?;
                done.games_written += 1;
                done.positions += record.moves.len() as u64;
                done.games_cut += u64::from(cut);
            }
            None => done.games_skipped += 1,
        }
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_in_comments() {
        assert_eq!(parse_score("+0.35/12 0.1s"), Some(35));
        assert_eq!(parse_score("-1.20/15 0.250s, book"), Some(-120));
        assert_eq!(parse_score("0.00/0 0s"), Some(0));
        assert_eq!(parse_score("+M3/7 0.01s"), Some(MATE - 5));
        assert_eq!(parse_score("-M2/9"), Some(-(MATE - 4)));
        assert_eq!(parse_score("book"), None);
        assert_eq!(parse_score("+0.41/12, 0.1s"), Some(41));
        assert_eq!(parse_score("+0.35 0.1s"), None);
        assert_eq!(parse_score("+0.35/ 0.1s"), None);
        assert_eq!(parse_score("White mates"), None);
    }
}
