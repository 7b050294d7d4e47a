//! The `threefold analyse` command line: options, the games in parallel, the output in input
//! order, progress on stderr.
//!
//! ```text
//! threefold analyse [--movetime MS | --nodes N | --depth D] [--threads T] [--hash MB]
//!                   [--json] [--syzygy PATH] [--from MOVE] [--to MOVE] [--quiet] [FILE.pgn ...]
//! ```
//!
//! A reader thread streams the games; `T` workers each analyse one game at a time (fewer, with
//! the spare threads given to their searches, when there are fewer games than threads); the
//! main thread writes each game as soon as the games before it are written, and flushes, so an
//! interrupted run leaves whole games behind.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, bounded, unbounded};

use super::read::{GameInput, read_games};
use super::study::{MoveRange, analyse_game};
use super::write;
use crate::search::tablebase::Tables;
use crate::search::{Limits, SEARCH_STACK_BYTES, Searcher, Signals};

/// Nodes per position when no limit is given.
pub const DEFAULT_NODES: u64 = 100_000;
/// Hash table in MiB when `--hash` is not given.
pub const DEFAULT_HASH_MIB: usize = 64;
/// Seconds between plain progress lines when stderr is not a terminal.
const PLAIN_PROGRESS_SECS: u64 = 10;
/// Games read ahead of the last one written, per thread: a long game holds back the output of
/// the games after it, and this bounds how many wait in memory.
const READ_AHEAD_PER_THREAD: usize = 4;

/// The options of one run.
#[derive(Debug, Clone)]
pub struct Options {
    pub limits: Limits,
    pub threads: usize,
    pub hash_mib: usize,
    pub json: bool,
    pub syzygy: Option<String>,
    pub range: MoveRange,
    pub quiet: bool,
    pub files: Vec<String>,
}

/// What `threefold analyse --help` says after the options.
const EXIT_STATUS: &str =
    "Exit status: 0, or 1 when a game or file had an error, 2 for a usage error.";

/// Annotates PGN games with the engine
///
/// Searches every position of every game with the game's history and writes annotated PGN
/// (or one JSON object per line with --json) to stdout: evaluations, missed perpetuals, draws
/// thrown away, claims not made. Reads standard input without files.
#[derive(Debug, Default, clap::Args)]
#[command(after_help = EXIT_STATUS)]
pub struct Args {
    /// Nodes per position [default: 100000]
    #[arg(long, value_name = "N", group = "limit", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Milliseconds per position instead
    #[arg(long, value_name = "MS", group = "limit", value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// Depth per position instead
    #[arg(long, value_name = "D", group = "limit", value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// Threads in all: games in parallel, spare ones to the searches
    #[arg(long, value_name = "T", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: u64,
    /// Hash table in MiB in all, shared out among the games in parallel
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_HASH_MIB as u64, value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    pub hash: u64,
    /// Syzygy tablebases (directories separated by ':')
    #[arg(long, value_name = "PATH")]
    pub syzygy: Option<String>,
    /// Analyse only the moves from this move number on
    #[arg(long, value_name = "MOVE", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub from: u32,
    /// Analyse only the moves up to this move number
    #[arg(long, value_name = "MOVE", value_parser = clap::value_parser!(u32).range(1..))]
    pub to: Option<u32>,
    /// One JSON object per game, a line each, instead of annotated PGN
    #[arg(long)]
    pub json: bool,
    /// No progress on stderr
    #[arg(long)]
    pub quiet: bool,
    /// PGN files; none or '-': standard input
    #[arg(value_name = "FILE.pgn")]
    pub files: Vec<String>,
}

impl Args {
    /// The options of the run; Err for a move range that is empty.
    pub fn options(self) -> Result<Options, String> {
        let range = MoveRange {
            from: self.from,
            to: self.to.unwrap_or(MoveRange::default().to),
        };
        if range.from > range.to {
            return Err(format!("--from {} is after --to {}", range.from, range.to));
        }
        let limits = Limits {
            nodes: self
                .nodes
                .or((self.movetime.is_none() && self.depth.is_none()).then_some(DEFAULT_NODES)),
            movetime_ms: self.movetime,
            depth: self.depth,
            ..Limits::default()
        };
        Ok(Options {
            limits,
            threads: self.threads as usize,
            hash_mib: self.hash as usize,
            json: self.json,
            syzygy: self.syzygy,
            range,
            quiet: self.quiet,
            files: self.files,
        })
    }
}

