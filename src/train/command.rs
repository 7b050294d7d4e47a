//! The `threefold train` command line:
//!
//! ```text
//! threefold train --data PATH [--data PATH ...] --out FILE.nnue
//!     [--hidden 64] [--buckets 1] [--mirror] [--epochs 10] [--batch 16384] [--lr 0.001]
//!     [--schedule cosine|step] [--lr-end RATE]
//!     [--step-every 4] [--gamma 0.3] [--wdl 0.3] [--wdl-endgame W] [--scale 400]
//!     [--output-scale 400]
//!     [--weight-decay 0.01]
//!     [--validation 0.1] [--seed 1] [--threads 2] [--max-positions N]
//!     [--checkpoint FILE] [--resume]
//! ```
//!
//! `--data` names `.tfd` files or directories of them. A checkpoint (`--checkpoint`,
//! default `FILE.nnue.ckpt`) is written after every epoch; `--resume` starts from it and
//! runs the epochs still missing up to `--epochs`. The quantised net is written at the end.

use std::path::PathBuf;

use super::checkpoint::{Checkpoint, write_atomically};
use super::data::{self, Dataset, ResultWeight};
use super::epochs::{self, Settings};
use super::metrics;
use super::net::FloatNet;
use super::optim::{AdamW, Schedule};
use crate::eval::nnue::{self, HIDDEN_STEP, InputLayout, MAX_BUCKETS, MAX_HIDDEN};

/// The options of `threefold train`, as the command line gives them.
#[derive(Debug, Clone, clap::Args)]
#[command(about = "Trains an NNUE network on datagen files and writes it quantised")]
pub struct Args {
    /// A .tfd file or a directory of them (repeat the option for more)
    #[arg(long, required = true)]
    data: Vec<PathBuf>,
    /// Where the quantised net is written
    #[arg(long)]
    out: PathBuf,
    /// The float training state, written after every epoch [default: OUT.ckpt]
    #[arg(long)]
    checkpoint: Option<PathBuf>,
    /// Start from the checkpoint and run the epochs still missing
    #[arg(long)]
    resume: bool,
    /// Hidden neurons per perspective (a multiple of 16)
    #[arg(long, default_value_t = 64)]
    hidden: usize,
    /// Output buckets, chosen by the number of pieces on the board (1 to 16)
    #[arg(long, default_value_t = 1)]
    buckets: usize,
    /// Mirrored inputs: each side sees the board flipped left to right while its king is on the
    /// e- to h-files (network format version 3)
    #[arg(long)]
    mirror: bool,
    #[arg(long, default_value_t = 10)]
    epochs: usize,
    /// Positions per gradient step
    #[arg(long, default_value_t = 16_384)]
    batch: usize,
    /// The starting learning rate
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// How the learning rate falls: cosine (to --lr-end at the end) or step
    #[arg(long, default_value = "cosine")]
    schedule: String,
    /// With --schedule cosine: the learning rate the last batch ends on, from 0 to --lr
    /// [default: --lr / 100]
    #[arg(long)]
    lr_end: Option<f32>,
    /// With --schedule step: epochs between two drops
    #[arg(long, default_value_t = 4)]
    step_every: usize,
    /// With --schedule step: the factor of each drop
    #[arg(long, default_value_t = 0.3)]
    gamma: f32,
    /// The weight of the game result in the target, from 0 to 1 (the rest is the score's)
    #[arg(long, default_value_t = 0.3)]
    wdl: f32,
    /// The weight of the game result with kings and pawns only; in between, in proportion to
    /// the pieces left (knight or bishop 1, rook 2, queen 4 of 24) [default: --wdl]
    #[arg(long)]
    wdl_endgame: Option<f32>,
    /// Centipawns per unit of the sigmoid's input
    #[arg(long, default_value_t = 400.0)]
    scale: f32,
    /// Centipawns per unit of the output written into the net, if not --scale: a net with the
    /// result in its target may stretch its scores, and the search's margins want centipawns
    /// that mean what the current net's mean (from the trainer's fitted K: scale * K of the
    /// current net / K of this one)
    #[arg(long)]
    output_scale: Option<u32>,
    #[arg(long, default_value_t = 0.01)]
    weight_decay: f32,
    /// The share of games held out for validation
    #[arg(long, default_value_t = 0.1)]
    validation: f64,
    /// Seeds the initial weights and the shuffling
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Reads at most this many positions
    #[arg(long)]
    max_positions: Option<usize>,
}

/// Where the cosine schedule ends without `--lr-end`: this share of `--lr`.
const COSINE_END_SHARE: f32 = 0.01;

/// The options of one run.
#[derive(Debug, Clone)]
struct Options {
    data: Vec<PathBuf>,
    out: PathBuf,
    checkpoint: PathBuf,
    resume: bool,
    hidden: usize,
    buckets: usize,
    layout: InputLayout,
    weight_decay: f32,
    validation: f64,
    max_positions: usize,
    /// Centipawns per output unit in the written net.
    output_scale: i32,
    settings: Settings,
}

