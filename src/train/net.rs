//! The network in floats, as the trainer sees it: the forward pass, the gradient of the loss
//! for one sample, clipping to what quantises safely, and quantisation to the file format
//! (`nnue/FORMAT.md`).
//!
//! All parameters live in one vector (so the optimiser, checkpoints and gradient sums treat
//! them alike): `768 N` feature weights (feature-major), `N` feature biases, `2 N` output
//! weights for each of the `B` output buckets (bucket-major, side to move's half first) and
//! the `B` output biases. A sample goes through the output bucket of its piece count
//! ([`nnue::output_bucket`]). The output is in units of `scale` centipawns; the loss of a
//! sample is `(sigmoid(output) - target)²`.

use shakmaty::{Chess, Position};

use super::data::{Sample, sigmoid};
use crate::eval::nnue::{
    self, DEFAULT_QA, DEFAULT_QB, INPUTS, InputLayout, Network, NetworkError, NetworkParts,
};
use crate::rng::Rng;

/// Feature weights and biases stay within this, so an accumulator of 32 pieces fits an i16
/// after quantisation (33 x 1.98 x 255 < 32767).
pub const FEATURE_CLIP: f32 = 1.98;

/// The largest output weight that quantises within the network format's limit.
pub fn output_clip() -> f32 {
    f32::from(i16::MAX / DEFAULT_QA) / f32::from(DEFAULT_QB)
}

/// A float network.
#[derive(Debug, Clone, PartialEq)]
pub struct FloatNet {
    pub hidden: usize,
    /// Output buckets (1: one output layer).
    pub buckets: usize,
    /// How the inputs see the board (mirrored or not).
    pub layout: InputLayout,
    pub params: Vec<f32>,
}

/// Per-thread buffers for the forward and backward passes.
#[derive(Debug, Clone)]
pub struct Scratch {
    us: [usize; 32],
    them: [usize; 32],
    acc_us: Vec<f32>,
    acc_them: Vec<f32>,
    delta: Vec<f32>,
}

impl Scratch {
    pub fn new(hidden: usize) -> Scratch {
        Scratch {
            us: [0; 32],
            them: [0; 32],
            acc_us: vec![0.0; hidden],
            acc_them: vec![0.0; hidden],
            delta: vec![0.0; hidden],
        }
    }
}

fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

fn screlu_slope(x: f32) -> f32 {
    if x > 0.0 && x < 1.0 { 2.0 * x } else { 0.0 }
}

/// A number in [-1, 1).
fn unit(rng: &mut Rng) -> f32 {
    (rng.below(1 << 24) as f32 / (1 << 23) as f32) - 1.0
}

impl FloatNet {
    /// The number of parameters for a hidden size and a number of output buckets.
    pub fn parameter_count(hidden: usize, buckets: usize) -> usize {
        INPUTS * hidden + hidden + (2 * hidden + 1) * buckets
    }

    fn biases_at(&self) -> usize {
        INPUTS * self.hidden
    }

    /// Where the output weights start (bucket 0's).
    fn output_at(&self) -> usize {
        INPUTS * self.hidden + self.hidden
    }

    /// Where bucket `bucket`'s output weights start.
    fn bucket_at(&self, bucket: usize) -> usize {
        self.output_at() + 2 * self.hidden * bucket
    }

    /// Where the output biases start.
    fn bias_at(&self) -> usize {
        self.bucket_at(self.buckets)
    }

    /// The output bucket of a sample or position with `pieces` pieces.
    fn bucket(&self, pieces: usize) -> usize {
        nnue::output_bucket(pieces, self.buckets)
    }

    /// Random weights: uniform within ±1/sqrt(fan-in) for each layer, zero biases.
    pub fn random(hidden: usize, buckets: usize, seed: u64) -> FloatNet {
        let mut rng = Rng::new(seed);
        let mut net = FloatNet {
            hidden,
            buckets,
            layout: InputLayout::Plain,
            params: vec![0.0; FloatNet::parameter_count(hidden, buckets)],
        };
        let feature_range = 1.0 / (INPUTS as f32).sqrt();
        let output_range = 1.0 / (2.0 * hidden as f32).sqrt();
        let (biases, output, bias) = (net.biases_at(), net.output_at(), net.bias_at());
        for (i, p) in net.params.iter_mut().enumerate() {
            if i < biases {
                *p = unit(&mut rng) * feature_range;
            } else if (output..bias).contains(&i) {
                *p = unit(&mut rng) * output_range;
            }
        }
        net
    }

