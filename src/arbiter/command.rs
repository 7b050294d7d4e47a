//! `threefold arbiter [--json] [--only-findings] [FILE.pgn ...]`: the command line (clap's
//! [`Args`], read by `main`) and the run.
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

/// What `threefold arbiter --help` says after the options.
const EXIT_STATUS: &str = "\
Exit status: 0 every game read and consistent with the rules; 1 a game with an error (illegal
move, bad FEN tag), a Result tag the rules contradict, or moves after the automatic end;
2 usage error, unreadable file, or input that is not PGN.";

/// Judges the games of PGN files by the draw rules
///
/// Judges the games of PGN files (standard input without files, or for '-') by the draw rules:
/// positions seen three times, the first claim of each side (threefold, fifty moves), the
/// automatic end (checkmate, stalemate, fivefold, seventy-five moves, dead position), moves
/// recorded after it (void), and whether the Result tag agrees.
#[derive(Debug, Default, clap::Args)]
#[command(after_help = EXIT_STATUS)]
pub struct Args {
    /// One JSON object per game, a line each (the summary goes to stderr)
    #[arg(long)]
    pub json: bool,
    /// List only the games with a repetition, a claim, an automatic end, an inconsistent
    /// result or an error (the summary still counts every game)
    #[arg(long)]
    pub only_findings: bool,
    /// PGN files; none or '-': standard input
    #[arg(value_name = "FILE.pgn")]
    pub files: Vec<String>,
}

/// Runs `threefold arbiter` with its parsed arguments.
pub fn run(request: Args) -> ExitCode {
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
    use clap::Parser;

    /// `threefold arbiter` alone, as `main` reads it.
    #[derive(Debug, Parser)]
    struct Arbiter {
        #[command(flatten)]
        args: Args,
    }

    fn parse(list: &[&str]) -> Result<Args, clap::Error> {
        Arbiter::try_parse_from(std::iter::once("arbiter").chain(list.iter().copied()))
            .map(|a| a.args)
    }

    #[test]
    fn flags_files_standard_input_and_the_double_dash() {
        let args = parse(&["--json", "a.pgn", "-", "--", "--only-findings"]).expect("parses");
        assert!(args.json && !args.only_findings);
        assert_eq!(args.files, ["a.pgn", "-", "--only-findings"]);
        let typo = parse(&["--jsn"]).expect_err("a typo is refused");
        assert_eq!(typo.kind(), clap::error::ErrorKind::UnknownArgument);
        assert!(typo.to_string().contains("--json"), "{typo}");
        let help = parse(&["-h"]).expect_err("help is not a run");
        assert_eq!(help.kind(), clap::error::ErrorKind::DisplayHelp);
    }
}
