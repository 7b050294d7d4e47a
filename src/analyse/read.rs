//! Reads the games to analyse from PGN: tags, start position and main-line moves. A game with
//! an illegal move keeps the moves before it and says why it stops (as `threefold arbiter`).

use std::io::{self, Read};
use std::ops::ControlFlow;

use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::{Chess, Move, Position};

use crate::arbiter::pgn::GameTags;

/// One game as read from its file.
#[derive(Debug, Clone)]
pub struct GameInput {
    /// The file it came from ("stdin" for standard input).
    pub file: String,
    /// 1 for the first game of its file.
    pub index: usize,
    /// Every tag, in the file's order.
    pub tags: Vec<(String, String)>,
    /// The start position (the FEN tag's, or the standard one).
    pub start: Chess,
    /// The main line, up to the first illegal move.
    pub moves: Vec<Move>,
    /// Why the game could not be read to its end (bad FEN tag, illegal move).
    pub error: Option<String>,
}

impl GameInput {
    /// The value of a tag, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

struct Movetext {
    game: GameInput,
    pos: Chess,
    stopped: bool,
}

struct GameVisitor {
    file: String,
    games: usize,
}

impl Visitor for GameVisitor {
    type Tags = GameTags;
    type Movetext = Movetext;
    type Output = GameInput;

    fn begin_tags(&mut self) -> ControlFlow<GameInput, GameTags> {
        ControlFlow::Continue(GameTags::default())
    }

    fn tag(
        &mut self,
        tags: &mut GameTags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<GameInput> {
        tags.push(name, value);
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: GameTags) -> ControlFlow<GameInput, Movetext> {
        self.games += 1;
        let (_, start, error) = tags.start();
        let stopped = error.is_some();
        ControlFlow::Continue(Movetext {
            game: GameInput {
                file: self.file.clone(),
                index: self.games,
                tags: tags.tags,
                start: start.clone(),
                moves: Vec::new(),
                error,
            },
            pos: start,
            stopped,
        })
    }

    fn san(&mut self, movetext: &mut Movetext, san_plus: SanPlus) -> ControlFlow<GameInput> {
        if movetext.stopped {
            return ControlFlow::Continue(());
        }
        match san_plus.san.to_move(&movetext.pos) {
            Ok(m) => {
                movetext.pos.play_unchecked(m);
                movetext.game.moves.push(m);
            }
            Err(_) => {
                let ply = movetext.game.moves.len() + 1;
                movetext.game.error = Some(format!(
                    "illegal move '{san_plus}' at ply {ply}; the game is analysed up to the move before"
                ));
                movetext.stopped = true;
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _movetext: &mut Movetext) -> ControlFlow<GameInput, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn end_game(&mut self, movetext: Movetext) -> GameInput {
        movetext.game
    }
}

/// Reads every game of the PGN `input` (named `name` in messages), handing each to `each` as
/// soon as it is read; `each` returns false to stop reading.
pub fn read_games<R: Read>(
    name: &str,
    input: R,
    mut each: impl FnMut(GameInput) -> bool,
) -> io::Result<()> {
    let mut reader = Reader::new(input);
    let mut visitor = GameVisitor {
        file: name.to_owned(),
        games: 0,
    };
    while let Some(game) = reader.read_game(&mut visitor)? {
        if !each(game) {
            break;
        }
    }
    Ok(())
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
