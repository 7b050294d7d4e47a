//! Static exchange evaluation: what a capture wins once both sides have made every recapture
//! on its square that pays, least valuable attacker first, counting pieces that stand behind
//! others on the same line (x-rays). Used to order captures and to skip losing ones, and to
//! notice a piece left en prise, which the static evaluation does not see.

use shakmaty::{Bitboard, Board, Chess, Color, Move, Position, Role, Square, attacks};

use super::params::exchange_value as value;
use crate::eval::pawn_attacks;

/// True when `m` wins at least `threshold` centipawns of material once the exchange on its
/// target square is played out (a negative threshold asks whether it loses at most that much).
pub fn wins_at_least(pos: &Chess, m: Move, threshold: i32) -> bool {
    let (from, target) = match m {
        Move::Normal { from, to, .. } => (from, to),
        Move::EnPassant { from, to } => (from, to),
        // Castling never puts material en prise by itself.
        Move::Castle { .. } | Move::Put { .. } => return threshold <= 0,
    };
    let board = pos.board();
    let us = pos.turn();
    // What the first capture wins, counting a promotion as the pawn becoming the new piece.
    let promotion_gain = m.promotion().map_or(0, |r| value(r) - value(Role::Pawn));
    let mut balance = m.capture().map_or(0, value) + promotion_gain - threshold;
    if balance < 0 {
        return false;
    }
    // Now assume the piece that moved is lost at once; if we are still ahead, done.
    let mover = m.promotion().unwrap_or(m.role());
    balance -= value(mover);
    if balance >= 0 {
        return true;
    }
    let mut occupied = board.occupied() ^ Bitboard::from(from);
    if let Move::EnPassant { .. } = m {
        // The pawn taken en passant is not on the target square.
        occupied ^= Bitboard::from(Square::from_coords(target.file(), from.rank()));
    }
    let mut attackers = all_attackers(board, target, occupied);
    let mut side = !us;
    loop {
        attackers &= occupied;
        let ours = attackers & board.by_color(side);
        let Some((role, square)) = least_valuable(board, ours) else {
            break;
        };
        occupied ^= Bitboard::from(square);
        // A slider that stood behind the piece just moved now sees the square.
        attackers |= x_rays(board, target, occupied);
        side = !side;
        // The side now to recapture loses `role` if it stops here; negamax the balance.
        balance = -balance - 1 - value(role);
        if balance >= 0 {
            // A king may only take last: with defenders left, it could not have taken.
            if role == Role::King && (attackers & occupied & board.by_color(side)).any() {
                side = !side;
            }
            break;
        }
    }
    // The side to move when the exchange stops has lost it.
    side != us
}

/// What the opponent threatens to win from the side to move at once: the most, over its pieces
/// other than pawns and the king, of a piece's value when it is attacked and not defended, or of
/// its value less its cheapest attacker's when a less valuable piece attacks it (0 when none is
/// en prise). A static evaluation does not see such a threat, so a margin that rests on one
/// (reverse futility) must leave room for it. Attacks by the king are left out: in endgames a
/// king is next to some undefended piece most of the time, and counting it there cost the
/// network a rook-ending perpetual (perpetual-024: 760,000 nodes to 0.00 became more than
/// 4,000,000; without the king's attacks 1,330,000).
///
/// ```
/// use shakmaty::{CastlingMode, Chess, fen::Fen};
/// use threefold::search::see::threatened_material;
///
/// let position = |fen: &str| -> Chess {
///     fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
/// };
/// // White's queen (950) on d4, defended by a pawn, is attacked by a knight (320): 630 at risk.
/// assert_eq!(threatened_material(&position("4k3/8/2n5/8/3Q4/4P3/8/4K3 w - - 0 1")), 630);
/// // Black's knight is defended and attacked only by the queen: nothing at risk.
/// assert_eq!(threatened_material(&position("4k3/3p4/2n5/8/8/8/8/2Q1K3 b - - 0 1")), 0);
/// // An undefended rook attacked by a bishop: the whole rook; a pawn would not count.
/// assert_eq!(threatened_material(&position("4k3/8/8/3r4/8/1B6/8/4K3 b - - 0 1")), 500);
/// assert_eq!(threatened_material(&position("4k3/8/8/3p4/8/1B6/8/4K3 b - - 0 1")), 0);
/// // A king's attack does not count.
/// assert_eq!(threatened_material(&position("8/8/8/3k4/3r4/8/8/4K3 b - - 0 1")), 0);
/// ```
pub fn threatened_material(pos: &Chess) -> i32 {
    let board = pos.board();
    let us = pos.turn();
    let occupied = board.occupied();
    let pieces = board.by_color(us) & !board.pawns() & !board.kings();
    let mut worst = 0;
    for sq in pieces {
        let attackers = board.attacks_to(sq, !us, occupied) & !board.kings();
        let Some(role) = board.role_at(sq).filter(|_| attackers.any()) else {
            continue;
        };
        let at_risk = if board.attacks_to(sq, us, occupied).is_empty() {
            value(role)
        } else {
            least_valuable(board, attackers)
                .map_or(0, |(cheapest, _)| (value(role) - value(cheapest)).max(0))
        };
        worst = worst.max(at_risk);
    }
    worst
}

