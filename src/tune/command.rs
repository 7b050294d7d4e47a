//! The `threefold tune` command line (clap):
//!
//! ```text
//! threefold tune generate --out FILE --book FILE.epd [--games 2000] [--nodes 5000] [--threads 2] [--seed 1]
//! threefold tune fit --data FILE [--passes 50] [--threads 2] [--limit N]
//!                    [--min-support 1000] [--patience 3] [--freeze material,tempo]
//!                    [--weights FILE]
//! ```
//!
//! `--weights` defaults to `src/eval/weights.rs` of the source tree the binary was built from,
//! whatever the working directory; the book has no default (none ships with the repository).

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::fit::{self, Sample};
use super::generate::{self, Options};
use crate::eval::weights::{WEIGHTS, with_weights};

/// The weights file of the source tree this binary was built from.
const SOURCE_WEIGHTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/eval/weights.rs");

/// `threefold tune generate|fit`.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Plays self-play games from book openings and writes their quiet positions as FEN;RESULT lines
    #[command(
        after_help = "A book: any EPD or FEN file, one position a line, e.g. Stockfish's 2moves_v1.epd, or\n  \
        threefold \"genfens 2000 seed 1 book None\" quit | sed -n 's/^info string genfens //p' > openings.epd"
    )]
    Generate(GenerateArgs),
    /// Fits the evaluation weights to training positions (Texel's method) and rewrites the weights file
    Fit(FitArgs),
}

/// The options of `tune generate`.
#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
    /// The training positions are written here (an existing file is replaced)
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Opening positions (EPD or FEN, one a line); each game starts from a random one
    #[arg(long, value_name = "FILE.epd")]
    pub book: PathBuf,
    /// Games to play
    #[arg(long, default_value_t = 2_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Nodes a move (each move varies it by up to half)
    #[arg(long, default_value_t = 5_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Game threads
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: u64,
    /// The same seed gives the same positions
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Seconds between progress lines on stderr
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    pub report_secs: u64,
}

/// The options of `tune fit`.
#[derive(Debug, clap::Args)]
pub struct FitArgs {
    /// Training positions as `tune generate` writes them (FEN;RESULT)
    #[arg(long, value_name = "FILE")]
    pub data: PathBuf,
    /// At most this many passes over the weights
    #[arg(long, default_value_t = 50)]
    pub passes: usize,
    /// Threads computing the error
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: u64,
    /// Read at most this many positions
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// A weight that fewer training positions depend on is left alone
    #[arg(long, default_value_t = 1_000)]
    pub min_support: usize,
    /// Passes without a better held-out error before the fit stops
    #[arg(long, default_value_t = 3)]
    pub patience: usize,
    /// Weight fields left alone, separated by commas (e.g. material,tempo)
    #[arg(long, value_name = "FIELD,...", value_delimiter = ',')]
    pub freeze: Vec<String>,
    /// The weights file, rewritten after each pass [default: src/eval/weights.rs of the source
    /// tree this binary was built from]
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
}

/// Runs `threefold tune ...`; the error is a message for the user.
pub fn run(command: Command) -> Result<(), String> {
    match command {
        Command::Generate(args) => generate(&args),
        Command::Fit(args) => fit(&args),
    }
}

/// `n` as a count of this machine (threads, games).
fn count(n: u64, name: &str) -> Result<usize, String> {
    usize::try_from(n).map_err(|_| format!("--{name} {n} is too large for this machine"))
}

