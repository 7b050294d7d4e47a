//! Threefold's command line (clap): no argument runs the UCI engine; `bench [depth]` and
//! `perft <depth> [fen]` are there for testers and engine authors; `arbiter` judges PGN games;
//! `analyse` annotates them with the engine's verdicts; `perpetual` proves or refutes a
//! perpetual check;
//! `tune` generates training positions and fits the evaluation weights to them; `spsa` prints a
//! tuning build's search numbers as OpenBench's SPSA input; `datagen`
//! generates NNUE training data and `train` trains a network on it. A first argument that is no subcommand but a UCI command makes
//! every argument one command, run in order (OpenBench: `threefold "genfens 10 seed 1 book None"
//! quit`). A new subcommand is a variant of [`Subcommand`] and an arm in [`main`].

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use clap::{CommandFactory, Parser};
use threefold::eval::nnue::default_network;
use threefold::uci::output::send;
use threefold::{analyse, arbiter, bench, datagen, game, perft, perpetual, train, tune, uci};

/// The version `--version` prints: the crate's and the git commit `build.rs` recorded.
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("THREEFOLD_COMMIT"),
    ")"
);

/// A UCI chess engine that honours the repetition and move-count draw rules exactly.
#[derive(Debug, Parser)]
#[command(
    name = "threefold",
    version = VERSION,
    after_help = "With no subcommand the engine speaks UCI on stdin/stdout.\n\
        Arguments that are UCI commands are run in order, one command each, then the engine exits:\n  \
        threefold \"genfens 10 seed 1 book None\" quit"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Subcommand>,
}

#[derive(Debug, clap::Subcommand)]
enum Subcommand {
    /// Fixed-depth benchmark; the last line is '<nodes> nodes <nps> nps'
    Bench {
        /// Search depth of each position
        #[arg(default_value_t = bench::BENCH_DEPTH, value_parser = clap::value_parser!(u32).range(1..=30))]
        depth: u32,
    },
    /// Counts the legal move paths of a position to a depth
    Perft {
        /// Plies to count
        depth: u32,
        /// The position as FEN, in one argument or several (default: the start position)
        fen: Vec<String>,
    },
    // The arbiter's, the analysis's and the prover's help texts are their `Args`' doc comments.
    Arbiter(arbiter::command::Args),
    Analyse(analyse::command::Args),
    Perpetual(perpetual::command::Args),
    /// Texel tuning: generates training positions and fits the evaluation weights to them
    Tune {
        #[command(subcommand)]
        command: tune::command::Command,
    },
    /// Prints the tunable search numbers as OpenBench's SPSA input, one 'name, int, value, min,
    /// max, c_end, r_end' line each (a tuning build: cargo build --release --features tune)
    Spsa,
    /// Generates NNUE training data by self-play, reports on it, converts PGN games to it
    Datagen(datagen::command::Args),
    /// Trains an NNUE network on datagen files and writes it quantised
    Train(train::command::Args),
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<OsString> = std::env::args_os().collect();
    if let Some(commands) = uci_commands(&args) {
        uci::run_commands(&commands);
        return ExitCode::SUCCESS;
    }
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout with status 0; usage errors to stderr with 2.
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match cli.command {
        None => {
            uci::run();
            ExitCode::SUCCESS
        }
        Some(Subcommand::Bench { depth }) => run_bench(depth),
        Some(Subcommand::Perft { depth, fen }) => run_perft(depth, &fen),
        Some(Subcommand::Arbiter(args)) => arbiter::command::run(args),
        Some(Subcommand::Analyse(args)) => analyse::command::run(args),
        Some(Subcommand::Perpetual(args)) => perpetual::command::run(args),
        Some(Subcommand::Tune { command }) => usage_result("tune", tune::command::run(command)),
        Some(Subcommand::Spsa) => run_spsa(),
        Some(Subcommand::Datagen(args)) => usage_result("datagen", datagen::command::run(args)),
        Some(Subcommand::Train(args)) => usage_result("train", train::command::run(args)),
    }
}

/// The arguments as UCI commands when the first one is no subcommand (nor an option) but a
/// UCI command line (the OpenBench form); None otherwise.
fn uci_commands(args: &[OsString]) -> Option<Vec<String>> {
    let first = args.get(1)?.to_string_lossy();
    let subcommand = Cli::command()
        .get_subcommands()
        .any(|s| s.get_name() == first || s.get_all_aliases().any(|a| a == first));
    if subcommand || first == "help" || first.starts_with('-') {
        return None;
    }
    uci::command::parse(&first)
        .is_ok_and(|c| c != uci::command::Command::Empty)
        .then(|| {
            args[1..]
                .iter()
                .map(|a| a.to_string_lossy().into_owned())
                .collect()
        })
}

/// Status 0, or the message and status 2.
fn usage_result(name: &str, result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("threefold {name}: {message}");
            ExitCode::from(2)
        }
    }
}

fn run_bench(depth: u32) -> ExitCode {
    let result = bench::run(depth, default_network(), &mut |line| send(&line));
    send(&format!("{} nodes {} nps", result.nodes, result.nps));
    ExitCode::SUCCESS
}

/// The SPSA input of a tuning build; a normal build has no options for it to name.
fn run_spsa() -> ExitCode {
    use threefold::search::params::{TUNABLES, TUNING};
    if !TUNING {
        eprintln!(
            "threefold spsa: this build has no tunable options; build one with \
             cargo build --release --features tune"
        );
        return ExitCode::from(2);
    }
    let mut out = std::io::stdout().lock();
    for tunable in &TUNABLES {
        // A closed pipe (`threefold spsa | head`) ends the listing, not the process with a panic.
        if writeln!(out, "{}", tunable.openbench_line()).is_err() {
            break;
        }
    }
    ExitCode::SUCCESS
}

fn run_perft(depth: u32, fen: &[String]) -> ExitCode {
    let pos = if fen.is_empty() {
        shakmaty::Chess::default()
    } else {
        match game::parse_fen(&fen.join(" ")) {
            Ok(pos) => pos,
            Err(e) => {
                eprintln!("threefold perft: {e}");
                return ExitCode::from(2);
            }
        }
    };
    send(&perft::perft(&pos, depth).to_string());
    ExitCode::SUCCESS
}
