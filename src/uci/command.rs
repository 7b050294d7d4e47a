//! Turns an input line into a [`Command`], with guards around vampirc-uci's known bugs.
//!
//! vampirc-uci 0.11.1 panics on `go depth 300`, `go mate 300`, `movestogo 300` and on a `go`
//! line ending in a space, drops `ponder` when other `go` tokens follow, has no `go perft`,
//! truncates the move list after a double space or `0000`, and truncates long numbers. So
//! whitespace is normalised first, `go` is checked token by token before vampirc sees it, and
//! `position` is read here (its move list must never be cut short silently).

use vampirc_uci::{UciMessage, UciSearchControl, UciTimeControl, parse_one};

use crate::selfplay::openings::{GenfensArgs, parse_genfens};

/// Where a `position` command starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartPosition {
    Standard,
    Fen(String),
}

/// The arguments of `go`, already validated.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GoArgs {
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub mate: Option<u32>,
    pub movetime: Option<u64>,
    pub infinite: bool,
    pub ponder: bool,
    /// Moves as written (checked against the position later).
    pub searchmoves: Vec<String>,
    /// `depth` as asked, before clamping (so the user can be told).
    pub requested_depth: Option<u64>,
    /// Problems found in the line; each is reported and the rest of the line still used.
    pub warnings: Vec<String>,
}

/// One command from the GUI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Empty,
    Uci,
    Debug(bool),
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Register,
    UciNewGame,
    Position {
        start: StartPosition,
        moves: Vec<String>,
        warnings: Vec<String>,
    },
    Go(GoArgs),
    Stop,
    PonderHit,
    Quit,
    Perft(u32),
    Display,
    Eval,
    Bench(Option<u32>),
    /// OpenBench's `genfens N seed S book <None|FILE> [extra]`.
    Genfens(GenfensArgs),
}

/// Collapses runs of spaces, tabs and a trailing CR into single spaces.
pub fn normalise(line: &str) -> String {
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Parses one input line; the error names what was not understood.
pub fn parse(line: &str) -> Result<Command, String> {
    let line = normalise(line);
    let tokens: Vec<&str> = line.split(' ').filter(|t| !t.is_empty()).collect();
    let Some(&first) = tokens.first() else {
        return Ok(Command::Empty);
    };
    match first {
        "position" => Ok(parse_position(&tokens[1..])),
        "go" if tokens.get(1) == Some(&"perft") => parse_perft(tokens.get(2)),
        "go" => Ok(Command::Go(parse_go(&tokens[1..]))),
        "perft" => parse_perft(tokens.get(1)),
        "d" => Ok(Command::Display),
        "eval" => Ok(Command::Eval),
        "bench" => parse_bench(tokens.get(1)),
        "genfens" => parse_genfens(&tokens[1..]).map(Command::Genfens),
        "register" => Ok(Command::Register),
        _ => parse_with_vampirc(&line, first),
    }
}

/// Commands vampirc-uci parses safely.
fn parse_with_vampirc(line: &str, first: &str) -> Result<Command, String> {
    match parse_one(line) {
        UciMessage::Uci => Ok(Command::Uci),
        UciMessage::Debug(on) => Ok(Command::Debug(on)),
        UciMessage::IsReady => Ok(Command::IsReady),
        UciMessage::SetOption { name, value } => Ok(Command::SetOption {
            name: name.trim().to_owned(),
            value: value.map(|v| v.trim().to_owned()),
        }),
        UciMessage::UciNewGame => Ok(Command::UciNewGame),
        UciMessage::Stop => Ok(Command::Stop),
        UciMessage::PonderHit => Ok(Command::PonderHit),
        UciMessage::Quit => Ok(Command::Quit),
        _ => match first {
            "setoption" => Err(format!(
                "malformed setoption '{line}' (expected: setoption name <name> [value <value>])"
            )),
            "debug" => Err(format!("malformed debug '{line}' (expected: debug on|off)")),
            _ => Err(format!("unknown command '{}'", truncate(line, 80))),
        },
    }
}

fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_owned()
    } else {
        format!("{}...", text.chars().take(max).collect::<String>())
    }
}

fn parse_perft(arg: Option<&&str>) -> Result<Command, String> {
    match arg.map(|a| a.parse::<u32>()) {
        Some(Ok(depth)) if (1..=12).contains(&depth) => Ok(Command::Perft(depth)),
        _ => Err("perft needs a depth from 1 to 12, e.g. 'go perft 5'".to_owned()),
    }
}

fn parse_bench(arg: Option<&&str>) -> Result<Command, String> {
    match arg.map(|a| a.parse::<u32>()) {
        None => Ok(Command::Bench(None)),
        Some(Ok(depth)) if (1..=30).contains(&depth) => Ok(Command::Bench(Some(depth))),
        Some(_) => Err("bench takes an optional depth from 1 to 30".to_owned()),
    }
}

/// `position startpos|fen <fen> [moves <m1> ...]`.
fn parse_position(args: &[&str]) -> Command {
    let mut warnings = Vec::new();
    let moves_at = args.iter().position(|&t| t == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (
            &args[..i],
            args[i + 1..].iter().map(|m| m.to_string()).collect(),
        ),
        None => (args, Vec::new()),
    };
    let start = match head.first() {
        Some(&"startpos") => {
            if head.len() > 1 {
                warnings.push(format!(
                    "ignored '{}' after 'startpos' (moves must follow the word 'moves')",
                    head[1..].join(" ")
                ));
            }
            StartPosition::Standard
        }
        Some(&"fen") => StartPosition::Fen(head[1..].join(" ")),
        _ => StartPosition::Fen(String::new()),
    };
    Command::Position {
        start,
        moves,
        warnings,
    }
}