fn generate(args: &GenerateArgs) -> Result<(), String> {
    let book_path = args.book.display();
    let book = std::fs::read_to_string(&args.book)
        .map_err(|e| format!("cannot read the book {book_path}: {e}"))?;
    let openings = crate::selfplay::openings::read_openings(&book);
    if openings.is_empty() {
        return Err(format!("no positions in {book_path}"));
    }
    let options = Options {
        games: count(args.games, "games")?,
        nodes: args.nodes,
        threads: count(args.threads, "threads")?,
        seed: args.seed,
    };
    let out_path = args.out.display();
    let file =
        std::fs::File::create(&args.out).map_err(|e| format!("cannot create {out_path}: {e}"))?;
    let mut out = BufWriter::new(file);
    let started = std::time::Instant::now();
    let report_every = std::time::Duration::from_secs(args.report_secs);
    let mut progress = |progress: generate::Progress| {
        eprintln!("{}", progress_line(&progress, options.games));
    };
    let written = generate::run(&openings, &options, &mut out, report_every, &mut progress)
        .map_err(|e| format!("writing {out_path}: {e}"))?;
    out.flush()
        .map_err(|e| format!("writing {out_path}: {e}"))?;
    println!(
        "{} games, {written} positions written to {out_path} in {:.0} s",
        options.games,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `tune generate: 120/2000 games (6%), 8,345 positions, 1.2 games/s, 83 positions/s, 100 s`.
fn progress_line(progress: &generate::Progress, games: usize) -> String {
    let seconds = progress.elapsed.as_secs_f64().max(1e-3);
    format!(
        "tune generate: {}/{games} games ({:.0}%), {} positions, {:.1} games/s, {:.0} positions/s, {:.0} s",
        progress.games,
        100.0 * progress.games as f64 / games.max(1) as f64,
        progress.positions,
        progress.games as f64 / seconds,
        progress.positions as f64 / seconds,
        seconds
    )
}

fn fit(args: &FitArgs) -> Result<(), String> {
    let weights_path = args
        .weights
        .clone()
        .unwrap_or_else(|| PathBuf::from(SOURCE_WEIGHTS));
    let weights_shown = weights_path.display();
    let source = std::fs::read_to_string(&weights_path).map_err(|e| {
        let hint = if args.weights.is_none() {
            " (the weights of the source tree this binary was built from; give --weights FILE)"
        } else {
            ""
        };
        format!("cannot read {weights_shown}{hint}: {e}")
    })?;
    if with_weights(&source, &WEIGHTS).is_none() {
        return Err(format!("{weights_shown} has no tuned-weights markers"));
    }
    let threads = count(args.threads, "threads")?;
    let min_support = args.min_support;
    let frozen_fields = frozen_fields(&args.freeze)?;
    let samples = read_samples(&args.data, args.limit.unwrap_or(usize::MAX))?;
    let (train, held_out) = fit::split(samples);
    println!(
        "{} training positions, {} held out",
        train.len(),
        held_out.len()
    );
    let mut weights = WEIGHTS.clone();
    let started = std::time::Instant::now();
    let mut save = |pass: usize, error: f64, w: &crate::eval::weights::Weights| {
        println!(
            "pass {pass}: training error {error:.6} ({:.0} s)",
            started.elapsed().as_secs_f64()
        );
        if let Some(text) = with_weights(&source, w)
            && let Err(e) = std::fs::write(&weights_path, text)
        {
            log::error!("cannot write {weights_shown}: {e}");
        }
    };
    let limits = fit::Limits {
        max_passes: args.passes,
        min_support,
        threads,
        patience: args.patience,
        frozen_fields: &frozen_fields,
    };
    let report = fit::fit(&train, &held_out, &mut weights, limits, &mut save);
    println!(
        "{} weights left alone (frozen, or fewer than {min_support} positions depend on them): {}",
        report.frozen.len(),
        report.frozen.join(" ")
    );
    println!(
        "k {:.4}; weights of pass {} kept; {} weights changed; training error {:.6} -> {:.6}; held-out error {:.6} -> {:.6}",
        report.k,
        report.kept_pass,
        report.changed,
        report.train_before,
        report.train_after,
        report.held_out_before,
        report.held_out_after
    );
    println!("weights written to {weights_shown}; rebuild to use them");
    Ok(())
}

/// The fields named by `--freeze a,b`, each checked against the fields of `Weights`.
fn frozen_fields(names: &[String]) -> Result<Vec<String>, String> {
    let known: Vec<&str> = (0..WEIGHTS.count()).map(|i| WEIGHTS.field(i)).collect();
    names
        .iter()
        .map(|name| {
            let name = name.trim();
            if known.contains(&name) {
                Ok(name.to_string())
            } else {
                Err(format!("--freeze: no weight field named '{name}'"))
            }
        })
        .collect()
}

/// Reads up to `limit` samples, skipping (and counting) lines that cannot be used.
fn read_samples(path: &Path, limit: usize) -> Result<Vec<Sample>, String> {
    let file =
        std::fs::File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let path = path.display();
    let mut samples = Vec::new();
    let mut skipped = 0;
    for (number, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("reading {path}: {e}"))?;
        match fit::parse_line(&line) {
            Ok(sample) => samples.push(sample),
            Err(e) => {
                skipped += 1;
                log::warn!("{path}:{}: {e}", number + 1);
            }
        }
        if samples.len() >= limit {
            break;
        }
    }
    if skipped > 0 {
        println!("{skipped} lines of {path} skipped (see the log)");
    }
    if samples.is_empty() {
        return Err(format!("no usable positions in {path}"));
    }
    Ok(samples)
}
