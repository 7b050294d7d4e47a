//! Texel's method: with `sigmoid(e) = 1 / (1 + 10^(-k·e/400))`, find the weights that minimise
//! the mean of `(result - sigmoid(eval))²` over labelled positions. First `k` is fitted to the
//! current weights (so the scale of centipawns is kept), then each integer weight in turn is
//! moved by one if that lowers the error, pass after pass, until a pass changes nothing or
//! `patience` passes in a row fail to lower the held-out error; the weights kept are those of
//! the pass with the lowest held-out error.
//!
//! A weight that fewer than `min_support` training positions depend on is left as it is: with
//! few positions (two pawns side by side on the seventh rank, say) the fit would chase their
//! results to absurd values, since a sigmoid already saturated costs nothing to push further.
//!
//! Each weight is tried only on the positions whose evaluation depends on it (found once, by
//! moving the weight by 100), so a piece-square entry costs a fraction of a full pass. Fields
//! named in `frozen_fields` are not fitted at all (say `material`, which the search's pruning
//! margins are scaled to).
//!
//! One position in ten is held out, in blocks of whole games, and never used for fitting; its
//! error is reported so that a fit that only memorises the training positions shows.

use shakmaty::Chess;

use crate::eval::weights::Weights;
use crate::eval::white_eval_with;
use crate::game::parse_fen;

/// One training position and White's result in its game (1, 0.5 or 0).
#[derive(Debug, Clone)]
pub struct Sample {
    pub pos: Chess,
    pub result: f64,
}

/// Why a data line was not used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineError {
    NoResult,
    BadResult(String),
    BadFen(String),
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineError::NoResult => write!(f, "expected 'FEN;RESULT'"),
            LineError::BadResult(r) => write!(f, "result '{r}' is not 1.0, 0.5 or 0.0"),
            LineError::BadFen(e) => write!(f, "bad FEN: {e}"),
        }
    }
}

/// Reads one `FEN;RESULT` line.
pub fn parse_line(line: &str) -> Result<Sample, LineError> {
    let (fen, result) = line.rsplit_once(';').ok_or(LineError::NoResult)?;
    let result = match result.trim() {
        "1.0" | "1" => 1.0,
        "0.5" => 0.5,
        "0.0" | "0" => 0.0,
        other => return Err(LineError::BadResult(other.to_string())),
    };
    let pos = parse_fen(fen.trim()).map_err(|e| LineError::BadFen(e.to_string()))?;
    Ok(Sample { pos, result })
}

/// The expected score for White of an evaluation `eval` (White's view).
fn sigmoid(k: f64, eval: i32) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * f64::from(eval) / 400.0))
}

/// Squared error of one position's evaluation against its result.
fn sample_error(k: f64, result: f64, eval: i32) -> f64 {
    (result - sigmoid(k, eval)).powi(2)
}

/// Mean squared error of `weights` over `samples`, computed on `threads` threads.
pub fn error(samples: &[Sample], weights: &Weights, k: f64, threads: usize) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let errors = parallel_map(samples, threads, &|s| {
        sample_error(k, s.result, white_eval_with(&s.pos, weights))
    });
    errors.iter().sum::<f64>() / samples.len() as f64
}

/// `f` applied to every item of `items` on `threads` threads, results in order.
fn parallel_map<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: &(dyn Fn(&T) -> R + Sync),
) -> Vec<R> {
    let chunk = items.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let parts: Vec<_> = items
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(f).collect::<Vec<R>>()))
            .collect();
        parts
            .into_iter()
            .flat_map(|p| p.join().unwrap_or_default())
            .collect()
    })
}

