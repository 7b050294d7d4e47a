//! The `threefold tune` command line:
//!
//! ```text
//! threefold tune generate --out FILE [--games 2000] [--nodes 5000] [--threads 2] [--seed 1]
//!                         [--book ../shared/books/2moves_v1.epd]
//! threefold tune fit --data FILE [--passes 50] [--threads 2] [--limit N]
//!                    [--min-support 1000] [--patience 3] [--freeze material,tempo]
//!                    [--weights src/eval/weights.rs]
//! ```

use std::collections::HashMap;
use std::io::{BufRead, BufReader, BufWriter, Write};

use super::fit::{self, Sample};
use super::generate::{self, Options};
use crate::eval::weights::{WEIGHTS, with_weights};

const USAGE: &str = "usage: threefold tune generate --out FILE [--games N] [--nodes N] [--threads N] [--seed N] [--book FILE]\n       threefold tune fit --data FILE [--passes N] [--threads N] [--limit N] [--min-support N] [--patience N] [--freeze FIELD,...] [--weights FILE]";

/// Runs `threefold tune ARGS`; the error is a message for the user.
pub fn run(args: &[String]) -> Result<(), String> {
    let (what, rest) = args.split_first().ok_or(USAGE)?;
    let flags = flags(rest)?;
    match what.as_str() {
        "generate" => generate(&flags),
        "fit" => fit(&flags),
        _ => Err(USAGE.to_string()),
    }
}

/// `--name value` pairs.
fn flags(args: &[String]) -> Result<HashMap<String, String>, String> {
    let mut map = HashMap::new();
    let mut items = args.iter();
    while let Some(name) = items.next() {
        let key = name
            .strip_prefix("--")
            .ok_or_else(|| format!("expected an option like --games, got '{name}'\n{USAGE}"))?;
        let value = items
            .next()
            .ok_or_else(|| format!("--{key} needs a value"))?;
        map.insert(key.to_string(), value.clone());
    }
    Ok(map)
}

/// The number given for `--name`, or `default`.
fn number<T: std::str::FromStr>(
    flags: &HashMap<String, String>,
    name: &str,
    default: T,
) -> Result<T, String> {
    match flags.get(name) {
        None => Ok(default),
        Some(text) => text
            .parse()
            .map_err(|_| format!("--{name} must be a number, got '{text}'")),
    }
}

fn generate(flags: &HashMap<String, String>) -> Result<(), String> {
    let out_path = flags.get("out").ok_or("tune generate needs --out FILE")?;
    let book_path = flags
        .get("book")
        .map_or("../shared/books/2moves_v1.epd", String::as_str);
    let book =
        std::fs::read_to_string(book_path).map_err(|e| format!("cannot read {book_path}: {e}"))?;
    let openings = generate::read_openings(&book);
    if openings.is_empty() {
        return Err(format!("no positions in {book_path}"));
    }
    let options = Options {
        games: number(flags, "games", 2_000)?,
        nodes: number(flags, "nodes", 5_000)?,
        threads: number(flags, "threads", 2)?,
        seed: number(flags, "seed", 1)?,
    };
    let file =
        std::fs::File::create(out_path).map_err(|e| format!("cannot create {out_path}: {e}"))?;
    let mut out = BufWriter::new(file);
    let started = std::time::Instant::now();
    let written = generate::run(&openings, &options, &mut out)
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

fn fit(flags: &HashMap<String, String>) -> Result<(), String> {
    let data_path = flags.get("data").ok_or("tune fit needs --data FILE")?;
    let weights_path = flags
        .get("weights")
        .map_or("src/eval/weights.rs", String::as_str);
    let source = std::fs::read_to_string(weights_path)
        .map_err(|e| format!("cannot read {weights_path}: {e}"))?;
    if with_weights(&source, &WEIGHTS).is_none() {
        return Err(format!("{weights_path} has no tuned-weights markers"));
    }
    let threads = number(flags, "threads", 2)?;
    let passes = number(flags, "passes", 50)?;
    let min_support = number(flags, "min-support", 1_000)?;
    let limit = number(flags, "limit", usize::MAX)?;
    let frozen_fields = frozen_fields(flags)?;
    let samples = read_samples(data_path, limit)?;
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
            && let Err(e) = std::fs::write(weights_path, text)
        {
            log::error!("cannot write {weights_path}: {e}");
        }
    };
    let limits = fit::Limits {
        max_passes: passes,
        min_support,
        threads,
        patience: number(flags, "patience", 3)?,
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
    println!("weights written to {weights_path}; rebuild to use them");
    Ok(())
}

/// The fields named by `--freeze a,b`, each checked against the fields of `Weights`.
fn frozen_fields(flags: &HashMap<String, String>) -> Result<Vec<String>, String> {
    let Some(list) = flags.get("freeze") else {
        return Ok(Vec::new());
    };
    let known: Vec<&str> = (0..WEIGHTS.count()).map(|i| WEIGHTS.field(i)).collect();
    list.split(',')
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
fn read_samples(path: &str, limit: usize) -> Result<Vec<Sample>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot open {path}: {e}"))?;
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
