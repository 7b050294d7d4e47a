//! The NNUE trainer and inference: `threefold train` end to end on
//! a tiny data set written here (the net it writes loads and evaluates; a checkpoint resumes),
//! its refusals of bad input, and (ignored, run by hand) the inference speed against the
//! hand-written evaluation.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use shakmaty::{Chess, Move, Position};
use threefold::data::format::{GameRecord, GameResult, white_relative};
use threefold::eval::evaluate;
use threefold::eval::nnue::{
    Accumulator, Changes, DEFAULT_QA, DEFAULT_QB, INPUTS, InputLayout, Network, NetworkParts,
    evaluate as nnue_eval, evaluate_position, simd,
};
use threefold::rng::Rng;

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("nnue-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn threefold(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_threefold"))
        .args(args)
        .output()
        .expect("the binary runs");
    assert!(out.stdout.is_empty(), "train writes nothing to stdout");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Random games, each move scored by the hand-written evaluation; the result by the final
/// evaluation.
fn random_games(games: usize, plies: usize, seed: u64) -> Vec<(Vec<(Chess, Move)>, Chess)> {
    let mut rng = Rng::new(seed);
    (0..games)
        .map(|_| {
            let mut pos = Chess::default();
            let mut line = Vec::new();
            for _ in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len() as u64) as usize];
                line.push((pos.clone(), m));
                pos.play_unchecked(m);
            }
            (line, pos)
        })
        .collect()
}

fn write_data(dir: &Path, games: usize) {
    let mut bytes = Vec::new();
    for (line, end) in random_games(games, 40, 17) {
        let white_eval = i32::from(white_relative(evaluate(&end), end.turn()));
        let result = match white_eval {
            e if e > 200 => GameResult::WhiteWins,
            e if e < -200 => GameResult::BlackWins,
            _ => GameResult::Draw,
        };
        let record = GameRecord {
            start: Chess::default(),
            moves: line
                .iter()
                .map(|(pos, m)| (*m, white_relative(evaluate(pos), pos.turn())))
                .collect(),
            result,
        };
        bytes.extend_from_slice(&record.to_bytes());
    }
    std::fs::write(dir.join("s9-t0.tfd"), &bytes).expect("writes");
    // A record cut short, as a file being written looks: read up to it, with a warning.
    bytes.truncate(bytes.len() - 7);
    std::fs::write(dir.join("s9-t1.tfd"), &bytes).expect("writes");
}