    /// Fills the accumulators of both perspectives; returns the output of `bucket`.
    fn forward(&self, us: &[usize], them: &[usize], bucket: usize, s: &mut Scratch) -> f32 {
        let n = self.hidden;
        let biases = &self.params[self.biases_at()..self.output_at()];
        for (acc, features) in [(&mut s.acc_us, us), (&mut s.acc_them, them)] {
            acc.copy_from_slice(biases);
            for &f in features {
                let row = &self.params[f * n..(f + 1) * n];
                for (a, &w) in acc.iter_mut().zip(row) {
                    *a += w;
                }
            }
        }
        let at = self.bucket_at(bucket);
        let (w_us, w_them) = self.params[at..at + 2 * n].split_at(n);
        let dot = |acc: &[f32], w: &[f32]| -> f32 {
            acc.iter().zip(w).map(|(&a, &w)| screlu(a) * w).sum()
        };
        dot(&s.acc_us, w_us) + dot(&s.acc_them, w_them) + self.params[self.bias_at() + bucket]
    }

    /// The output for a sample (in units of the scale).
    pub fn output(&self, sample: &Sample, s: &mut Scratch) -> f32 {
        let (mut us, mut them) = (s.us, s.them);
        let count = sample.perspectives(self.layout, &mut us, &mut them);
        self.forward(&us[..count], &them[..count], self.bucket(count), s)
    }

    /// The output for a position (in units of the scale), for checks against inference.
    pub fn output_of(&self, pos: &Chess) -> f32 {
        let mut s = Scratch::new(self.hidden);
        let (mut us, mut them) = (Vec::new(), Vec::new());
        let board = pos.board();
        let (us_mirrored, them_mirrored) = (
            self.layout.mirrors(board, pos.turn()),
            self.layout.mirrors(board, !pos.turn()),
        );
        for (piece, sq) in nnue::pieces(pos) {
            us.push(nnue::oriented(
                nnue::index(pos.turn(), piece, sq),
                us_mirrored,
            ));
            them.push(nnue::oriented(
                nnue::index(!pos.turn(), piece, sq),
                them_mirrored,
            ));
        }
        let bucket = self.bucket(us.len());
        self.forward(&us, &them, bucket, &mut s)
    }

    /// The loss of one sample against `target`, adding its gradient to `grad`.
    pub fn gradient(&self, sample: &Sample, target: f32, grad: &mut [f32], s: &mut Scratch) -> f32 {
        let n = self.hidden;
        let (mut us, mut them) = (s.us, s.them);
        let count = sample.perspectives(self.layout, &mut us, &mut them);
        let bucket = self.bucket(count);
        let out = self.forward(&us[..count], &them[..count], bucket, s);
        let predicted = sigmoid(out);
        let error = predicted - target;
        let g = 2.0 * error * predicted * (1.0 - predicted);

        let (biases_at, output_at) = (self.biases_at(), self.output_at());
        let weights_at = self.bucket_at(bucket);
        grad[self.bias_at() + bucket] += g;
        let output = &self.params[weights_at..weights_at + 2 * n];
        for (half, (acc, features)) in [(&s.acc_us, &us[..count]), (&s.acc_them, &them[..count])]
            .into_iter()
            .enumerate()
        {
            let weights = &output[half * n..(half + 1) * n];
            let out_grad = &mut grad[weights_at + half * n..weights_at + (half + 1) * n];
            for i in 0..n {
                out_grad[i] += g * screlu(acc[i]);
                s.delta[i] = g * weights[i] * screlu_slope(acc[i]);
            }
            for (b, &d) in grad[biases_at..output_at].iter_mut().zip(&s.delta) {
                *b += d;
            }
            for &f in features {
                for (w, &d) in grad[f * n..(f + 1) * n].iter_mut().zip(&s.delta) {
                    *w += d;
                }
            }
        }
        error * error
    }

    /// The loss of one sample, without a gradient.
    pub fn loss(&self, sample: &Sample, target: f32, s: &mut Scratch) -> f32 {
        let error = sigmoid(self.output(sample, s)) - target;
        error * error
    }

