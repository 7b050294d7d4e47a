//! The games to analyse, read from PGN through the house's one reading of records
//! ([`crate::record`]): tags, start position and main-line moves. A game with an illegal move
//! keeps the moves before it and says why it stops; moves after a mate are void, as in
//! `threefold arbiter`.

use std::io::{self, Read};

use shakmaty::{Chess, Move};

use crate::record::tags::Tags;
use crate::record::{Line, RecordError, RecordedGame, read_file};

/// One game as read from its file.
#[derive(Debug, Clone)]
pub struct GameInput {
    /// The file it came from ("stdin" for standard input).
    pub file: String,
    /// 1 for the first game of its file.
    pub index: usize,
    /// Every tag, in the file's order.
    pub tags: Tags,
    /// The start position (the FEN tag's, or the standard one).
    pub start: Chess,
    /// The main line, up to the first illegal move.
    pub moves: Vec<Move>,
    /// Why the game could not be read to its end (bad FEN tag, illegal move).
    pub error: Option<String>,
    /// What the record says about the main line (comments such as `[%clk]`, NAGs, variations),
    /// kept beside the engine's annotations; empty for a game not read from a record.
    pub recorded: Line,
}

impl GameInput {
    /// The game a record gives, as analysis needs it.
    fn from_record(game: RecordedGame) -> GameInput {
        let moves = game.moves();
        let error = game.error.as_ref().map(|e| match e {
            RecordError::IllegalMove { .. } => {
                format!("{e}; the game is analysed up to the move before")
            }
            RecordError::BadFen(_) | RecordError::Variant(_) => e.to_string(),
        });
        GameInput {
            file: game.file,
            index: game.index,
            tags: game.tags,
            start: game.start,
            moves,
            error,
            recorded: game.main,
        }
    }
}

/// Reads every game of the PGN `input` (named `name` in messages), handing each to `each` as
/// soon as it is read; `each` returns false to stop reading. Input that is not PGN is an
/// error (`InvalidData`) once the games in it have been handed on, as in the arbiter.
pub fn read_games<R: Read>(
    name: &str,
    input: R,
    mut each: impl FnMut(GameInput) -> bool,
) -> io::Result<()> {
    let mut stopped = false;
    let summary = read_file(name, input, |game| {
        stopped = !each(GameInput::from_record(game));
        !stopped
    })?;
    if stopped { Ok(()) } else { summary.check() }
}

/// Reads all games of a PGN text (for tests and small inputs).
pub fn parse_games(text: &str) -> io::Result<Vec<GameInput>> {
    let mut games = Vec::new();
    read_games("text", text.as_bytes(), |g| {
        games.push(g);
        true
    })?;
    Ok(games)
}
