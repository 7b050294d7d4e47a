//! Static evaluation: a tapered sum of material, piece placement, pawn structure, mobility,
//! king safety and threats, from the point of view of the side to move, scaled down in
//! endgames that are hard to win.
//!
//! Each concern has its own file; `weights.rs` holds every number. `nnue/` is the neural
//! network evaluation (inference; the search keeps its accumulators in `search::evaluation`).

pub mod fortress;
mod king;
pub mod nnue;
mod pawn_table;
mod pawns;
mod pieces;
mod score;
mod threats;
pub mod weights;

pub use pawns::pawn_attacks;
pub use score::{MAX_PHASE, S, s};

use shakmaty::{Bitboard, Board, Chess, Color, Position, Role, Square};

use weights::{WEIGHTS, Weights};

/// The static evaluation in centipawns, positive when the side to move stands better.
pub fn evaluate(pos: &Chess) -> i32 {
    from_mover(pos, &breakdown(pos), &WEIGHTS)
}

/// The evaluation under other weights, from White's point of view (for the tuner; it does
/// not use the pawn cache, which holds the engine's own weights).
pub fn white_eval_with(pos: &Chess, w: &Weights) -> i32 {
    let board = pos.board();
    let mover = from_mover(pos, &breakdown_from(pos, w, pawns::pawn_info(board, w)), w);
    if pos.turn() == Color::White {
        mover
    } else {
        -mover
    }
}

/// White's total turned to the side to move's point of view, with the tempo bonus; 0 in a
/// fortress (scale 0), whoever is to move.
fn from_mover(pos: &Chess, b: &Breakdown, w: &Weights) -> i32 {
    if b.scale == 0 {
        return 0;
    }
    let white = b.total();
    let mover = if pos.turn() == Color::White {
        white
    } else {
        -white
    };
    mover + w.tempo
}

/// The evaluation split into its terms, each from White's point of view.
#[derive(Debug, Clone, Copy, Default)]
pub struct Breakdown {
    pub material: S,
    pub placement: S,
    pub pawns: S,
    pub mobility: S,
    pub king_safety: S,
    pub threats: S,
    pub phase: i32,
    /// Endgame scale out of 128 (drawish material lowers it; 0 in a fortress, where the whole
    /// score is 0).
    pub scale: i32,
}

impl Breakdown {
    /// The tapered, scaled total from White's point of view, without tempo.
    pub fn total(&self) -> i32 {
        let sum = self.material
            + self.placement
            + self.pawns
            + self.mobility
            + self.king_safety
            + self.threats;
        if self.scale == 0 {
            return 0;
        }
        let eg = sum.eg * self.scale / 128;
        s(sum.mg, eg).taper(self.phase)
    }
}

/// Computes every term of the evaluation.
pub fn breakdown(pos: &Chess) -> Breakdown {
    breakdown_from(pos, &WEIGHTS, pawn_table::probe(pos.board()))
}

/// Every term, given the pawn structure's (computed with the same weights).
fn breakdown_from(pos: &Chess, w: &Weights, pawn_info: pawns::PawnInfo) -> Breakdown {
    let board = pos.board();
    let attack_maps = threats::AttackMaps::new(board);
    let mut b = Breakdown {
        phase: game_phase(board),
        pawns: pawn_info.structure,
        ..Breakdown::default()
    };
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        b.material += pieces::material(board, color, w) * sign;
        b.placement += pieces::placement(board, color, w) * sign;
        b.pawns += pawns::passers(board, color, pawn_info.passers, w) * sign;
        b.mobility += pieces::mobility(board, color, w) * sign;
        b.king_safety += king::safety(board, color, w) * sign;
        b.threats += threats::threats(board, color, &attack_maps, w) * sign;
    }
    b.scale = endgame_scale(pos, (b.material + b.pawns).eg, w);
    b
}

/// The game phase from the non-pawn material left (MAX_PHASE at the start, 0 with only pawns):
/// a knight or bishop counts 1, a rook 2, a queen 4. The trainer weighs the game result by it
/// too (`train --wdl-endgame`).
///
/// ```
/// use threefold::eval::{MAX_PHASE, game_phase};
/// use threefold::game::parse_fen;
/// use shakmaty::Position;
///
/// let rook_ending = parse_fen("R7/P5k1/8/1K6/8/8/8/r7 w - - 0 1").unwrap();
/// assert_eq!(game_phase(rook_ending.board()), 4);
/// assert_eq!(game_phase(shakmaty::Chess::default().board()), MAX_PHASE);
/// ```
pub fn game_phase(board: &Board) -> i32 {
    Role::ALL
        .iter()
        .map(|&r| board.by_role(r).count() as i32 * score::PHASE_WEIGHT[r as usize - 1])
        .sum::<i32>()
        .min(MAX_PHASE)
}

