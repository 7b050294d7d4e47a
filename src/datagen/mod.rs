//! Training data for an NNUE evaluation (issue 24, part 1), `threefold datagen ...`:
//!
//! - `format.rs`: the binary game records (a packed start position and result, then 4 bytes
//!   per move: move and White-relative score), their reader and the default quiet filter;
//! - `selfplay.rs`: one self-play game under the engine's draw rules and adjudication (shared
//!   with `threefold tune generate`);
//! - `openings.rs`: book and random-move openings, and OpenBench's `genfens`;
//! - `run.rs`: the multi-threaded, seeded, resumable generator;
//! - `stats.rs`: `--stats`, a summary of data read back;
//! - `manifest.rs`: `--verify`, the files of a directory against the data manifest;
//! - `pgn.rs`: `--from-pgn`, PGNs with engine scores in comments to records;
//! - `command.rs`: the command line.

pub mod command;
pub mod format;
pub mod manifest;
pub mod openings;
pub mod pgn;
pub mod run;
pub mod selfplay;
pub mod stats;

/// The git commit the binary was built from (`+dirty` with uncommitted changes).
pub const ENGINE_COMMIT: &str = env!("THREEFOLD_COMMIT");
