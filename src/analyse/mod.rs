//! `threefold analyse`: annotates games with the engine, along each game's real history.
//!
//! Every position is searched with the moves before it, so repetitions and the fifty-move
//! clock count as they did in the game. Per move: the evaluation, the best move and its line,
//! the played move's evaluation and its class (`??`, `?`, `?!`). Verdicts with their evidence
//! line: a missed perpetual or repetition, a draw let in while winning, a claim that was open,
//! and where a forced draw arises.
//!
//! - `read.rs`: the games from PGN;
//! - `study.rs`: the analysis of one game and its verdicts;
//! - `marks.rs`: the move marks, by lichess's curve and thresholds;
//! - `notation.rs`: moves, lines and scores as text;
//! - `write.rs`: annotated PGN and JSON;
//! - `command.rs`: the command line, the games in parallel, the output in input order.
//!
//! A tool like `uci`, it stands on the floors below it (the record reader, the search and its
//! score form), not on another tool: a score reads the same in a GUI and in an annotated game
//! because both take it from `search::score`.

pub mod command;
pub mod marks;
pub mod notation;
pub mod read;
pub mod study;
pub mod write;

pub use command::run;
