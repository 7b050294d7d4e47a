//! Every evaluation weight in one place, so that the tuner (`threefold tune`) can find and
//! change them.
//!
//! `Weights` lists the tuned weights; `WEIGHTS` holds their values and is written by
//! `threefold tune fit` (between the markers below). Arrays indexed by piece kind use the order
//! pawn, knight, bishop, rook, queen, king; arrays by rank count from the side's own back rank.

use super::score::{S, s};

/// A weight the tuner can read and change: a number, a pair, or an array of either.
pub trait Tunable {
    /// How many integers it holds.
    fn count(&self) -> usize;
    fn get(&self, i: usize) -> i32;
    fn set(&mut self, i: usize, value: i32);
    /// Its value as Rust source.
    fn rust(&self) -> String;
}

impl Tunable for i32 {
    fn count(&self) -> usize {
        1
    }
    fn get(&self, _: usize) -> i32 {
        *self
    }
    fn set(&mut self, _: usize, value: i32) {
        *self = value;
    }
    fn rust(&self) -> String {
        self.to_string()
    }
}

impl Tunable for S {
    fn count(&self) -> usize {
        2
    }
    fn get(&self, i: usize) -> i32 {
        if i == 0 { self.mg } else { self.eg }
    }
    fn set(&mut self, i: usize, value: i32) {
        if i == 0 {
            self.mg = value;
        } else {
            self.eg = value;
        }
    }
    fn rust(&self) -> String {
        format!("s({}, {})", self.mg, self.eg)
    }
}

impl<T: Tunable, const N: usize> Tunable for [T; N] {
    fn count(&self) -> usize {
        self.iter().map(Tunable::count).sum()
    }
    fn get(&self, mut i: usize) -> i32 {
        for item in self {
            if i < item.count() {
                return item.get(i);
            }
            i -= item.count();
        }
        0
    }
    fn set(&mut self, mut i: usize, value: i32) {
        for item in self.iter_mut() {
            if i < item.count() {
                return item.set(i, value);
            }
            i -= item.count();
        }
    }
    fn rust(&self) -> String {
        let items: Vec<String> = self.iter().map(Tunable::rust).collect();
        format!("[{}]", items.join(", "))
    }
}

