//! The one reading of a PGN file: every game's tags, start position, moves with what the record
//! says about them (comments, NAGs such as `!?`, variations), the moves it gives after a mate
//! (void), the first move that cannot be played, and the result token. The arbiter, `threefold
//! analyse` and `threefold datagen --from-pgn` all read through here, so a record reads the
//! same in each.
//!
//! Moves are read leniently (see [`super::lenient`] and [`super::san`]). A game stops at its
//! first move that is illegal in a position that has legal moves; words after a checkmate or
//! stalemate are kept as void (the game was over). A variation that reaches an illegal move
//! keeps the moves before it.
//!
//! ```
//! use threefold::record::read::read_text;
//! let games = read_text("[White \"A\"]\n1. e4 {best by test} e5 $1 (1... c5 2. Nf3) 2. Qh5 *\n")
//!     .unwrap();
//! let game = &games[0];
//! let moves = &game.main.moves;
//! assert_eq!(moves.len(), 3);
//! assert_eq!(moves[0].comments, ["best by test"]);
//! assert_eq!(moves[1].nags, [1]);
//! assert_eq!(moves[1].variations[0].moves.len(), 2);
//! ```

use std::fmt;
use std::io::{self, Read};
use std::ops::ControlFlow;

use pgn_reader::{Nag, Outcome, RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::{CastlingMode, Chess, Move, Position};

use super::lenient::Lenient;
use super::san::resolve;
use super::tags::{BadFen, GameTags, Tags};

/// One move of a record and what the record says about it.
#[derive(Debug, Clone)]
pub struct RecordedMove {
    pub mv: Move,
    /// The move as the record wrote it.
    pub written: String,
    /// Numeric annotation glyphs (`!` is 1, `?` is 2, `$14` is 14), in the record's order.
    pub nags: Vec<u8>,
    /// The comments after the move, without their braces.
    pub comments: Vec<String>,
    /// Lines the record gives instead of this move, from the position before it.
    pub variations: Vec<Line>,
}

/// A sequence of moves with the comments before its first move.
#[derive(Debug, Clone, Default)]
pub struct Line {
    pub comments: Vec<String>,
    pub moves: Vec<RecordedMove>,
}

/// Why a game could not be read to its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordError {
    /// The `FEN` tag is not a position the engine can play from (the standard start stands in).
    BadFen(BadFen),
    /// A move that is not legal in a position that has legal moves.
    IllegalMove { written: String, ply: usize },
    /// The `Variant` tag names a game other than chess: no move of it is read.
    Variant(String),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::BadFen(BadFen { fen, why }) => write!(f, "bad FEN tag '{fen}': {why}"),
            RecordError::IllegalMove { written, ply } => {
                write!(f, "illegal move '{written}' at ply {ply}")
            }
            RecordError::Variant(name) => {
                write!(f, "a game of {name} (its Variant tag), not chess: not read")
            }
        }
    }
}

/// One game as its record gives it.
#[derive(Debug, Clone)]
pub struct RecordedGame {
    /// The file it came from ("stdin" for standard input).
    pub file: String,
    /// 1 for the first game of its file.
    pub index: usize,
    /// Every tag, in the file's order.
    pub tags: Tags,
    pub mode: CastlingMode,
    /// The start position (the `FEN` tag's, or the standard one).
    pub start: Chess,
    /// The main line, up to the first illegal move; its comments are those before move one.
    pub main: Line,
    /// Words the record gives after the game ended in checkmate or stalemate.
    pub void: Vec<String>,
    pub error: Option<RecordError>,
    /// The result token that closed the movetext (`1-0`, `*`, ...), if any.
    pub outcome: Option<Outcome>,
}

impl RecordedGame {
    /// The main line's moves.
    pub fn moves(&self) -> Vec<Move> {
        self.main.moves.iter().map(|m| m.mv).collect()
    }
}

/// A line being read: its position now and the position before its last move (where a
/// variation of that move starts).
struct OpenLine {
    line: Line,
    pos: Chess,
    before_last: Option<Chess>,
    /// An illegal move ended it; the rest of it is skipped.
    closed: bool,
}

impl OpenLine {
    fn new(pos: Chess) -> OpenLine {
        OpenLine {
            line: Line::default(),
            pos,
            before_last: None,
            closed: false,
        }
    }
}

