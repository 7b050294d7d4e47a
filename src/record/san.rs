//! A written move resolved to the legal move it names, as leniently as python-chess reads
//! records: the capture mark may be missing (`Qd5` for a capture) or false (`Nxf3` for a quiet
//! move); what the move names (piece, squares, promotion) must still fit exactly one legal
//! move. A move given by its two squares alone names whatever stands there (`g1f3` is the
//! knight's move, `e1g1` castling), as in UCI.
//!
//! ```
//! use shakmaty::{Chess, Position, san::San};
//! use threefold::record::san::resolve;
//! let pos = Chess::default();
//! let false_capture: San = "Nxf3".parse().unwrap();
//! assert_eq!(resolve(&pos, &false_capture).map(|m| m.to().to_string()), Some("f3".into()));
//! let squares: San = "g1f3".parse().unwrap();
//! let knight: San = "Nf3".parse().unwrap();
//! assert_eq!(resolve(&pos, &squares), knight.to_move(&pos).ok());
//! ```

use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Role, Square};

/// The legal move of `pos` that `san` names: exactly, or as its two squares name it, or else
/// with its capture mark ignored when that names one legal move. None when it names none or
/// several.
pub fn resolve(pos: &Chess, san: &San) -> Option<Move> {
    if let Ok(m) = san.to_move(pos) {
        return Some(m);
    }
    let San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    } = *san
    else {
        return None;
    };
    // Both squares given and no piece letter: the move from that square, whatever moves.
    if let (Role::Pawn, Some(file), Some(rank)) = (role, file, rank) {
        let uci = UciMove::Normal {
            from: Square::from_coords(file, rank),
            to,
            promotion,
        };
        if let Ok(m) = uci.to_move(pos) {
            return Some(m);
        }
    }
    San::Normal {
        role,
        file,
        rank,
        capture: !capture,
        to,
        promotion,
    }
    .to_move(pos)
    .ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::parse_fen;
    use shakmaty::CastlingMode;

    /// The move `written` names in `fen`, in UCI, or None.
    fn read(fen: &str, written: &str) -> Option<String> {
        let pos = parse_fen(fen).expect("test FEN");
        let san: San = written.parse().expect("SAN syntax");
        resolve(&pos, &san).map(|m| m.to_uci(CastlingMode::Standard).to_string())
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn two_squares_name_any_piece_as_in_uci() {
        assert_eq!(read(START, "g1f3").as_deref(), Some("g1f3"));
        assert_eq!(read(START, "e2e4").as_deref(), Some("e2e4"));
        let castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        assert_eq!(read(castle, "e1g1").as_deref(), Some("e1g1"));
        assert_eq!(read(castle, "e8g8"), None, "not White's piece");
        assert_eq!(read(START, "g1e2"), None, "no such move");
    }

    #[test]
    fn a_false_capture_mark_is_ignored_only_when_one_move_fits() {
        assert_eq!(read(START, "Nxf3").as_deref(), Some("g1f3"));
        // Knights on b1 and f3 can both go to d2: `Nxd2` (nothing there to take) fits two
        // legal moves once its mark is ignored, so it names none.
        let two = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
        assert_eq!(read(two, "Nxd2"), None);
        assert_eq!(read(two, "Nbxd2").as_deref(), Some("b1d2"));
        // A missing mark on a real capture.
        let capture = "4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1";
        assert_eq!(read(capture, "Qd5").as_deref(), Some("d1d5"));
    }
}
