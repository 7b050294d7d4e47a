//! `threefold datagen --out DIR`: self-play on every thread given, each thread appending whole
//! game records to its own file `DIR/s<SEED>-t<THREAD>.tfd` (format in [`crate::data::format`]).
//!
//! **Reproducible and resumable.** Game `k` of thread `t` is a function of the seed, `t`, `k`,
//! the options and the engine's commit: its opening comes from a random generator seeded with
//! those three numbers, and the searches (one thread, node limits, hash cleared before each
//! game) are deterministic. A record is written with one `write` of the whole game on a file
//! opened for appending, so a run killed at any moment leaves whole games and at most one
//! partial record at the end of each file. On start each file is read through: a partial
//! trailing record is cut off, and the thread continues at game `k` = the number of whole games
//! in its file, so nothing is generated twice and a resumed batch is the same data an
//! uninterrupted one would have been. (A batch can be regenerated from its manifest line.)

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use shakmaty::Chess;

use crate::data::files::file_name;
use crate::data::format::{GameRecord, GameResult, ReadError, read_games, white_relative};
use crate::eval::nnue::Network;
use crate::rng::{Rng, mix};
use crate::search::{Limits, SEARCH_STACK_BYTES, Searcher};
use crate::selfplay::game::{Adjudication, play_game};
use crate::selfplay::openings::{OpeningRules, opening};

/// Hash table per game thread, in MiB.
const HASH_MIB: usize = 16;

/// What `threefold datagen` was asked for.
#[derive(Debug, Clone)]
pub struct Options {
    pub out: PathBuf,
    pub seed: u64,
    pub threads: usize,
    /// Soft node budget per move: no new iteration after this many nodes.
    pub nodes: u64,
    /// Hard node limit per move.
    pub hard_nodes: u64,
    /// Stop after this many games in this run (None: until killed).
    pub games: Option<u64>,
    /// Start no game after this long (the games under way finish).
    pub time_limit: Option<Duration>,
    /// The book's path and positions (None: random-move openings).
    pub book: Option<(String, Vec<Chess>)>,
    pub openings: OpeningRules,
    pub adjudication: Adjudication,
    /// Seconds between progress lines on stderr.
    pub report_every: Duration,
    /// The network the games are played with (None: the hand-written evaluation).
    pub network: Option<Arc<Network>>,
    /// The evaluation, as the manifest names it ("hand-written eval", "net FILE").
    pub evaluation: String,
}

/// Counts over a run (or over data read back).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub games: u64,
    pub positions: u64,
    pub white_wins: u64,
    pub draws: u64,
    pub black_wins: u64,
}

impl Tally {
    pub fn add(&mut self, result: GameResult, positions: u64) {
        self.games += 1;
        self.positions += positions;
        match result {
            GameResult::WhiteWins => self.white_wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::BlackWins => self.black_wins += 1,
        }
    }

    pub fn merge(&mut self, other: &Tally) {
        self.games += other.games;
        self.positions += other.positions;
        self.white_wins += other.white_wins;
        self.draws += other.draws;
        self.black_wins += other.black_wins;
    }

    /// `W/D/L a/b/c` (White's wins, draws, Black's wins).
    pub fn wdl(&self) -> String {
        format!("{}/{}/{}", self.white_wins, self.draws, self.black_wins)
    }
}

/// A game's seed from the run's seed, the thread and the game number (splitmix64's mixer).
fn game_seed(seed: u64, thread: usize, game: u64) -> u64 {
    mix(seed
        .wrapping_add((thread as u64).wrapping_mul(0xd1b5_4a32_d192_ed03))
        .wrapping_add(game.wrapping_mul(0x9e37_79b9_7f4a_7c15)))
}