/// Scales endgames where the side ahead cannot usually win: a fortress or the material rule
/// ([`advantage_scale`]), or only a bishop each on squares of opposite colours.
fn endgame_scale(pos: &Chess, eg_balance: i32, w: &Weights) -> i32 {
    if only_opposite_bishops(pos.board()) {
        return w.opposite_bishops_scale;
    }
    let strong = if eg_balance >= 0 {
        Color::White
    } else {
        Color::Black
    };
    advantage_scale(pos, strong, w)
}

/// Out of 128: how much of its advantage `strong`, the side ahead, keeps. 0 when the defender
/// holds a fortress ([`fortress::holds`]): the position is a draw and scores 0 whoever is to
/// move. Otherwise the material rule ([`material_scale`]).
///
/// ```
/// use threefold::eval::{advantage_scale, weights::WEIGHTS};
/// use threefold::game::parse_fen;
/// use shakmaty::Color;
///
/// let scale = |fen: &str| advantage_scale(&parse_fen(fen).unwrap(), Color::White, &WEIGHTS);
/// assert_eq!(scale("R7/P5k1/1K6/6P1/8/8/8/r7 b - - 0 1"), 0); // rook in front of the a-pawn
/// assert_eq!(scale("8/8/8/3k4/8/8/2K5/R6r w - - 0 1"), 8); // rook against rook
/// assert_eq!(scale("8/8/8/3k4/8/8/P1K5/R6r w - - 0 1"), 128); // a pawn up
/// ```
pub fn advantage_scale(pos: &Chess, strong: Color, w: &Weights) -> i32 {
    if fortress::holds(pos, strong) {
        0
    } else {
        material_scale(pos.board(), strong, w)
    }
}

