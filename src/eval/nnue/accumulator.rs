//! Accumulators: the feature layer's output (before the activation) for both perspectives,
//! computed from scratch ([`Accumulator::refresh`]) or from the parent position's by the
//! rows a move turns on and off ([`Accumulator::update`]). With mirrored inputs, a king move
//! between the d- and e-files computes its side's perspective from scratch.

use shakmaty::{Board, Chess, Color, Position};

use super::features::{self, Changes};
use super::network::Network;
use super::simd;

/// The feature layer's output for White's and Black's perspectives (N values each).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accumulator {
    white: Vec<i16>,
    black: Vec<i16>,
    /// Whether each perspective (White's, Black's) sees the board mirrored.
    mirrored: [bool; 2],
}

impl Accumulator {
    /// An accumulator of the network's size, holding zeros until refreshed or updated.
    pub fn new(net: &Network) -> Accumulator {
        Accumulator {
            white: vec![0; net.hidden()],
            black: vec![0; net.hidden()],
            mirrored: [false; 2],
        }
    }

    /// The accumulator of `pos`, computed from scratch.
    pub fn of(net: &Network, pos: &Chess) -> Accumulator {
        let mut acc = Accumulator::new(net);
        acc.refresh(net, pos);
        acc
    }

    /// The values for one perspective.
    pub fn perspective(&self, color: Color) -> &[i16] {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    fn resize(&mut self, net: &Network) {
        self.white.resize(net.hidden(), 0);
        self.black.resize(net.hidden(), 0);
    }

    /// Recomputes both perspectives from the pieces of `pos`.
    pub fn refresh(&mut self, net: &Network, pos: &Chess) {
        self.resize(net);
        for color in Color::ALL {
            self.refresh_perspective(net, pos.board(), color);
        }
    }

    /// Recomputes one perspective from the pieces of `board`.
    fn refresh_perspective(&mut self, net: &Network, board: &Board, color: Color) {
        let mirrored = net.layout().mirrors(board, color);
        self.mirrored[color as usize] = mirrored;
        let out = match color {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        };
        out.copy_from_slice(net.feature_biases());
        for (sq, piece) in board {
            let feature = features::oriented(features::index(color, piece, sq), mirrored);
            simd::add_assign(out, net.feature_row(feature));
        }
    }

    /// Makes this the accumulator after a move: `parent`'s (the position before the move)
    /// with the move's [`Changes`] applied. Writes into `self` without allocating (once it
    /// has the network's size), so a search keeps one accumulator a ply and never undoes.
    pub fn update(&mut self, parent: &Accumulator, net: &Network, changes: &Changes) {
        self.resize(net);
        for color in Color::ALL {
            let mirrored = parent.mirrored[color as usize];
            if let Some(board) = changes.king_crossing()
                && net.layout().mirrors(board, color) != mirrored
            {
                self.refresh_perspective(net, board, color);
                continue;
            }
            self.mirrored[color as usize] = mirrored;
            let (out, from) = match color {
                Color::White => (&mut self.white, &parent.white),
                Color::Black => (&mut self.black, &parent.black),
            };
            let row = |&(piece, sq)| {
                net.feature_row(features::oriented(
                    features::index(color, piece, sq),
                    mirrored,
                ))
            };
            let (added, removed) = (changes.added(), changes.removed());
            match (added.first(), removed.first()) {
                (Some(add), Some(sub)) => simd::add_sub(out, from, row(add), row(sub)),
                _ => out.copy_from_slice(from),
            }
            let skip = usize::from(!added.is_empty() && !removed.is_empty());
            for add in &added[skip..] {
                simd::add_assign(out, row(add));
            }
            for sub in &removed[skip..] {
                simd::sub_assign(out, row(sub));
            }
        }
    }
}
