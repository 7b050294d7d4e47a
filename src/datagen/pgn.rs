//! `threefold datagen --from-pgn FILE.pgn --out FILE`: turns PGN games with the engines' scores
//! in comments (as cutechess-cli, fastchess and OpenBench's datagen write them) into training
//! records.
//!
//! The score is the first thing in a move's comment: `{+0.35/12 0.1s}` (pawns, from the view of
//! the side that moved, then the depth), `{-M5/20 ...}` or `{+M3/7 ...}` for mates (stored as
//! `±(32000 - plies)`). The start position is the `FEN` tag (standard, or Chess960 when the
//! `Variant` tag names it; the games are read through [`crate::record`], as the arbiter reads them), else
//! the initial position; the result is the `Result` tag (or the
//! result at the end of the movetext). Moves without a score at the start of the game (book
//! moves, `{book}`) become part of the record's start position; the record ends before the
//! first later move without a score (the rest of that game is dropped and counted). Games
//! without a result (`*`), with an illegal move before their first scored move, or with no
//! scored move at all are skipped and counted.

use std::io::{self, Read, Write};

use shakmaty::{KnownOutcome, Outcome, Position};

use crate::data::format::{GameRecord, GameResult, white_relative};
use crate::record::{RecordError, RecordedGame, read_file};
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

/// One game's record as training data: None when it is skipped (no result, a bad FEN tag, a
/// variant other than chess, no scored move), else the record and whether it was cut short.
fn convert_game(game: &RecordedGame) -> Option<(GameRecord, bool)> {
    if matches!(
        game.error,
        Some(RecordError::BadFen(_) | RecordError::Variant(_))
    ) {
        return None;
    }
    let from_outcome = match game.outcome {
        Some(Outcome::Known(KnownOutcome::Decisive { winner })) => {
            Some(GameResult::won_by(Some(winner)))
        }
        Some(Outcome::Known(KnownOutcome::Draw)) => Some(GameResult::Draw),
        _ => None,
    };
    let result = game
        .tags
        .get("Result")
        .and_then(|r| result_of(r.trim()))
        .or(from_outcome)?;
    // Each move with the score of its comment, from the view of the side that played it.
    let mut pos = game.start.clone();
    let mut moves = Vec::new();
    for recorded in &game.main.moves {
        let mover = pos.turn();
        let score = recorded
            .comments
            .iter()
            .find_map(|c| parse_score(c))
            .map(|s| white_relative(s, mover));
        moves.push((recorded.mv, score));
        pos.play_unchecked(recorded.mv);
    }
    let mut start = game.start.clone();
    let mut moves = moves.into_iter().peekable();
    while let Some((m, None)) = moves.peek() {
        start.play_unchecked(*m);
        moves.next();
    }
    let mut scored = Vec::new();
    let mut cut = game.error.is_some();
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
    let mut done = Conversion::default();
    let mut written = Ok(());
    read_file("pgn", input, |game| {
        done.games_read += 1;
        match convert_game(&game) {
            Some((record, cut)) => {
                written = out.write_all(&record.to_bytes());
                done.games_written += 1;
                done.positions += record.moves.len() as u64;
                done.games_cut += u64::from(cut);
            }
            None => done.games_skipped += 1,
        }
        written.is_ok()
    })?;
    written.map(|()| done)
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