/// Declares `Weights` with one field per weight, and the tuner's view of it: every integer by
/// index, with a name, and the whole as Rust source.
macro_rules! weights {
    ($($(#[doc = $doc:literal])* $name:ident: $ty:ty,)*) => {
        /// The evaluation's tunable weights.
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct Weights {
            $($(#[doc = $doc])* pub $name: $ty,)*
        }

        impl Weights {
            /// The fields as tunables, in declaration order, with their names.
            fn fields(&self) -> Vec<(&'static str, &dyn Tunable)> {
                vec![$((stringify!($name), &self.$name as &dyn Tunable),)*]
            }

            fn fields_mut(&mut self) -> Vec<&mut dyn Tunable> {
                vec![$(&mut self.$name as &mut dyn Tunable,)*]
            }
        }
    };
}

weights! {
    /// Material value of each piece kind.
    material: [S; 6],
    /// Bonus per step of distance from the board centre, by piece kind (negative = likes the
    /// centre).
    centrality: [S; 6],
    /// Piece-square adjustment by piece kind, for the square seen from the piece's own side
    /// with files mirrored onto a..d: index rank * 4 + file (`pieces::square_index`).
    psqt: [[S; 32]; 6],
    /// Pawn bonus by rank.
    pawn_advance: [S; 8],
    /// Extra bonus for a pawn on the d or e file on ranks 3 to 5.
    pawn_centre: S,
    /// Rook on its seventh rank.
    rook_seventh: S,
    /// King on its back two ranks (safety).
    king_home: S,
    /// King, per rank advanced from home.
    king_advanced: S,
    /// King on the central files c..f (less sheltered than a castled king).
    king_centre_files: S,
    /// Passed pawn by rank.
    passed: [S; 8],
    /// Passed pawn whose path to promotion is free of pieces, times 2/3 of its rank.
    passed_free_path: S,
    doubled: S,
    isolated: S,
    /// A pawn behind its neighbours whose next square an enemy pawn guards.
    backward: S,
    /// A pawn defended by a pawn, per defender, by rank.
    supported: [S; 8],
    /// A pawn with a pawn beside it on the same rank, by rank.
    phalanx: [S; 8],
    /// Per step of the enemy king's distance to the square in front of a passed pawn, times
    /// (rank - 2).
    passer_their_king_distance: S,
    /// The same for our own king.
    passer_own_king_distance: S,
    /// Knight or bishop on a pawn-defended square no enemy pawn can attack, by piece kind.
    outpost: [S; 6],
    /// An enemy knight, bishop, rook or queen attacked by a pawn.
    threat_by_pawn: S,
    /// An enemy rook or queen attacked by a knight or bishop.
    threat_by_minor: S,
    /// An enemy queen attacked by a rook.
    threat_by_rook: S,
    /// An enemy piece (not pawn or king) attacked and not defended.
    hanging: S,
    bishop_pair: S,
    rook_open_file: S,
    rook_semi_open_file: S,
    /// Per reachable square beyond the typical count (`MOBILITY_BASE`), by piece kind.
    mobility: [S; 6],
    /// Weight of an attack on the enemy king zone, per attacking piece kind.
    king_attack_units: [i32; 6],
    /// Middlegame penalty per (attack units)^2 / 16, capped at `KING_ATTACK_CAP`.
    king_attack_scale: i32,
    /// Own pawn one or two squares in front of a king on its back rank, on its file or beside.
    pawn_shield: S,
    /// Per file (the king's and its neighbours) with none of the king's own pawns.
    king_semi_open_file: S,
    /// Endgame scale (out of 128) with only opposite-coloured bishops and pawns.
    opposite_bishops_scale: i32,
    /// Bonus for the side to move.
    tempo: i32,
}

/// Typical number of reachable squares, per piece kind (mobility is measured from it).
pub const MOBILITY_BASE: [i32; 6] = [0, 4, 6, 6, 12, 0];
/// The most the king-zone attack penalty takes, in centipawns.
pub const KING_ATTACK_CAP: i32 = 500;

impl Weights {
    /// How many integers the tuner may change.
    pub fn count(&self) -> usize {
        self.fields().iter().map(|(_, f)| f.count()).sum()
    }

    /// The field holding integer `i`, and `i` within it.
    fn locate(&self, mut i: usize) -> Option<(usize, &'static str, usize)> {
        for (index, (name, field)) in self.fields().into_iter().enumerate() {
            if i < field.count() {
                return Some((index, name, i));
            }
            i -= field.count();
        }
        None
    }

    pub fn get(&self, i: usize) -> i32 {
        self.locate(i)
            .map_or(0, |(field, _, j)| self.fields()[field].1.get(j))
    }

    pub fn set(&mut self, i: usize, value: i32) {
        if let Some((field, _, j)) = self.locate(i) {
            self.fields_mut()[field].set(j, value);
        }
    }

    /// The field that holds integer `i`, such as `material`.
    pub fn field(&self, i: usize) -> &'static str {
        self.locate(i).map_or("", |(_, name, _)| name)
    }

    /// A readable name for integer `i`, such as `material[3]` (knight, endgame).
    pub fn name(&self, i: usize) -> String {
        self.locate(i)
            .map_or_else(String::new, |(_, name, j)| format!("{name}[{j}]"))
    }

    /// `WEIGHTS` as Rust source, as `threefold tune fit` writes it into this file.
    pub fn rust(&self) -> String {
        let mut text = String::from("#[rustfmt::skip]\npub const WEIGHTS: Weights = Weights {\n");
        for (name, field) in self.fields() {
            text += &format!("    {name}: {},\n", field.rust());
        }
        text + "};\n"
    }
}

/// The lines that open and close the part of this file the tuner rewrites.
const TUNED_BEGIN: &str = "\n// BEGIN TUNED WEIGHTS (written by `threefold tune fit`)\n";
const TUNED_END: &str = "\n// END TUNED WEIGHTS\n";

/// `source` (this file's text) with the values between the markers replaced by `weights`;
/// None when the markers are missing.
pub fn with_weights(source: &str, weights: &Weights) -> Option<String> {
    let begin = source.find(TUNED_BEGIN)? + TUNED_BEGIN.len();
    let end = source[begin..].find(TUNED_END)? + begin;
    Some(format!(
        "{}{}{}",
        &source[..begin],
        weights.rust(),
        &source[end + 1..]
    ))
}

// BEGIN TUNED WEIGHTS (written by `threefold tune fit`)
#[rustfmt::skip]
pub const WEIGHTS: Weights = Weights {
    material: [s(90, 115), s(320, 300), s(335, 320), s(470, 530), s(960, 940), s(0, 0)],
    centrality: [s(-2, -3), s(-6, -3), s(-1, 0), s(-6, 0), s(-1, -8), s(4, -4)],
    psqt: [[s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(6, 7), s(10, 6), s(3, 7), s(-10, -10), s(9, -2), s(1, 1), s(-7, -5), s(-9, 0), s(-9, 8), s(-7, -3), s(-10, -10), s(-8, -10), s(-7, 4), s(-9, -4), s(-10, -10), s(-10, -6), s(-4, -4), s(-10, -10), s(4, -6), s(-1, -10), s(-9, -10), s(7, 6), s(7, 7), s(10, 8), s(0, 0), s(0, 0), s(0, 0), s(0, 0)], [s(0, 0), s(2, -10), s(-10, 5), s(-10, -10), s(-10, 10), s(10, 10), s(-10, -10), s(-3, -10), s(-3, -10), s(8, 0), s(-9, -7), s(9, -5), s(10, 10), s(10, 10), s(-4, 3), s(10, 10), s(10, 8), s(10, 10), s(10, 2), s(5, 10), s(10, 10), s(10, 10), s(10, 10), s(10, -8), s(10, 9), s(10, 10), s(10, 10), s(10, 9), s(0, 0), s(0, 0), s(7, 8), s(0, 0)], [s(2, 7), s(10, -10), s(-10, -8), s(-10, -10), s(10, -10), s(10, -8), s(10, 10), s(0, 1), s(9, -8), s(10, 10), s(10, 10), s(-4, 10), s(10, -10), s(-2, 2), s(-7, 10), s(10, 2), s(10, 1), s(-7, 10), s(10, 5), s(10, -1), s(-9, -4), s(10, 0), s(-7, 10), s(-2, -1), s(-10, -8), s(-7, -4), s(10, 5), s(-3, 10), s(0, 0), s(0, 6), s(10, -8), s(-10, -10)], [s(3, -7), s(-2, 9), s(10, -3), s(10, 0), s(-10, -10), s(-10, -10), s(-10, -3), s(-10, -10), s(-10, 5), s(-10, 6), s(-10, -3), s(-10, 1), s(-10, 10), s(1, 10), s(10, 10), s(-10, 4), s(-1, 10), s(7, 10), s(10, 10), s(10, 10), s(10, -7), s(1, 7), s(-2, 10), s(10, 7), s(-1, -2), s(-9, 6), s(8, 4), s(8, 10), s(10, 9), s(9, 10), s(-4, 2), s(7, 10)], [s(-10, -10), s(-10, -10), s(-10, -10), s(1, -10), s(10, 8), s(-10, -7), s(10, -1), s(1, -4), s(-10, 0), s(-5, 10), s(3, 0), s(-8, -5), s(-6, 8), s(-10, 4), s(10, -8), s(3, 8), s(10, 10), s(0, 9), s(10, 7), s(8, 3), s(10, 9), s(10, 9), s(10, 10), s(10, 10), s(3, 5), s(9, -3), s(10, 10), s(4, -10), s(-4, 10), s(10, 10), s(8, 6), s(10, 10)], [s(-8, -1), s(10, 10), s(-10, -7), s(-3, -4), s(7, 7), s(-2, 10), s(-9, -2), s(10, -2), s(8, 1), s(7, 2), s(10, 10), s(9, 8), s(-8, -10), s(10, -1), s(9, 0), s(4, 8), s(-7, -10), s(3, -10), s(5, -9), s(6, -7), s(9, -9), s(9, 10), s(10, 10), s(8, 1), s(0, 0), s(9, 10), s(10, 10), s(7, 7), s(0, 0), s(0, 0), s(0, 0), s(0, 0)]],
    pawn_advance: [s(0, 0), s(0, 2), s(-4, -2), s(-4, 2), s(0, 9), s(7, 20), s(27, 48), s(0, 0)],
    pawn_centre: s(2, -10),
    rook_seventh: s(14, 25),
    king_home: s(10, 0),
    king_advanced: s(-8, 0),
    king_centre_files: s(-22, 4),
    passed: [s(0, 0), s(5, 18), s(-6, 10), s(0, 15), s(24, 32), s(48, 72), s(65, 115), s(0, 0)],
    passed_free_path: s(3, 15),
    doubled: s(-18, -12),
    isolated: s(-12, -14),
    backward: s(-7, -5),
    supported: [s(0, 0), s(0, 0), s(4, -2), s(9, -5), s(6, 11), s(26, 28), s(15, 25), s(0, 0)],
    phalanx: [s(0, 0), s(5, 8), s(0, 3), s(12, 10), s(20, 18), s(28, 26), s(30, 40), s(0, 0)],
    passer_their_king_distance: s(4, 10),
    passer_own_king_distance: s(-1, -7),
    outpost: [s(0, 0), s(32, 22), s(19, -4), s(0, 0), s(0, 0), s(0, 0)],
    threat_by_pawn: s(43, 43),
    threat_by_minor: s(30, 16),
    threat_by_rook: s(40, 27),
    hanging: s(15, 14),
    bishop_pair: s(40, 63),
    rook_open_file: s(35, 8),
    rook_semi_open_file: s(12, 18),
    mobility: [s(0, 0), s(6, 4), s(8, 2), s(6, 5), s(7, -8), s(0, 0)],
    king_attack_units: [0, 2, 1, 2, 4, 0],
    king_attack_scale: 11,
    pawn_shield: s(13, -3),
    king_semi_open_file: s(-6, 1),
    opposite_bishops_scale: 54,
    tempo: 7,
};
// END TUNED WEIGHTS

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_integer_can_be_read_changed_and_named() {
        let mut w = WEIGHTS.clone();
        assert_eq!(w.get(3), 300, "knight endgame value");
        assert_eq!(w.name(3), "material[3]");
        let last = w.count() - 1;
        assert_eq!(w.get(last), WEIGHTS.tempo);
        w.set(3, 301);
        assert_eq!(w.material[1].eg, 301);
        assert_ne!(w, WEIGHTS);
    }

    #[test]
    fn the_source_form_is_what_this_file_holds() {
        let file = include_str!("weights.rs");
        assert_eq!(with_weights(file, &WEIGHTS).as_deref(), Some(file));
        let mut changed = WEIGHTS.clone();
        changed.tempo = 123;
        let rewritten = with_weights(file, &changed).expect("markers");
        assert!(rewritten.contains("    tempo: 123,\n};\n// END TUNED WEIGHTS\n"));
        let digits_added = 3 - WEIGHTS.tempo.to_string().len();
        assert_eq!(rewritten.len(), file.len() + digits_added);
    }
}