/// The training positions whose evaluation changes when integer `i` of `weights` does.
fn dependents(
    samples: &[Sample],
    evals: &[i32],
    weights: &Weights,
    i: usize,
    threads: usize,
) -> Vec<u32> {
    let mut moved = weights.clone();
    moved.set(i, weights.get(i) + 100);
    let indices: Vec<u32> = (0..samples.len() as u32).collect();
    let changed = parallel_map(&indices, threads, &|&n| {
        white_eval_with(&samples[n as usize].pos, &moved) != evals[n as usize]
    });
    indices
        .into_iter()
        .zip(changed)
        .filter_map(|(n, c)| c.then_some(n))
        .collect()
}

/// The `k` that best fits the current weights (golden-section search on 0.2..4).
pub fn fit_k(samples: &[Sample], weights: &Weights, threads: usize) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut low, mut high) = (0.2, 4.0);
    for _ in 0..30 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if error(samples, weights, a, threads) < error(samples, weights, b, threads) {
            high = b;
        } else {
            low = a;
        }
    }
    (low + high) / 2.0
}

/// How a fit went.
#[derive(Debug, Clone)]
pub struct Report {
    pub k: f64,
    /// The pass whose weights were kept (the one with the lowest held-out error).
    pub kept_pass: usize,
    pub train_before: f64,
    pub train_after: f64,
    pub held_out_before: f64,
    pub held_out_after: f64,
    pub changed: usize,
    /// Weights left alone: named by `--freeze`, or too few positions depend on them.
    pub frozen: Vec<String>,
}

/// Consecutive samples held out together: a game's positions lie together in the data, and a
/// held-out position whose neighbours from the same game were fitted would not test anything.
const HELD_OUT_BLOCK: usize = 1000;

/// Splits off every tenth block of samples as the held-out set.
pub fn split(samples: Vec<Sample>) -> (Vec<Sample>, Vec<Sample>) {
    let mut train = Vec::with_capacity(samples.len());
    let mut held_out = Vec::with_capacity(samples.len() / 10 + 1);
    for (i, s) in samples.into_iter().enumerate() {
        if (i / HELD_OUT_BLOCK) % 10 == 9 {
            held_out.push(s);
        } else {
            train.push(s);
        }
    }
    (train, held_out)
}

/// How long a fit may run, and which weights it may touch.
#[derive(Debug, Clone, Copy)]
pub struct Limits<'a> {
    pub max_passes: usize,
    /// A weight needs at least this many training positions depending on it to be fitted.
    pub min_support: usize,
    pub threads: usize,
    /// Passes in a row that may fail to lower the held-out error before the fit stops.
    pub patience: usize,
    /// Weights (fields of `Weights`, like `material`) the fit must not change.
    pub frozen_fields: &'a [String],
}

/// The training set as the fit sees it: every position's evaluation under the current weights
/// and the total squared error, kept up to date as single weights move.
struct Progress<'a> {
    samples: &'a [Sample],
    evals: Vec<i32>,
    total: f64,
    k: f64,
    threads: usize,
}

impl Progress<'_> {
    /// Evaluates every position again (after a pass, so that the totals never drift).
    fn refresh(&mut self, weights: &Weights) {
        self.evals = parallel_map(self.samples, self.threads, &|s| {
            white_eval_with(&s.pos, weights)
        });
        self.total = self
            .samples
            .iter()
            .zip(&self.evals)
            .map(|(s, &e)| sample_error(self.k, s.result, e))
            .sum();
    }

    fn mean(&self) -> f64 {
        self.total / self.samples.len().max(1) as f64
    }

    /// Re-evaluates the positions in `subset` under `weights`; keeps the new evaluations and
    /// returns true if that lowers the total error, else leaves everything as it was.
    fn try_weights(&mut self, weights: &Weights, subset: &[u32]) -> bool {
        let (samples, evals, k) = (self.samples, &self.evals, self.k);
        let fresh = parallel_map(subset, self.threads, &|&n| {
            let s = &samples[n as usize];
            let eval = white_eval_with(&s.pos, weights);
            let delta =
                sample_error(k, s.result, eval) - sample_error(k, s.result, evals[n as usize]);
            (eval, delta)
        });
        let delta: f64 = fresh.iter().map(|&(_, d)| d).sum();
        if delta >= 0.0 {
            return false;
        }
        for (&n, &(eval, _)) in subset.iter().zip(&fresh) {
            self.evals[n as usize] = eval;
        }
        self.total += delta;
        true
    }
}

