//! `threefold datagen ...`: self-play training data for the network, and the tools around a
//! batch of it. The record format is the floor's ([`crate::data`]), the games are
//! [`crate::selfplay`]'s.
//!
//! - `generator.rs`: the multi-threaded, seeded, resumable generator;
//! - `stats.rs`: `--stats` and `--dump`, data read back;
//! - `manifest.rs`: `--verify`, the files of a directory against the data manifest;
//! - `pgn.rs`: `--from-pgn`, PGNs with engine scores in comments to records;
//! - `command.rs`: the command line.

pub mod command;
pub mod generator;
pub mod manifest;
pub mod pgn;
pub mod stats;

/// The git commit the binary was built from (`+dirty` with uncommitted changes).
pub const ENGINE_COMMIT: &str = env!("THREEFOLD_COMMIT");
