//! Whether a move gives check, told from the position before it, without playing it.
//!
//! The search asks this of every move it considers near the leaves, most of which it then
//! prunes: answering from the attack tables is cheaper than copying the position and playing
//! the move. A move gives check when the piece it leaves on its destination attacks the enemy
//! king (a direct check), or when the squares it empties open a line from one of the mover's
//! rooks, bishops or queens to that king (a discovered check). Castling, rare and with two
//! pieces moving, is played out.
//!
//! ```
//! use shakmaty::{CastlingMode, Chess, Position, fen::Fen};
//! use threefold::game::gives_check;
//!
//! // Black has just played d7-d5 beside White's pawn on e5.
//! let fen: Fen = "8/8/8/k2pP2R/8/8/8/4K3 w - d6 0 1".parse().unwrap();
//! let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
//! // Taking en passant empties d5 and e5: the rook on h5 checks the king on a5.
//! let en_passant = pos.legal_moves().into_iter().find(|m| m.is_en_passant()).unwrap();
//! assert!(gives_check(&pos, en_passant));
//! // Every move agrees with playing it out.
//! for m in pos.legal_moves() {
//!     let mut after = pos.clone();
//!     after.play_unchecked(m);
//!     assert_eq!(gives_check(&pos, m), after.is_check(), "{m}");
//! }
//! ```

use shakmaty::{Bitboard, Chess, Move, Position, Role, Square, attacks};

/// True when `m`, a legal move in `pos`, gives check.
pub fn gives_check(pos: &Chess, m: Move) -> bool {
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(!us) else {
        return false;
    };
    let (from, to, piece, emptied) = match m {
        Move::Normal {
            role,
            from,
            to,
            promotion,
            ..
        } => (from, to, promotion.unwrap_or(role), Bitboard::from(from)),
        Move::EnPassant { from, to } => {
            let captured = Square::from_coords(to.file(), from.rank());
            (from, to, Role::Pawn, Bitboard::from(from) | captured)
        }
        Move::Castle { .. } | Move::Put { .. } => {
            let mut after = pos.clone();
            after.play_unchecked(m);
            return after.is_check();
        }
    };
    let occupied = (board.occupied() & !emptied) | to;
    if attacks::attacks(to, piece.of(us), occupied).contains(king) {
        return true;
    }
    // The mover's sliders that now see the king, the moved piece aside (its new square was
    // tested above; its old one is empty).
    let sliders = (attacks::rook_attacks(king, occupied) & board.rooks_and_queens())
        | (attacks::bishop_attacks(king, occupied) & board.bishops_and_queens());
    (sliders & board.by_color(us) & !Bitboard::from(from)).any()
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, fen::Fen};

    use super::*;
    use crate::rng::Rng;

    /// Agrees with playing the move out, for every legal move of every position of random
    /// games from positions rich in discovered checks, en passant, promotions and castling.
    #[test]
    fn agrees_with_playing_the_move_in_random_games() {
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/8/8/k2pP2R/8/8/8/4K3 w - d6 0 1",
        ];
        let mut rng = Rng::new(7);
        let mut moves_checked = 0;
        let mut checks = 0;
        for fen in starts {
            let fen: Fen = fen.parse().expect("FEN");
            let start: Chess = fen.into_position(CastlingMode::Standard).expect("legal");
            for _game in 0..40 {
                let mut pos = start.clone();
                for _ply in 0..120 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    for &m in &moves {
                        let mut after = pos.clone();
                        after.play_unchecked(m);
                        assert_eq!(gives_check(&pos, m), after.is_check(), "{m} in {pos:?}");
                        moves_checked += 1;
                        checks += usize::from(after.is_check());
                    }
                    let pick = rng.below(moves.len() as u64) as usize;
                    pos.play_unchecked(moves[pick]);
                }
            }
        }
        assert!(
            moves_checked > 100_000 && checks > 1_000,
            "{moves_checked} {checks}"
        );
    }
}