/// Tunes `weights` in place for at most `max_passes` passes; `after_pass` sees the weights
/// after each pass (to save them as the fit goes).
pub fn fit(
    train: &[Sample],
    held_out: &[Sample],
    weights: &mut Weights,
    limits: Limits,
    after_pass: &mut dyn FnMut(usize, f64, &Weights),
) -> Report {
    let threads = limits.threads;
    let start = weights.clone();
    let k = fit_k(train, weights, threads);
    let mut progress = Progress {
        samples: train,
        evals: Vec::new(),
        total: 0.0,
        k,
        threads,
    };
    progress.refresh(weights);
    let train_before = progress.mean();
    let held_out_before = error(held_out, weights, k, threads);
    // Each weight is tried only on the positions that depend on it. Weights named frozen, or
    // that too few positions depend on, are left alone.
    let mut frozen = Vec::new();
    let mut active = Vec::new();
    for i in 0..weights.count() {
        let subset = if limits.frozen_fields.iter().any(|f| f == weights.field(i)) {
            Vec::new()
        } else {
            dependents(train, &progress.evals, weights, i, threads)
        };
        if subset.len() < limits.min_support.max(1) {
            frozen.push(weights.name(i));
        } else {
            active.push((i, subset));
        }
    }
    // Early stopping: passes that fit the training games better but not the held-out games
    // have begun to memorise; after `patience` of them in a row the fit ends, and the weights
    // are those of the pass with the lowest held-out error.
    let mut best = (weights.clone(), held_out_before, 0);
    let mut pass = 0;
    while pass < limits.max_passes && pass - best.2 <= limits.patience {
        pass += 1;
        let mut improved = false;
        for (i, subset) in &active {
            improved |= tune_one(&mut progress, weights, *i, subset);
        }
        progress.refresh(weights);
        let held_out_error = error(held_out, weights, k, threads);
        if held_out.is_empty() || held_out_error < best.1 {
            best = (weights.clone(), held_out_error, pass);
            after_pass(pass, progress.mean(), weights);
        }
        if !improved {
            break;
        }
    }
    let (best_weights, held_out_error, kept_pass) = best;
    *weights = best_weights;
    progress.refresh(weights);
    Report {
        k,
        kept_pass,
        train_before,
        train_after: progress.mean(),
        held_out_before,
        held_out_after: held_out_error,
        changed: (0..weights.count())
            .filter(|&i| weights.get(i) != start.get(i))
            .count(),
        frozen,
    }
}

