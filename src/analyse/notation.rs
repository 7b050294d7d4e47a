//! How the analysis writes moves, lines and scores: SAN with move numbers, scores from White's
//! point of view in pawns (`+1.25`) or as mates (`#3`, `#-2`), as GUIs and lichess show them.

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Move, Position};

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

/// The SAN of each move of `line` played from `pos`; stops at the first illegal move.
pub fn san_line(pos: &Chess, line: &[Move]) -> Vec<String> {
    let mut pos = pos.clone();
    let mut sans = Vec::with_capacity(line.len());
    for &m in line {
        if !pos.is_legal(m) {
            break;
        }
        sans.push(SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
    }
    sans
}

/// The move number prefix of a move by the side to move in `pos`: `12.` or `12...`.
pub fn move_number(pos: &Chess) -> String {
    match pos.turn() {
        Color::White => format!("{}.", pos.fullmoves()),
        Color::Black => format!("{}...", pos.fullmoves()),
    }
}

/// `line` from `pos` as readers write it: `25...Qb5 26.Bf1 Qc6`.
pub fn numbered_line(pos: &Chess, line: &[Move]) -> String {
    let sans = san_line(pos, line);
    let mut text = String::new();
    let mut turn = pos.turn();
    let mut number = pos.fullmoves().get();
    for (i, san) in sans.iter().enumerate() {
        if i > 0 {
            text.push(' ');
        }
        match turn {
            Color::White => text.push_str(&format!("{number}.{san}")),
            Color::Black if i == 0 => text.push_str(&format!("{number}...{san}")),
            Color::Black => text.push_str(san),
        }
        if turn == Color::Black {
            number += 1;
        }
        turn = !turn;
    }
    text
}

/// "White" or "Black".
pub fn side_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{parse_fen, parse_uci_move};

    #[test]
    fn lines_are_numbered_from_the_side_to_move() {
        let pos = parse_fen("2b1nrk1/p2p1npp/2q1p3/2N5/5P2/P5P1/1P3QBP/R3K2R b KQ - 1 25")
            .expect("test FEN");
        let m1 = parse_uci_move(&pos, "c6b5").expect("legal");
        let mut after = pos.clone();
        after.play_unchecked(m1);
        let m2 = parse_uci_move(&after, "g2f1").expect("legal");
        assert_eq!(numbered_line(&pos, &[m1, m2]), "25...Qb5 26.Bf1");
    }

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
