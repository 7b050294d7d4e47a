//! The UCI front end: a reader thread, the command loop, options and output.
//!
//! ```text
//! stdin -> reader thread -> channel -> Engine loop -> search thread -> stdout (info, bestmove)
//! ```
//! The loop never waits for the search: `isready`, `stop` and `ponderhit` are answered at once.

pub mod command;
mod engine;
pub mod options;
pub mod output;
mod reader;
pub mod report;

pub use engine::Engine;

/// Name and author announced by `uci`.
pub const ENGINE_NAME: &str = concat!("Threefold ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the Threefold developers";

/// Runs the engine on stdin/stdout until `quit` or end of input.
pub fn run() {
    let input = reader::spawn();
    Engine::new().run(&input);
}
