//! The `threefold train` command line:
//!
//! ```text
//! threefold train --data PATH [--data PATH ...] --out FILE.nnue
//!     [--hidden 64] [--epochs 10] [--batch 16384] [--lr 0.001] [--schedule cosine|step]
//!     [--step-every 4] [--gamma 0.3] [--wdl 0.3] [--scale 400] [--weight-decay 0.01]
//!     [--validation 0.1] [--seed 1] [--threads 2] [--max-positions N]
//!     [--checkpoint FILE] [--resume]
//! ```
//!
//! `--data` names `.tfd` files or directories of them. A checkpoint (`--checkpoint`,
//! default `FILE.nnue.ckpt`) is written after every epoch; `--resume` starts from it and
//! runs the epochs still missing up to `--epochs`. The quantised net is written at the end.

use std::path::PathBuf;

use super::checkpoint::{Checkpoint, write_atomically};
use super::data::{self, Dataset};
use super::net::FloatNet;
use super::optim::{AdamW, Schedule};
use super::run::{self, Settings};
use crate::eval::nnue::{self, HIDDEN_STEP, MAX_HIDDEN};

pub const USAGE: &str = "usage: threefold train --data PATH [--data PATH ...] --out FILE.nnue [--hidden 64] [--epochs 10] [--batch 16384] [--lr 0.001] [--schedule cosine|step] [--step-every 4] [--gamma 0.3] [--wdl 0.3] [--scale 400] [--weight-decay 0.01] [--validation 0.1] [--seed 1] [--threads 2] [--max-positions N] [--checkpoint FILE] [--resume]";

/// The options of one run.
#[derive(Debug, Clone)]
struct Options {
    data: Vec<PathBuf>,
    out: PathBuf,
    checkpoint: PathBuf,
    resume: bool,
    hidden: usize,
    weight_decay: f32,
    validation: f64,
    max_positions: usize,
    settings: Settings,
}

fn value<T: std::str::FromStr>(name: &str, text: Option<&String>) -> Result<T, String> {
    let text = text.ok_or_else(|| format!("--{name} needs a value\n{USAGE}"))?;
    text.parse()
        .map_err(|_| format!("--{name}: '{text}' is not a valid value\n{USAGE}"))
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut data = Vec::new();
    let mut out = None;
    let mut checkpoint = None;
    let mut resume = false;
    let mut hidden = 64;
    let mut weight_decay = 0.01;
    let mut validation = 0.1;
    let mut max_positions = usize::MAX;
    let mut schedule = "cosine".to_string();
    let (mut step_every, mut gamma) = (4, 0.3);
    let mut settings = Settings {
        epochs: 10,
        batch: 16_384,
        lr: 0.001,
        schedule: Schedule::Cosine { end: 0.01 },
        wdl: 0.3,
        scale: 400.0,
        threads: 2,
        seed: 1,
    };
    let mut items = args.iter();
    while let Some(arg) = items.next() {
        let name = arg
            .strip_prefix("--")
            .ok_or_else(|| format!("expected an option like --data, got '{arg}'\n{USAGE}"))?;
        let mut next = || items.next();
        match name {
            "data" => data.push(PathBuf::from(value::<String>(name, next())?)),
            "out" => out = Some(PathBuf::from(value::<String>(name, next())?)),
            "checkpoint" => checkpoint = Some(PathBuf::from(value::<String>(name, next())?)),
            "resume" => resume = true,
            "hidden" => hidden = value(name, next())?,
            "epochs" => settings.epochs = value(name, next())?,
            "batch" => settings.batch = value(name, next())?,
            "lr" => settings.lr = value(name, next())?,
            "schedule" => schedule = value(name, next())?,
            "step-every" => step_every = value(name, next())?,
            "gamma" => gamma = value(name, next())?,
            "wdl" => settings.wdl = value(name, next())?,
            "scale" => settings.scale = value(name, next())?,
            "weight-decay" => weight_decay = value(name, next())?,
            "validation" => validation = value(name, next())?,
            "seed" => settings.seed = value(name, next())?,
            "threads" => settings.threads = value(name, next())?,
            "max-positions" => max_positions = value(name, next())?,
            _ => return Err(format!("unknown option --{name}\n{USAGE}")),
        }
    }
    if data.is_empty() {
        return Err(format!("train needs --data PATH\n{USAGE}"));
    }
    let out = out.ok_or_else(|| format!("train needs --out FILE\n{USAGE}"))?;
    if hidden == 0 || hidden > MAX_HIDDEN || !hidden.is_multiple_of(HIDDEN_STEP) {
        return Err(format!(
            "--hidden must be a multiple of {HIDDEN_STEP} from {HIDDEN_STEP} to {MAX_HIDDEN}"
        ));
    }
    settings.schedule = match schedule.as_str() {
        "cosine" => Schedule::Cosine { end: 0.01 },
        "step" if step_every > 0 && gamma > 0.0 => Schedule::Step {
            every: step_every,
            gamma,
        },
        "step" => return Err("--step-every must be above 0 and --gamma above 0".into()),
        other => return Err(format!("--schedule must be cosine or step, got '{other}'")),
    };
    let checks = [
        (settings.epochs >= 1, "--epochs must be at least 1"),
        (settings.batch >= 1, "--batch must be at least 1"),
        (
            settings.lr > 0.0 && settings.lr.is_finite(),
            "--lr must be above 0",
        ),
        (
            (0.0..=1.0).contains(&settings.wdl),
            "--wdl must be from 0 to 1",
        ),
        (
            (1.0..=10_000.0).contains(&settings.scale),
            "--scale must be from 1 to 10000",
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
        weight_decay,
        validation,
        max_positions,
        settings,
    })
}

/// Runs `threefold train ARGS`; the error is a message for the user.
pub fn run(args: &[String]) -> Result<(), String> {
    let options = parse(args)?;
    let settings = &options.settings;
    let started = std::time::Instant::now();
    // The checkpoint first: a wrong one is found before reading the data.
    let mut state = if options.resume {
        let state = Checkpoint::load(&options.checkpoint, options.weight_decay)?;
        if state.net.hidden != options.hidden {
            return Err(format!(
                "the checkpoint has hidden size {}, not --hidden {}",
                state.net.hidden, options.hidden
            ));
        }
        eprintln!(
            "train: resuming from {} after epoch {}",
            options.checkpoint.display(),
            state.epochs_done
        );
        state
    } else {
        let net = FloatNet::random(options.hidden, settings.seed);
        let optimiser = AdamW::new(net.params.len(), options.weight_decay);
        Checkpoint {
            net,
            optimiser,
            epochs_done: 0,
        }
    };
    let files = data::data_files(&options.data)?;
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
    if let Some(loss) = run::mean_loss(&state, &validation, settings) {
        eprintln!(
            "train: validation loss before epoch {}: {loss:.6}",
            state.epochs_done + 1
        );
    }
    let checkpoint_path = options.checkpoint.clone();
    run::train(
        &mut state,
        &train,
        &validation,
        settings,
        &mut |report, state| {
            eprintln!("train: {report}");
            state.save(&checkpoint_path)
        },
    )?;
    let scale = settings.scale.round() as i32;
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
        "train: wrote {} ({} bytes, hidden {}) after {:.1} s",
        options.out.display(),
        nnue::file_bytes(net.hidden()),
        net.hidden(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