/// Every square a piece of `color` attacks (its king included), whether or not a piece of its
/// own stands there: what the side to move's pieces flee from or walk into. Pawns by
/// `eval::pawn_attacks`, the other pieces by the attack tables.
///
/// ```
/// use shakmaty::{CastlingMode, Chess, Color, Position, Square, fen::Fen};
/// use threefold::search::see::attacked_squares;
///
/// let pos: Chess = "4k3/8/8/8/8/2p5/8/R3K3 w - - 0 1".parse::<Fen>().unwrap()
///     .into_position(CastlingMode::Standard).unwrap();
/// let black = attacked_squares(pos.board(), Color::Black);
/// // The c3 pawn attacks b2 and d2, the king d7, d8, e7, f7 and f8.
/// assert!(black.contains(Square::B2) && black.contains(Square::D2));
/// assert!(black.contains(Square::F7) && !black.contains(Square::C2));
/// assert_eq!(black.count(), 7);
/// // The rook's line along the first rank stops at its own king.
/// let white = attacked_squares(pos.board(), Color::White);
/// assert!(white.contains(Square::D1) && white.contains(Square::E1) && !white.contains(Square::G1));
/// ```
pub fn attacked_squares(board: &Board, color: Color) -> Bitboard {
    let occupied = board.occupied();
    let mut attacked = pawn_attacks(board.pawns() & board.by_color(color), color);
    for sq in board.by_color(color) & !board.pawns() {
        if let Some(piece) = board.piece_at(sq) {
            attacked |= attacks::attacks(sq, piece, occupied);
        }
    }
    attacked
}

fn all_attackers(board: &Board, target: Square, occupied: Bitboard) -> Bitboard {
    (board.attacks_to(target, Color::White, occupied)
        | board.attacks_to(target, Color::Black, occupied))
        & occupied
}

/// The sliders that attack `target` through the squares left empty in `occupied`.
fn x_rays(board: &Board, target: Square, occupied: Bitboard) -> Bitboard {
    (attacks::bishop_attacks(target, occupied) & board.bishops_and_queens())
        | (attacks::rook_attacks(target, occupied) & board.rooks_and_queens())
}

/// The least valuable piece among `candidates`, with its square.
fn least_valuable(board: &Board, candidates: Bitboard) -> Option<(Role, Square)> {
    Role::ALL.iter().find_map(|&role| {
        (candidates & board.by_role(role))
            .first()
            .map(|square| (role, square))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;
    use shakmaty::{CastlingMode, FromSetup};

    fn see(fen: &str, uci: &str, threshold: i32) -> bool {
        let setup = fen.parse::<Fen>().expect("fen").into_setup();
        let pos = Chess::from_setup(setup, CastlingMode::Standard).expect("legal position");
        let m = uci
            .parse::<UciMove>()
            .expect("uci")
            .to_move(&pos)
            .expect("legal move");
        wins_at_least(&pos, m, threshold)
    }

    #[test]
    fn a_free_pawn_is_won() {
        let fen = "4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1";
        assert!(see(fen, "d1d5", 100));
        assert!(!see(fen, "d1d5", 101));
    }

    #[test]
    fn a_defended_pawn_costs_the_rook() {
        let fen = "4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1";
        assert!(see(fen, "d1d5", -400));
        assert!(!see(fen, "d1d5", -399));
        assert!(!see(fen, "d1d5", 0));
    }

    #[test]
    fn a_rook_behind_the_rook_is_counted() {
        // Rxd5 Rxd5 Rxd5: the rook on d1 x-rays through the one on d2.
        let fen = "3r1k2/8/8/3p4/8/8/3R4/3RK3 w - - 0 1";
        assert!(see(fen, "d2d5", 100));
        assert!(!see(fen, "d2d5", 101));
        // Alone, the rook is lost for the pawn.
        let fen = "3r1k2/8/8/3p4/8/8/3R4/4K3 w - - 0 1";
        assert!(see(fen, "d2d5", -400));
        assert!(!see(fen, "d2d5", 0));
    }

    #[test]
    fn pawn_takes_knight_defended_by_pawn() {
        let fen = "4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1";
        assert!(see(fen, "e4d5", 220));
        assert!(!see(fen, "e4d5", 221));
    }

    #[test]
    fn a_king_recaptures_only_an_undefended_square() {
        // Qxd2 Rxd2 Kxd2: the queen for a pawn and a rook.
        let fen = "k2r4/8/8/8/8/2K5/3p4/3Q4 w - - 0 1";
        assert!(see(fen, "d1d2", 100 - 950 + 500));
        assert!(!see(fen, "d1d2", 100 - 950 + 500 + 1));
        // With the bishop on g5 also guarding d2 the king cannot take back: queen for a pawn.
        let fen = "k2r4/8/8/6b1/8/2K5/3p4/3Q4 w - - 0 1";
        assert!(see(fen, "d1d2", 100 - 950));
        assert!(!see(fen, "d1d2", 100 - 950 + 1));
    }

    #[test]
    fn a_quiet_move_onto_an_attacked_square_loses_the_piece() {
        // The c4 pawn attacks b3 and d3.
        let fen = "4k3/8/8/8/2p5/8/8/2N1K3 w - - 0 1";
        assert!(!see(fen, "c1b3", 0));
        assert!(see(fen, "c1b3", -320));
        assert!(see(fen, "c1e2", 0));
    }

    #[test]
    fn en_passant_wins_a_pawn() {
        let fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
        assert!(see(fen, "e5d6", 100));
    }
}
