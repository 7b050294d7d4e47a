//! The training loop: epochs of shuffled mini-batches, each batch's gradient summed over
//! threads (each thread a slice of the batch with its own gradient buffer), an AdamW step,
//! clipping; after each epoch the validation loss and the recipe-independent measures of
//! [`super::metrics`] (one pass over the held-out positions) and a report (the caller prints
//! it and writes the checkpoint).

use std::time::Instant;

use super::checkpoint::Checkpoint;
use super::data::{ResultWeight, Sample, shuffle};
use super::metrics::{self, Metrics};
use super::net::Scratch;
use super::optim::Schedule;
use crate::rng::Rng;

/// What a run does (the network's size is the checkpoint's).
#[derive(Debug, Clone)]
pub struct Settings {
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    pub schedule: Schedule,
    /// The weight of the game result in the target (the rest is the score's).
    pub wdl: ResultWeight,
    /// Centipawns per output unit.
    pub scale: f32,
    pub threads: usize,
    pub seed: u64,
}

/// One epoch's numbers.
#[derive(Debug, Clone)]
pub struct EpochReport {
    /// Counting from 1.
    pub epoch: usize,
    pub epochs: usize,
    /// The rate at the epoch's end.
    pub lr: f32,
    /// The mean loss over the epoch's batches (as the weights moved).
    pub train_loss: f64,
    /// The held-out positions' validation loss, score error and result log-loss after the
    /// epoch (None without any).
    pub metrics: Option<Metrics>,
    pub positions_per_second: f64,
}

impl std::fmt::Display for EpochReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "epoch {}/{}  lr {:.6}  train loss {:.6}  validation loss {}  {:.0} positions/s",
            self.epoch,
            self.epochs,
            self.lr,
            self.train_loss,
            self.metrics
                .map_or("-".to_string(), |m| format!("{:.6}", m.validation_loss)),
            self.positions_per_second
        )?;
        match &self.metrics {
            Some(m) => write!(f, "  {m}"),
            None => Ok(()),
        }
    }
}

/// Runs `work` on `parts` slices of `items` at once, one with each state; the results in order.
pub(super) fn in_parallel<T: Sync, S: Send, R: Send>(
    items: &[T],
    states: &mut [S],
    work: impl Fn(&[T], &mut S) -> R + Sync,
) -> Vec<R> {
    if items.is_empty() {
        return Vec::new();
    }
    let part = items.len().div_ceil(states.len().max(1));
    if states.len() <= 1 {
        return states.iter_mut().map(|state| work(items, state)).collect();
    }
    let work = &work;
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(part)
            .zip(states.iter_mut())
            .map(|(chunk, state)| scope.spawn(move || work(chunk, state)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    })
}