#[test]
fn train_writes_a_net_that_loads_and_resumes_from_its_checkpoint() {
    let dir = scratch("train");
    write_data(&dir, 60);
    let out = dir.join("tiny.nnue");
    let (data, out_text) = (dir.to_string_lossy(), out.to_string_lossy());
    let common = [
        "train",
        "--data",
        &data,
        "--out",
        &out_text,
        "--hidden",
        "16",
        "--batch",
        "256",
        "--threads",
        "2",
        "--lr",
        "0.003",
    ];
    let run = |extra: &[&str]| {
        let mut args = common.to_vec();
        args.extend_from_slice(extra);
        threefold(&args)
    };
    let (code, stderr) = run(&["--epochs", "2", "--buckets", "4"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("epoch 2/2"), "{stderr}");
    assert!(stderr.contains("validation loss"), "{stderr}");
    let net = Network::from_bytes(&std::fs::read(&out).expect("the net")).expect("loads");
    assert_eq!((net.hidden(), net.buckets()), (16, 4));
    let pos = Chess::default();
    let score = evaluate_position(&net, &pos);
    assert!(score.abs() < 1000, "{score}");

    // The same run with another output scale writes the same weights (training is
    // deterministic) under that scale: only the header's scale differs.
    let first = std::fs::read(&out).expect("the net");
    let (code, stderr) = run(&["--epochs", "2", "--buckets", "4", "--output-scale", "200"]);
    assert_eq!(code, 0, "{stderr}");
    let second = std::fs::read(&out).expect("the net");
    let rescaled = Network::from_bytes(&second).expect("loads");
    assert_eq!((net.scale(), rescaled.scale()), (400, 200));
    assert_eq!((&first[..20], &first[24..]), (&second[..20], &second[24..]));

    let (code, stderr) = run(&["--epochs", "3", "--resume", "--buckets", "4"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("resuming") && stderr.contains("epoch 3/3"),
        "{stderr}"
    );
    assert!(!stderr.contains("epoch 1/3"), "{stderr}");

    // A checkpoint of other sizes is refused before any data is read.
    let (code, stderr) = run(&["--epochs", "4", "--resume", "--buckets", "8"]);
    assert_ne!(code, 0, "{stderr}");
    assert!(stderr.contains("hidden size 16 and 4 buckets"), "{stderr}");

    // Mirrored inputs: a version 3 file that says so, and a checkpoint that remembers it.
    let (code, stderr) = run(&["--epochs", "1", "--buckets", "4", "--mirror"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("mirrored inputs"), "{stderr}");
    let bytes = std::fs::read(&out).expect("the net");
    assert_eq!(bytes[4], 3);
    let mirrored = Network::from_bytes(&bytes).expect("loads");
    assert_eq!(mirrored.layout(), InputLayout::Mirrored);
    let (code, stderr) = run(&["--epochs", "2", "--resume", "--buckets", "4"]);
    assert_ne!(code, 0, "{stderr}");
    assert!(stderr.contains("give --mirror"), "{stderr}");
    let (code, stderr) = run(&["--epochs", "2", "--resume", "--buckets", "4", "--mirror"]);
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn train_refuses_bad_input_with_a_message() {
    let dir = scratch("refusals");
    let garbage = dir.join("garbage.tfd");
    std::fs::write(&garbage, [0xffu8; 40]).expect("writes");
    let garbage = garbage.to_string_lossy().into_owned();
    let missing = dir.join("missing").to_string_lossy().into_owned();
    let out = dir.join("x.nnue").to_string_lossy().into_owned();
    for (args, expected) in [
        (vec!["train"], "--data"),
        (vec!["train", "--data", &garbage], "--out"),
        (
            vec!["train", "--data", &missing, "--out", &out],
            "neither a file nor a directory",
        ),
        (vec!["train", "--data", &garbage, "--out", &out], "corrupt"),
        (
            vec!["train", "--data", &garbage, "--out", &out, "--hidden", "17"],
            "multiple of 16",
        ),
        (
            vec!["train", "--data", &garbage, "--out", &out, "--buckets", "0"],
            "--buckets must be from 1 to 16",
        ),
        (
            vec!["train", "--data", &garbage, "--out", &out, "--epochs", "x"],
            "invalid value",
        ),
        (
            vec!["train", "--data", &garbage, "--out", &out, "--wdl", "2"],
            "--wdl",
        ),
        (
            vec![
                "train",
                "--data",
                &garbage,
                "--out",
                &out,
                "--output-scale",
                "0",
            ],
            "--output-scale must be from 1 to 10000",
        ),
        (
            vec![
                "train",
                "--data",
                &garbage,
                "--out",
                &out,
                "--wdl-endgame",
                "1.5",
            ],
            "--wdl-endgame",
        ),
        (
            vec!["train", "--data", &garbage, "--out", &out, "--bogus", "1"],
            "unexpected argument",
        ),
        (
            vec!["train", "--data", &garbage, "--out", &out, "--resume"],
            "cannot read",
        ),
    ] {
        let (code, stderr) = threefold(&args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}

fn random_network(hidden: usize, seed: u64) -> Network {
    let mut rng = Rng::new(seed);
    let mut range = |r: u64| (rng.below(2 * r + 1) as i64 - r as i64) as i16;
    Network::from_parts(NetworkParts {
        hidden,
        buckets: 8,
        layout: InputLayout::Plain,
        qa: DEFAULT_QA,
        qb: DEFAULT_QB,
        scale: 400,
        feature_weights: (0..INPUTS * hidden).map(|_| range(60)).collect(),
        feature_biases: (0..hidden).map(|_| range(100)).collect(),
        output_weights: (0..2 * hidden * 8).map(|_| range(127)).collect(),
        output_biases: vec![0; 8],
    })
    .expect("valid")
}

/// Evaluations per second: refreshed accumulators (into one allocated beforehand), incremental updates along games (one
/// update and one evaluation a move), and the hand-written evaluation, each with and without
/// the AVX2 kernels. `cargo test --release --test nnue -- --ignored --nocapture`.
#[test]
#[ignore]
fn inference_speed() {
    let games = random_games(200, 80, 5);
    let positions: usize = games.iter().map(|(line, _)| line.len()).sum();
    let rounds = 5;
    let rate = |started: Instant| (positions * rounds) as f64 / started.elapsed().as_secs_f64();
    let started = Instant::now();
    let mut sink = 0i64;
    for _ in 0..rounds {
        for (line, _) in &games {
            for (pos, _) in line {
                sink += i64::from(evaluate(pos));
            }
        }
    }
    println!("hand-written eval::evaluate: {:.0} evals/s", rate(started));
    for hidden in [64, 256] {
        let net = random_network(hidden, 1);
        for avx2 in [true, false] {
            simd::allow_avx2(avx2);
            let label = format!(
                "N={hidden} {}",
                if simd::uses_avx2() { "avx2" } else { "plain" }
            );
            let started = Instant::now();
            let mut acc = Accumulator::new(&net);
            for _ in 0..rounds {
                for (line, _) in &games {
                    for (pos, _) in line {
                        acc.refresh(&net, pos);
                        sink += i64::from(nnue_eval(&net, &acc, pos));
                    }
                }
            }
            println!("{label} refresh + evaluate: {:.0} evals/s", rate(started));
            let started = Instant::now();
            let mut stack = [Accumulator::new(&net), Accumulator::new(&net)];
            for _ in 0..rounds {
                for (line, _) in &games {
                    stack[0].refresh(&net, &line[0].0);
                    for pair in line.windows(2) {
                        let ((pos, m), (next, _)) = (&pair[0], &pair[1]);
                        let [parent, child] = &mut stack;
                        child.update(parent, &net, &Changes::of_move(pos, *m));
                        sink += i64::from(nnue_eval(&net, child, next));
                        stack.swap(0, 1);
                    }
                }
            }
            println!("{label} update + evaluate: {:.0} evals/s", rate(started));
        }
        simd::allow_avx2(true);
    }
    println!("({positions} positions x {rounds}; checksum {sink})");
}

/// The kernels alone: the dot product's AVX2 version against the plain loop (alternating, to
/// share the machine's load fairly), and the row update.
/// `cargo test --release --test nnue -- --ignored --nocapture kernel_speed`.
#[test]
#[ignore]
fn kernel_speed() {
    let mut rng = Rng::new(3);
    for hidden in [64usize, 256] {
        let values: Vec<i16> = (0..hidden).map(|_| rng.below(600) as i16 - 100).collect();
        let weights: Vec<i16> = (0..hidden).map(|_| rng.below(255) as i16 - 127).collect();
        let rows: Vec<Vec<i16>> = (0..3)
            .map(|_| (0..hidden).map(|_| rng.below(200) as i16 - 100).collect())
            .collect();
        let calls = 20_000_000 / hidden;
        let mut best = [f64::MAX; 3];
        let mut sink = 0i64;
        for _ in 0..5 {
            for (k, avx2) in [true, false].into_iter().enumerate() {
                simd::allow_avx2(avx2);
                let started = Instant::now();
                for i in 0..calls {
                    sink += i64::from(simd::screlu_dot(&values, &weights, 255)) ^ i as i64;
                }
                best[k] = best[k].min(started.elapsed().as_secs_f64());
            }
            let mut out = vec![0i16; hidden];
            let started = Instant::now();
            for _ in 0..calls {
                simd::add_sub(&mut out, &rows[0], &rows[1], &rows[2]);
                sink += i64::from(out[hidden / 2]);
            }
            best[2] = best[2].min(started.elapsed().as_secs_f64());
        }
        simd::allow_avx2(true);
        let ns = |seconds: f64| seconds * 1e9 / calls as f64;
        println!(
            "N={hidden} screlu_dot: avx2 {:.1} ns, plain {:.1} ns a call (plain/avx2 {:.1}); add_sub {:.1} ns (best of 5; checksum {sink})",
            ns(best[0]),
            ns(best[1]),
            best[1] / best[0],
            ns(best[2])
        );
    }
}

/// Every net in `nnue/` (the built-in net 16 and net 12 before it, both with 256 hidden neurons
/// and 8 output buckets, trained on Threefold's self-play; the older nets are in the history,
/// listed in `nnue/NETS.md`) is a valid file of the documented shape, as wide as its name says,
/// that tells positions apart.
#[test]
fn the_committed_nets_load() {
    let nets: [(&[u8], usize, usize); 2] = [
        (include_bytes!("../nnue/net12-h256b8.nnue"), 256, 8),
        (include_bytes!("../nnue/net16-h256b8.nnue"), 256, 8),
    ];
    for (bytes, hidden, buckets) in nets {
        let net = Network::from_bytes(bytes).expect("loads");
        assert_eq!(
            (net.hidden(), net.buckets(), net.qa(), net.qb(), net.scale()),
            (hidden, buckets, 255, 64, 400)
        );
        let scores: Vec<i32> = random_games(4, 30, 2)
            .iter()
            .flat_map(|(line, _)| line.iter().map(|(pos, _)| evaluate_position(&net, pos)))
            .collect();
        assert!(scores.iter().any(|&s| s != scores[0]), "{scores:?}");
    }
}