struct Movetext {
    game: RecordedGame,
    /// The main line first, then the variations being read, innermost last.
    open: Vec<OpenLine>,
}

impl Movetext {
    fn current(&mut self) -> &mut OpenLine {
        let last = self.open.len() - 1;
        &mut self.open[last]
    }

    fn in_main_line(&self) -> bool {
        self.open.len() == 1
    }
}

struct RecordVisitor {
    file: String,
    games: usize,
    /// Stretches of text read as games that had no tags, no moves and no result.
    not_pgn: usize,
}

impl Visitor for RecordVisitor {
    type Tags = GameTags;
    type Movetext = Movetext;
    /// None for a stretch of text with no tags, no moves and no result: not a PGN game.
    type Output = Option<RecordedGame>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, GameTags> {
        ControlFlow::Continue(GameTags::default())
    }

    fn tag(
        &mut self,
        tags: &mut GameTags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        tags.push(name, value);
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: GameTags) -> ControlFlow<Self::Output, Movetext> {
        let mode = tags.mode();
        let (start, error) = match (tags.other_variant(), tags.start()) {
            (Some(name), _) => (
                Chess::default(),
                Some(RecordError::Variant(name.to_string())),
            ),
            (None, Ok(start)) => (start, None),
            (None, Err(bad)) => (Chess::default(), Some(RecordError::BadFen(bad))),
        };
        let mut main = OpenLine::new(start.clone());
        main.closed = error.is_some();
        ControlFlow::Continue(Movetext {
            game: RecordedGame {
                file: self.file.clone(),
                index: 0,
                tags: tags.tags,
                mode,
                start,
                main: Line::default(),
                void: Vec::new(),
                error,
                outcome: None,
            },
            open: vec![main],
        })
    }