/// Keywords of `go` that take a number.
const GO_NUMBERS: &[&str] = &[
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
];
/// Keywords of `go` without an argument.
const GO_FLAGS: &[&str] = &["infinite", "ponder"];

/// Reads `go`: first token by token (numbers checked and clamped, `ponder` noted), then the
/// cleaned line through vampirc-uci.
fn parse_go(args: &[&str]) -> GoArgs {
    let mut go = GoArgs::default();
    let mut clean: Vec<String> = vec!["go".to_owned()];
    let mut i = 0;
    while i < args.len() {
        let token = args[i];
        if GO_NUMBERS.contains(&token) {
            match args.get(i + 1).map(|v| parse_number(v)) {
                Some(Some(value)) => {
                    if token == "depth" {
                        go.requested_depth = Some(value);
                    }
                    let limited = limit_for_vampirc(token, value);
                    clean.push(format!("{token} {limited}"));
                    i += 2;
                }
                _ => {
                    go.warnings
                        .push(format!("'go {token}' needs a non-negative number; ignored"));
                    i += 1 + usize::from(args.get(i + 1).is_some_and(|v| !is_keyword(v)));
                }
            }
        } else if GO_FLAGS.contains(&token) {
            go.ponder |= token == "ponder";
            go.infinite |= token == "infinite";
            i += 1;
        } else if token == "searchmoves" {
            i += 1;
            while i < args.len() && !is_keyword(args[i]) {
                go.searchmoves.push(args[i].to_owned());
                i += 1;
            }
        } else {
            go.warnings.push(format!(
                "unknown go parameter '{}' ignored",
                truncate(token, 40)
            ));
            i += 1;
        }
    }
    if clean.len() > 1 {
        read_vampirc_go(&clean.join(" "), &mut go);
    }
    go
}

fn is_keyword(token: &str) -> bool {
    GO_NUMBERS.contains(&token) || GO_FLAGS.contains(&token) || token == "searchmoves"
}

/// A non-negative number; negative clock values (some GUIs send them after a flag) read as 0,
/// and values too large for u64 as u64::MAX.
fn parse_number(text: &str) -> Option<u64> {
    if let Ok(v) = text.parse::<u64>() {
        return Some(v);
    }
    if let Ok(v) = text.parse::<i64>() {
        return Some(v.max(0) as u64);
    }
    if !text.is_empty() && text.chars().all(|c| c.is_ascii_digit()) {
        return Some(u64::MAX);
    }
    None
}

/// Keeps values where vampirc-uci neither panics nor truncates: u8 for depth, mate and
/// movestogo (its grammar reads three digits into a u8); twelve digits for nodes and times.
fn limit_for_vampirc(keyword: &str, value: u64) -> u64 {
    match keyword {
        "depth" | "mate" | "movestogo" => value.min(255),
        _ => value.min(999_999_999_999),
    }
}

fn millis(d: Option<vampirc_uci::Duration>) -> Option<u64> {
    d.map(|d| d.num_milliseconds().max(0) as u64)
}

fn read_vampirc_go(line: &str, go: &mut GoArgs) {
    let UciMessage::Go {
        time_control,
        search_control,
    } = parse_one(line)
    else {
        go.warnings.push(format!("could not read '{line}'"));
        return;
    };
    match time_control {
        Some(UciTimeControl::TimeLeft {
            white_time,
            black_time,
            white_increment,
            black_increment,
            moves_to_go,
        }) => {
            go.wtime = millis(white_time);
            go.btime = millis(black_time);
            go.winc = millis(white_increment);
            go.binc = millis(black_increment);
            go.movestogo = moves_to_go.map(u32::from);
        }
        Some(UciTimeControl::MoveTime(d)) => go.movetime = millis(Some(d)),
        Some(UciTimeControl::Infinite) => go.infinite = true,
        Some(UciTimeControl::Ponder) => go.ponder = true,
        None => {}
    }
    if let Some(UciSearchControl {
        depth, nodes, mate, ..
    }) = search_control
    {
        go.depth = depth.map(u32::from);
        go.nodes = nodes;
        go.mate = mate.map(u32::from);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_with_clock_and_ponder() {
        let Ok(Command::Go(go)) =
            parse("go ponder wtime 1000 btime 2000 winc 10 binc 20 movestogo 5")
        else {
            panic!("not a go");
        };
        assert!(go.ponder);
        assert_eq!(
            (go.wtime, go.btime, go.winc, go.binc, go.movestogo),
            (Some(1000), Some(2000), Some(10), Some(20), Some(5))
        );
    }

    #[test]
    fn huge_depth_is_clamped_not_a_panic() {
        let Ok(Command::Go(go)) = parse("go depth 300 ") else {
            panic!("not a go");
        };
        assert_eq!(go.depth, Some(255));
    }

    #[test]
    fn movetime_and_nodes_together() {
        let Ok(Command::Go(go)) = parse("go nodes 5000 movetime 300") else {
            panic!("not a go");
        };
        assert_eq!((go.nodes, go.movetime), (Some(5000), Some(300)));
    }

    #[test]
    fn position_keeps_every_move() {
        let Ok(Command::Position { moves, .. }) =
            parse("position startpos moves e2e4  e7e5\t0000 g1f3\r")
        else {
            panic!("not a position");
        };
        assert_eq!(moves, vec!["e2e4", "e7e5", "0000", "g1f3"]);
    }

    #[test]
    fn unknown_is_an_error() {
        assert!(parse("xyzzy").is_err());
        assert_eq!(parse("   \r"), Ok(Command::Empty));
    }
}
