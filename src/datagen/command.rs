//! The `threefold datagen` command line:
//!
//! ```text
//! threefold datagen --out DIR [--seed 1] [--threads N] [--nodes 5000] [--hard-nodes 50000]
//!                   [--games N] [--minutes M] [--book FILE.epd] [--random-plies N] [--opening-nodes 1000]
//!                   [--opening-max-score 300] [--draw-adjudication on|off] [--report-secs 30]
//! threefold datagen --stats FILE_OR_DIR
//! threefold datagen --dump FILE_OR_DIR      (every position: FEN | move | score | result)
//! threefold datagen --from-pgn FILE.pgn --out FILE
//! ```
//!
//! Progress and summaries go to stderr, except `--stats` and `--dump`, whose report is the
//! output.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

use super::openings::OpeningRules;
use super::run::{Options, manifest_line};
use super::selfplay::Adjudication;
use super::{pgn, stats};
use crate::tune::generate::read_openings;

pub const USAGE: &str = "usage: threefold datagen --out DIR [--seed N] [--threads N] [--nodes N] [--hard-nodes N] [--games N] [--minutes M]
                         [--book FILE.epd] [--random-plies N] [--opening-nodes N] [--opening-max-score CP]
                         [--draw-adjudication on|off] [--report-secs N]
       threefold datagen --stats FILE_OR_DIR
       threefold datagen --dump FILE_OR_DIR
       threefold datagen --from-pgn FILE.pgn --out FILE";

const FLAGS: &[&str] = &[
    "out",
    "seed",
    "threads",
    "nodes",
    "hard-nodes",
    "games",
    "minutes",
    "book",
    "random-plies",
    "opening-nodes",
    "opening-max-score",
    "draw-adjudication",
    "report-secs",
    "stats",
    "dump",
    "from-pgn",
];

/// Runs `threefold datagen ARGS`; the error is a message for the user (exit status 2).
pub fn run(args: &[String]) -> Result<(), String> {
    let flags = flags(args)?;
    if let Some(path) = flags.get("stats") {
        if flags.len() > 1 {
            return Err(format!("--stats takes no other option\n{USAGE}"));
        }
        let stats = stats::collect(std::path::Path::new(path))?;
        if stats.files == 0 {
            return Err(format!("no .tfd data files in {path}"));
        }
        print!("{}", stats::report(&stats));
        return Ok(());
    }
    if let Some(path) = flags.get("dump") {
        if flags.len() > 1 {
            return Err(format!("--dump takes no other option\n{USAGE}"));
        }
        let stdout = std::io::stdout();
        let mut out = std::io::BufWriter::new(stdout.lock());
        stats::dump(std::path::Path::new(path), &mut out)?;
        return match std::io::Write::flush(&mut out) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("writing: {e}")),
            _ => Ok(()),
        };
    }
    if let Some(pgn_path) = flags.get("from-pgn") {
        return convert(pgn_path, &flags);
    }
    generate(&flags)
}

/// `--name value` pairs, each name one of [`FLAGS`] and given once.
fn flags(args: &[String]) -> Result<HashMap<String, String>, String> {
    if args.is_empty() {
        return Err(USAGE.to_string());
    }
    let mut map = HashMap::new();
    let mut items = args.iter();
    while let Some(name) = items.next() {
        let key = name
            .strip_prefix("--")
            .filter(|k| FLAGS.contains(k))
            .ok_or_else(|| format!("unknown option '{name}'\n{USAGE}"))?;
        let value = items
            .next()
            .ok_or_else(|| format!("--{key} needs a value"))?;
        if map.insert(key.to_string(), value.clone()).is_some() {
            return Err(format!("--{key} given twice"));
        }
    }
    Ok(map)
}