    fn san(&mut self, movetext: &mut Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        let main = movetext.in_main_line();
        let line = movetext.current();
        if line.closed {
            return ControlFlow::Continue(());
        }
        let written = san_plus.to_string();
        match resolve(&line.pos, &san_plus.san) {
            Some(m) => {
                line.before_last = Some(line.pos.clone());
                line.pos.play_unchecked(m);
                line.line.moves.push(RecordedMove {
                    mv: m,
                    written,
                    nags: Vec::new(),
                    comments: Vec::new(),
                    variations: Vec::new(),
                });
            }
            // After checkmate or stalemate the game is over: whatever the record gives next is
            // void.
            None if main && line.pos.legal_moves().is_empty() => movetext.game.void.push(written),
            None => {
                line.closed = true;
                if main {
                    let ply = line.line.moves.len() + 1;
                    movetext.game.error = Some(RecordError::IllegalMove { written, ply });
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn nag(&mut self, movetext: &mut Movetext, nag: Nag) -> ControlFlow<Self::Output> {
        let line = movetext.current();
        if !line.closed
            && let Some(last) = line.line.moves.last_mut()
        {
            last.nags.push(nag.0);
        }
        ControlFlow::Continue(())
    }

    fn comment(
        &mut self,
        movetext: &mut Movetext,
        comment: RawComment<'_>,
    ) -> ControlFlow<Self::Output> {
        let void = movetext.in_main_line() && !movetext.game.void.is_empty();
        let line = movetext.current();
        if line.closed || void {
            return ControlFlow::Continue(());
        }
        let text = String::from_utf8_lossy(comment.as_bytes())
            .trim()
            .to_string();
        match line.line.moves.last_mut() {
            Some(last) => last.comments.push(text),
            None => line.line.comments.push(text),
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, movetext: &mut Movetext) -> ControlFlow<Self::Output, Skip> {
        let line = movetext.current();
        // A variation replaces the last move read; without one (or past an illegal move, or
        // after the game's end) there is nothing it can start from.
        let from = match (&line.before_last, line.closed) {
            (Some(before), false) => before.clone(),
            _ => return ControlFlow::Continue(Skip(true)),
        };
        if movetext.in_main_line() && !movetext.game.void.is_empty() {
            return ControlFlow::Continue(Skip(true));
        }
        movetext.open.push(OpenLine::new(from));
        ControlFlow::Continue(Skip(false))
    }

    fn end_variation(&mut self, movetext: &mut Movetext) -> ControlFlow<Self::Output> {
        if movetext.open.len() > 1
            && let Some(variation) = movetext.open.pop()
            && let Some(parent) = movetext.current().line.moves.last_mut()
            && !variation.line.moves.is_empty()
        {
            parent.variations.push(variation.line);
        }
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, movetext: &mut Movetext, outcome: Outcome) -> ControlFlow<Self::Output> {
        movetext.game.outcome = Some(outcome);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, mut movetext: Movetext) -> Self::Output {
        // Variations left open by a record that ends inside one are dropped.
        movetext.open.truncate(1);
        let main = movetext
            .open
            .pop()
            .map(|open| open.line)
            .unwrap_or_default();
        let mut game = movetext.game;
        game.main = main;
        if game.tags.is_empty()
            && game.outcome.is_none()
            && game.main.moves.is_empty()
            && game.void.is_empty()
            && game.error.is_none()
        {
            self.not_pgn += 1;
            return None;
        }
        self.games += 1;
        game.index = self.games;
        Some(game)
    }
}

/// What reading a file found besides its games.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FileSummary {
    pub games: usize,
    /// Stretches of text with no tags, moves or result, read where a game should be.
    pub not_pgn: usize,
    /// The file held NUL bytes: binary data, whatever was read from it.
    pub binary: bool,
}

impl FileSummary {
    /// An error (`InvalidData`) when the file was not PGN: binary data, no game at all (an
    /// empty file, or text without tags, moves or a result), or stretches of such text between
    /// the games.
    pub fn check(self) -> io::Result<()> {
        let not_pgn = |what: String| Err(io::Error::new(io::ErrorKind::InvalidData, what));
        if self.binary {
            return not_pgn("binary data, not a PGN text".to_owned());
        }
        match (self.games, self.not_pgn) {
            (0, 0) => not_pgn("no PGN game in it (empty)".to_owned()),
            (0, _) => not_pgn("not PGN (no tags, moves or result)".to_owned()),
            (_, 0) => Ok(()),
            (_, n) => not_pgn(format!(
                "{n} stretch(es) of text that are not PGN (no tags, moves or result) between the games"
            )),
        }
    }
}

/// Reads every game of the PGN file `name` (read from `input`), handing each to `each` as soon
/// as it is read; `each` returns false to stop reading.
pub fn read_file<R: Read>(
    name: &str,
    input: R,
    mut each: impl FnMut(RecordedGame) -> bool,
) -> io::Result<FileSummary> {
    let lenient = Lenient::new(input);
    let binary = lenient.binary_flag();
    let mut reader = Reader::new(lenient);
    let mut visitor = RecordVisitor {
        file: name.to_owned(),
        games: 0,
        not_pgn: 0,
    };
    while let Some(game) = reader.read_game(&mut visitor)? {
        // Nothing read from binary data is a game, even where it held a result byte.
        if binary.get() {
            break;
        }
        if let Some(game) = game
            && !each(game)
        {
            break;
        }
    }
    Ok(FileSummary {
        games: visitor.games,
        not_pgn: visitor.not_pgn,
        binary: binary.get(),
    })
}

/// Reads all games of a PGN text (for tests and small inputs).
pub fn read_text(text: &str) -> io::Result<Vec<RecordedGame>> {
    let mut games = Vec::new();
    read_file("text", text.as_bytes(), |g| {
        games.push(g);
        true
    })?;
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> RecordedGame {
        let mut games = read_text(text).expect("reads");
        assert_eq!(games.len(), 1, "{text}");
        games.remove(0)
    }

    fn written(game: &RecordedGame) -> Vec<&str> {
        game.main.moves.iter().map(|m| m.written.as_str()).collect()
    }

    #[test]
    fn scoresheet_spellings_read_as_python_chess_reads_them() {
        // A capture without x, a false x, a promotion without =, squares joined by a hyphen.
        let game = one("1. e4 d5 2. ed5 Nxf6 3. Nc3 Nxd5 4. Nxd5 Qd5 5. Ng1-f3 Qd5-e4+ *");
        assert_eq!(game.error, None, "{:?}", written(&game));
        assert_eq!(game.main.moves.len(), 10);
        let game = one("[FEN \"8/4P3/8/8/8/8/k7/7K w - - 0 1\"]\n\n1. e8Q Ka1 2. Qa4# 1-0");
        assert_eq!(game.error, None);
        assert_eq!(
            game.main.moves[0].mv.promotion(),
            Some(shakmaty::Role::Queen)
        );
    }

    #[test]
    fn old_en_passant_marks_and_piece_moves_by_squares_read_as_the_moves_they_name() {
        // 5.exd6 takes en passant; written with the old mark joined or apart, the game goes on
        // with Black's reply, not a move read as White's.
        for spelling in ["exd6e.p.", "exd6ep", "exd6 e.p."] {
            let game = one(&format!(
                "1. e4 a6 2. e5 a5 3. a3 d5 4. {spelling} cxd6 5. g1f3 *"
            ));
            assert_eq!(game.error, None, "{spelling}: {:?}", written(&game));
            let uci: Vec<String> = game
                .moves()
                .iter()
                .map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string())
                .collect();
            assert_eq!(
                uci,
                [
                    "e2e4", "a7a6", "e4e5", "a6a5", "a2a3", "d7d5", "e5d6", "c7d6", "g1f3"
                ],
                "{spelling}"
            );
            assert!(game.main.moves[6].mv.is_en_passant(), "{spelling}");
        }
    }

    #[test]
    fn a_game_of_another_variant_is_refused_by_name() {
        for (tag, name) in [
            ("Three-check", "Three-check"),
            ("atomic", "Atomic"),
            ("Crazyhouse", "Crazyhouse"),
            ("Antichess", "Antichess"),
            ("Horde", "Horde"),
            ("Racing Kings", "Racing Kings"),
            ("King of the Hill", "King of the Hill"),
            ("Shogi", "Shogi"),
        ] {
            let game = one(&format!("[Variant \"{tag}\"]\n\n1. e4 e5 2. Qh5 Nc6 *"));
            assert_eq!(game.error, Some(RecordError::Variant(name.into())), "{tag}");
            assert!(game.main.moves.is_empty(), "{tag}");
            assert!(game.error.iter().any(|e| e.to_string().contains(name)));
        }
        // Chess under its other names is read as chess.
        for tag in ["Standard", "From Position", "chess 960", "wild/0"] {
            let game = one(&format!("[Variant \"{tag}\"]\n\n1. e4 e5 *"));
            assert_eq!(game.error, None, "{tag}");
            assert_eq!(game.main.moves.len(), 2, "{tag}");
        }
    }

    #[test]
    fn illegal_moves_stop_the_game_and_moves_after_mate_are_void() {
        let game = one("1. e4 e5 2. Ke3 Nc6 *");
        assert_eq!(
            game.error,
            Some(RecordError::IllegalMove {
                written: "Ke3".into(),
                ply: 3
            })
        );
        assert_eq!(game.main.moves.len(), 2);
        let game = one("1. f3 e5 2. g4 Qh4# 3. Kf2 {too late} 0-1");
        assert_eq!(game.error, None);
        assert_eq!(game.main.moves.len(), 4);
        assert_eq!(game.void, ["Kf2"]);
    }

    #[test]
    fn variations_nest_and_stop_at_their_own_illegal_move() {
        let game = one("1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) (1. Nf3 Ke7 2. g3) 1... e5 *");
        let first = &game.main.moves[0];
        assert_eq!(first.variations.len(), 2);
        assert_eq!(first.variations[0].moves.len(), 3);
        assert_eq!(first.variations[0].moves[1].variations[0].moves.len(), 2);
        // 1... Ke7 is illegal: the variation keeps 1. Nf3 only; the main line goes on.
        assert_eq!(first.variations[1].moves.len(), 1);
        assert_eq!(game.main.moves.len(), 2);
        assert_eq!(game.error, None);
    }

    #[test]
    fn text_that_is_not_pgn_is_told_apart() {
        let summary = read_file("x", "hello".as_bytes(), |_| true).expect("reads");
        assert!(summary.check().is_err());
        let summary = read_file("x", "".as_bytes(), |_| true).expect("reads");
        assert!(summary.check().is_err());
        let summary = read_file("x", "1. e4 *".as_bytes(), |_| true).expect("reads");
        assert_eq!(summary.check().ok(), Some(()));
        // A binary file that happens to hold a result byte.
        let summary = read_file("x", &b"\x00\x01*\x7f\x00"[..], |_| true).expect("reads");
        assert!(summary.check().is_err());
    }
}
