//! The UCI front end: a reader thread, the command loop, options and output.
//!
//! ```text
//! stdin -> reader thread -> channel -> Engine loop -> search thread -> stdout (info, bestmove)
//! ```
//! The loop never waits for the search: `isready`, `stop` and `ponderhit` are answered at once.

pub mod command;
mod debug;
mod engine;
pub mod options;
pub mod output;
mod reader;
pub mod report;
pub mod wdl;

pub use engine::Engine;

/// Name and author announced by `uci`.
pub const ENGINE_NAME: &str = concat!("Threefold ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the Threefold developers";

/// Runs each of `commands` as an input line, in order, then ends as at the end of input (a
/// bounded search finishes and answers). Stops at `quit`. For `threefold "cmd 1" "cmd 2"`.
pub fn run_commands(commands: &[String]) {
    let (tx, rx) = crossbeam_channel::unbounded();
    for line in commands {
        let _ = tx.send(reader::Input::Line(line.clone()));
    }
    let _ = tx.send(reader::Input::End);
    Engine::new().run(&rx);
}

/// Runs the engine on stdin/stdout until `quit` or end of input.
pub fn run() {
    let input = reader::spawn();
    Engine::new().run(&input);
}
