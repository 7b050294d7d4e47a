//! A pair of middlegame and endgame values, blended by the game phase.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// Middlegame and endgame value of an evaluation term, in centipawns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct S {
    pub mg: i32,
    pub eg: i32,
}

/// Shorthand constructor used by the weight tables.
pub const fn s(mg: i32, eg: i32) -> S {
    S { mg, eg }
}

/// Phase weight of each piece kind (pawn, knight, bishop, rook, queen, king).
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The phase of the starting material: 4 minors, 4 rooks, 2 queens.
pub const MAX_PHASE: i32 = 24;

impl S {
    /// Blends the pair by `phase` (MAX_PHASE = pure middlegame, 0 = pure endgame).
    pub fn taper(self, phase: i32) -> i32 {
        let phase = phase.clamp(0, MAX_PHASE);
        (self.mg * phase + self.eg * (MAX_PHASE - phase)) / MAX_PHASE
    }
}

impl Add for S {
    type Output = S;
    fn add(self, o: S) -> S {
        s(self.mg + o.mg, self.eg + o.eg)
    }
}

impl Sub for S {
    type Output = S;
    fn sub(self, o: S) -> S {
        s(self.mg - o.mg, self.eg - o.eg)
    }
}

impl AddAssign for S {
    fn add_assign(&mut self, o: S) {
        *self = *self + o;
    }
}

impl SubAssign for S {
    fn sub_assign(&mut self, o: S) {
        *self = *self - o;
    }
}

impl Neg for S {
    type Output = S;
    fn neg(self) -> S {
        s(-self.mg, -self.eg)
    }
}

impl Mul<i32> for S {
    type Output = S;
    fn mul(self, k: i32) -> S {
        s(self.mg * k, self.eg * k)
    }
}

impl std::ops::Div<i32> for S {
    type Output = S;
    fn div(self, k: i32) -> S {
        s(self.mg / k, self.eg / k)
    }
}
