//! Threefold's command line: no argument runs the UCI engine; `bench [depth]` and
//! `perft <depth> [fen]` are there for testers and engine authors.

use std::process::ExitCode;

use threefold::{bench, game, perft, uci};

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
        Some("--help" | "-h" | "help") => {
            println!("usage: threefold            run the UCI engine on stdin/stdout");
            println!(
                "       threefold bench [depth]   fixed-depth benchmark; last line '<nodes> nodes <nps> nps'"
            );
            println!("       threefold perft <depth> [fen]   count legal move paths");
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
    let result = bench::run(depth, &mut |line| println!("{line}"));
    println!("{} nodes {} nps", result.nodes, result.nps);
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
    println!("{}", perft::perft(&pos, depth));
    ExitCode::SUCCESS
}