/// Trains from `state.epochs_done` to `settings.epochs`, calling `on_epoch` after each epoch
/// (its error stops the run).
pub fn train(
    state: &mut Checkpoint,
    samples: &[Sample],
    validation: &[Sample],
    settings: &Settings,
    on_epoch: &mut dyn FnMut(&EpochReport, &Checkpoint) -> Result<(), String>,
) -> Result<(), String> {
    if samples.is_empty() || samples.len() > u32::MAX as usize {
        return Err(format!("{} training positions", samples.len()));
    }
    let threads = settings.threads.max(1);
    let hidden = state.net.hidden;
    let mut buffers: Vec<(Vec<f32>, Scratch)> = (0..threads)
        .map(|_| (vec![0.0; state.net.params.len()], Scratch::new(hidden)))
        .collect();
    let batch = settings.batch.max(1);
    let batches = samples.len().div_ceil(batch);
    let mut order: Vec<u32> = Vec::with_capacity(samples.len());
    for epoch in state.epochs_done..settings.epochs {
        let started = Instant::now();
        // The epoch's order depends only on the seed and the epoch, so a resumed run visits
        // the positions as an uninterrupted one would.
        let mut rng = Rng::new(settings.seed ^ (epoch as u64 + 1).wrapping_mul(0x9e37_79b9));
        order.clear();
        order.extend(0..samples.len() as u32);
        shuffle(&mut order, &mut rng);
        let mut loss_sum = 0.0;
        let mut lr = settings.lr;
        for (b, chunk) in order.chunks(batch).enumerate() {
            let progress = epoch as f32 + b as f32 / batches as f32;
            lr = settings
                .schedule
                .rate(settings.lr, progress, settings.epochs);
            let net = &state.net;
            let losses = in_parallel(chunk, &mut buffers, |part, (grad, s)| {
                grad.fill(0.0);
                part.iter()
                    .map(|&i| {
                        let x = &samples[i as usize];
                        let target = x.target(&settings.wdl, settings.scale);
                        f64::from(net.gradient(x, target, grad, s))
                    })
                    .sum::<f64>()
            });
            loss_sum += losses.iter().sum::<f64>();
            let (first, rest) = buffers.split_at_mut(1);
            let total = &mut first[0].0;
            for (grad, _) in &rest[..losses.len() - 1] {
                for (t, &g) in total.iter_mut().zip(grad) {
                    *t += g;
                }
            }
            let inverse = 1.0 / chunk.len() as f32;
            total.iter_mut().for_each(|g| *g *= inverse);
            state.optimiser.step(&mut state.net.params, total, lr);
            state.net.clip();
        }
        let seconds = started.elapsed().as_secs_f64().max(1e-9);
        state.epochs_done = epoch + 1;
        let report = EpochReport {
            epoch: epoch + 1,
            epochs: settings.epochs,
            lr,
            train_loss: loss_sum / samples.len() as f64,
            metrics: metrics::measure(state, validation, settings),
            positions_per_second: samples.len() as f64 / seconds,
        };
        on_epoch(&report, state)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::format::{GameResult, white_relative};
    use crate::eval::evaluate;
    use crate::train::net::FloatNet;
    use crate::train::optim::AdamW;
    use crate::train::random_positions;
    use shakmaty::Position;

    /// Positions scored by the hand-written evaluation: a target a small net can learn.
    fn synthetic(games: usize, seed: u64) -> Vec<Sample> {
        random_positions(games, 40, seed)
            .iter()
            .skip(9)
            .step_by(4)
            .map(|pos| {
                Sample::new(
                    pos,
                    white_relative(evaluate(pos), pos.turn()),
                    GameResult::Draw,
                )
            })
            .collect()
    }

    #[test]
    fn a_tiny_training_run_lowers_the_loss_and_resumes_where_it_stopped() {
        let samples = synthetic(400, 1);
        let validation = synthetic(60, 2);
        let settings = Settings {
            epochs: 6,
            batch: 128,
            lr: 0.005,
            schedule: Schedule::Cosine { end: 0.1 },
            wdl: ResultWeight::constant(0.0),
            scale: 400.0,
            threads: 2,
            seed: 3,
        };
        let net = FloatNet::random(16, 1, 4);
        let optimiser = AdamW::new(net.params.len(), 0.01);
        let fresh = Checkpoint {
            net,
            optimiser,
            epochs_done: 0,
        };
        // The validation loss computed directly, one sample after another.
        let direct_loss = |state: &Checkpoint, settings: &Settings| {
            let mut s = Scratch::new(state.net.hidden);
            validation
                .iter()
                .map(|x| {
                    let target = x.target(&settings.wdl, settings.scale);
                    f64::from(state.net.loss(x, target, &mut s))
                })
                .sum::<f64>()
                / validation.len() as f64
        };
        let before = direct_loss(&fresh, &settings);

        let mut whole = fresh.clone();
        let mut reports = Vec::new();
        train(&mut whole, &samples, &validation, &settings, &mut |r, _| {
            reports.push(r.clone());
            Ok(())
        })
        .expect("trains");
        let after = direct_loss(&whole, &settings);
        assert_eq!(reports.len(), 6);
        assert!(after < 0.7 * before, "validation loss {before} -> {after}");
        // The one-pass measures give the same validation loss as the direct sum, and the
        // last epoch's report is that of the final net.
        let measured = metrics::measure(&whole, &validation, &settings).expect("positions");
        assert!((measured.validation_loss - after).abs() < 1e-6 * after.max(1e-9));
        assert_eq!(reports[5].metrics, Some(measured));
        // With the score alone as the target at 400 cp a unit, the score error is the
        // validation loss; at another scale (or with results in the target) it is not.
        assert!((measured.score_error - after).abs() < 1e-6 * after.max(1e-9));
        let stretched = Settings {
            scale: 200.0,
            ..settings.clone()
        };
        let other = metrics::measure(&whole, &validation, &stretched).expect("positions");
        let stretched_loss = direct_loss(&whole, &stretched);
        assert!((other.validation_loss - stretched_loss).abs() < 1e-6 * stretched_loss);
        assert!((other.score_error - other.validation_loss).abs() > 1e-3 * after);
        assert!(reports[5].train_loss < reports[0].train_loss);

        // A run stopped after 3 epochs and resumed from its checkpoint ends with the same net.
        let mut stopped = fresh.clone();
        let mut saved = Vec::new();
        let result = train(
            &mut stopped,
            &samples,
            &validation,
            &settings,
            &mut |r, state| {
                saved = state.to_bytes();
                if r.epoch == 3 {
                    Err("stop".into())
                } else {
                    Ok(())
                }
            },
        );
        assert_eq!(result, Err("stop".to_string()));
        let mut resumed = Checkpoint::from_bytes(&saved, 0.01).expect("reads back");
        assert_eq!(resumed.epochs_done, 3);
        train(
            &mut resumed,
            &samples,
            &validation,
            &settings,
            &mut |_, _| Ok(()),
        )
        .expect("trains");
        assert_eq!(resumed.epochs_done, 6);
        assert_eq!(resumed.net, whole.net);
    }
}
