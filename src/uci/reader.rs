//! The stdin reader thread: forwards every line to the engine loop, then end of input.

use std::io::BufRead;
use std::thread;

use crossbeam_channel::{Receiver, unbounded};

/// What the reader sends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Line(String),
    EndOfInput,
}

/// Starts the reader; lines that are not UTF-8 are read lossily rather than dropped.
pub fn spawn() -> Receiver<Input> {
    let (tx, rx) = unbounded();
    let spawned = thread::Builder::new()
        .name("uci-reader".into())
        .spawn(move || {
            let stdin = std::io::stdin();
            let mut lock = stdin.lock();
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match lock.read_until(b'\n', &mut buf) {
                    Ok(0) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).into_owned();
                        if tx.send(Input::Line(line)).is_err() {
                            return;
                        }
                    }
                    Err(e) => {
                        log::error!("reading stdin failed: {e}");
                        break;
                    }
                }
            }
            let _ = tx.send(Input::EndOfInput);
        });
    if let Err(e) = spawned {
        log::error!("cannot start the input thread: {e}");
    }
    rx
}