/// Runs `threefold analyse` with its parsed arguments.
pub fn run(args: Args) -> ExitCode {
    let options = match args.options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("threefold analyse: {message}");
            return ExitCode::from(2);
        }
    };
    let tables = match &options.syzygy {
        None => None,
        Some(path) => match Tables::load(path) {
            Ok(tables) => Some(tables),
            Err(e) => {
                eprintln!("threefold analyse: --syzygy {path}: {}", e.0);
                return ExitCode::from(2);
            }
        },
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let outcome = analyse_all(&options, tables, &mut |text| {
        out.write_all(text.as_bytes()).and_then(|()| out.flush())
    });
    match outcome {
        // As the arbiter: input that cannot be read or is not PGN 2, a game with an error 1.
        Ok(summary) if !summary.read_ok => ExitCode::from(2),
        Ok(summary) if summary.game_errors > 0 => ExitCode::FAILURE,
        Ok(_) => ExitCode::SUCCESS,
        // stdout closed (piped into head): the games written are whole; stop quietly.
        Err(_) => ExitCode::SUCCESS,
    }
}

/// What a run did.
#[derive(Debug, Clone, Copy, Default)]
pub struct Summary {
    pub games: usize,
    pub plies: usize,
    /// Games with an error (bad FEN tag, illegal move).
    pub game_errors: usize,
    /// Every file could be opened and read to its end.
    pub read_ok: bool,
    pub elapsed: Duration,
}

/// One finished game, ready to write.
struct Finished {
    seq: usize,
    text: String,
    plies: usize,
    error: bool,
}

/// Reads the games of `options.files` (stdin without files), analyses them on
/// `options.threads` threads and hands each game's text to `emit` in input order. An error
/// from `emit` (a closed stdout) stops the run.
pub fn analyse_all(
    options: &Options,
    tables: Option<Arc<Tables>>,
    emit: &mut dyn FnMut(&str) -> std::io::Result<()>,
) -> std::io::Result<Summary> {
    let started = Instant::now();
    let threads = options.threads.max(1);
    let (plan_tx, plan_rx) = bounded::<usize>(1);
    let (work_tx, work_rx) = bounded::<(usize, GameInput)>(threads * 2);
    let (done_tx, done_rx) = unbounded::<Finished>();
    let signals = Signals::default();
    let written_games = AtomicUsize::new(0);
    let mut summary = Summary::default();
    thread::scope(|scope| -> std::io::Result<()> {
        let files = &options.files;
        let window = Window {
            written: &written_games,
            ahead: threads * READ_AHEAD_PER_THREAD,
            stop: &signals.stop,
        };
        let reader = scope.spawn(move || read_all(files, threads, &plan_tx, work_tx, window));
        // The reader says how many games run at once once it has read `threads` of them, or
        // all there are.
        let workers = plan_rx.recv().unwrap_or(1).clamp(1, threads);
        let search_threads = (threads / workers).max(1);
        let hash = (options.hash_mib / workers).max(1);
        log::info!(
            "analyse: {workers} games at once, {search_threads} search threads each, {hash} MiB hash each"
        );
        for id in 0..workers {
            let work_rx = work_rx.clone();
            let done_tx = done_tx.clone();
            let tables = tables.clone();
            let signals = &signals;
            let spawned = thread::Builder::new()
                .name(format!("analyse-{id}"))
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let mut searcher = Searcher::new(hash);
                    searcher.settings.threads = search_threads;
                    searcher.tables = tables;
                    worker(&mut searcher, options, &work_rx, &done_tx, signals);
                });
            if let Err(e) = spawned {
                log::error!("cannot start analysis worker {id}: {e}");
            }
        }
        drop(done_tx);
        drop(work_rx);
        let mut progress = Progress::new(options.quiet);
        let mut pending: BTreeMap<usize, Finished> = BTreeMap::new();
        let mut next = 0;
        let mut written = Ok(());
        for finished in done_rx.iter() {
            pending.insert(finished.seq, finished);
            while let Some(game) = pending.remove(&next) {
                next += 1;
                summary.games += 1;
                summary.plies += game.plies;
                summary.game_errors += usize::from(game.error);
                written_games.store(next, Ordering::SeqCst);
                progress.update(summary.games, summary.plies, started);
                if let Err(e) = emit(&game.text) {
                    written = Err(e);
                    break;
                }
            }
            if written.is_err() {
                // Stop the searches and drain: the workers finish their game quickly.
                signals.stop.store(true, Ordering::SeqCst);
                break;
            }
        }
        progress.finish(summary.games, summary.plies, started);
        if written.is_err() {
            // Let the reader and the workers see closed channels.
            drop(done_rx);
        }
        summary.read_ok = reader.join().unwrap_or(false);
        written
    })?;
    summary.elapsed = started.elapsed();
    Ok(summary)
}