/// Opens `path` for appending after cutting off a partial last record; returns the file and
/// what it already holds. A record that is whole but invalid (not zero bytes left by a crash)
/// is an error: the file is left alone.
pub fn open_for_append(path: &Path) -> Result<(File, Tally), String> {
    let shown = path.display();
    let mut tally = Tally::default();
    let valid = match File::open(path) {
        Ok(file) => {
            let mut reader = std::io::BufReader::new(file);
            let (valid, error) = read_games(&mut reader, |game| {
                tally.add(game.result, game.moves.len() as u64)
            });
            match error {
                None => None,
                Some(ReadError::Io(e)) => return Err(format!("reading {shown}: {e}")),
                Some(ReadError::Truncated) => Some(valid),
                Some(ReadError::Corrupt(why)) => {
                    if only_zeros_after(path, valid)? {
                        Some(valid)
                    } else {
                        return Err(format!(
                            "{shown}: no valid game record at byte {valid} ({why}); the file is left as it is (move it away, or cut it at that byte)"
                        ));
                    }
                }
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(format!("cannot open {shown}: {e}")),
    };
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open {shown} for appending: {e}"))?;
    if let Some(valid) = valid {
        let length = file.metadata().map(|m| m.len()).unwrap_or(valid);
        file.set_len(valid)
            .map_err(|e| format!("cannot cut the partial record off {shown}: {e}"))?;
        eprintln!(
            "datagen: {shown}: cut a partial record of {} bytes at the end ({} whole games kept)",
            length.saturating_sub(valid),
            tally.games
        );
    }
    Ok((file, tally))
}

fn only_zeros_after(path: &Path, offset: u64) -> Result<bool, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    Ok(bytes
        .get(offset as usize..)
        .is_some_and(|rest| rest.iter().all(|&b| b == 0)))
}

/// Plays game `game` of thread `thread` (a pure function of its arguments and the engine).
pub fn play_one(
    options: &Options,
    searcher: &mut Searcher,
    thread: usize,
    game: u64,
) -> GameRecord {
    let mut rng = Rng::new(game_seed(options.seed, thread, game));
    let book = options.book.as_ref().map_or(&[][..], |(_, b)| b.as_slice());
    let start = opening(book, &options.openings, searcher, &mut rng);
    searcher.clear();
    let mut limits = || Limits {
        soft_nodes: Some(options.nodes),
        nodes: Some(options.hard_nodes.max(options.nodes)),
        ..Limits::default()
    };
    let played = play_game(searcher, &start, &options.adjudication, &mut limits);
    GameRecord {
        start,
        moves: played
            .moves
            .iter()
            .map(|m| {
                use shakmaty::Position;
                (m.best, white_relative(m.score, m.position.turn()))
            })
            .collect(),
        result: played.result,
    }
}

/// Runs datagen until `options.games` games are played (or forever). Progress goes to stderr.
/// Returns the games of this run and of the files before it.
pub fn run(options: &Options) -> Result<(Tally, Tally), String> {
    std::fs::create_dir_all(&options.out)
        .map_err(|e| format!("cannot create {}: {e}", options.out.display()))?;
    let threads = options.threads.max(1);
    let mut files = Vec::new();
    let mut before = Tally::default();
    for thread in 0..threads {
        let (file, tally) = open_for_append(&options.out.join(file_name(options.seed, thread)))?;
        before.merge(&tally);
        files.push((file, tally.games));
    }
    let started_games = AtomicU64::new(0);
    let this_run = Mutex::new(Tally::default());
    let failure = Mutex::new(None::<String>);
    let finished = AtomicBool::new(false);
    let start_time = Instant::now();
    std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for (thread, (mut file, first_game)) in files.into_iter().enumerate() {
            let (started_games, this_run, failure, finished, start_time) =
                (&started_games, &this_run, &failure, &finished, &start_time);
            let worker = move || {
                let mut searcher = Searcher::new(HASH_MIB);
                searcher.network = options.network.clone();
                let mut game = first_game;
                while !finished.load(Ordering::Relaxed)
                    && options.time_limit.is_none_or(|t| start_time.elapsed() < t)
                {
                    let n = started_games.fetch_add(1, Ordering::Relaxed);
                    if options.games.is_some_and(|limit| n >= limit) {
                        break;
                    }
                    let record = play_one(options, &mut searcher, thread, game);
                    let written = file
                        .write_all(&record.to_bytes())
                        .and_then(|()| file.flush());
                    if let Err(e) = written {
                        if let Ok(mut failure) = failure.lock() {
                            failure.get_or_insert(format!(
                                "writing {}: {e}",
                                file_name(options.seed, thread)
                            ));
                        }
                        finished.store(true, Ordering::Relaxed);
                        break;
                    }
                    if let Ok(mut tally) = this_run.lock() {
                        tally.add(record.result, record.moves.len() as u64);
                    }
                    game += 1;
                }
            };
            match std::thread::Builder::new()
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(scope, worker)
            {
                Ok(handle) => handles.push(handle),
                Err(e) => {
                    eprintln!("datagen: cannot start game thread {thread}: {e}");
                }
            }
        }
        let mut last_report = Instant::now();
        while !handles.iter().all(|h| h.is_finished()) {
            std::thread::sleep(Duration::from_millis(100));
            if last_report.elapsed() >= options.report_every {
                last_report = Instant::now();
                if let Ok(tally) = this_run.lock() {
                    eprintln!("{}", progress_line(&tally, start_time.elapsed()));
                }
            }
        }
    });
    if let Some(why) = failure.into_inner().ok().flatten() {
        return Err(why);
    }
    let tally = this_run
        .into_inner()
        .map_err(|_| "a game thread failed".to_string())?;
    eprintln!("{}", progress_line(&tally, start_time.elapsed()));
    Ok((tally, before))
}

