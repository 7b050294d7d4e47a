//! Static evaluation: a tapered sum of material, piece placement, pawn structure, mobility and
//! king safety, from the point of view of the side to move.
//!
//! Each concern has its own file; `weights.rs` holds every number.

mod king;
mod pawns;
mod pieces;
mod score;
mod weights;

pub use score::{MAX_PHASE, S, s};

use shakmaty::{Board, Chess, Color, Position, Role, Square};

/// The static evaluation in centipawns, positive when the side to move stands better.
pub fn evaluate(pos: &Chess) -> i32 {
    let white = breakdown(pos).total();
    let from_mover = if pos.turn() == Color::White {
        white
    } else {
        -white
    };
    from_mover + weights::TEMPO
}

/// The evaluation split into its terms, each from White's point of view.
#[derive(Debug, Clone, Copy, Default)]
pub struct Breakdown {
    pub material: S,
    pub placement: S,
    pub pawns: S,
    pub mobility: S,
    pub king_safety: S,
    pub phase: i32,
    /// Endgame scale out of 128 (drawish material lowers it).
    pub scale: i32,
}

impl Breakdown {
    /// The tapered, scaled total from White's point of view, without tempo.
    pub fn total(&self) -> i32 {
        let sum = self.material + self.placement + self.pawns + self.mobility + self.king_safety;
        let eg = sum.eg * self.scale / 128;
        s(sum.mg, eg).taper(self.phase)
    }
}

/// Computes every term of the evaluation.
pub fn breakdown(pos: &Chess) -> Breakdown {
    let board = pos.board();
    let mut b = Breakdown {
        phase: game_phase(board),
        ..Breakdown::default()
    };
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        b.material += pieces::material(board, color) * sign;
        b.placement += pieces::placement(board, color) * sign;
        b.pawns += pawns::structure(board, color) * sign;
        b.mobility += pieces::mobility(board, color) * sign;
        b.king_safety += king::safety(board, color) * sign;
    }
    b.scale = endgame_scale(board, (b.material + b.pawns).eg);
    b
}

/// The game phase from the non-pawn material left (MAX_PHASE at the start, 0 with only pawns).
fn game_phase(board: &Board) -> i32 {
    Role::ALL
        .iter()
        .map(|&r| board.by_role(r).count() as i32 * score::PHASE_WEIGHT[r as usize - 1])
        .sum::<i32>()
        .min(MAX_PHASE)
}

/// Scales endgames where the side ahead cannot usually win: no pawns and at most a minor piece
/// more than the other side.
fn endgame_scale(board: &Board, eg_balance: i32) -> i32 {
    let strong = if eg_balance >= 0 {
        Color::White
    } else {
        Color::Black
    };
    let pawns = (board.pawns() & board.by_color(strong)).count();
    if pawns > 0 {
        return 128;
    }
    let non_pawn = |c: Color| -> i32 {
        [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .iter()
            .map(|&r| {
                (board.by_role(r) & board.by_color(c)).count() as i32
                    * weights::MATERIAL[r as usize - 1].eg
            })
            .sum()
    };
    if non_pawn(strong) - non_pawn(!strong) <= weights::MATERIAL[2].eg {
        16
    } else {
        128
    }
}

/// The rank of `sq` counted from `color`'s own side (0 = its back rank).
pub(crate) fn relative_rank(color: Color, sq: Square) -> usize {
    let r = sq.rank() as usize;
    if color == Color::White { r } else { 7 - r }
}
