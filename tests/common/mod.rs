//! Drives the built `threefold` binary over pipes, as a GUI would.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::{Duration, Instant};

use shakmaty::{Chess, Position};
use threefold::game::Game;

/// A running engine process.
pub struct Uci {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Uci {
    pub fn start() -> Uci {
        let mut child = Command::new(env!("CARGO_BIN_EXE_threefold"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("engine starts");
        let stdout = child.stdout.take().expect("stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Uci {
            child,
            stdin,
            lines: rx,
        }
    }

    /// A started engine that has answered `uci` with `uciok`.
    pub fn handshake() -> Uci {
        let mut e = Uci::start();
        e.send("uci");
        e.read_until(Duration::from_secs(5), |l| l == "uciok");
        e
    }

    pub fn send(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(text.as_bytes()).expect("write");
        if !text.ends_with('\n') {
            stdin.write_all(b"\n").expect("write");
        }
        stdin.flush().expect("flush");
    }

    /// Sends raw bytes (not necessarily UTF-8) as one line.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write");
        stdin.write_all(b"\n").expect("write");
        stdin.flush().expect("flush");
    }

    /// Closes stdin (end of input).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Reads lines until one satisfies `done`; returns all read, that one last.
    /// Panics after `timeout`.
    pub fn read_until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        match self.try_read_until(timeout, done) {
            Ok(seen) => seen,
            Err(why) => panic!("{why}"),
        }
    }

    /// As `read_until`, but a timeout or a closed stdout is an error rather than a panic.
    pub fn try_read_until(
        &mut self,
        timeout: Duration,
        done: impl Fn(&str) -> bool,
    ) -> Result<Vec<String>, String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let stop = done(&line);
                    seen.push(line);
                    if stop {
                        return Ok(seen);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("timed out after {timeout:?}; read {seen:#?}"));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("engine closed stdout; read {seen:#?}"));
                }
            }
        }
    }

    /// Reads until `bestmove`; returns the lines and the move text.
    pub fn bestmove(&mut self, timeout: Duration) -> (Vec<String>, String) {
        let lines = self.read_until(timeout, |l| l.starts_with("bestmove"));
        let last = lines.last().cloned().unwrap_or_default();
        let mv = last.split_whitespace().nth(1).unwrap_or("").to_owned();
        (lines, mv)
    }

    /// Lines that arrive within `wait` (no more expected).
    pub fn drain(&mut self, wait: Duration) -> Vec<String> {
        let mut seen = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(wait) {
            seen.push(line);
        }
        seen
    }

    /// Waits for the process to exit; true if it did within `timeout`.
    pub fn exited_within(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            thread::sleep(Duration::from_millis(10));
        }
        false
    }
}

impl Drop for Uci {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The position after `moves` from `fen` (or the start position).
pub fn position_after(fen: Option<&str>, moves: &[&str]) -> Chess {
    let start = fen.map_or_else(Chess::default, |f| {
        threefold::game::parse_fen(f).expect("fen")
    });
    let mut game = Game::new(start);
    for m in moves {
        game.play_uci(m).expect("legal test move");
    }
    game.position().clone()
}

/// True when `text` is a legal move in `pos`.
pub fn is_legal(pos: &Chess, text: &str) -> bool {
    threefold::game::parse_uci_move(pos, text).is_ok_and(|m| pos.is_legal(m))
}

/// The `count` words after the word `name` in the last `info depth` line with a score (not a
/// `currmove` report): `last_info_field(&lines, "wdl", 3)`.
pub fn last_info_field<'a>(lines: &'a [String], name: &str, count: usize) -> Vec<&'a str> {
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth") && l.contains(" score "))
        .expect("an info line with a score");
    let words: Vec<&str> = info.split(' ').collect();
    let at = words
        .iter()
        .position(|w| *w == name)
        .unwrap_or_else(|| panic!("no {name} in {info}"));
    words[at + 1..=at + count].to_vec()
}

/// The first iteration's line among a search's output.
pub fn first_iteration(lines: &[String]) -> &str {
    lines
        .iter()
        .find(|l| l.starts_with("info depth 1 "))
        .unwrap_or_else(|| panic!("no first iteration in {lines:?}"))
}

/// (rank, score in cp or None for a mate, first move) of each `info depth {depth}` line with a
/// `multipv` field.
pub fn multipv_lines(lines: &[String], depth: u32) -> Vec<(usize, Option<i32>, String)> {
    lines
        .iter()
        .filter(|l| l.starts_with(&format!("info depth {depth} ")) && l.contains(" multipv "))
        .map(|l| {
            let words: Vec<&str> = l.split(' ').collect();
            let after = |key: &str| words.iter().position(|w| *w == key).map(|i| words[i + 1]);
            let rank = after("multipv").and_then(|r| r.parse().ok()).expect("rank");
            let score = after("cp").and_then(|s| s.parse().ok());
            (rank, score, after("pv").expect("pv").to_owned())
        })
        .collect()
}

/// Runs the binary with `args` (a subcommand and its options), no input; its output.
pub fn run_cli_args(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_threefold"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}
