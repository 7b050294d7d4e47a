//! A written move resolved to the legal move it names, as leniently as python-chess reads
//! records: the capture mark may be missing (`Qd5` for a capture) or false (`Nxf3` for a quiet
//! move); what the move names (piece, squares, promotion) must still fit exactly one legal
//! move.
//!
//! ```
//! use shakmaty::{Chess, Position, san::San};
//! use threefold::record::san::resolve;
//! let pos = Chess::default();
//! let false_capture: San = "Nxf3".parse().unwrap();
//! assert_eq!(resolve(&pos, &false_capture).map(|m| m.to().to_string()), Some("f3".into()));
//! ```

use shakmaty::san::San;
use shakmaty::{Chess, Move};

/// The legal move of `pos` that `san` names: exactly, or else with its capture mark ignored
/// when that names one legal move. None when it names none or several.
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