/// Analyses games until the work channel closes.
fn worker(
    searcher: &mut Searcher,
    options: &Options,
    work: &Receiver<(usize, GameInput)>,
    done: &Sender<Finished>,
    signals: &Signals,
) {
    for (seq, game) in work.iter() {
        let label = format!("{} game {}", game.file, game.index);
        let analysis = analyse_game(game, searcher, &options.limits, options.range, signals);
        if let Some(error) = &analysis.input.error {
            eprintln!("threefold analyse: {label}: {error}");
        }
        let text = if options.json {
            format!("{}\n", write::json(&analysis))
        } else {
            write::pgn(&analysis)
        };
        let finished = Finished {
            seq,
            text,
            plies: analysis.plies.len(),
            error: analysis.input.error.is_some(),
        };
        if done.send(finished).is_err() {
            return;
        }
    }
}

/// How far the reader may run ahead of the writer.
#[derive(Clone, Copy)]
struct Window<'a> {
    written: &'a AtomicUsize,
    ahead: usize,
    stop: &'a std::sync::atomic::AtomicBool,
}

impl Window<'_> {
    /// Waits until game `seq` may be handed out; false when the run stops.
    fn wait_for(&self, seq: usize) -> bool {
        while seq >= self.written.load(Ordering::SeqCst) + self.ahead {
            if self.stop.load(Ordering::SeqCst) {
                return false;
            }
            thread::sleep(Duration::from_millis(5));
        }
        true
    }
}

/// Reads every file (stdin when there is none, or for "-") and sends its games in order.
/// Sends the number of games to run at once on `plan` once `threads` games are read or the
/// input ends. False when a file could not be opened or read to its end.
fn read_all(
    files: &[String],
    threads: usize,
    plan: &Sender<usize>,
    work: Sender<(usize, GameInput)>,
    window: Window<'_>,
) -> bool {
    let mut buffer: Vec<GameInput> = Vec::new();
    let mut planned = false;
    let mut seq = 0;
    let mut open = true;
    let mut push = |game: GameInput| -> bool {
        if planned {
            open = window.wait_for(seq) && work.send((seq, game)).is_ok();
            seq += 1;
            return open;
        }
        buffer.push(game);
        if buffer.len() >= threads {
            planned = true;
            let _ = plan.send(threads);
            for game in buffer.drain(..) {
                open &= work.send((seq, game)).is_ok();
                seq += 1;
            }
        }
        open
    };
    let mut read_ok = true;
    let stdin_only = [String::from("-")];
    let names = if files.is_empty() {
        &stdin_only[..]
    } else {
        files
    };
    for name in names {
        let result = if name == "-" {
            read_games("stdin", std::io::stdin().lock(), &mut push)
        } else {
            match std::fs::File::open(name) {
                Ok(file) => read_games(name, std::io::BufReader::new(file), &mut push),
                Err(e) => {
                    eprintln!("threefold analyse: cannot open {name}: {e}");
                    read_ok = false;
                    continue;
                }
            }
        };
        if let Err(e) = result {
            eprintln!("threefold analyse: reading {name}: {e}");
            read_ok = false;
        }
    }
    if !planned {
        let _ = plan.send(buffer.len().max(1));
        for game in buffer.drain(..) {
            if work.send((seq, game)).is_err() {
                break;
            }
            seq += 1;
        }
    }
    read_ok
}

