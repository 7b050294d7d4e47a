//! How moves and lines are written for readers: SAN with move numbers, as PGN and the
//! annotations of `analyse` and `threefold perpetual` show them.
//!
//! ```
//! use shakmaty::Chess;
//! use threefold::game::parse_uci_move;
//! use threefold::record::notation::numbered_line;
//! let pos = Chess::default();
//! let e4 = parse_uci_move(&pos, "e2e4").unwrap();
//! let mut after = pos.clone();
//! shakmaty::Position::play_unchecked(&mut after, e4);
//! let e5 = parse_uci_move(&after, "e7e5").unwrap();
//! assert_eq!(numbered_line(&pos, &[e4, e5]), "1.e4 e5");
//! assert_eq!(numbered_line(&after, &[e5]), "1...e5");
//! ```

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Move, Position};

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
}
