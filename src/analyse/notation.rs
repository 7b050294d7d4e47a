//! How the analysis writes moves, lines and scores: SAN with move numbers, scores from White's
//! point of view in pawns (`+1.25`) or as mates (`#3`, `#-2`), as GUIs and lichess show them.

use shakmaty::Color;

pub use crate::record::notation::{move_number, numbered_line, san_line, side_name};
use crate::search::score::{UciScore, uci_score};

/// A search score of `side` (its own point of view, `side` to move) as White sees it, in UCI's
/// units: centipawns, or mate in moves, negative when White is mated. This is the one place a
/// score is turned to White's view and into a mate count, every rendering (`[%eval]`, JSON,
/// the verdicts' text) goes through it: the mate count is taken where the score is the side
/// to move's, as UCI counts it ([`uci_score`]), and only then turned, since a negated score is
/// no longer one of the side to move.
pub fn white_score(score: i32, side: Color) -> UciScore {
    match (uci_score(score), side) {
        (own, Color::White) => own,
        (UciScore::Centipawns(cp), Color::Black) => UciScore::Centipawns(-cp),
        (UciScore::MateIn(n), Color::Black) => UciScore::MateIn(-n),
    }
}

/// The `%eval` value of the lichess convention: pawns with two decimals, or `#N` / `#-N`.
pub fn eval_value(score: UciScore) -> String {
    match score {
        UciScore::Centipawns(cp) => format!("{:.2}", f64::from(cp) / 100.0),
        UciScore::MateIn(n) => format!("#{n}"),
    }
}

/// A score for the text of a verdict: as [`eval_value`], with a sign on positive pawns.
pub fn score_text(score: UciScore) -> String {
    match score {
        UciScore::Centipawns(cp) if cp > 0 => format!("+{}", eval_value(score)),
        _ => eval_value(score),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_read_as_lichess_writes_them() {
        use crate::search::score::{MATE, mated_in};
        let white = |score| eval_value(white_score(score, Color::White));
        let black = |score| eval_value(white_score(score, Color::Black));
        assert_eq!(white(35), "0.35");
        assert_eq!(white(-250), "-2.50");
        assert_eq!(black(80), "-0.80");
        assert_eq!(score_text(white_score(150, Color::White)), "+1.50");
        assert_eq!(score_text(white_score(MATE - 1, Color::White)), "#1");
        assert_eq!(white(MATE - 5), "#3");
        assert_eq!(white(mated_in(4)), "#-2");
        // Black to move: its mate in 1 and in 2 are White's #-1 and #-2; Black mated in 1 and
        // in 2 (plies 2 and 4) are White's #1 and #2.
        assert_eq!(black(MATE - 1), "#-1");
        assert_eq!(black(MATE - 3), "#-2");
        assert_eq!(black(mated_in(2)), "#1");
        assert_eq!(black(mated_in(4)), "#2");
    }
}
