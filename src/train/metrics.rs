//! Two measures of a network on held-out positions that mean the same whatever the recipe that
//! trained it, so that nets trained with different result weights (`--wdl`) or scales compare:
//!
//! - **score error**: the mean of `(sigmoid(cp / 400) - sigmoid(searched / 400))²`, where `cp` is
//!   the network's score in centipawns (its output times the training scale) and `searched` the
//!   search score stored in the data: how well the net predicts Threefold's own search;
//! - **result log-loss** at a fitted scale: the mean of `-(r ln p + (1 - r) ln(1 - p))` with
//!   `p = sigmoid(cp / K)` and `r` the game's result for the side to move (a draw counts one
//!   half), at the `K` that makes it least: how well the net's ordering of positions predicts
//!   the results, whatever centipawns it speaks in. `K` is printed beside it; a net trained on
//!   results alone has a larger `K` than its training scale says when its scores stretch.
//!
//! The validation loss is the training target's own error, which moves with `--wdl` and
//! `--scale`; these two do not. All three come from one pass over the positions.
//!
//! ```
//! use threefold::train::metrics::{fit_result_scale, result_log_loss};
//!
//! // Scores that predict the results as sigmoid(cp / 200) does: (score, result) pairs.
//! let scored: Vec<(f32, f32)> = (-20..=20)
//!     .map(|i| i as f32 * 50.0)
//!     .map(|cp| (cp, 1.0 / (1.0 + (-cp / 200.0).exp())))
//!     .collect();
//! let (k, loss) = fit_result_scale(&scored);
//! assert!((k - 200.0).abs() < 2.0, "{k}");
//! assert!(loss <= result_log_loss(&scored, 400.0));
//! ```

use super::checkpoint::Checkpoint;
use super::data::{ResultWeight, Sample, sigmoid};
use super::epochs::{Settings, in_parallel};
use super::net::Scratch;

/// The fixed centipawn scale of the score error.
pub const SCORE_ERROR_SCALE: f32 = 400.0;
/// The range searched for the result log-loss's scale `K`, in centipawns.
const RESULT_SCALE_RANGE: (f64, f64) = (25.0, 5_000.0);

/// The measures of one network on one set of positions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Metrics {
    /// The mean squared error against the run's own target (`--wdl`, `--scale`): the
    /// validation loss, comparable only between runs with the same target.
    pub validation_loss: f64,
    /// Mean squared error against the search score alone, both through `sigmoid(cp / 400)`.
    pub score_error: f64,
    /// The least mean log-loss of the game results, at `result_scale`.
    pub result_loss: f64,
    /// Centipawns per unit of win-logit that gives `result_loss`.
    pub result_scale: f64,
}

impl std::fmt::Display for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "score error {:.6}  result log-loss {:.5} at K {:.0}",
            self.score_error, self.result_loss, self.result_scale
        )
    }
}

/// The measures of the checkpoint's network on `samples` (None without any), from one
/// forward pass a position.
pub fn measure(state: &Checkpoint, samples: &[Sample], settings: &Settings) -> Option<Metrics> {
    if samples.is_empty() {
        return None;
    }
    let net = &state.net;
    let score_only = ResultWeight::constant(0.0);
    let result_only = ResultWeight::constant(1.0);
    let mut scratches = vec![Scratch::new(net.hidden); settings.threads.max(1)];
    // Per slice: the sums of the squared target and score errors, and each sample's
    // (centipawns, result) for the fit of the result scale.
    let parts = in_parallel(samples, &mut scratches, |chunk, s| {
        let (mut target_sum, mut score_sum) = (0.0f64, 0.0f64);
        let mut scored = Vec::with_capacity(chunk.len());
        for x in chunk {
            let output = net.output(x, s);
            let target_error = sigmoid(output) - x.target(&settings.wdl, settings.scale);
            target_sum += f64::from(target_error * target_error);
            let cp = output * settings.scale;
            let score_error =
                sigmoid(cp / SCORE_ERROR_SCALE) - x.target(&score_only, SCORE_ERROR_SCALE);
            score_sum += f64::from(score_error * score_error);
            scored.push((cp, x.target(&result_only, SCORE_ERROR_SCALE)));
        }
        (target_sum, score_sum, scored)
    });
    let count = samples.len() as f64;
    let validation_loss = parts.iter().map(|p| p.0).sum::<f64>() / count;
    let score_error = parts.iter().map(|p| p.1).sum::<f64>() / count;
    let scored: Vec<(f32, f32)> = parts.into_iter().flat_map(|p| p.2).collect();
    let (result_scale, result_loss) = fit_result_scale(&scored);
    Some(Metrics {
        validation_loss,
        score_error,
        result_loss,
        result_scale,
    })
}

/// The mean log-loss of the results of `(cp, result)` pairs (result 1 a win for the side the
/// score is for, 0.5 a draw, 0 a loss) predicted by `sigmoid(cp / k)`.
pub fn result_log_loss(scored: &[(f32, f32)], k: f64) -> f64 {
    if scored.is_empty() {
        return 0.0;
    }
    let sum: f64 = scored
        .iter()
        .map(|&(cp, r)| {
            // ln sigmoid(x) = -ln(1 + e^-x), written so that it stays finite for any x.
            let x = f64::from(cp) / k;
            let log_p = -softplus(-x);
            let log_not_p = -softplus(x);
            -(f64::from(r) * log_p + (1.0 - f64::from(r)) * log_not_p)
        })
        .sum();
    sum / scored.len() as f64
}

/// `ln(1 + e^x)` without overflow.
fn softplus(x: f64) -> f64 {
    if x > 0.0 {
        x + (-x).exp().ln_1p()
    } else {
        x.exp().ln_1p()
    }
}

/// The scale `K` (within 25..5,000 cp) with the least [`result_log_loss`], and that loss: a
/// golden-section search on `ln K` (the loss has one minimum in `K` for a fixed set).
pub fn fit_result_scale(scored: &[(f32, f32)]) -> (f64, f64) {
    let loss = |ln_k: f64| result_log_loss(scored, ln_k.exp());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (RESULT_SCALE_RANGE.0.ln(), RESULT_SCALE_RANGE.1.ln());
    let mut a = hi - ratio * (hi - lo);
    let mut b = lo + ratio * (hi - lo);
    let (mut fa, mut fb) = (loss(a), loss(b));
    // 40 steps narrow the range by 0.618^40, far below a centipawn.
    for _ in 0..40 {
        if fa <= fb {
            hi = b;
            (b, fb) = (a, fa);
            a = hi - ratio * (hi - lo);
            fa = loss(a);
        } else {
            lo = a;
            (a, fa) = (b, fb);
            b = lo + ratio * (hi - lo);
            fb = loss(b);
        }
    }
    let ln_k = (lo + hi) / 2.0;
    (ln_k.exp(), loss(ln_k))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_that_say_nothing_of_the_results_fit_the_widest_scale() {
        // Every result a draw: the best prediction is one half everywhere, the widest K.
        let scored = [-300.0, -100.0, 0.0, 100.0, 300.0].map(|cp| (cp, 0.5));
        let (k, loss) = fit_result_scale(&scored);
        assert!(k > 4_000.0, "{k}");
        assert!((loss - 2f64.ln()).abs() < 1e-3, "{loss}");
    }

    #[test]
    fn the_log_loss_stays_finite_for_huge_scores() {
        let loss = result_log_loss(&[(30_000.0, 0.0), (-30_000.0, 1.0)], 25.0);
        assert!(loss.is_finite() && loss > 1_000.0, "{loss}");
    }
}
