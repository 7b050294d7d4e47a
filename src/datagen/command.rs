//! The `threefold datagen` command line (clap):
//!
//! ```text
//! threefold datagen --out DIR [--seed 1] [--threads N] [--nodes 5000] [--hard-nodes 50000]
//!                   [--games N] [--minutes M] [--book FILE.epd] [--random-plies N] [--opening-nodes 1000]
//!                   [--opening-max-score 300] [--draw-adjudication on|off] [--report-secs 30]
//! threefold datagen --stats FILE_OR_DIR
//! threefold datagen --dump FILE_OR_DIR      (every position: FEN | move | score | result)
//! threefold datagen --verify DIR [--manifest nnue/DATA.md]
//! threefold datagen --from-pgn FILE.pgn --out FILE
//! ```
//!
//! Progress and summaries go to stderr, except `--stats`, `--dump` and `--verify`, whose report
//! is the output.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use super::generator::{Options, manifest_line};
use super::{manifest, pgn, stats};
use crate::eval::nnue::{EMBEDDED_FILE, Network, default_network};
use crate::selfplay::game::Adjudication;
use crate::selfplay::openings::{OpeningRules, read_openings};

/// The options of `threefold datagen`: self-play into `--out DIR` (the default mode), or one
/// of `--stats`, `--dump`, `--from-pgn`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Progress and summaries go to stderr; --stats, --dump and --verify print their report on stdout."
)]
pub struct Args {
    /// Self-play: the directory of the data files (created if missing; a run resumes the batch
    /// of its seed). With --from-pgn: the data file to write (must not exist)
    #[arg(long, value_name = "DIR", required_unless_present_any = ["stats", "dump", "verify"])]
    pub out: Option<PathBuf>,
    /// Reports games, positions, W/D/L and a score histogram of a data file or directory
    #[arg(long, value_name = "FILE_OR_DIR", exclusive = true)]
    pub stats: Option<PathBuf>,
    /// Prints every position of a data file or directory: FEN | move | score | result
    #[arg(long, value_name = "FILE_OR_DIR", exclusive = true)]
    pub dump: Option<PathBuf>,
    /// Checks the data files of a directory against the manifest: checksums, whole batches,
    /// and each batch's games, positions and W/D/L as its row gives them
    #[arg(long, value_name = "DIR", conflicts_with_all = ["out", "SelfPlay"])]
    pub verify: Option<PathBuf>,
    /// With --verify: the manifest to check against
    #[arg(
        long,
        value_name = "FILE",
        default_value = "nnue/DATA.md",
        requires = "verify"
    )]
    pub manifest: PathBuf,
    /// Converts the scored games of a PGN file (cutechess-cli, fastchess, OpenBench) into --out FILE
    #[arg(
        long,
        value_name = "FILE.pgn",
        requires = "out",
        conflicts_with = "SelfPlay"
    )]
    pub from_pgn: Option<PathBuf>,
    #[command(flatten)]
    pub self_play: SelfPlay,
}

