//! `threefold datagen --stats FILE_OR_DIR`: reads training data back (every `.tfd` file of a
//! directory) and summarises it: games, positions, how many pass the default quiet filter,
//! results, and the scores' mean and histogram. `--dump` writes every position as text.

use std::fmt::Write as _;
use std::path::Path;

use shakmaty::Position;

use super::generator::Tally;
use crate::data::files::data_files;
use crate::data::filter::is_quiet;
use crate::data::format::{ReadError, read_games};
use crate::search::score::is_mate;
use crate::selfplay::openings::fen_of;

/// Bounds (centipawns, White-relative) of the histogram's bins: each bin runs from one bound
/// (inclusive) to the next; the first and last bins are open.
const BINS: [i32; 10] = [-1000, -500, -200, -100, -25, 25, 100, 200, 500, 1000];

/// What the data holds.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    pub files: usize,
    pub tally: Tally,
    /// Positions passing [`is_quiet`].
    pub quiet: u64,
    /// Positions with a mate score.
    pub mates: u64,
    /// Sum of the non-mate scores and their count (for the mean).
    pub score_sum: i64,
    pub score_abs_sum: i64,
    pub scored: u64,
    /// Counts per bin of `BINS` (one more than the bounds).
    pub histogram: [u64; BINS.len() + 1],
    /// Problems met (a partial record at a file's end, a corrupt record).
    pub problems: Vec<String>,
}

/// Reads every game of every file.
pub fn collect(path: &Path) -> Result<Stats, String> {
    let mut stats = Stats::default();
    for file in data_files(path)? {
        let handle = std::fs::File::open(&file)
            .map_err(|e| format!("cannot open {}: {e}", file.display()))?;
        let mut reader = std::io::BufReader::new(handle);
        stats.files += 1;
        let (valid, error) = read_games(&mut reader, |game| {
            stats.tally.add(game.result, game.moves.len() as u64);
            for (pos, m, score) in game.positions() {
                if is_quiet(&pos, m, score) {
                    stats.quiet += 1;
                }
                let score = i32::from(score);
                if is_mate(score) {
                    stats.mates += 1;
                    continue;
                }
                stats.scored += 1;
                stats.score_sum += i64::from(score);
                stats.score_abs_sum += i64::from(score.abs());
                let bin = BINS.iter().position(|&b| score < b).unwrap_or(BINS.len());
                stats.histogram[bin] += 1;
            }
        });
        match error {
            None => {}
            Some(ReadError::Io(e)) => return Err(format!("reading {}: {e}", file.display())),
            Some(e) => stats
                .problems
                .push(format!("{}: {e} after byte {valid}", file.display())),
        }
    }
    Ok(stats)
}

/// Writes every position of the data at `path` as a text line
/// `FEN | move (UCI) | score (White-relative cp) | result (White: 1, 0.5, 0)`.
pub fn dump(path: &Path, out: &mut impl std::io::Write) -> Result<(), String> {
    for file in data_files(path)? {
        let handle = std::fs::File::open(&file)
            .map_err(|e| format!("cannot open {}: {e}", file.display()))?;
        let mut reader = std::io::BufReader::new(handle);
        let mut written = Ok(());
        let (valid, error) = read_games(&mut reader, |game| {
            for (pos, m, score) in game.positions() {
                if written.is_ok() {
                    written = writeln!(
                        out,
                        "{} | {} | {score} | {}",
                        fen_of(&pos),
                        m.to_uci(pos.castles().mode()),
                        game.result.white_score()
                    );
                }
            }
        });
        match written {
            // The reader went away (`| head`): stop quietly.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
            Err(e) => return Err(format!("writing: {e}")),
            Ok(()) => {}
        }
        if let Some(e) = error {
            return Err(format!("{}: {e} after byte {valid}", file.display()));
        }
    }
    Ok(())
}

/// The summary as text.
pub fn report(stats: &Stats) -> String {
    let mut text = String::new();
    let t = &stats.tally;
    let per = |n: u64, of: u64| 100.0 * n as f64 / of.max(1) as f64;
    let _ = writeln!(text, "files      {}", stats.files);
    let _ = writeln!(text, "games      {}", t.games);
    let _ = writeln!(
        text,
        "positions  {} ({:.1} a game); quiet (not in check, no capture/promotion, no mate score) {} ({:.1}%)",
        t.positions,
        t.positions as f64 / t.games.max(1) as f64,
        stats.quiet,
        per(stats.quiet, t.positions)
    );
    let _ = writeln!(
        text,
        "W/D/L      {} (White {:.1}% / draws {:.1}% / Black {:.1}%)",
        t.wdl(),
        per(t.white_wins, t.games),
        per(t.draws, t.games),
        per(t.black_wins, t.games)
    );
    let scored = stats.scored.max(1) as f64;
    let _ = writeln!(
        text,
        "scores     White-relative cp: mean {:+.1}, mean |score| {:.1}; {} mate scores",
        stats.score_sum as f64 / scored,
        stats.score_abs_sum as f64 / scored,
        stats.mates
    );
    for (i, count) in stats.histogram.iter().enumerate() {
        let low = i
            .checked_sub(1)
            .map_or(String::new(), |b| BINS[b].to_string());
        let high = BINS.get(i).map_or(String::new(), i32::to_string);
        let _ = writeln!(
            text,
            "  {low:>6} .. {high:<6} {count:>12} {:>5.1}% {}",
            per(*count, stats.scored),
            "#".repeat((per(*count, stats.scored) / 2.0).round() as usize)
        );
    }
    for problem in &stats.problems {
        let _ = writeln!(text, "problem    {problem}");
    }
    text
}
