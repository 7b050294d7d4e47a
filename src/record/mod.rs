//! Game records: PGN as players, GUIs and old scoresheets write it, read once for every tool
//! that reads games (the arbiter, `threefold analyse`, `threefold datagen --from-pgn`), so that
//! a record reads the same in each.
//!
//! - `tags.rs`: a game's tags and the start position they give;
//! - `lenient.rs`: movetext spellings `pgn-reader` does not take (`e8Q`, `Ng1-f3`) rewritten;
//! - `san.rs`: a written move resolved to a legal move, the capture mark not insisted on;
//! - `notation.rs`: moves and lines written for readers (SAN with move numbers);
//! - `read.rs`: the games of a file: moves with their comments, NAGs and variations, void
//!   moves after a mate, the first illegal move, and whether the file was PGN at all.

pub mod lenient;
pub mod notation;
pub mod read;
pub mod san;
pub mod tags;

pub use read::{FileSummary, Line, RecordError, RecordedGame, RecordedMove, read_file, read_text};
