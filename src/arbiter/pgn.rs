//! Judges each game of a PGN file as it streams past, read through the house's one reading of
//! records ([`crate::record`]).

use std::io::{self, Read};

use super::judge::{Judge, Verdict};
use crate::record::tags::Tags;
use crate::record::{RecordError, RecordedGame, read_file};

/// One game of the file and its verdict.
#[derive(Debug, Clone)]
pub struct GameRecord {
    /// The file the game was read from ("stdin" for standard input).
    pub file: String,
    /// 1 for the first game of its file.
    pub index: usize,
    pub tags: Tags,
    pub verdict: Verdict,
}

/// Judges every game of a PGN stream, handing each record to `each` as soon as it is read;
/// the stream is named "stdin" in the records.
pub fn judge_games<R: Read>(input: R, each: impl FnMut(GameRecord)) -> io::Result<()> {
    judge_file("stdin", input, each)
}

/// Judges every game of the PGN file `name` (read from `input`); each record carries the
/// file's name and its number within that file. Input that is not PGN is an error
/// (`InvalidData`) once the games in it have been handed on (see
/// [`crate::record::FileSummary::check`]).
pub fn judge_file<R: Read>(
    name: &str,
    input: R,
    mut each: impl FnMut(GameRecord),
) -> io::Result<()> {
    let summary = read_file(name, input, |game| {
        each(judge(game));
        true
    })?;
    summary.check()
}

/// A game read from its record, judged move by move.
fn judge(game: RecordedGame) -> GameRecord {
    let mut judge = Judge::new(game.start.clone(), game.mode);
    if let Some(error @ (RecordError::BadFen(_) | RecordError::Variant(_))) = &game.error {
        judge.fail(error.to_string());
    }
    for m in &game.main.moves {
        judge.play(m.mv, &m.written);
    }
    for written in &game.void {
        judge.play_void(written);
    }
    if let Some(error @ RecordError::IllegalMove { .. }) = &game.error {
        judge.fail(format!("{error}; the game is judged up to the move before"));
    }
    GameRecord {
        file: game.file,
        index: game.index,
        tags: game.tags,
        verdict: judge.finish(),
    }
}
