//! The command line through the built binary: `--version`, help for the binary and each
//! subcommand, usage errors (status 2, a message, clap's typo hints), the forms OpenBench uses
//! (`threefold bench`, UCI commands as arguments), UCI with no argument, the arbiter's arguments
//! passed on untouched, and `tune`'s paths and progress from a working directory other than the
//! repository.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use common::Uci;

/// Runs the binary with `args` in `dir` (the repository root when None).
fn run_in(dir: Option<&Path>, args: &[&str]) -> (i32, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_threefold"));
    command.args(args);
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    finished(command.output().expect("the binary runs"))
}

fn finished(out: Output) -> (i32, String, String) {
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn threefold(args: &[&str]) -> (i32, String, String) {
    run_in(None, args)
}

/// An empty directory of its own for one test, outside the repository.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The subcommands `threefold --help` lists, in order.
fn subcommands() -> Vec<String> {
    let (code, stdout, stderr) = threefold(&["--help"]);
    assert_eq!(code, 0, "{stderr}");
    stdout
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

#[test]
fn version_names_the_crate_version_and_the_commit() {
    for flag in ["--version", "-V"] {
        let (code, stdout, stderr) = threefold(&[flag]);
        assert_eq!(code, 0, "{stderr}");
        let line = stdout.trim();
        let expected = format!("threefold {} (commit ", env!("CARGO_PKG_VERSION"));
        assert!(line.starts_with(&expected), "{line}");
        let commit = line[expected.len()..].trim_end_matches(')');
        let hash = commit.trim_end_matches("+dirty");
        assert!(
            hash == "unknown" || (hash.len() >= 7 && hash.chars().all(|c| c.is_ascii_hexdigit())),
            "{line}"
        );
    }
}

#[test]
fn help_lists_every_subcommand_and_each_has_its_own_help() {
    let names = subcommands();
    for expected in [
        "bench", "perft", "arbiter", "analyse", "tune", "spsa", "datagen", "train", "help",
    ] {
        assert!(names.iter().any(|n| n == expected), "{names:?}");
    }
    let (code, stdout, _) = threefold(&["help"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("Usage: threefold"), "{stdout}");
    for name in names.iter().filter(|n| *n != "help") {
        // `help NAME` and `NAME --help` for all.
        let (code, stdout, stderr) = threefold(&["help", name]);
        assert_eq!(code, 0, "help {name}: {stderr}");
        assert!(stdout.contains(&format!("threefold {name}")), "{stdout}");
        let (code, stdout, stderr) = threefold(&[name, "--help"]);
        assert_eq!(code, 0, "{name} --help: {stderr}");
        assert!(
            stdout.contains(&format!("Usage: threefold {name}")),
            "{stdout}"
        );
    }
    for args in [
        &["tune", "generate", "--help"][..],
        &["tune", "fit", "--help"],
        &["help", "tune", "fit"],
    ] {
        let (code, stdout, stderr) = threefold(args);
        assert_eq!(code, 0, "{args:?}: {stderr}");
        assert!(stdout.contains("Usage: threefold tune"), "{stdout}");
    }
}

/// `spsa` lists a tuning build's options as OpenBench's SPSA input; a normal build, which has
/// no such options, says how to build one and exits 2 (an empty list would start a tune of
/// nothing).
#[test]
fn spsa_lists_the_tunable_options_or_says_how_to_get_them() {
    let (code, stdout, stderr) = threefold(&["spsa"]);
    if threefold::search::params::TUNING {
        assert_eq!(code, 0, "{stderr}");
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), threefold::search::params::TUNABLES.len());
        assert!(
            lines.iter().all(|l| l.split(", ").nth(1) == Some("int")),
            "{stdout}"
        );
        let mut session = Uci::start();
        session.send("uci");
        let announced = session.read_until(Duration::from_secs(5), |l| l == "uciok");
        let option = "option name history_per_ply type spin default 8192 min 2048 max 16384";
        assert!(announced.iter().any(|l| l == option), "{announced:?}");
    } else {
        assert_eq!(code, 2);
        assert!(stdout.is_empty(), "{stdout}");
        assert!(stderr.contains("--features tune"), "{stderr}");
    }
}

#[test]
fn bad_arguments_exit_2_with_a_message() {
    let cases: &[&[&str]] = &[
        &["--frob"],
        &["bench", "3", "extra"],
        &["bench", "0"],
        &["bench", "31"],
        &["bench", "deep"],
        &["perft"],
        &["perft", "x"],
        &["perft", "1", "not", "a", "fen"],
        &["tune"],
        &["tune", "generate"],
        &[
            "tune", "generate", "--out", "x", "--book", "y", "--games", "many",
        ],
        &["tune", "fit", "--data"],
        &["tune", "fit", "--data", "x", "--passes", "-1"],
        &["tune", "sing"],
        &["datagen", "--threads", "0", "--out", "x"],
        &["datagen", "--stats", "x", "--dump", "y"],
        &["datagen", "--from-pgn", "x.pgn"],
        &["datagen", "--out", "x", "--draw-adjudication", "maybe"],
        &["datagen", "--out", "x", "--minutes", "-3"],
        &["arbiter", "--jason"],
        &["analyse", "--nodes", "0"],
        &["analyse", "--nodes", "1", "--depth", "2"],
        &["analyse", "--from", "9", "--to", "3"],
        &[""],
    ];
    for args in cases {
        let (code, stdout, stderr) = threefold(args);
        assert_eq!(code, 2, "{args:?}: {stdout} {stderr}");
        assert!(stdout.is_empty(), "{args:?} printed on stdout: {stdout}");
        assert!(!stderr.trim().is_empty(), "{args:?} gave no message");
    }
}

#[test]
fn typos_get_a_hint() {
    let (code, _, stderr) = threefold(&["bnech"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("'bench'"), "{stderr}");
    let (code, _, stderr) = threefold(&["tune", "generate", "--out", "x", "--bok", "y"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--book"), "{stderr}");
    for (args, hint) in [
        (&["arbiter", "--only-finding"][..], "--only-findings"),
        (&["analyse", "--movetiem", "50"], "--movetime"),
    ] {
        let (code, _, stderr) = threefold(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(stderr.contains(hint), "{args:?}: {stderr}");
    }
}

#[cfg(unix)]
#[test]
fn an_argument_that_is_not_utf8_is_refused_not_a_crash() {
    use std::os::unix::ffi::OsStrExt;
    let odd = std::ffi::OsStr::from_bytes(b"bench\xff");
    for args in [vec![odd], vec![std::ffi::OsStr::new("perft"), odd]] {
        let out = Command::new(env!("CARGO_BIN_EXE_threefold"))
            .args(&args)
            .output()
            .expect("the binary runs");
        let (code, _, stderr) = finished(out);
        assert_eq!(code, 2, "{args:?}: {stderr}");
    }
}

/// The `<nodes> nodes <nps> nps` last line of a bench run.
fn bench_nodes(stdout: &str) -> u64 {
    let last = stdout.lines().last().expect("a last line");
    let words: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(words.len(), 4, "{last}");
    assert_eq!((words[1], words[3]), ("nodes", "nps"), "{last}");
    words[2].parse::<u64>().expect("nps is a number");
    words[0].parse().expect("nodes is a number")
}

#[test]
fn bench_as_a_subcommand_and_as_a_uci_command_count_the_same_nodes() {
    let (code, stdout, stderr) = threefold(&["bench", "3"]);
    assert_eq!(code, 0, "{stderr}");
    let nodes = bench_nodes(&stdout);
    assert!(nodes > 0);
    let (code, stdout, stderr) = threefold(&["bench 3", "quit"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(bench_nodes(&stdout), nodes);
    let (code, stdout, _) = threefold(&["bench", "4"]);
    assert_eq!(code, 0);
    assert_ne!(bench_nodes(&stdout), nodes, "the depth argument is used");
}

#[test]
fn uci_commands_as_arguments_run_in_order() {
    let (code, stdout, stderr) = threefold(&["genfens 3 seed 1 book None", "quit"]);
    assert_eq!(code, 0, "{stderr}");
    let fens: Vec<&str> = stdout
        .lines()
        .map(|l| {
            l.strip_prefix("info string genfens ")
                .expect("only genfens lines")
        })
        .collect();
    assert_eq!(fens.len(), 3, "{stdout}");
    for fen in fens {
        threefold::game::parse_fen(fen).expect("a legal FEN");
    }
    let (code, stdout, stderr) =
        threefold(&["uci", "position startpos moves e2e4", "go depth 2", "quit"]);
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    let uciok = lines.iter().position(|l| *l == "uciok").expect("uciok");
    let best = lines
        .iter()
        .position(|l| l.starts_with("bestmove "))
        .expect("bestmove");
    assert!(uciok < best, "{stdout}");
    let pos = common::position_after(None, &["e2e4"]);
    let mv = lines[best].split_whitespace().nth(1).expect("a move");
    assert!(common::is_legal(&pos, mv), "{mv}");
}

#[test]
fn no_argument_speaks_uci_on_stdin() {
    let mut engine = Uci::handshake();
    engine.send("position startpos");
    engine.send("go depth 1");
    let (_, mv) = engine.bestmove(Duration::from_secs(10));
    assert!(
        common::is_legal(&common::position_after(None, &[]), &mv),
        "{mv}"
    );
    engine.send("quit");
    assert!(engine.exited_within(Duration::from_secs(5)));
}

#[test]
fn the_arbiter_gets_its_arguments_untouched() {
    let dir = scratch("arbiter");
    let pgn = dir.join("one.pgn");
    std::fs::write(
        &pgn,
        "[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. Nf3 Nf6 2. g3 g6 *\n",
    )
    .expect("write pgn");
    let path = pgn.to_str().expect("utf-8 path");
    let (code, stdout, stderr) = threefold(&["arbiter", "--json", path]);
    assert_eq!(code, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(stdout.trim()).expect("one JSON line");
    assert_eq!(report["plies"], 4);
    assert_eq!(report["tags"]["White"], "A");
    let (code, stdout, _) = threefold(&["arbiter", path]);
    assert_eq!(code, 0);
    assert!(serde_json::from_str::<serde_json::Value>(stdout.trim()).is_err());
    assert!(stdout.contains('A'), "{stdout}");
}

#[test]
fn tune_fit_finds_the_weights_of_its_source_tree_from_any_directory() {
    let dir = scratch("tune-fit");
    // No data: the fit stops before writing anything, and says what it could not read.
    let (code, _, stderr) = run_in(Some(&dir), &["tune", "fit", "--data", "missing.txt"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("missing.txt"), "{stderr}");
    assert!(
        !stderr.contains("weights"),
        "the default weights were not found: {stderr}"
    );
    let (code, _, stderr) = run_in(
        Some(&dir),
        &[
            "tune",
            "fit",
            "--data",
            "missing.txt",
            "--weights",
            "none.rs",
        ],
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("none.rs"), "{stderr}");
}

#[test]
fn tune_generate_writes_positions_and_reports_progress() {
    let dir = scratch("tune-generate");
    std::fs::write(
        dir.join("book.epd"),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -\n",
    )
    .expect("write book");
    let (code, stdout, stderr) = run_in(
        Some(&dir),
        &[
            "tune",
            "generate",
            "--out",
            "pos.txt",
            "--book",
            "book.epd",
            "--games",
            "2",
            "--nodes",
            "200",
            "--threads",
            "1",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    let written = std::fs::read_to_string(dir.join("pos.txt")).expect("positions written");
    let count = written.lines().count();
    assert!(count > 0);
    assert!(
        stdout.contains(&format!("2 games, {count} positions written")),
        "{stdout}"
    );
    let last = stderr
        .lines()
        .rfind(|l| l.starts_with("tune generate: "))
        .expect("a progress line");
    assert!(
        last.contains("2/2 games") && last.contains(&format!("{count} positions")),
        "{last}"
    );
    let (code, _, stderr) = run_in(
        Some(&dir),
        &[
            "tune",
            "generate",
            "--out",
            "pos.txt",
            "--book",
            "nobook.epd",
        ],
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("nobook.epd"), "{stderr}");
}
