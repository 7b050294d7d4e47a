//! Training positions: read from `threefold datagen` files (through `data::format`),
//! filtered by `data::filter::is_quiet`, turned into sparse feature lists, and split into a
//! training and a held-out validation set by game (positions of one game are alike, so a
//! game's positions all go to one side).

use std::path::PathBuf;

use shakmaty::{Chess, Color, Position};

use crate::data::filter::is_quiet;
use crate::data::format::{self, GameRecord, GameResult, ReadError};
use crate::eval::nnue::InputLayout;
use crate::eval::{self, MAX_PHASE, nnue};
use crate::rng::{Rng, mix};

/// The most pieces a position has.
const MAX_PIECES: usize = 32;
/// Validation positions kept as positions too, to compare the quantised net with the float one.
const CHECK_POSITIONS: usize = 2_000;

/// One training position: its features from White's perspective, the side to move, the
/// search score and the game's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sample {
    features: [u16; MAX_PIECES],
    count: u8,
    black_to_move: bool,
    /// Whether a mirrored network mirrors White's perspective (bit 0) and Black's (bit 1):
    /// that side's king stands on the e- to h-files.
    mirrors: u8,
    /// White-relative centipawns.
    score: i16,
    /// For White: 0 loss, 1 draw, 2 win.
    result: u8,
    /// The material left, as [`eval::game_phase`] counts it (0 to [`MAX_PHASE`]).
    phase: u8,
}

/// How much of the training target is the game's result (the rest is the search score), by
/// the material left: `full` with the starting material or more, `bare` with kings and pawns
/// only, and in between in proportion to the game phase ([`eval::game_phase`]). The search
/// score at datagen's depth misses what only the end of the game shows, most of all in
/// endgames (fortresses, rook endings a pawn up), while a middlegame's result depends on many
/// moves still to come. (Measured: a weight that differs by phase stretches the won endgames'
/// scores and lost to the constant one; `nnue/NETS.md`.)
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ResultWeight {
    pub full: f32,
    pub bare: f32,
}

impl ResultWeight {
    /// The same weight at every phase.
    pub fn constant(weight: f32) -> ResultWeight {
        ResultWeight {
            full: weight,
            bare: weight,
        }
    }

    /// The weight at `phase` (0 to [`MAX_PHASE`]).
    ///
    /// ```
    /// use threefold::train::data::ResultWeight;
    ///
    /// let w = ResultWeight { full: 0.0, bare: 0.6 };
    /// assert_eq!(w.at(24), 0.0);
    /// assert_eq!(w.at(0), 0.6);
    /// assert!((w.at(12) - 0.3).abs() < 1e-6);
    /// ```
    pub fn at(&self, phase: u8) -> f32 {
        let full = MAX_PHASE as u8;
        let share = f32::from(phase.min(full)) / f32::from(full);
        self.bare + (self.full - self.bare) * share
    }
}

impl Sample {
    /// The sample of `pos`, with a White-relative score and the game's result.
    pub fn new(pos: &Chess, white_score: i16, result: GameResult) -> Sample {
        let mut features = [0u16; MAX_PIECES];
        let mut count = 0;
        for (piece, sq) in nnue::pieces(pos).take(MAX_PIECES) {
            features[count] = nnue::index(Color::White, piece, sq) as u16;
            count += 1;
        }
        Sample {
            features,
            count: count as u8,
            black_to_move: pos.turn() == Color::Black,
            mirrors: u8::from(InputLayout::Mirrored.mirrors(pos.board(), Color::White))
                | u8::from(InputLayout::Mirrored.mirrors(pos.board(), Color::Black)) << 1,
            score: white_score,
            result: result.code(),
            phase: eval::game_phase(pos.board()) as u8,
        }
    }

    /// The features of the side to move's perspective and of the other side's for a network
    /// of `layout`, written into the two buffers; returns how many there are (the same for
    /// both).
    pub fn perspectives(
        &self,
        layout: InputLayout,
        us: &mut [usize; 32],
        them: &mut [usize; 32],
    ) -> usize {
        let count = usize::from(self.count);
        let mirrored = layout == InputLayout::Mirrored;
        let (white_mirrored, black_mirrored) = (
            mirrored && self.mirrors & 1 != 0,
            mirrored && self.mirrors & 2 != 0,
        );
        for (i, &f) in self.features[..count].iter().enumerate() {
            let plain = usize::from(f);
            let white = nnue::oriented(plain, white_mirrored);
            let black = nnue::oriented(nnue::other_perspective(plain), black_mirrored);
            (us[i], them[i]) = if self.black_to_move {
                (black, white)
            } else {
                (white, black)
            };
        }
        count
    }

    /// The training target for the side to move: `w * result + (1 - w) * sigmoid(score /
    /// scale)`, with `w` the result's weight at this position's phase.
    pub fn target(&self, weight: &ResultWeight, scale: f32) -> f32 {
        let wdl = weight.at(self.phase);
        let (result, score) = if self.black_to_move {
            (2 - self.result, -self.score)
        } else {
            (self.result, self.score)
        };
        let result = f32::from(result) / 2.0;
        wdl * result + (1.0 - wdl) * sigmoid(f32::from(score) / scale)
    }
}

pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// What was read.
#[derive(Debug, Default)]
pub struct Dataset {
    pub train: Vec<Sample>,
    pub validation: Vec<Sample>,
    /// The first validation positions as positions (for the quantisation check at the end).
    pub check: Vec<Chess>,
    pub files: usize,
    pub games: usize,
    /// Positions in the games, before the quiet filter.
    pub positions: usize,
}

/// Reads every game of the files; each game goes to validation with probability
/// `validation` (see [`is_held_out`]). Stops adding games once `max_positions` quiet positions
/// are read. A record cut short at the end of a file (a generator still writing it) is skipped
/// with a warning.
pub fn load(
    files: &[PathBuf],
    validation: f64,
    seed: u64,
    max_positions: usize,
) -> Result<Dataset, String> {
    let mut data = Dataset::default();
    for path in files {
        if data.train.len() + data.validation.len() >= max_positions {
            break;
        }
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut file = std::io::BufReader::new(
            std::fs::File::open(path)
                .map_err(|e| format!("cannot open {}: {e}", path.display()))?,
        );
        let mut index = 0;
        let (_, error) = format::read_games(&mut file, |game| {
            if data.train.len() + data.validation.len() < max_positions {
                let held_out = is_held_out(seed, &name, index, validation);
                add_game(&mut data, &game, held_out);
            }
            index += 1;
        });
        data.files += 1;
        match error {
            None => {}
            Some(ReadError::Truncated) => log::warn!(
                "{}: the last game record is cut short (still being written?); skipped",
                path.display()
            ),
            Some(e) => return Err(format!("{}: {e}", path.display())),
        }
    }
    Ok(data)
}

/// Whether game `index` (from 0) of the file named `file_name` is held out for validation, with
/// probability `validation`. The choice depends on the seed, the file's name and the game's
/// place in it, and on nothing else: the same games stay held out when batches are added,
/// removed or reached through links in another directory, and when a batch grows, so the
/// validation losses of nets trained on different data compare on the games they share.
///
/// ```
/// use threefold::train::data::is_held_out;
/// let a = is_held_out(1, "s41-t0.tfd", 17, 0.1);
/// assert_eq!(a, is_held_out(1, "s41-t0.tfd", 17, 0.1));
/// let share = (0..10_000).filter(|&i| is_held_out(1, "s41-t0.tfd", i, 0.1)).count();
/// assert!((800..1_200).contains(&share), "{share}");
/// ```
pub fn is_held_out(seed: u64, file_name: &str, index: u64, validation: f64) -> bool {
    // FNV-1a over the name, then the seed and the game's index mixed in.
    let name = file_name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let draw = mix(name ^ mix(seed.wrapping_add(index.wrapping_mul(0x9e37_79b9_7f4a_7c15))));
    ((draw % 1_000_000) as f64) < validation * 1_000_000.0
}

fn add_game(data: &mut Dataset, game: &GameRecord, held_out: bool) {
    data.games += 1;
    for (pos, m, score) in game.positions() {
        data.positions += 1;
        if !is_quiet(&pos, m, score) {
            continue;
        }
        let sample = Sample::new(&pos, score, game.result);
        if held_out {
            data.validation.push(sample);
            if data.check.len() < CHECK_POSITIONS {
                data.check.push(pos);
            }
        } else {
            data.train.push(sample);
        }
    }
}

/// Shuffles in place (Fisher-Yates).
pub fn shuffle<T>(items: &mut [T], rng: &mut Rng) {
    for i in (1..items.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::parse_fen;

    fn sample(fen: &str, white_score: i16, result: GameResult) -> Sample {
        Sample::new(&parse_fen(fen).expect("fen"), white_score, result)
    }

    #[test]
    fn the_result_weighs_by_the_material_left() {
        let weight = ResultWeight {
            full: 0.0,
            bare: 1.0,
        };
        // Kings and pawns: the target is the result alone, for the side to move.
        let pawns = sample("8/5k2/8/8/4PK2/8/8/8 b - - 0 1", 400, GameResult::Draw);
        assert_eq!(pawns.target(&weight, 400.0), 0.5);
        let pawns = sample("8/5k2/8/8/4PK2/8/8/8 b - - 0 1", 400, GameResult::WhiteWins);
        assert_eq!(pawns.target(&weight, 400.0), 0.0);
        // All the pieces: the score alone, whatever the result.
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let full = sample(start, 400, GameResult::BlackWins);
        assert!((full.target(&weight, 400.0) - sigmoid(1.0)).abs() < 1e-6);
        // A rook ending (phase 4 of 24): a sixth of the way from the result to the score.
        let rooks = sample("R7/P5k1/8/1K6/8/8/8/r7 w - - 0 1", 400, GameResult::Draw);
        let expected = (5.0 / 6.0) * 0.5 + (1.0 / 6.0) * sigmoid(1.0);
        assert!((rooks.target(&weight, 400.0) - expected).abs() < 1e-6);
        // A constant weight ignores the material.
        let half = ResultWeight::constant(0.5);
        let expected = 0.5 * 0.5 + 0.5 * sigmoid(1.0);
        assert!((rooks.target(&half, 400.0) - expected).abs() < 1e-6);
    }
}