/// The command line checked and turned into the options of a run.
fn parse(args: Args) -> Result<Options, String> {
    let Args {
        data,
        out,
        checkpoint,
        resume,
        hidden,
        buckets,
        mirror,
        epochs,
        batch,
        lr,
        schedule,
        lr_end,
        step_every,
        gamma,
        wdl,
        wdl_endgame,
        scale,
        output_scale,
        weight_decay,
        validation,
        seed,
        threads,
        max_positions,
    } = args;
    let max_positions = max_positions.unwrap_or(usize::MAX);
    if hidden == 0 || hidden > MAX_HIDDEN || !hidden.is_multiple_of(HIDDEN_STEP) {
        return Err(format!(
            "--hidden must be a multiple of {HIDDEN_STEP} from {HIDDEN_STEP} to {MAX_HIDDEN}"
        ));
    }
    if !(1..=MAX_BUCKETS).contains(&buckets) {
        return Err(format!("--buckets must be from 1 to {MAX_BUCKETS}"));
    }
    if !(lr > 0.0 && lr.is_finite()) {
        return Err("--lr must be above 0".into());
    }
    let schedule = match schedule.as_str() {
        "cosine" => match lr_end {
            None => Schedule::Cosine {
                end: COSINE_END_SHARE,
            },
            Some(end) if (0.0..=lr).contains(&end) => Schedule::Cosine { end: end / lr },
            Some(end) => {
                return Err(format!("--lr-end must be from 0 to --lr ({lr}), got {end}"));
            }
        },
        "step" if lr_end.is_some() => {
            return Err(
                "--lr-end sets where --schedule cosine ends; --schedule step falls by --gamma"
                    .into(),
            );
        }
        "step" if step_every > 0 && gamma > 0.0 => Schedule::Step {
            every: step_every,
            gamma,
        },
        "step" => return Err("--step-every must be above 0 and --gamma above 0".into()),
        other => return Err(format!("--schedule must be cosine or step, got '{other}'")),
    };
    let settings = Settings {
        epochs,
        batch,
        lr,
        schedule,
        wdl: ResultWeight {
            full: wdl,
            bare: wdl_endgame.unwrap_or(wdl),
        },
        scale,
        threads,
        seed,
    };
    let checks = [
        (settings.epochs >= 1, "--epochs must be at least 1"),
        (settings.batch >= 1, "--batch must be at least 1"),
        (
            (0.0..=1.0).contains(&settings.wdl.full),
            "--wdl must be from 0 to 1",
        ),
        (
            (0.0..=1.0).contains(&settings.wdl.bare),
            "--wdl-endgame must be from 0 to 1",
        ),
        (
            (1.0..=10_000.0).contains(&settings.scale),
            "--scale must be from 1 to 10000",
        ),
        (
            output_scale.is_none_or(|s| (1..=10_000).contains(&s)),
            "--output-scale must be from 1 to 10000",
        ),
        (
            (0.0..1.0).contains(&weight_decay),
            "--weight-decay must be from 0 to below 1",
        ),
        (
            (0.0..1.0).contains(&validation),
            "--validation must be from 0 to below 1",
        ),
        (
            (1..=256).contains(&settings.threads),
            "--threads must be from 1 to 256",
        ),
        (max_positions >= 1, "--max-positions must be at least 1"),
    ];
    if let Some((_, message)) = checks.iter().find(|(ok, _)| !ok) {
        return Err(message.to_string());
    }
    let checkpoint = checkpoint.unwrap_or_else(|| {
        let mut path = out.clone().into_os_string();
        path.push(".ckpt");
        PathBuf::from(path)
    });
    Ok(Options {
        data,
        out,
        checkpoint,
        resume,
        hidden,
        buckets,
        layout: if mirror {
            InputLayout::Mirrored
        } else {
            InputLayout::Plain
        },
        weight_decay,
        validation,
        max_positions,
        output_scale: output_scale.map_or(settings.scale.round() as i32, |s| s as i32),
        settings,
    })
}