/// Out of 128: how much of its advantage `strong`, the side ahead, keeps by the material
/// alone. Without pawns it cannot win by material when it has at most a minor piece more:
/// 16. When neither side has a pawn and their pieces are worth the same to within less than a
/// knight (a rook each, queen against queen, rook against bishop), the position is level and
/// whatever edge a score shows is noise: 8, so that it reads 0.00 within 16 cp. Otherwise
/// 128 (nothing taken away). Piece values are the endgame values of `w`.
///
/// Both evaluations use it, through [`advantage_scale`]: the hand-written one on its endgame
/// terms, the search on the network's score ([`scale_network_score`]).
///
/// ```
/// use threefold::eval::{material_scale, weights::WEIGHTS};
/// use threefold::game::parse_fen;
/// use shakmaty::{Color, Position};
///
/// let scale = |fen: &str| material_scale(parse_fen(fen).unwrap().board(), Color::White, &WEIGHTS);
/// assert_eq!(scale("8/8/8/3k4/8/8/2K5/R6r w - - 0 1"), 8); // rook against rook
/// assert_eq!(scale("8/8/8/3k4/8/8/2K5/RB5r w - - 0 1"), 16); // rook and bishop against rook
/// assert_eq!(scale("8/8/8/3k4/8/8/2K5/Q6r w - - 0 1"), 128); // queen against rook
/// assert_eq!(scale("8/8/8/3k4/8/8/P1K5/R6r w - - 0 1"), 128); // a pawn up
/// ```
pub fn material_scale(board: &Board, strong: Color, w: &Weights) -> i32 {
    if (board.pawns() & board.by_color(strong)).any() {
        return 128;
    }
    let non_pawn = |c: Color| -> i32 {
        [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .iter()
            .map(|&r| {
                (board.by_role(r) & board.by_color(c)).count() as i32
                    * w.material[r as usize - 1].eg
            })
            .sum()
    };
    let ahead = non_pawn(strong) - non_pawn(!strong);
    if board.pawns().is_empty() && ahead.abs() < w.material[1].eg {
        8
    } else if ahead <= w.material[2].eg {
        16
    } else {
        128
    }
}

/// A network's score for the side to move of `pos`, scaled for the side the score favours
/// ([`advantage_scale`]: fortresses and the material rule, with the engine's own piece
/// values). The network is trained on searched scores and does not learn that a level
/// pawnless ending or a fortress is a draw; this is what the search evaluates with.
///
/// ```
/// use threefold::eval::scale_network_score;
/// use threefold::game::parse_fen;
///
/// let rooks = parse_fen("8/8/8/3k4/8/8/2K5/R6r w - - 0 1").unwrap();
/// assert_eq!(scale_network_score(&rooks, -11), 0);
/// assert_eq!(scale_network_score(&rooks, 40), 2);
/// let pawn_up = parse_fen("8/8/8/3k4/8/8/P1K5/R6r w - - 0 1").unwrap();
/// assert_eq!(scale_network_score(&pawn_up, 40), 40);
/// let fortress = parse_fen("R7/P5k1/1K6/6P1/8/8/8/r7 b - - 0 1").unwrap();
/// assert_eq!(scale_network_score(&fortress, -450), 0);
/// ```
pub fn scale_network_score(pos: &Chess, score: i32) -> i32 {
    let strong = if score >= 0 { pos.turn() } else { !pos.turn() };
    score * advantage_scale(pos, strong, &WEIGHTS) / 128
}

/// True when the only pieces besides kings and pawns are one bishop each, on squares of
/// opposite colours.
fn only_opposite_bishops(board: &Board) -> bool {
    let bishops = board.bishops();
    let others = board.knights() | board.rooks() | board.queens();
    others.is_empty()
        && (bishops & board.white()).count() == 1
        && (bishops & board.black()).count() == 1
        && (bishops & Bitboard::LIGHT_SQUARES).count() == 1
}

/// The rank of `sq` counted from `color`'s own side (0 = its back rank).
pub(crate) fn relative_rank(color: Color, sq: Square) -> usize {
    let r = sq.rank() as usize;
    if color == Color::White { r } else { 7 - r }
}

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, EnPassantMode};

    use super::*;

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("legal")
    }

    /// The same position with colours swapped and the board turned over.
    fn mirrored(pos: &Chess) -> Chess {
        pos.to_setup(EnPassantMode::Legal)
            .into_mirrored()
            .position(CastlingMode::Standard)
            .expect("legal")
    }

    #[test]
    fn colour_swapped_positions_evaluate_the_same() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
            "2r3k1/1p3ppp/p2b4/3Np3/1P2P3/P5P1/5P1P/3R2K1 b - - 0 25",
            "8/5k2/1p6/pP1p4/P2P4/4B3/5K2/2b5 w - - 0 40",
            "r3k2r/1pq2ppp/p1n1pn2/2b5/4P3/2N2N2/PPPQ1PPP/R3KB1R b KQkq - 3 11",
        ] {
            let pos = position(fen);
            assert_eq!(evaluate(&pos), evaluate(&mirrored(&pos)), "{fen}");
        }
    }

    #[test]
    fn the_tuner_view_agrees_with_the_engine() {
        let pos = position("2r3k1/1p3ppp/p2b4/3Np3/1P2P3/P5P1/5P1P/3R2K1 b - - 0 25");
        assert_eq!(white_eval_with(&pos, &WEIGHTS), -evaluate(&pos));
        let mut changed = WEIGHTS.clone();
        changed.tempo += 10;
        assert_eq!(white_eval_with(&pos, &changed), -evaluate(&pos) - 10);
    }

    #[test]
    fn a_knight_on_an_outpost_is_worth_more_than_one_a_pawn_can_chase() {
        // The e5 knight, defended by d4; in the second position Black's f-pawn can kick it.
        let outpost = breakdown(&position("4k3/p5p1/8/4N3/3P4/8/8/4K3 w - - 0 1"));
        let chased = breakdown(&position("4k3/p4p2/8/4N3/3P4/8/8/4K3 w - - 0 1"));
        assert!(outpost.placement.mg > chased.placement.mg);
    }

    #[test]
    fn a_pawn_attacking_a_rook_is_a_threat() {
        let threatened = breakdown(&position("4k3/8/3r4/4P3/8/8/8/4K3 w - - 0 1"));
        let safe = breakdown(&position("4k3/8/r7/4P3/8/8/8/4K3 w - - 0 1"));
        assert!(threatened.threats.mg > safe.threats.mg);
    }

    #[test]
    fn opposite_coloured_bishops_scale_the_endgame_down() {
        // White's bishop on d3 (a light square) against one on b6 (dark) or c6 (light).
        let opposite = breakdown(&position("4k3/8/1b6/8/3P4/2PB4/8/4K3 w - - 0 1"));
        let same = breakdown(&position("4k3/8/2b5/8/3P4/2PB4/8/4K3 w - - 0 1"));
        assert_eq!(opposite.scale, WEIGHTS.opposite_bishops_scale);
        assert_eq!(same.scale, 128);
    }

    #[test]
    fn a_passed_pawn_is_worth_more_with_the_enemy_king_far_away() {
        let far = breakdown(&position("k7/8/8/6P1/8/8/8/6K1 w - - 0 1"));
        let near = breakdown(&position("8/5k2/8/6P1/8/8/8/6K1 w - - 0 1"));
        assert!(far.pawns.eg > near.pawns.eg);
    }
}
