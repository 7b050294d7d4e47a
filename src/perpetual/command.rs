//! The `threefold perpetual` command line: a position (FEN, a PGN game and a ply, or a UCI
//! `position` line), the attacker, a budget; the answer as text or as the JSON certificate.
//!
//! ```text
//! threefold perpetual (--fen FEN | --pgn FILE [--game N] [--ply N] | --position LINE)
//!                     [--attacker white|black] [--nodes N] [--movetime MS] [--json]
//! ```
//!
//! Exit status: 0 proven, 1 refuted, 3 unknown, 2 bad input.

use std::process::ExitCode;
use std::time::Duration;

use shakmaty::{Color, Position};

use super::{Budget, Verdict, certificate, prove};
use crate::game::{Game, parse_fen, start_position};
use crate::record::read::read_file;

/// Attacker-to-move positions searched when no budget is given.
pub const DEFAULT_NODES: u64 = 2_000_000;

/// Proves or refutes a perpetual check
///
/// Does the attacker (the side to move unless --attacker says otherwise) have a check on every
/// move, whatever the defender replies? Exact chess: 'proven' with the strategy, 'refuted' with
/// the defender's answer to every try, or 'unknown' when the budget runs out. --json writes the
/// certificate (see docs/perpetual.md); bench/perpetual/check_certificate.py checks it with
/// python-chess alone.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Exit status: 0 proven, 1 refuted, 3 unknown, 2 bad input.",
    group = clap::ArgGroup::new("input").required(true).args(["fen", "pgn", "position"])
)]
pub struct Args {
    /// The position as FEN
    #[arg(long)]
    pub fen: Option<String>,
    /// A PGN file: the position of one of its games (with the game's history)
    #[arg(long, value_name = "FILE.pgn")]
    pub pgn: Option<String>,
    /// Which game of the PGN file (1 for the first)
    #[arg(long, default_value_t = 1, requires = "pgn")]
    pub game: usize,
    /// The position after this many plies of the game (default: its last)
    #[arg(long, requires = "pgn")]
    pub ply: Option<usize>,
    /// A UCI position line: 'position startpos moves e2e4 ...' or 'position fen ... moves ...'
    #[arg(long, value_name = "LINE")]
    pub position: Option<String>,
    /// The side that gives the checks (default: the side to move)
    #[arg(long, value_parser = parse_color)]
    pub attacker: Option<Color>,
    /// Attacker-to-move positions to search at most
    #[arg(long, value_name = "N", default_value_t = DEFAULT_NODES)]
    pub nodes: u64,
    /// Milliseconds to search at most
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Write the certificate as one JSON object
    #[arg(long)]
    pub json: bool,
}

fn parse_color(text: &str) -> Result<Color, String> {
    match text.to_ascii_lowercase().as_str() {
        "white" | "w" => Ok(Color::White),
        "black" | "b" => Ok(Color::Black),
        other => Err(format!("'{other}' is neither white nor black")),
    }
}

/// Runs the command: the answer on stdout, its exit status.
pub fn run(args: Args) -> ExitCode {
    let game = match game_of(&args) {
        Ok(game) => game,
        Err(message) => return bad_input(&message),
    };
    let attacker = args.attacker.unwrap_or(game.position().turn());
    let budget = Budget {
        nodes: Some(args.nodes),
        time: args.movetime.map(Duration::from_millis),
    };
    let report = match prove(&game, attacker, budget) {
        Ok(report) => report,
        Err(e) => return bad_input(&e.to_string()),
    };
    if args.json {
        println!("{}", certificate::json(&report));
    } else {
        println!("{}", certificate::text(&report));
    }
    ExitCode::from(match report.verdict {
        Verdict::Proven(_) => 0,
        Verdict::Refuted(_) => 1,
        Verdict::Unknown => 3,
    })
}

fn bad_input(message: &str) -> ExitCode {
    eprintln!("threefold perpetual: {message}");
    ExitCode::from(2)
}

/// The game the arguments name.
fn game_of(args: &Args) -> Result<Game, String> {
    if let Some(fen) = &args.fen {
        return parse_fen(fen)
            .map(Game::new)
            .map_err(|e| format!("{e}: '{fen}'"));
    }
    if let Some(line) = &args.position {
        return position_line(line);
    }
    let path = args.pgn.as_deref().unwrap_or("-");
    pgn_game(path, args.game, args.ply)
}

/// A UCI `position` line (the word `position` may be left out).
fn position_line(line: &str) -> Result<Game, String> {
    let mut words = line.split_whitespace().peekable();
    if words.peek() == Some(&"position") {
        words.next();
    }
    let start = match words.next() {
        Some("startpos") => start_position(shakmaty::CastlingMode::Standard),
        Some("fen") => {
            let fen: Vec<&str> = words.by_ref().take_while(|w| *w != "moves").collect();
            let text = fen.join(" ");
            let pos = parse_fen(&text).map_err(|e| format!("{e}: '{text}'"))?;
            return play_moves(Game::new(pos), words);
        }
        Some(other) => return Err(format!("'{other}': expected startpos or fen")),
        None => return Err("an empty position line".to_owned()),
    };
    match words.next() {
        None => Ok(Game::new(start)),
        Some("moves") => play_moves(Game::new(start), words),
        Some(other) => Err(format!("'{other}': expected moves")),
    }
}

fn play_moves<'a>(mut game: Game, moves: impl Iterator<Item = &'a str>) -> Result<Game, String> {
    for m in moves {
        game.play_uci(m).map_err(|e| e.to_string())?;
    }
    Ok(game)
}

/// Game `index` (1 for the first) of a PGN file, played to `ply` (default: its end).
fn pgn_game(path: &str, index: usize, ply: Option<usize>) -> Result<Game, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let mut found = None;
    read_file(path, std::io::BufReader::new(file), |g| {
        if g.index == index {
            found = Some(g);
            false
        } else {
            true
        }
    })
    .map_err(|e| format!("{path}: {e}"))?;
    let record = found.ok_or_else(|| format!("{path}: no game {index}"))?;
    if let Some(e) = &record.error {
        return Err(format!("{path}, game {index}: {e}"));
    }
    let moves = &record.main.moves;
    let ply = ply.unwrap_or(moves.len());
    if ply > moves.len() {
        return Err(format!(
            "{path}, game {index}: ply {ply}, but the game has {} plies",
            moves.len()
        ));
    }
    let mut game = Game::new(record.start.clone());
    for m in &moves[..ply] {
        game.play(m.mv);
    }
    Ok(game)
}