/// Runs `threefold train ARGS`; the error is a message for the user.
pub fn run(args: Args) -> Result<(), String> {
    let options = parse(args)?;
    let settings = &options.settings;
    let started = std::time::Instant::now();
    // The checkpoint first: a wrong one is found before reading the data.
    let mut state = if options.resume {
        let state = Checkpoint::load(&options.checkpoint, options.weight_decay)?;
        if (state.net.hidden, state.net.buckets) != (options.hidden, options.buckets) {
            return Err(format!(
                "the checkpoint has hidden size {} and {} buckets, not --hidden {} --buckets {}",
                state.net.hidden, state.net.buckets, options.hidden, options.buckets
            ));
        }
        if state.net.layout != options.layout {
            return Err(format!(
                "the checkpoint's inputs are {}mirrored: give --mirror as its run did",
                if state.net.layout == InputLayout::Mirrored {
                    ""
                } else {
                    "not "
                }
            ));
        }
        eprintln!(
            "train: resuming from {} after epoch {}",
            options.checkpoint.display(),
            state.epochs_done
        );
        state
    } else {
        let mut net = FloatNet::random(options.hidden, options.buckets, settings.seed);
        net.layout = options.layout;
        let optimiser = AdamW::new(net.params.len(), options.weight_decay);
        Checkpoint {
            net,
            optimiser,
            epochs_done: 0,
        }
    };
    let files = crate::data::files::data_files_of(&options.data)?;
    let Dataset {
        train,
        validation,
        check,
        files: file_count,
        games,
        positions,
    } = data::load(
        &files,
        options.validation,
        settings.seed,
        options.max_positions,
    )?;
    eprintln!(
        "train: {file_count} files, {games} games, {positions} positions, {} quiet: {} to train, {} held out ({:.1} s to read)",
        train.len() + validation.len(),
        train.len(),
        validation.len(),
        started.elapsed().as_secs_f64()
    );
    if let Some(m) = metrics::measure(&state, &validation, settings) {
        eprintln!(
            "train: validation loss before epoch {}: {:.6}  {m}",
            state.epochs_done + 1,
            m.validation_loss
        );
    }
    let checkpoint_path = options.checkpoint.clone();
    epochs::train(
        &mut state,
        &train,
        &validation,
        settings,
        &mut |report, state| {
            eprintln!("train: {report}");
            state.save(&checkpoint_path)
        },
    )?;
    let scale = options.output_scale;
    let net = state
        .net
        .quantise(scale)
        .map_err(|e| format!("quantising: {e}"))?;
    write_atomically(&options.out, &net.to_bytes())?;
    let differences: Vec<f64> = check
        .iter()
        .map(|pos| {
            let float = f64::from(state.net.output_of(pos)) * f64::from(scale);
            (f64::from(nnue::evaluate_position(&net, pos)) - float).abs()
        })
        .collect();
    if !differences.is_empty() {
        eprintln!(
            "train: quantised against float on {} held-out positions: mean |difference| {:.2} cp, largest {:.2} cp",
            differences.len(),
            differences.iter().sum::<f64>() / differences.len() as f64,
            differences.iter().cloned().fold(0.0, f64::max)
        );
    }
    eprintln!(
        "train: wrote {} ({} bytes, {}) after {:.1} s",
        options.out.display(),
        nnue::file_bytes(net.hidden(), net.buckets(), net.layout()),
        net.shape(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// `threefold train`'s options on a command line of their own.
    #[derive(Parser)]
    struct Line {
        #[command(flatten)]
        args: Args,
    }

    fn options(extra: &[&str]) -> Result<Options, String> {
        let mut line = vec!["train", "--data", "games", "--out", "net.nnue"];
        line.extend_from_slice(extra);
        let args = Line::try_parse_from(line).map_err(|e| e.to_string())?.args;
        parse(args)
    }

    fn last_rate(options: &Options) -> f32 {
        let s = &options.settings;
        s.schedule.rate(s.lr, s.epochs as f32, s.epochs)
    }

    #[test]
    fn the_cosine_ends_at_lr_end_or_at_a_hundredth_of_lr() {
        let floor = options(&["--lr", "0.002", "--lr-end", "0.0001"]).expect("valid");
        assert!((last_rate(&floor) - 0.0001).abs() < 1e-9);
        let s = &floor.settings;
        assert!((s.schedule.rate(s.lr, 0.0, s.epochs) - 0.002).abs() < 1e-9);
        let default = options(&["--lr", "0.002"]).expect("valid");
        assert!((last_rate(&default) - 0.00002).abs() < 1e-9);
        let zero = options(&["--lr", "0.002", "--lr-end", "0"]).expect("valid");
        assert_eq!(last_rate(&zero), 0.0);
    }

    #[test]
    fn an_lr_end_that_cannot_hold_is_refused() {
        for bad in ["0.003", "-0.0001", "NaN", "inf"] {
            let given = format!("--lr-end={bad}");
            let error = options(&["--lr", "0.002", &given]).expect_err(bad);
            assert!(
                error.contains("--lr-end must be from 0 to --lr"),
                "{bad}: {error}"
            );
        }
        let error = options(&["--schedule", "step", "--lr-end", "0.0001"]).expect_err("step");
        assert!(error.contains("--schedule step"), "{error}");
        let error = options(&["--lr", "0", "--lr-end", "0"]).expect_err("no lr");
        assert!(error.contains("--lr must be above 0"), "{error}");
    }
}
