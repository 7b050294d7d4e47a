//! `threefold arbiter [--json] [--only-findings] [FILE.pgn ...]`: the command line.
//!
//! Exit status: 0 when every game was read to its end and agrees with the rules; 1 when a game
//! had an error (an illegal move, a bad FEN tag) or a record the rules contradict (a `Result`
//! tag that disagrees with the automatic end, moves recorded after it); 2 for a usage error, a
//! file that cannot be read, or input that is not PGN. Repetitions, claims and automatic ends
//! alone are findings to report, not failures.

use std::io::{self, Read, Write};
use std::process::ExitCode;

use super::pgn::{GameRecord, judge_file};
use super::report::{self, Summary};

const USAGE: &str = "\
usage: threefold arbiter [--json] [--only-findings] [FILE.pgn ...]

Judges the games of PGN files (standard input without files, or for '-') by the draw rules:
positions seen three times, the first claim of each side (threefold, fifty moves), the
automatic end (checkmate, stalemate, fivefold, seventy-five moves, dead position), moves
recorded after it (void), and whether the Result tag agrees.

options:
  --json           one JSON object per game, a line each (the summary goes to stderr)
  --only-findings  list only the games with a repetition, a claim, an automatic end, an
                   inconsistent result or an error (the summary still counts every game)
  -h, --help       this text

exit status: 0 every game read and consistent with the rules; 1 a game with an error (illegal
move, bad FEN tag), a Result tag the rules contradict, or moves after the automatic end;
2 usage error, unreadable file, or input that is not PGN";

/// What the command line asks for.
#[derive(Debug, Default)]
struct Request {
    json: bool,
    only_findings: bool,
    files: Vec<String>,
}

/// Reads the arguments; Err carries the message for a usage error.
fn parse(args: &[String]) -> Result<Option<Request>, String> {
    let mut request = Request::default();
    let mut files_only = false;
    for arg in args {
        match arg.as_str() {
            _ if files_only => request.files.push(arg.clone()),
            "--" => files_only = true,
            "-h" | "--help" => return Ok(None),
            "--json" => request.json = true,
            "--only-findings" => request.only_findings = true,
            "-" => request.files.push(arg.clone()),
            flag if flag.starts_with('-') => {
                return Err(format!("unknown option '{flag}'"));
            }
            _ => request.files.push(arg.clone()),
        }
    }
    Ok(Some(request))
}

/// Runs `threefold arbiter` with the arguments after `arbiter`.
pub fn run(args: &[String]) -> ExitCode {
    let request = match parse(args) {
        Ok(Some(request)) => request,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("threefold arbiter: {message}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut summary = Summary::default();
    let mut write = |record: GameRecord| {
        summary.add(&record);
        if request.only_findings && !report::has_findings(&record) {
            return;
        }
        let text = if request.json {
            report::json(&record).to_string()
        } else {
            report::text(&record)
        };
        if writeln!(out, "{text}").is_err() {
            std::process::exit(0); // stdout closed (e.g. piped into head): stop quietly
        }
    };
    let mut input_ok = true;
    let files = if request.files.is_empty() {
        vec!["-".to_owned()]
    } else {
        request.files.clone()
    };
    for path in &files {
        input_ok &= if path == "-" {
            judge_source("stdin", io::stdin().lock(), &mut write)
        } else {
            match std::fs::File::open(path) {
                Ok(file) => judge_source(path, file, &mut write),
                Err(e) => {
                    eprintln!("threefold arbiter: cannot open {path}: {e}");
                    false
                }
            }
        };
    }
    if request.json {
        eprintln!("{summary}");
    } else if writeln!(out, "{summary}").is_err() {
        return ExitCode::SUCCESS;
    }
    if out.flush().is_err() {
        return ExitCode::SUCCESS;
    }
    if !input_ok {
        ExitCode::from(2)
    } else if !summary.clean() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Judges every game of one input; false when it could not be read to the end or is not PGN.
fn judge_source(name: &str, input: impl Read, each: &mut dyn FnMut(GameRecord)) -> bool {
    match judge_file(name, input, each) {
        Ok(()) => true,
        Err(e) => {
            eprintln!("threefold arbiter: {name}: {e}");
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn flags_files_and_the_double_dash() {
        let request = parse(&args(&["--json", "a.pgn", "--", "--only-findings"]))
            .expect("parses")
            .expect("not help");
        assert!(request.json && !request.only_findings);
        assert_eq!(request.files, args(&["a.pgn", "--only-findings"]));
        assert!(parse(&args(&["-h"])).expect("parses").is_none());
        assert!(parse(&args(&["--jsn"])).is_err());
    }
}