/// The self-play options of `threefold datagen --out DIR`.
#[derive(Debug, clap::Args)]
#[group(id = "SelfPlay", multiple = true)]
pub struct SelfPlay {
    /// The batch: the same seed gives the same games
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Game threads [default: the number of cores]
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,
    /// Soft node budget a move: no new iteration once it is spent
    #[arg(long, default_value_t = 5_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Hard node limit a move, at least --nodes [default: ten times --nodes]
    #[arg(long, value_name = "N")]
    pub hard_nodes: Option<u64>,
    /// Stop after this many games in this run [default: until killed]; 0 plays none and prints
    /// the batch's manifest row and checksums (after a run that was killed)
    #[arg(long, value_parser = clap::value_parser!(u64))]
    pub games: Option<u64>,
    /// Start no game after this many minutes [default: until killed]
    #[arg(long, value_name = "M", value_parser = positive_minutes)]
    pub minutes: Option<Duration>,
    /// Openings from a random position of this EPD/FEN file [default: random-move openings]
    #[arg(long, value_name = "FILE.epd")]
    pub book: Option<PathBuf>,
    /// Random plies after the start (8) or book position (2); one more half the time
    #[arg(long, value_name = "N")]
    pub random_plies: Option<usize>,
    /// Nodes of the search that checks an opening [default: 1000]
    #[arg(long, value_name = "N")]
    pub opening_nodes: Option<u64>,
    /// An opening is kept only within this many centipawns [default: 300]
    #[arg(long, value_name = "CP", value_parser = clap::value_parser!(i32).range(0..))]
    pub opening_max_score: Option<i32>,
    /// Adjudicate long quiet games as draws (after ply 80, within ±10 cp for 12 plies)
    #[arg(long, value_name = "on|off", default_value = "on", value_parser = ["on", "off"])]
    pub draw_adjudication: String,
    /// Self-play evaluates with this network file [default: the engine's default evaluation,
    /// the built-in network]
    #[arg(long, value_name = "FILE.nnue")]
    pub eval_file: Option<PathBuf>,
    /// Seconds between progress lines on stderr
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..))]
    pub report_secs: u64,
}

/// Runs `threefold datagen ...`; the error is a message for the user (exit status 2).
pub fn run(args: Args) -> Result<(), String> {
    if let Some(path) = &args.stats {
        let stats = stats::collect(path)?;
        if stats.files == 0 {
            return Err(format!("no .tfd data files in {}", path.display()));
        }
        print!("{}", stats::report(&stats));
        return Ok(());
    }
    if let Some(path) = &args.dump {
        let stdout = std::io::stdout();
        let mut out = std::io::BufWriter::new(stdout.lock());
        stats::dump(path, &mut out)?;
        return match std::io::Write::flush(&mut out) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("writing: {e}")),
            _ => Ok(()),
        };
    }
    if let Some(dir) = &args.verify {
        return verify(dir, &args.manifest);
    }
    let Some(out) = &args.out else {
        return Err("datagen needs --out DIR (or --stats, --dump, --verify)".to_string());
    };
    match &args.from_pgn {
        Some(pgn_path) => convert(pgn_path, out),
        None => generate(&args.self_play, out),
    }
}

/// `--verify DIR`: a line per batch on stdout; any problem makes it an error (exit status 2).
fn verify(dir: &Path, manifest_path: &Path) -> Result<(), String> {
    let manifest = manifest::Manifest::load(manifest_path)?;
    let found = manifest::verify(&manifest, dir)?;
    for line in &found.batches {
        println!("{line}");
    }
    if found.problems.is_empty() {
        println!(
            "{}: {} verified against {}",
            dir.display(),
            match found.batches.len() {
                1 => "1 batch".to_string(),
                n => format!("{n} batches"),
            },
            manifest_path.display()
        );
        return Ok(());
    }
    for problem in &found.problems {
        println!("problem: {problem}");
    }
    Err(format!(
        "{} problems in {} against {}",
        found.problems.len(),
        dir.display(),
        manifest_path.display()
    ))
}

/// `--minutes M`: a positive number of minutes.
fn positive_minutes(text: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .filter(|m| *m > 0.0)
        .and_then(|m| Duration::try_from_secs_f64(m * 60.0).ok())
        .ok_or_else(|| format!("a positive number of minutes, not '{text}'"))
}