/// Progress on stderr: a bar when stderr is a terminal, a plain line every few seconds
/// otherwise, nothing with `--quiet`.
enum Progress {
    Quiet,
    Bar(indicatif::ProgressBar),
    Plain { last: Instant },
}

impl Progress {
    fn new(quiet: bool) -> Progress {
        if quiet {
            Progress::Quiet
        } else if std::io::stderr().is_terminal() {
            let bar = indicatif::ProgressBar::new_spinner();
            bar.enable_steady_tick(Duration::from_millis(200));
            Progress::Bar(bar)
        } else {
            Progress::Plain {
                last: Instant::now(),
            }
        }
    }

    fn line(games: usize, plies: usize, started: Instant) -> String {
        let secs = started.elapsed().as_secs_f64();
        let rate = if secs > 0.0 { plies as f64 / secs } else { 0.0 };
        format!("{games} games, {plies} plies, {secs:.0} s, {rate:.2} plies/s")
    }

    fn update(&mut self, games: usize, plies: usize, started: Instant) {
        match self {
            Progress::Quiet => {}
            Progress::Bar(bar) => bar.set_message(Progress::line(games, plies, started)),
            Progress::Plain { last } => {
                if last.elapsed() >= Duration::from_secs(PLAIN_PROGRESS_SECS) {
                    *last = Instant::now();
                    eprintln!(
                        "threefold analyse: {}",
                        Progress::line(games, plies, started)
                    );
                }
            }
        }
    }

    fn finish(&mut self, games: usize, plies: usize, started: Instant) {
        let line = Progress::line(games, plies, started);
        match self {
            Progress::Quiet => {}
            Progress::Bar(bar) => bar.finish_with_message(line),
            Progress::Plain { .. } => eprintln!("threefold analyse: done, {line}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// `threefold analyse` alone, as `main` reads it.
    #[derive(Debug, Parser)]
    struct Analyse {
        #[command(flatten)]
        args: Args,
    }

    fn parse(list: &[&str]) -> Result<Args, clap::Error> {
        Analyse::try_parse_from(std::iter::once("analyse").chain(list.iter().copied()))
            .map(|a| a.args)
    }

    #[test]
    fn the_default_limit_is_nodes_and_one_limit_at_most_is_taken() {
        let options = parse(&["games.pgn"])
            .expect("parses")
            .options()
            .expect("valid");
        assert_eq!(options.limits.nodes, Some(DEFAULT_NODES));
        assert_eq!((options.threads, options.hash_mib), (1, DEFAULT_HASH_MIB));
        assert_eq!(options.files, ["games.pgn"]);
        let options = parse(&["--depth", "9", "--threads", "2", "--from", "3", "--to", "3"])
            .expect("parses")
            .options()
            .expect("valid");
        assert_eq!(
            (options.limits.depth, options.limits.nodes),
            (Some(9), None)
        );
        assert_eq!((options.range.from, options.range.to), (3, 3));
        let both = parse(&["--nodes", "5", "--movetime", "9"]).expect_err("one limit");
        assert_eq!(both.kind(), clap::error::ErrorKind::ArgumentConflict);
    }

    #[test]
    fn bad_values_and_typos_are_refused() {
        for bad in [
            &["--nodes", "0"][..],
            &["--depth", "101"],
            &["--threads", "many"],
            &["--hash"],
            &["--nodse", "5"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        let typo = parse(&["--nodse", "5"]).expect_err("typo");
        assert!(typo.to_string().contains("--nodes"), "{typo}");
        let empty = parse(&["--from", "9", "--to", "3"])
            .expect("parses")
            .options();
        assert!(empty.is_err());
    }
}
