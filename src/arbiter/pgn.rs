//! Reads PGN with `pgn-reader` and judges each game as it streams past.

use std::io::{self, Read};
use std::ops::ControlFlow;

use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::{CastlingMode, Chess, Position};

use super::judge::{Judge, Verdict};
use crate::game::parse_fen_noting;

/// One game of the file and its verdict.
#[derive(Debug, Clone)]
pub struct GameRecord {
    /// The file the game was read from ("stdin" for standard input).
    pub file: String,
    /// 1 for the first game of its file.
    pub index: usize,
    pub tags: Vec<(String, String)>,
    pub verdict: Verdict,
}

impl GameRecord {
    /// The value of a tag, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A game's tags as read, in the file's order, with what its start position needs (the `FEN`
/// tag, a Chess960 `Variant`); shared by the arbiter, `threefold analyse` and the PGN
/// converter of `threefold datagen`.
#[derive(Debug, Default)]
pub struct GameTags {
    pub tags: Vec<(String, String)>,
    fen: Option<String>,
    chess960: bool,
}

impl GameTags {
    /// Records one tag.
    pub fn push(&mut self, name: &[u8], value: RawTag<'_>) {
        let name = String::from_utf8_lossy(name).into_owned();
        let value = value.decode_utf8_lossy().into_owned();
        match name.as_str() {
            "FEN" => self.fen = Some(value.clone()),
            "Variant" => self.chess960 |= is_chess960_variant(&value),
            _ => {}
        }
        self.tags.push((name, value));
    }

    /// The value of the first tag called `name`, if any.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The castling mode and the start position the tags give, with an error for a bad `FEN`
    /// tag (the standard start then stands in). The FEN is read as the engine reads it:
    /// impossible castling rights and en passant squares are dropped, as the programs that
    /// write such tags expect.
    pub fn start(&self) -> (CastlingMode, Chess, Option<String>) {
        let mode = if self.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        match &self.fen {
            None => (mode, Chess::default(), None),
            Some(text) => match parse_fen_noting(text, mode) {
                Ok(parsed) => (mode, parsed.position, None),
                Err(e) => (
                    mode,
                    Chess::default(),
                    Some(format!("bad FEN tag '{text}': {e}")),
                ),
            },
        }
    }
}

struct Movetext {
    tags: Vec<(String, String)>,
    judge: Judge,
    stopped: bool,
    /// A result token (`1-0`, `*`...) closed the movetext.
    outcome: bool,
}

struct ArbiterVisitor {
    file: String,
    games: usize,
    /// Stretches of text read as games that had no tags, no moves and no result.
    not_pgn: usize,
}

impl Visitor for ArbiterVisitor {
    type Tags = GameTags;
    type Movetext = Movetext;
    /// None for a stretch of text with no tags, no moves and no result: not a PGN game.
    type Output = Option<GameRecord>;

    fn begin_tags(&mut self) -> ControlFlow<Option<GameRecord>, GameTags> {
        ControlFlow::Continue(GameTags::default())
    }

    fn tag(
        &mut self,
        tags: &mut GameTags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Option<GameRecord>> {
        tags.push(name, value);
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: GameTags) -> ControlFlow<Option<GameRecord>, Movetext> {
        let (mode, start, error) = tags.start();
        let mut judge = Judge::new(start, mode);
        let stopped = error.is_some();
        if let Some(e) = error {
            judge.fail(e);
        }
        ControlFlow::Continue(Movetext {
            tags: tags.tags,
            judge,
            stopped,
            outcome: false,
        })
    }

    fn san(
        &mut self,
        movetext: &mut Movetext,
        san_plus: SanPlus,
    ) -> ControlFlow<Option<GameRecord>> {
        if movetext.stopped {
            return ControlFlow::Continue(());
        }
        match san_plus.san.to_move(movetext.judge.position()) {
            Ok(m) => movetext.judge.play(m, &san_plus.to_string()),
            // After checkmate or stalemate the game is over: whatever the scoresheet records
            // next is void.
            Err(_) if movetext.judge.position().legal_moves().is_empty() => {
                movetext.judge.play_void(&san_plus.to_string());
            }
            Err(_) => {
                let ply = movetext.judge.ply() + 1;
                movetext.judge.fail(format!("illegal move '{san_plus}' at ply {ply}; the game is judged up to the move before"));
                movetext.stopped = true;
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(
        &mut self,
        _movetext: &mut Movetext,
    ) -> ControlFlow<Option<GameRecord>, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(
        &mut self,
        movetext: &mut Movetext,
        _outcome: pgn_reader::Outcome,
    ) -> ControlFlow<Option<GameRecord>> {
        movetext.outcome = true;
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, movetext: Movetext) -> Option<GameRecord> {
        let verdict = movetext.judge.finish();
        if movetext.tags.is_empty()
            && !movetext.outcome
            && verdict.plies == 0
            && verdict.error.is_none()
        {
            self.not_pgn += 1;
            return None;
        }
        self.games += 1;
        Some(GameRecord {
            file: self.file.clone(),
            index: self.games,
            tags: movetext.tags,
            verdict,
        })
    }
}

/// Whether a PGN `Variant` tag names Chess960, as GUIs write it: "Chess960", "chess 960",
/// "960", Cute Chess's "fischerandom", "Fischer Random" (any case, spaces or dashes).
pub fn is_chess960_variant(value: &str) -> bool {
    let name: String = value
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    name.contains("960") || name == "fischerandom" || name == "fischerrandom"
}

/// Judges every game of a PGN stream, handing each record to `each` as soon as it is read;
/// the stream is named "stdin" in the records.
pub fn judge_games<R: Read>(input: R, each: impl FnMut(GameRecord)) -> io::Result<()> {
    judge_file("stdin", input, each)
}

/// Judges every game of the PGN file `name` (read from `input`); each record carries the
/// file's name and its number within that file. Input that is not PGN is an error
/// (`InvalidData`) once the games in it have been handed on: no game at all (an empty file,
/// or text without tags, moves or a result), or stretches of such text between games.
/// Known limit: inside a game, `pgn-reader` skips words it cannot read as moves.
pub fn judge_file<R: Read>(
    name: &str,
    input: R,
    mut each: impl FnMut(GameRecord),
) -> io::Result<()> {
    let mut reader = Reader::new(input);
    let mut visitor = ArbiterVisitor {
        file: name.to_owned(),
        games: 0,
        not_pgn: 0,
    };
    while let Some(record) = reader.read_game(&mut visitor)? {
        if let Some(record) = record {
            each(record);
        }
    }
    let not_pgn = |what: String| Err(io::Error::new(io::ErrorKind::InvalidData, what));
    match (visitor.games, visitor.not_pgn) {
        (0, 0) => not_pgn("no PGN game in it (empty)".to_owned()),
        (0, _) => not_pgn("not PGN (no tags, moves or result)".to_owned()),
        (_, 0) => Ok(()),
        (_, n) => not_pgn(format!(
            "{n} stretch(es) of text that are not PGN (no tags, moves or result) between the games"
        )),
    }
}