fn generate(args: &SelfPlay, out: &Path) -> Result<(), String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let nodes = args.nodes;
    let hard_nodes = args.hard_nodes.unwrap_or(nodes.saturating_mul(10));
    if hard_nodes < nodes {
        return Err(format!(
            "--hard-nodes must be at least --nodes ({nodes}), got {hard_nodes}"
        ));
    }
    let book = match &args.book {
        None => None,
        Some(path) => {
            let shown = path.display().to_string();
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
            let positions = read_openings(&text);
            if positions.is_empty() {
                return Err(format!("no legal positions in the book {shown}"));
            }
            Some((shown, positions))
        }
    };
    let defaults = if book.is_some() {
        OpeningRules::book()
    } else {
        OpeningRules::random()
    };
    let threads = match args.threads {
        None => cores,
        Some(n) => usize::try_from(n).map_err(|_| format!("--threads {n} is too large"))?,
    };
    let (network, evaluation) = match &args.eval_file {
        Some(path) => (
            Some(Arc::new(Network::load(path)?)),
            format!("net {}", path.display()),
        ),
        None => {
            let network = default_network();
            let name = match network {
                Some(_) => format!("net {EMBEDDED_FILE}"),
                None => "hand-written eval".to_string(),
            };
            (network, name)
        }
    };
    let options = Options {
        out: out.to_path_buf(),
        seed: args.seed,
        threads,
        nodes,
        hard_nodes,
        games: args.games,
        time_limit: args.minutes,
        book,
        openings: OpeningRules {
            random_plies: args.random_plies.unwrap_or(defaults.random_plies),
            check_nodes: args.opening_nodes.unwrap_or(defaults.check_nodes),
            max_score: args.opening_max_score.unwrap_or(defaults.max_score),
        },
        adjudication: datagen_adjudication(args.draw_adjudication == "on"),
        report_every: Duration::from_secs(args.report_secs),
        network,
        evaluation,
    };
    eprintln!(
        "datagen: {} threads, {} nodes a move (soft; hard {}), {}, seed {}, into {} (engine {})",
        options.threads,
        options.nodes,
        options.hard_nodes,
        options.evaluation,
        options.seed,
        options.out.display(),
        super::ENGINE_COMMIT
    );
    let (this_run, before) = super::generator::run(&options)?;
    let mut total = before;
    total.merge(&this_run);
    eprintln!(
        "datagen: {} games and {} positions this run; the files of seed {} now hold {} games, {} positions",
        this_run.games, this_run.positions, options.seed, total.games, total.positions
    );
    eprintln!("datagen: manifest line for nnue/DATA.md (replace this batch's line if it has one):");
    eprintln!("{}", manifest_line(&options, &total));
    eprintln!("datagen: checksum lines for nnue/DATA.md (every file of the directory):");
    eprint!("{}", manifest::checksum_lines(out)?);
    Ok(())
}

/// Datagen's adjudication: the default win adjudication (±10 pawns for 8 plies), 400 plies,
/// and with `draws`, a draw after ply 80 once the score has stayed within ±0.10 for 12 plies.
pub fn datagen_adjudication(draws: bool) -> Adjudication {
    Adjudication {
        draw_score: draws.then_some(10),
        draw_plies: 12,
        draw_after_ply: 80,
        ..Adjudication::default()
    }
}

fn convert(pgn_path: &Path, out_path: &Path) -> Result<(), String> {
    let input = std::fs::File::open(pgn_path)
        .map_err(|e| format!("cannot open {}: {e}", pgn_path.display()))?;
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(out_path)
        .map_err(|e| {
            format!(
                "cannot create {} (an existing file is not overwritten): {e}",
                out_path.display()
            )
        })?;
    let (pgn_path, out_path) = (pgn_path.display(), out_path.display());
    let mut out = std::io::BufWriter::new(file);
    let done = pgn::convert(std::io::BufReader::new(input), &mut out)
        .and_then(|done| std::io::Write::flush(&mut out).map(|()| done))
        .map_err(|e| format!("converting {pgn_path} to {out_path}: {e}"))?;
    eprintln!(
        "datagen: {} games read, {} written ({} positions), {} skipped (no result, bad FEN or no scored move), {} cut at an unscored or illegal move",
        done.games_read, done.games_written, done.positions, done.games_skipped, done.games_cut
    );
    Ok(())
}