/// `datagen: 1234 positions (1.2M/h), 56 games (250/h), W/D/L 20/20/16, 300 s`.
pub fn progress_line(tally: &Tally, elapsed: Duration) -> String {
    let hours = elapsed.as_secs_f64().max(1e-3) / 3600.0;
    format!(
        "datagen: {} positions ({:.2}M/h), {} games ({:.0}/h), W/D/L {}, {:.0} s",
        tally.positions,
        tally.positions as f64 / hours / 1e6,
        tally.games,
        tally.games as f64 / hours,
        tally.wdl(),
        elapsed.as_secs_f64()
    )
}

/// The line for the data manifest (`nnue/DATA.md`) describing this batch.
pub fn manifest_line(options: &Options, total: &Tally) -> String {
    let openings = match &options.book {
        Some((path, _)) => format!(
            "book {} + {}-{} random plies",
            Path::new(path)
                .file_name()
                .map_or_else(|| path.clone(), |n| n.to_string_lossy().into_owned()),
            options.openings.random_plies,
            options.openings.random_plies + 1
        ),
        None => format!(
            "random {}-{} plies",
            options.openings.random_plies,
            options.openings.random_plies + 1
        ),
    };
    let draw = match options.adjudication.draw_score {
        Some(_) => "draw adj on",
        None => "draw adj off",
    };
    format!(
        "| {} | {} | s{}-t0..t{} | {} soft / {} hard, {} | {openings}, within ±{} cp at {} nodes; {draw} | {} | {} | {} | {} |",
        today(),
        made_on(options.threads),
        options.seed,
        options.threads.max(1) - 1,
        options.nodes,
        options.hard_nodes,
        options.evaluation,
        options.openings.max_score,
        options.openings.check_nodes,
        super::ENGINE_COMMIT,
        total.games,
        total.positions,
        total.wdl(),
    )
}

/// The manifest's "made on" cell: `2 threads on 2 cores` (the machine, not its paths).
fn made_on(threads: usize) -> String {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    format!("{threads} threads on {cores} cores")
}

/// Today's date (UTC) as `YYYY-MM-DD`.
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    // Days to civil date (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_seeds_differ_by_thread_and_game() {
        let a = game_seed(1, 0, 0);
        assert_ne!(a, game_seed(1, 1, 0));
        assert_ne!(a, game_seed(1, 0, 1));
        assert_ne!(a, game_seed(2, 0, 0));
        assert_eq!(a, game_seed(1, 0, 0));
    }

    #[test]
    fn today_is_a_date() {
        let date = today();
        assert_eq!(date.len(), 10);
        assert!(date.starts_with("20"));
    }
}