/// Moves integer `i` by one in whichever direction lowers the error, if either does; returns
/// whether it moved. (One step per pass lets early stopping catch the fit in small steps.)
fn tune_one(progress: &mut Progress, weights: &mut Weights, i: usize, subset: &[u32]) -> bool {
    let original = weights.get(i);
    for step in [1, -1] {
        weights.set(i, original + step);
        if progress.try_weights(weights, subset) {
            return true;
        }
    }
    weights.set(i, original);
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::weights::WEIGHTS;

    fn sample(fen: &str, result: f64) -> Sample {
        Sample {
            pos: parse_fen(fen).expect("fen"),
            result,
        }
    }

    #[test]
    fn lines_are_read_or_refused_with_a_reason() {
        let ok = parse_line("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1;1.0").expect("line");
        assert_eq!(ok.result, 1.0);
        assert_eq!(parse_line("no separator").err(), Some(LineError::NoResult));
        assert!(matches!(
            parse_line("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1;2"),
            Err(LineError::BadResult(_))
        ));
        assert!(matches!(
            parse_line("4k3/9/8 w - - 0 1;0.5"),
            Err(LineError::BadFen(_))
        ));
    }

    #[test]
    fn fitting_lowers_the_error_on_positions_the_weights_misjudge() {
        // White is a knight up in every position but never wins: the knight's value must fall.
        let samples: Vec<Sample> = KNIGHT_UP.iter().map(|f| sample(f, 0.5)).collect();
        let mut weights = WEIGHTS.clone();
        let mut passes_seen = 0;
        let limits = Limits {
            max_passes: 2,
            min_support: 2,
            threads: 2,
            patience: 0,
            frozen_fields: &[],
        };
        let report = fit(&samples, &[], &mut weights, limits, &mut |_, _, _| {
            passes_seen += 1
        });
        assert!(report.train_after < report.train_before);
        assert!(weights.material[1].eg < WEIGHTS.material[1].eg);
        assert_eq!(passes_seen, report.kept_pass);
        // The king's material value (material[10], middlegame) changes no evaluation at all.
        assert!(report.frozen.contains(&"material[10]".to_string()));
        assert!(!report.frozen.contains(&"material[3]".to_string()));
    }

    /// Positions where White is a knight up (the misjudged positions of the test above).
    const KNIGHT_UP: [&str; 4] = [
        "4k3/pp6/8/8/8/8/PP3N2/4K3 w - - 0 1",
        "4k3/1pp5/8/8/8/5N2/1PP5/4K3 b - - 0 1",
        "3k4/p1p5/8/8/8/8/P1P2N2/3K4 w - - 0 1",
        "5k2/6pp/8/8/8/2N5/6PP/5K2 b - - 0 1",
    ];

    #[test]
    fn frozen_fields_are_left_alone() {
        let samples: Vec<Sample> = KNIGHT_UP.iter().map(|f| sample(f, 0.5)).collect();
        let mut weights = WEIGHTS.clone();
        let frozen = ["material".to_string()];
        let limits = Limits {
            max_passes: 3,
            min_support: 2,
            threads: 2,
            patience: 0,
            frozen_fields: &frozen,
        };
        let report = fit(&samples, &[], &mut weights, limits, &mut |_, _, _| {});
        assert_eq!(weights.material, WEIGHTS.material);
        assert!(report.frozen.contains(&"material[3]".to_string()));
        // Something else (the piece-square table, say) took up the misjudgement.
        assert!(report.changed > 0);
        assert!(report.train_after < report.train_before);
    }

    #[test]
    fn passes_that_make_the_held_out_games_worse_are_undone() {
        // The training games say a knight up draws, the held-out games that it wins.
        let train: Vec<Sample> = KNIGHT_UP.iter().map(|f| sample(f, 0.5)).collect();
        let held_out: Vec<Sample> = KNIGHT_UP.iter().map(|f| sample(f, 1.0)).collect();
        let mut weights = WEIGHTS.clone();
        let limits = Limits {
            max_passes: 3,
            min_support: 2,
            threads: 2,
            patience: 0,
            frozen_fields: &[],
        };
        let report = fit(&train, &held_out, &mut weights, limits, &mut |_, _, _| {});
        assert_eq!(report.kept_pass, 0);
        assert_eq!(weights, WEIGHTS);
        assert_eq!(report.held_out_after, report.held_out_before);
    }

    #[test]
    fn whole_blocks_of_positions_are_held_out() {
        let line = KNIGHT_UP[0];
        let samples: Vec<Sample> = (0..HELD_OUT_BLOCK * 10)
            .map(|i| sample(line, if i < HELD_OUT_BLOCK * 9 { 0.5 } else { 1.0 }))
            .collect();
        let (train, held_out) = split(samples);
        assert_eq!(held_out.len(), HELD_OUT_BLOCK);
        assert!(held_out.iter().all(|s| s.result == 1.0));
        assert!(train.iter().all(|s| s.result == 0.5));
    }
}
