//! Threefold's command line: no argument runs the UCI engine; `bench [depth]` and
//! `perft <depth> [fen]` are there for testers and engine authors; `arbiter` judges PGN games; `analyse` annotates them with the engine;
//! `tune` generates training positions and fits the evaluation weights to them; `datagen`
//! generates NNUE training data. Any other first argument that is a UCI command makes every
//! argument one command, run in order (OpenBench: `threefold "genfens 10 seed 1 book None" quit`).

use std::process::ExitCode;

use threefold::uci::output::send;
use threefold::{arbiter, bench, game, perft, uci};

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => {
            uci::run();
            ExitCode::SUCCESS
        }
        Some("bench") => run_bench(args.get(1)),
        Some("perft") => run_perft(&args[1..]),
        Some("arbiter") => run_arbiter(&args[1..]),
        Some("analyse") => threefold::analyse::run(&args[1..]),
        Some("tune") => match threefold::tune::command::run(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("threefold tune: {message}");
                ExitCode::from(2)
            }
        },
        Some("datagen") => match threefold::datagen::command::run(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("threefold datagen: {message}");
                ExitCode::from(2)
            }
        },
        Some(first)
            if uci::command::parse(first).is_ok_and(|c| c != uci::command::Command::Empty) =>
        {
            uci::run_commands(&args);
            ExitCode::SUCCESS
        }
        Some("--help" | "-h" | "help") => {
            println!("usage: threefold            run the UCI engine on stdin/stdout");
            println!(
                "       threefold bench [depth]   fixed-depth benchmark; last line '<nodes> nodes <nps> nps'"
            );
            println!("       threefold perft <depth> [fen]   count legal move paths");
            println!(
                "       threefold arbiter [--json] [FILE.pgn ...]   judge games by the draw rules (stdin without files)"
            );
            println!(
                "       threefold analyse [--nodes N] [--json] FILE.pgn ...   annotate games with the engine (analyse --help)"
            );
            println!(
                "       threefold tune generate|fit ...   Texel tuning (threefold tune for the options)"
            );
            println!(
                "       threefold datagen --out DIR | --stats PATH | --from-pgn FILE --out FILE ...   NNUE training data"
            );
            println!(
                "       threefold \"UCI COMMAND\" ...   run each argument as a UCI command, then exit (e.g. \"genfens 10 seed 1 book None\" quit)"
            );
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("threefold: unknown argument '{other}' (try --help)");
            ExitCode::from(2)
        }
    }
}

fn run_bench(depth: Option<&String>) -> ExitCode {
    let depth = match depth.map(|d| d.parse::<u32>()) {
        None => bench::BENCH_DEPTH,
        Some(Ok(d)) if (1..=30).contains(&d) => d,
        Some(_) => {
            eprintln!("threefold: bench depth must be a number from 1 to 30");
            return ExitCode::from(2);
        }
    };
    let result = bench::run(depth, &mut |line| send(&line));
    send(&format!("{} nodes {} nps", result.nodes, result.nps));
    ExitCode::SUCCESS
}

fn run_perft(args: &[String]) -> ExitCode {
    let Some(Ok(depth)) = args.first().map(|d| d.parse::<u32>()) else {
        eprintln!("threefold: perft needs a depth");
        return ExitCode::from(2);
    };
    let pos = match args
        .get(1..)
        .map(|rest| rest.join(" "))
        .filter(|f| !f.is_empty())
    {
        Some(fen) => match game::parse_fen(&fen) {
            Ok(pos) => pos,
            Err(e) => {
                eprintln!("threefold: {e}");
                return ExitCode::from(2);
            }
        },
        None => shakmaty::Chess::default(),
    };
    send(&perft::perft(&pos, depth).to_string());
    ExitCode::SUCCESS
}

/// `threefold arbiter [--json] [FILE ...]`: exit code 1 when a game or file had an error.
fn run_arbiter(args: &[String]) -> ExitCode {
    use std::io::Write;
    let json = args.iter().any(|a| a == "--json");
    let files: Vec<&String> = args.iter().filter(|a| a.as_str() != "--json").collect();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut game_errors = false;
    let mut write = |record: arbiter::pgn::GameRecord| {
        game_errors |= record.verdict.error.is_some();
        let text = if json {
            arbiter::report::json(&record).to_string()
        } else {
            arbiter::report::text(&record)
        };
        if writeln!(out, "{text}").is_err() {
            std::process::exit(0); // stdout closed (e.g. piped into head): stop quietly
        }
    };
    let mut read_ok = true;
    if files.is_empty() {
        read_ok = judge_source("stdin", std::io::stdin().lock(), &mut write);
    }
    for path in files {
        read_ok &= match std::fs::File::open(path) {
            Ok(file) => judge_source(path, file, &mut write),
            Err(e) => {
                eprintln!("threefold arbiter: cannot open {path}: {e}");
                false
            }
        };
    }
    if read_ok && !game_errors {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Judges every game of one input; false when it could not be read to the end.
fn judge_source(
    name: &str,
    input: impl std::io::Read,
    each: &mut dyn FnMut(arbiter::pgn::GameRecord),
) -> bool {
    match arbiter::pgn::judge_file(name, input, each) {
        Ok(()) => true,
        Err(e) => {
            eprintln!("threefold arbiter: reading {name}: {e}");
            false
        }
    }
}
