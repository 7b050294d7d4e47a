//! Threefold's command line: no argument runs the UCI engine; `bench [depth]` and
//! `perft <depth> [fen]` are there for testers and engine authors; `arbiter` judges PGN games;
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
        Some("arbiter") => arbiter::command::run(&args[1..]),
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
