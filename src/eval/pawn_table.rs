//! A per-thread cache of `PawnInfo`, keyed by where the pawns stand: pawn structures repeat
//! across most nodes of a search, so the pawn loop rarely runs.

use std::cell::RefCell;

use shakmaty::{Bitboard, Board, Color};

use super::pawns::{PawnInfo, pawn_info};
use super::weights::WEIGHTS;

/// Entries per thread (a power of two).
const ENTRIES: usize = 1 << 14;

/// An entry holds the full placement it was computed for, so a hit is never a collision.
#[derive(Clone, Copy)]
struct Entry {
    white: Bitboard,
    black: Bitboard,
    info: PawnInfo,
}

/// No position has a pawn on every square: an entry that cannot match anything.
const EMPTY: Entry = Entry {
    white: Bitboard::FULL,
    black: Bitboard::FULL,
    info: PawnInfo {
        structure: super::score::s(0, 0),
        passers: Bitboard::EMPTY,
    },
};

thread_local! {
    static TABLE: RefCell<Vec<Entry>> = RefCell::new(vec![EMPTY; ENTRIES]);
}

/// The pawn structure of `board` under the engine's weights, from the cache when the same
/// pawns were seen before.
pub fn probe(board: &Board) -> PawnInfo {
    let white = board.pawns() & board.by_color(Color::White);
    let black = board.pawns() & board.by_color(Color::Black);
    let index = slot_index(white, black);
    TABLE.with(|table| {
        let mut table = table.borrow_mut();
        let entry = &mut table[index];
        if entry.white != white || entry.black != black {
            *entry = Entry {
                white,
                black,
                info: pawn_info(board, &WEIGHTS),
            };
        }
        entry.info
    })
}

/// Mixes the two placements into a table index (multiplicative hashing).
fn slot_index(white: Bitboard, black: Bitboard) -> usize {
    let mixed = (u64::from(white).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ u64::from(black).wrapping_mul(0xc2b2_ae3d_27d4_eb4f))
    .rotate_left(17)
    .wrapping_mul(0x1656_67b1_9e37_79f9);
    (mixed >> (64 - ENTRIES.trailing_zeros())) as usize
}

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position};

    use super::*;

    #[test]
    fn the_cache_answers_as_the_pawn_loop_does() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "8/5k2/1p6/pP1p4/P2P4/8/5K2/8 w - - 0 1",
            "4k3/2p5/8/3P4/8/8/6P1/4K3 b - - 0 1",
        ] {
            let pos: Chess = fen
                .parse::<Fen>()
                .expect("fen")
                .into_position(CastlingMode::Standard)
                .expect("legal");
            let direct = pawn_info(pos.board(), &WEIGHTS);
            for _ in 0..2 {
                let cached = probe(pos.board());
                assert_eq!(cached.structure, direct.structure);
                assert_eq!(cached.passers, direct.passers);
            }
        }
    }
}