/// The number given for `--name` (at least `min`), or `default`.
fn number<T: std::str::FromStr + PartialOrd + std::fmt::Display>(
    flags: &HashMap<String, String>,
    name: &str,
    default: T,
    min: T,
) -> Result<T, String> {
    match flags.get(name) {
        None => Ok(default),
        Some(text) => match text.parse::<T>() {
            Ok(value) if value >= min => Ok(value),
            _ => Err(format!(
                "--{name} must be a number of at least {min}, got '{text}'"
            )),
        },
    }
}

fn generate(flags: &HashMap<String, String>) -> Result<(), String> {
    let out = flags
        .get("out")
        .ok_or_else(|| format!("datagen needs --out DIR\n{USAGE}"))?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let nodes = number(flags, "nodes", 5_000u64, 1)?;
    let book = match flags.get("book") {
        None => None,
        Some(path) => {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
            let positions = read_openings(&text);
            if positions.is_empty() {
                return Err(format!("no legal positions in the book {path}"));
            }
            Some((path.clone(), positions))
        }
    };
    let defaults = if book.is_some() {
        OpeningRules::book()
    } else {
        OpeningRules::random()
    };
    let draw_adjudication = match flags.get("draw-adjudication").map(String::as_str) {
        None | Some("on") => true,
        Some("off") => false,
        Some(other) => return Err(format!("--draw-adjudication is on or off, got '{other}'")),
    };
    let options = Options {
        out: PathBuf::from(out),
        seed: number(flags, "seed", 1u64, 0)?,
        threads: number(flags, "threads", cores, 1)?,
        nodes,
        hard_nodes: number(flags, "hard-nodes", nodes.saturating_mul(10), nodes)?,
        games: flags
            .contains_key("games")
            .then(|| number(flags, "games", 0u64, 1))
            .transpose()?,
        time_limit: minutes(flags)?,
        book,
        openings: OpeningRules {
            random_plies: number(flags, "random-plies", defaults.random_plies, 0)?,
            check_nodes: number(flags, "opening-nodes", defaults.check_nodes, 0)?,
            max_score: number(flags, "opening-max-score", defaults.max_score, 0)?,
        },
        adjudication: datagen_adjudication(draw_adjudication),
        report_every: Duration::from_secs(number(flags, "report-secs", 30u64, 1)?),
    };
    eprintln!(
        "datagen: {} threads, {} nodes a move (soft; hard {}), seed {}, into {} (engine {})",
        options.threads,
        options.nodes,
        options.hard_nodes,
        options.seed,
        options.out.display(),
        super::ENGINE_COMMIT
    );
    let (this_run, before) = super::run::run(&options)?;
    let mut total = before;
    total.merge(&this_run);
    eprintln!(
        "datagen: {} games and {} positions this run; the files of seed {} now hold {} games, {} positions",
        this_run.games, this_run.positions, options.seed, total.games, total.positions
    );
    eprintln!("datagen: manifest line for nnue/DATA.md (replace this batch's line if it has one):");
    eprintln!("{}", manifest_line(&options, &total));
    Ok(())
}

/// `--minutes M` as a duration.
fn minutes(flags: &HashMap<String, String>) -> Result<Option<Duration>, String> {
    let Some(text) = flags.get("minutes") else {
        return Ok(None);
    };
    text.parse::<f64>()
        .ok()
        .filter(|m| *m > 0.0)
        .and_then(|m| Duration::try_from_secs_f64(m * 60.0).ok())
        .map(Some)
        .ok_or_else(|| format!("--minutes must be a positive number, got '{text}'"))
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

fn convert(pgn_path: &str, flags: &HashMap<String, String>) -> Result<(), String> {
    let out_path = flags
        .get("out")
        .ok_or_else(|| format!("--from-pgn needs --out FILE\n{USAGE}"))?;
    if flags.len() > 2 {
        return Err(format!("--from-pgn takes only --out\n{USAGE}"));
    }
    let input =
        std::fs::File::open(pgn_path).map_err(|e| format!("cannot open {pgn_path}: {e}"))?;
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(out_path)
        .map_err(|e| {
            format!("cannot create {out_path} (an existing file is not overwritten): {e}")
        })?;
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
