//! Texel's method: with `sigmoid(e) = 1 / (1 + 10^(-k·e/400))`, find the weights that minimise
//! the mean of `(result - sigmoid(eval))²` over labelled positions. First `k` is fitted to the
//! current weights (so the scale of centipawns is kept), then each integer weight in turn is
//! moved by one while that lowers the error, pass after pass, until a pass changes nothing.
//!
//! A weight that fewer than `min_support` training positions depend on is left as it is: with
//! few positions (two pawns side by side on the seventh rank, say) the fit would chase their
//! results to absurd values, since a sigmoid already saturated costs nothing to push further.
//!
//! One position in ten is held out and never used for fitting; its error is reported so that
//! a fit that only memorises the training positions shows.

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

/// `f(index, sample)` summed over `samples`, computed on `threads` threads.
fn parallel_sum(
    samples: &[Sample],
    threads: usize,
    f: &(dyn Fn(usize, &Sample) -> f64 + Sync),
) -> f64 {
    let chunk = samples.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let parts: Vec<_> = samples
            .chunks(chunk)
            .enumerate()
            .map(|(n, part)| {
                scope.spawn(move || {
                    part.iter()
                        .enumerate()
                        .map(|(i, s)| f(n * chunk + i, s))
                        .sum::<f64>()
                })
            })
            .collect();
        parts
            .into_iter()
            .map(|p| p.join().unwrap_or(f64::NAN))
            .sum()
    })
}

/// Mean squared error of `weights` over `samples`, computed on `threads` threads.
pub fn error(samples: &[Sample], weights: &Weights, k: f64, threads: usize) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total = parallel_sum(samples, threads, &|_, s| {
        (s.result - sigmoid(k, white_eval_with(&s.pos, weights))).powi(2)
    });
    total / samples.len() as f64
}

/// How many of `samples` change their evaluation when integer `i` of `weights` changes.
fn support(samples: &[Sample], base: &[i32], weights: &Weights, i: usize, threads: usize) -> usize {
    let mut moved = weights.clone();
    moved.set(i, weights.get(i) + 100);
    let changed = parallel_sum(samples, threads, &|n, s| {
        f64::from(u8::from(white_eval_with(&s.pos, &moved) != base[n]))
    });
    changed as usize
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
    pub passes: usize,
    pub train_before: f64,
    pub train_after: f64,
    pub held_out_before: f64,
    pub held_out_after: f64,
    pub changed: usize,
    /// Weights left alone for lack of positions depending on them.
    pub frozen: Vec<String>,
}

/// Splits off every tenth sample as the held-out set.
pub fn split(samples: Vec<Sample>) -> (Vec<Sample>, Vec<Sample>) {
    let mut train = Vec::with_capacity(samples.len());
    let mut held_out = Vec::with_capacity(samples.len() / 10 + 1);
    for (i, s) in samples.into_iter().enumerate() {
        if i % 10 == 9 {
            held_out.push(s);
        } else {
            train.push(s);
        }
    }
    (train, held_out)
}

/// How long a fit may run, and which weights it may touch.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_passes: usize,
    /// A weight needs at least this many training positions depending on it to be fitted.
    pub min_support: usize,
    pub threads: usize,
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
    let train_before = error(train, weights, k, threads);
    let held_out_before = error(held_out, weights, k, threads);
    let mut best = train_before;
    // Weights too few training positions depend on are not fitted; nor, after one try,
    // those whose change did not move the error at all.
    let base: Vec<i32> = train
        .iter()
        .map(|s| white_eval_with(&s.pos, weights))
        .collect();
    let mut inert: Vec<bool> = (0..weights.count())
        .map(|i| support(train, &base, weights, i, threads) < limits.min_support)
        .collect();
    let frozen = (0..weights.count())
        .filter(|&i| inert[i])
        .map(|i| weights.name(i))
        .collect();
    let mut passes = 0;
    while passes < limits.max_passes {
        passes += 1;
        let mut improved = false;
        for (i, skip) in inert.iter_mut().enumerate() {
            if *skip {
                continue;
            }
            let (moved, error_after, no_effect) = tune_one(train, weights, i, best, k, threads);
            *skip = no_effect;
            if moved {
                best = error_after;
                improved = true;
            }
        }
        after_pass(passes, best, weights);
        if !improved {
            break;
        }
    }
    Report {
        k,
        passes,
        train_before,
        train_after: best,
        held_out_before,
        held_out_after: error(held_out, weights, k, threads),
        changed: (0..weights.count())
            .filter(|&i| weights.get(i) != start.get(i))
            .count(),
        frozen,
    }
}

/// Moves integer `i` by one step at a time in whichever direction lowers the error, as far as
/// it keeps lowering it. Returns whether it moved, the error then, and whether neither
/// direction changed the error at all.
fn tune_one(
    samples: &[Sample],
    weights: &mut Weights,
    i: usize,
    current: f64,
    k: f64,
    threads: usize,
) -> (bool, f64, bool) {
    let original = weights.get(i);
    let mut best = current;
    let mut untouched = true;
    for step in [1, -1] {
        loop {
            let value = weights.get(i);
            weights.set(i, value + step);
            let e = error(samples, weights, k, threads);
            if e != current {
                untouched = false;
            }
            if e < best {
                best = e;
            } else {
                weights.set(i, value);
                break;
            }
        }
        if weights.get(i) != original {
            return (true, best, false);
        }
    }
    (false, best, untouched)
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
        let fens = [
            "4k3/pp6/8/8/8/8/PP3N2/4K3 w - - 0 1",
            "4k3/1pp5/8/8/8/5N2/1PP5/4K3 b - - 0 1",
            "3k4/p1p5/8/8/8/8/P1P2N2/3K4 w - - 0 1",
            "5k2/6pp/8/8/8/2N5/6PP/5K2 b - - 0 1",
        ];
        let samples: Vec<Sample> = fens.iter().map(|f| sample(f, 0.5)).collect();
        let mut weights = WEIGHTS.clone();
        let mut passes_seen = 0;
        let limits = Limits {
            max_passes: 2,
            min_support: 2,
            threads: 2,
        };
        let report = fit(&samples, &[], &mut weights, limits, &mut |_, _, _| {
            passes_seen += 1
        });
        assert!(report.train_after < report.train_before);
        assert!(weights.material[1].eg < WEIGHTS.material[1].eg);
        assert_eq!(passes_seen, report.passes);
        // The king's material value (material[10], middlegame) changes no evaluation at all.
        assert!(report.frozen.contains(&"material[10]".to_string()));
        assert!(!report.frozen.contains(&"material[3]".to_string()));
    }
}