    /// Keeps every weight within what quantises safely.
    pub fn clip(&mut self) {
        let (output_at, bias_at) = (self.output_at(), self.bias_at());
        let out_clip = output_clip();
        for (i, p) in self.params.iter_mut().enumerate() {
            if i < output_at {
                *p = p.clamp(-FEATURE_CLIP, FEATURE_CLIP);
            } else if i < bias_at {
                *p = p.clamp(-out_clip, out_clip);
            }
        }
    }

    /// The quantised network for the inference code, `scale` centipawns per output unit.
    pub fn quantise(&self, scale: i32) -> Result<Network, NetworkError> {
        let (qa, qb) = (f32::from(DEFAULT_QA), f32::from(DEFAULT_QB));
        let q16 = |w: f32, q: f32| (w * q).round().clamp(-32767.0, 32767.0) as i16;
        let (biases_at, output_at, bias_at) = (self.biases_at(), self.output_at(), self.bias_at());
        Network::from_parts(NetworkParts {
            hidden: self.hidden,
            buckets: self.buckets,
            layout: self.layout,
            qa: DEFAULT_QA,
            qb: DEFAULT_QB,
            scale,
            feature_weights: self.params[..biases_at]
                .iter()
                .map(|&w| q16(w, qa))
                .collect(),
            feature_biases: self.params[biases_at..output_at]
                .iter()
                .map(|&w| q16(w, qa))
                .collect(),
            output_weights: self.params[output_at..bias_at]
                .iter()
                .map(|&w| q16(w, qb))
                .collect(),
            output_biases: self.params[bias_at..]
                .iter()
                .map(|&b| {
                    (f64::from(b) * f64::from(qa) * f64::from(qb))
                        .round()
                        .clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32
                })
                .collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::format::GameResult;
    use crate::eval::nnue::evaluate_position;
    use crate::train::data::ResultWeight;
    use crate::train::random_positions;

    /// A random net with biases and output weights large enough that neurons are active and
    /// the output spans hundreds of centipawns.
    fn lively(hidden: usize, buckets: usize, seed: u64) -> FloatNet {
        let mut net = FloatNet::random(hidden, buckets, seed);
        let mut rng = Rng::new(seed + 1);
        let (biases, output, bias) = (net.biases_at(), net.output_at(), net.bias_at());
        for p in &mut net.params[biases..output] {
            *p = 0.2 + 0.3 * unit(&mut rng);
        }
        for p in &mut net.params[output..bias] {
            *p = 1.5 * unit(&mut rng);
        }
        for (b, p) in net.params[bias..].iter_mut().enumerate() {
            *p = 0.1 - 0.05 * b as f32;
        }
        net
    }

    #[test]
    fn gradients_match_finite_differences() {
        let net = lively(4, 8, 21);
        let positions = random_positions(2, 30, 8);
        let mut checked = 0;
        for (k, pos) in positions.iter().enumerate().step_by(7) {
            let score = (k as i16 - 2) * 90;
            let sample = Sample::new(pos, score, GameResult::WhiteWins);
            let target = sample.target(&ResultWeight::constant(0.3), 400.0);
            let mut s = Scratch::new(net.hidden);
            let mut grad = vec![0.0; net.params.len()];
            net.gradient(&sample, target, &mut grad, &mut s);
            let eps = 1e-3;
            for (i, &analytic) in grad.iter().enumerate() {
                let mut plus = net.clone();
                plus.params[i] += eps;
                let mut minus = net.clone();
                minus.params[i] -= eps;
                let numeric = (plus.loss(&sample, target, &mut s)
                    - minus.loss(&sample, target, &mut s))
                    / (2.0 * eps);
                assert!(
                    (analytic - numeric).abs() <= 2e-4 + 0.02 * numeric.abs(),
                    "parameter {i}: analytic {analytic} numeric {numeric}"
                );
                checked += usize::from(analytic.abs() > 1e-4);
            }
        }
        // Many parameters have a gradient that is not zero: the comparison was not vacuous.
        assert!(checked > 100, "{checked} non-zero gradients");
    }

    /// Mean and largest |quantised - float| in cp, and the spread of the float scores.
    fn disagreement(net: &FloatNet, positions: &[Chess]) -> (f64, f64, f64) {
        let quantised = net.quantise(400).expect("quantises");
        let (mut worst, mut total) = (0.0f64, 0.0);
        let (mut low, mut high) = (f64::MAX, f64::MIN);
        for pos in positions {
            let float = f64::from(net.output_of(pos)) * 400.0;
            let diff = (f64::from(evaluate_position(&quantised, pos)) - float).abs();
            worst = worst.max(diff);
            total += diff;
            (low, high) = (low.min(float), high.max(float));
        }
        (total / positions.len() as f64, worst, high - low)
    }

    /// Every weight of `net` rounded to a multiple of its quantisation step, so that only the
    /// integer divisions of the inference code round.
    fn round_to_quantisation_steps(net: &mut FloatNet) {
        let (qa, qb) = (f32::from(DEFAULT_QA), f32::from(DEFAULT_QB));
        let (output, bias) = (net.output_at(), net.bias_at());
        for (i, p) in net.params.iter_mut().enumerate() {
            let step = match i {
                _ if i < output => qa,
                _ if i < bias => qb,
                _ => qa * qb,
            };
            *p = (*p * step).round() / step;
        }
    }

    /// The bound: on random positions, the quantised net's score (the integer inference
    /// code) is within 1.5 cp of the float net's output times the scale when every weight is
    /// a multiple of its quantisation step (only the integer divisions round), and within
    /// 60 cp (20 cp on average) for a random net whose output weights reach ±1.5, where the
    /// rounding of the small feature weights to steps of 1/255 adds up over 32 neurons.
    #[test]
    fn the_quantised_net_agrees_with_the_float_net() {
        let positions = random_positions(20, 60, 3);
        let mut net = lively(32, 8, 5);
        let (mean, worst, spread) = disagreement(&net, &positions);
        eprintln!("random weights: mean {mean:.2} cp, worst {worst:.2} cp, spread {spread:.0} cp");
        assert!(spread > 500.0, "the float scores span only {spread} cp");
        assert!(worst <= 60.0 && mean <= 20.0, "mean {mean} worst {worst}");

        round_to_quantisation_steps(&mut net);
        let (mean, worst, spread) = disagreement(&net, &positions);
        eprintln!("exact weights: mean {mean:.2} cp, worst {worst:.2} cp, spread {spread:.0} cp");
        assert!(spread > 500.0, "the float scores span only {spread} cp");
        assert!(worst <= 1.5, "mean {mean} worst {worst}");
    }

    /// With mirrored inputs the trainer's samples, its positions and the engine's integer
    /// inference see the same features: a net whose weights are exact quantisation steps
    /// scores each position alike all three ways.
    #[test]
    fn a_mirrored_net_sees_the_engines_inputs() {
        let positions = random_positions(20, 60, 4);
        let mut net = lively(32, 8, 6);
        net.layout = InputLayout::Mirrored;
        round_to_quantisation_steps(&mut net);
        let plain = FloatNet {
            layout: InputLayout::Plain,
            ..net.clone()
        };
        let mut s = Scratch::new(net.hidden);
        let mut differs = 0;
        for pos in &positions {
            let sample = Sample::new(pos, 0, GameResult::Draw);
            let float = net.output_of(pos);
            assert!((net.output(&sample, &mut s) - float).abs() < 1e-4);
            differs += usize::from((plain.output_of(pos) - float).abs() > 1e-3);
        }
        let (mean, worst, spread) = disagreement(&net, &positions);
        assert!(spread > 500.0, "the float scores span only {spread} cp");
        assert!(worst <= 1.5, "mean {mean} worst {worst}");
        // The mirror changed most scores: the comparison was about mirrored inputs.
        assert!(
            differs > positions.len() / 2,
            "{differs} of {}",
            positions.len()
        );
    }

    #[test]
    fn clipping_keeps_weights_quantisable() {
        let mut net = FloatNet::random(16, 8, 1);
        net.params.iter_mut().for_each(|p| *p *= 1000.0);
        net.clip();
        let quantised = net.quantise(400).expect("clipped weights quantise");
        let limit = i16::MAX / DEFAULT_QA;
        for bucket in 0..8 {
            let (ours, theirs) = quantised.output_weights(bucket);
            assert!(ours.iter().chain(theirs).all(|w| w.abs() <= limit));
            assert!(ours.iter().any(|w| w.abs() == limit));
        }
    }
}
