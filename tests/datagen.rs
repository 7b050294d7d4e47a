//! NNUE data generation: OpenBench's `genfens` through the binary, a short
//! `datagen` run read back, resuming after a cut file, the PGN converter, and self-play with a network.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use shakmaty::{Chess, Position};
use threefold::data::files::file_name;
use threefold::data::format::{GameRecord, GameResult, read_games};
use threefold::datagen::command::datagen_adjudication;
use threefold::datagen::generator::{self, Options};
use threefold::datagen::pgn;
use threefold::datagen::stats;
use threefold::eval::nnue::Network;
use threefold::game::parse_fen;
use threefold::search::Searcher;
use threefold::selfplay::openings::OpeningRules;

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("datagen-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn threefold(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_threefold"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The FENs of `genfens` lines, checking every stdout line is one.
fn genfens(command: &str) -> Vec<String> {
    let (code, stdout, stderr) = threefold(&[command, "quit"]);
    assert_eq!(code, 0, "{stderr}");
    stdout
        .lines()
        .map(|line| {
            line.strip_prefix("info string genfens ")
                .unwrap_or_else(|| panic!("not a genfens line: {line}"))
                .to_string()
        })
        .collect()
}

#[test]
fn genfens_is_reproducible_for_a_seed_and_legal() {
    let a = genfens("genfens 12 seed 7 book None extra words");
    assert_eq!(a.len(), 12);
    assert_eq!(a, genfens("genfens 12 seed 7 book None"));
    let b = genfens("genfens 12 seed 8 book None");
    assert_ne!(a, b);
    for fen in a.iter().chain(&b) {
        let pos = parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert!(!pos.legal_moves().is_empty(), "{fen}");
        assert_ne!(pos.board(), Chess::default().board());
    }
    let distinct: std::collections::HashSet<&String> = a.iter().collect();
    assert!(distinct.len() >= 11, "openings repeat: {a:?}");
}

/// OpenBench's client waits 15 s for each line of `genfens`: each opening must be printed as
/// soon as it is made, not all of them at the end. The first of 400 arrives long before the last.
#[test]
fn genfens_prints_each_opening_as_soon_as_it_is_made() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    use std::time::Instant;
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_threefold"))
        .args(["genfens 400 seed 5 book None", "quit"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let stdout = child.stdout.take().expect("stdout");
    let arrivals: Vec<f64> = BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        .filter(|l| l.starts_with("info string genfens "))
        .map(|_| started.elapsed().as_secs_f64())
        .collect();
    assert!(child.wait().expect("exits").success());
    assert_eq!(arrivals.len(), 400);
    let (first, last) = (arrivals[0], arrivals[399]);
    // Printed together at the end, they would arrive within a millisecond of each other.
    assert!(
        first < 0.5 * last && last - first > 0.01,
        "first {first:.3} s, last {last:.3} s"
    );
}

#[test]
fn genfens_from_a_book_picks_its_lines() {
    let dir = scratch("genfens-book");
    let book = dir.join("book.epd");
    let lines = [
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - bm Nc6;",
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2",
    ];
    std::fs::write(&book, lines.join("\n")).expect("book written");
    let command = format!("genfens 20 seed 3 book {}", book.display());
    let fens = genfens(&command);
    assert_eq!(fens.len(), 20);
    assert_eq!(fens, genfens(&command));
    for fen in &fens {
        let placement = fen.split(' ').next().unwrap_or_default();
        assert!(lines.iter().any(|l| l.starts_with(placement)), "{fen}");
    }
    let (_, stdout, _) = threefold(&["genfens 2 seed 3 book /no/such/book.epd", "quit"]);
    assert!(
        stdout.starts_with("info string error: genfens: cannot read"),
        "{stdout}"
    );
}

#[test]
fn bench_and_bad_arguments_still_answer_as_before() {
    let (code, stdout, _) = threefold(&["bench", "3"]);
    assert_eq!(code, 0);
    assert!(stdout.trim_end().ends_with("nps"), "{stdout}");
    assert_eq!(threefold(&["xyzzy"]).0, 2);
    assert_eq!(threefold(&["datagen"]).0, 2);
    assert_eq!(threefold(&["datagen", "--out"]).0, 2);
    assert_eq!(
        threefold(&["datagen", "--out", "x", "--nodes", "lots"]).0,
        2
    );
    assert_eq!(threefold(&["datagen", "--stats", "/no/such/dir"]).0, 2);
}

fn options(out: &Path, games: u64) -> Options {
    Options {
        out: out.to_path_buf(),
        seed: 11,
        threads: 2,
        nodes: 150,
        hard_nodes: 1_500,
        games: Some(games),
        time_limit: None,
        book: None,
        openings: OpeningRules {
            check_nodes: 200,
            ..OpeningRules::random()
        },
        adjudication: datagen_adjudication(true),
        report_every: Duration::from_secs(60),
        network: None,
        evaluation: "hand-written eval".to_string(),
    }
}

fn records(path: &Path) -> Vec<GameRecord> {
    let bytes = std::fs::read(path).expect("data file");
    let mut games = Vec::new();
    let (valid, error) = read_games(&mut bytes.as_slice(), |g| games.push(g));
    assert!(error.is_none(), "{path:?}: {error:?}");
    assert_eq!(valid as usize, bytes.len());
    games
}

#[test]
fn a_short_run_writes_records_that_read_back_and_regenerate_identically() {
    let dir = scratch("run");
    let (this_run, before) = generator::run(&options(&dir, 4)).expect("datagen runs");
    assert_eq!((this_run.games, before.games), (4, 0));
    let stats = stats::collect(&dir).expect("readable");
    assert_eq!((stats.files, stats.tally), (2, this_run));
    assert!(stats.problems.is_empty());
    for thread in 0..2 {
        for game in records(&dir.join(file_name(11, thread))) {
            assert!(!game.moves.is_empty());
            // Replaying the moves is legal (the reader checked) and the end agrees with the result.
            let mut pos = game.start.clone();
            for &(m, _) in &game.moves {
                assert!(pos.is_legal(m));
                pos.play_unchecked(m);
            }
            if pos.is_checkmate() {
                let expected = GameResult::won_by(Some(!pos.turn()));
                assert_eq!(game.result, expected);
            }
        }
    }
    // The same seed gives the same games: game k of thread t is a function of the seed, t and
    // k. Which thread plays more of the 4 games depends on timing, so each thread's shorter
    // file is compared game by game with the start of the longer; both runs hold 4 games.
    let again = scratch("run-again");
    generator::run(&options(&again, 4)).expect("datagen runs");
    let (mut totals, mut compared) = ((0, 0), 0);
    for thread in 0..2 {
        let a: Vec<Vec<u8>> = records(&dir.join(file_name(11, thread)))
            .iter()
            .map(GameRecord::to_bytes)
            .collect();
        let b: Vec<Vec<u8>> = records(&again.join(file_name(11, thread)))
            .iter()
            .map(GameRecord::to_bytes)
            .collect();
        totals = (totals.0 + a.len(), totals.1 + b.len());
        let n = a.len().min(b.len());
        assert_eq!(a[..n], b[..n], "thread {thread}");
        compared += n;
    }
    assert_eq!(totals, (4, 4));
    assert!(compared >= 1, "no game of the two runs compared");
}

#[test]
fn a_cut_file_is_repaired_and_the_run_goes_on_where_it_stopped() {
    let dir = scratch("resume");
    let mut opts = options(&dir, 2);
    opts.threads = 1;
    generator::run(&opts).expect("first run");
    let path = dir.join(file_name(11, 0));
    let first = records(&path);
    assert_eq!(first.len(), 2);
    // A run killed while writing: part of a third record at the end.
    let whole = std::fs::read(&path).expect("data");
    let mut cut = whole.clone();
    cut.extend_from_slice(&whole[..45]);
    std::fs::write(&path, &cut).expect("cut file");
    opts.games = Some(1);
    let (this_run, before) = generator::run(&opts).expect("resumed run");
    assert_eq!((this_run.games, before.games), (1, 2));
    let after = records(&path);
    assert_eq!(after.len(), 3);
    assert_eq!(after[..2], first[..]);
    // The third game is game 2 of the thread, the one an unbroken run would have played.
    let mut searcher = Searcher::new(16);
    searcher.network = opts.network.clone();
    assert_eq!(after[2], generator::play_one(&opts, &mut searcher, 0, 2));
    assert_ne!(after[2].start, after[1].start);
    // Bytes that are not a record (not the zeros a crash may leave): an error, the file kept.
    let mut damaged = std::fs::read(&path).expect("data");
    damaged.extend_from_slice(&[0xff; 40]);
    std::fs::write(&path, &damaged).expect("damaged file");
    let error = generator::run(&opts).expect_err("a damaged file stops the run");
    assert!(error.contains("no valid game record at byte"), "{error}");
    assert_eq!(std::fs::read(&path).expect("data"), damaged);
    // Zeros at the end (a crash after the file grew) are cut like a partial record.
    damaged.truncate(damaged.len() - 40);
    damaged.extend_from_slice(&[0; 40]);
    std::fs::write(&path, &damaged).expect("zeroed file");
    generator::run(&opts).expect("zeros are cut");
    assert_eq!(records(&path).len(), 4);
}

const PGN: &str = r#"[Event "OpenBench datagen"]
[FEN "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"]
[SetUp "1"]
[Result "1-0"]

2. Nf3 {book} Nc6 {+0.12/10 0.05s} 3. Bb5 {+0.35/12 0.1s} a6 {-0.30/11 0.1s}
4. Bxc6 {+0.41/12, 0.1s} dxc6 {-M7/20 0.2s} 5. O-O {+M6/18 0.2s} 1-0

[Event "unfinished"]
[Result "*"]

1. e4 {+0.20/10} *

[Event "cut"]
[Result "1/2-1/2"]

1. d4 {+0.15/9 0.1s} d5 {-0.10/9 0.1s} 2. c4 {0.1s} e6 {-0.12/9} 1/2-1/2
"#;

#[test]
fn a_converted_pgn_gives_exactly_its_positions_and_scores() {
    let mut out = Vec::new();
    let done = pgn::convert(PGN.as_bytes(), &mut out).expect("converts");
    assert_eq!(
        (
            done.games_read,
            done.games_written,
            done.games_skipped,
            done.games_cut
        ),
        (3, 2, 1, 1)
    );
    let mut games = Vec::new();
    let (_, error) = read_games(&mut out.as_slice(), |g| games.push(g));
    assert!(error.is_none());
    assert_eq!(done.positions, 8);
    // Game 1: the book move is folded into the start; scores White-relative.
    let first = &games[0];
    assert_eq!(first.result, GameResult::WhiteWins);
    let after_book =
        parse_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2").expect("fen");
    assert_eq!(first.start, after_book);
    let mate = threefold::search::score::MATE;
    let moves: Vec<(String, i16)> = first
        .moves
        .iter()
        .map(|&(m, s)| (m.to_uci(shakmaty::CastlingMode::Standard).to_string(), s))
        .collect();
    let expected: Vec<(String, i16)> = [
        ("b8c6", -12),
        ("f1b5", 35),
        ("a7a6", 30),
        ("b5c6", 41),
        ("d7c6", (mate - 14) as i16),
        ("e1g1", (mate - 11) as i16),
    ]
    .iter()
    .map(|&(m, s)| (m.to_string(), s))
    .collect();
    assert_eq!(moves, expected);
    // Game 3 stops before its first unscored move.
    assert_eq!(games[1].result, GameResult::Draw);
    let scores: Vec<i16> = games[1].moves.iter().map(|&(_, s)| s).collect();
    assert_eq!(scores, vec![15, 10]);
}

#[test]
fn the_converter_command_writes_a_new_file_only() {
    let dir = scratch("convert");
    let input = dir.join("games.pgn");
    std::fs::write(&input, PGN).expect("pgn written");
    let output = dir.join("games.tfd");
    let (input, output) = (input.to_string_lossy(), output.to_string_lossy());
    let (code, _, stderr) = threefold(&["datagen", "--from-pgn", &input, "--out", &output]);
    assert_eq!(code, 0, "{stderr}");
    let (code, stdout, _) = threefold(&["datagen", "--stats", &output]);
    assert_eq!(code, 0);
    assert!(stdout.contains("games      2"), "{stdout}");
    assert!(stdout.contains("positions  8"), "{stdout}");
    let (code, stdout, _) = threefold(&["datagen", "--dump", &output]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 8);
    assert_eq!(
        lines[0],
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2 | b8c6 | -12 | 1"
    );
    assert!(lines[7].ends_with("| d7d5 | 10 | 0.5"), "{}", lines[7]);
    let (code, _, stderr) = threefold(&["datagen", "--from-pgn", &input, "--out", &output]);
    assert_eq!(code, 2, "{stderr}");
}

#[test]
fn self_play_with_a_network_scores_by_the_network() {
    // The first game of thread 0 with the hand-written evaluation and with the built-in net:
    // the same opening rules and seed, but the scores (and so the games) are the evaluation's.
    let first_game = |network: Option<std::sync::Arc<Network>>, name: &str| {
        let dir = scratch(name);
        let mut opts = options(&dir, 1);
        opts.threads = 1;
        opts.network = network;
        generator::run(&opts).expect("datagen runs");
        records(&dir.join(file_name(11, 0)))
            .into_iter()
            .next()
            .expect("a game")
    };
    let hand_written = first_game(None, "eval-hce");
    let net = first_game(
        Some(std::sync::Arc::new(Network::embedded().clone())),
        "eval-net",
    );
    let scores = |g: &GameRecord| g.moves.iter().map(|&(_, s)| s).collect::<Vec<_>>();
    assert_ne!(scores(&hand_written), scores(&net));
    // The command line: a file that is not a network is refused before any game.
    let dir = scratch("eval-bad");
    let out = dir.join("data");
    let (code, _, err) = threefold(&[
        "datagen",
        "--out",
        out.to_str().expect("utf-8"),
        "--eval-file",
        "Cargo.toml",
        "--games",
        "1",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not a Threefold network"), "{err}");
}

#[test]
fn the_converter_reads_chess960_as_the_arbiter_does() {
    // Cute Chess writes the variant as "fischerandom"; castling is then king takes rook.
    let pgn = r#"[Event "960"]
[Variant "fischerandom"]
[FEN "bqnrkrnb/pppppppp/8/8/8/8/PPPPPPPP/BQNRKRNB w FDfd - 0 1"]
[SetUp "1"]
[Result "1/2-1/2"]

1. Nh3 {+0.20/10 0.1s} Nh6 {-0.15/10 0.1s} 2. O-O {+0.25/10 0.1s} O-O {-0.20/10 0.1s} 1/2-1/2
"#;
    let mut out = Vec::new();
    let done = pgn::convert(pgn.as_bytes(), &mut out).expect("converts");
    assert_eq!((done.games_written, done.positions), (1, 4), "{done:?}");
    let mut games = Vec::new();
    read_games(&mut out.as_slice(), |g| games.push(g));
    let castles: Vec<String> = games[0]
        .moves
        .iter()
        .filter(|(m, _)| m.is_castle())
        .map(|(m, _)| m.to_uci(shakmaty::CastlingMode::Chess960).to_string())
        .collect();
    assert_eq!(castles, ["e1f1", "e8f8"]);
}

/// The row and checksum lines a finished `datagen` run prints on stderr, as a manifest.
fn manifest_from_stderr(stderr: &str) -> String {
    let row = stderr
        .lines()
        .find(|l| l.starts_with("| "))
        .unwrap_or_else(|| panic!("no manifest row in {stderr}"));
    let sums: Vec<&str> = stderr
        .lines()
        .filter(|l| l.len() > 66 && l.as_bytes()[64] == b' ' && l.ends_with(".tfd"))
        .collect();
    assert_eq!(sums.len(), 2, "a checksum line a thread file: {stderr}");
    format!(
        "# A manifest\n\n| date | made on | files | nodes | openings | commit | games | positions | W/D/L |\n|---|---|---|---|---|---|---|---|---|\n{row}\n\nSome prose.\n\n```text\n{}\n```\n",
        sums.join("\n")
    )
}

fn verify(dir: &Path, manifest: &Path) -> (i32, String, String) {
    threefold(&[
        "datagen",
        "--verify",
        dir.to_str().expect("utf-8"),
        "--manifest",
        manifest.to_str().expect("utf-8"),
    ])
}

#[test]
fn verify_checks_a_batch_against_the_row_and_checksums_datagen_printed() {
    let dir = scratch("verify");
    let data = dir.join("data");
    let batch = |games: &str| {
        threefold(&[
            "datagen",
            "--out",
            data.to_str().expect("utf-8"),
            "--threads",
            "2",
            "--seed",
            "5",
            "--games",
            games,
            "--nodes",
            "200",
            "--opening-nodes",
            "100",
        ])
    };
    let (code, _, stderr) = batch("4");
    assert_eq!(code, 0, "{stderr}");
    let manifest_text = manifest_from_stderr(&stderr);
    // The same command with --games 0 plays nothing and prints the same row and checksums (what
    // a run that was killed never printed).
    let (code, _, again) = batch("0");
    assert_eq!(code, 0, "{again}");
    assert!(
        again.contains("0 games and 0 positions this run"),
        "{again}"
    );
    assert_eq!(manifest_from_stderr(&again), manifest_text);
    let manifest = dir.join("DATA.md");
    std::fs::write(&manifest, &manifest_text).expect("manifest written");

    // The batch as datagen wrote it verifies.
    let (code, stdout, stderr) = verify(&data, &manifest);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("s5: 2 files, 4 games"), "{stdout}");
    assert!(stdout.contains("1 batch verified"), "{stdout}");

    // The checksum lines are sha256sum's own: `sha256sum -c` accepts them, file by file.
    let sums: String = manifest_text
        .lines()
        .filter(|l| l.len() > 66 && l.as_bytes()[64..66] == *b"  ")
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(sums.lines().count(), 2, "{manifest_text}");
    let sums_file = dir.join("SHA256SUMS");
    std::fs::write(&sums_file, &sums).expect("sums written");
    let checked = std::process::Command::new("sha256sum")
        .arg("-c")
        .arg(&sums_file)
        .current_dir(&data)
        .output()
        .expect("sha256sum runs (coreutils)");
    let said = String::from_utf8_lossy(&checked.stdout);
    assert!(checked.status.success(), "{said}");
    assert_eq!(said.matches(": OK").count(), 2, "{said}");

    // A row that counts one game more than the files hold.
    let games_cell = row_cell(&manifest_text, 7);
    let wrong = manifest_text.replacen(
        &format!("| {games_cell} |"),
        &format!("| {} |", games_cell + 1),
        1,
    );
    std::fs::write(&manifest, &wrong).expect("manifest written");
    let (code, stdout, stderr) = verify(&data, &manifest);
    assert_eq!(code, 2, "{stdout}");
    assert!(stdout.contains("the row says 5 games"), "{stdout}");
    assert!(stderr.contains("1 problems"), "{stderr}");
    std::fs::write(&manifest, &manifest_text).expect("manifest written");

    // One byte changed: the same length, the same counts, another checksum.
    let file = data.join(file_name(5, 1));
    let original = std::fs::read(&file).expect("data file");
    let mut changed = original.clone();
    let last = changed.len() - 1;
    changed[last] ^= 0x01;
    std::fs::write(&file, &changed).expect("file changed");
    let (code, stdout, _) = verify(&data, &manifest);
    assert_eq!(code, 2, "{stdout}");
    assert!(stdout.contains("s5-t1.tfd: sha256 differs"), "{stdout}");

    // A file cut short: a partial record, other counts, another checksum.
    std::fs::write(&file, &original[..original.len() - 3]).expect("file cut");
    let (code, stdout, _) = verify(&data, &manifest);
    assert_eq!(code, 2, "{stdout}");
    assert!(stdout.contains("s5-t1.tfd: sha256 differs"), "{stdout}");
    assert!(
        stdout.contains("partial") || stdout.contains("the files hold"),
        "{stdout}"
    );

    // A file missing from its batch, and a file the manifest does not know.
    std::fs::remove_file(&file).expect("file removed");
    std::fs::write(data.join("s9-t0.tfd"), &original).expect("stray file");
    let (code, stdout, _) = verify(&data, &manifest);
    assert_eq!(code, 2, "{stdout}");
    assert!(stdout.contains("s5-t1.tfd is missing"), "{stdout}");
    assert!(stdout.contains("s9-t0.tfd: no checksum line"), "{stdout}");
    assert!(stdout.contains("s9: no row"), "{stdout}");

    // No data at all, and no manifest, are errors too.
    let (code, _, stderr) = verify(&dir.join("nowhere"), &manifest);
    assert_eq!(code, 2, "{stderr}");
    let (code, _, stderr) = verify(&data, &dir.join("missing.md"));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("cannot read the manifest"), "{stderr}");
}

/// Cell `i` of the manifest's batch row, as a number.
fn row_cell(manifest: &str, i: usize) -> u64 {
    let row = manifest
        .lines()
        .find(|l| l.starts_with("| 20"))
        .expect("a batch row");
    row.split('|')
        .map(str::trim)
        .nth(i)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("cell {i} of {row}"))
}
