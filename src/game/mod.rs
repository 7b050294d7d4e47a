//! The game being played: where it started, the moves since, and the key of every position.
//!
//! The UCI `position` command builds a [`Game`]. The search takes from it the keys since the
//! last irreversible move, so repetitions of positions before the search root are seen.

mod check;
mod key;
mod material;
pub mod rules;

pub use check::gives_check;
pub use key::{key_after, position_key};
pub use material::is_dead_by_material;
pub use rules::{AutomaticEnd, Claims};

use std::fmt;

use shakmaty::{
    CastlingMode, Chess, Color, EnPassantMode, File, FromSetup, Move, Position, PositionError,
    Square, fen::Fen, uci::UciMove,
};

/// Why a FEN could not become a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenError {
    /// The text is not FEN at all (wrong fields, bad characters).
    Syntax(String),
    /// The text is FEN, but the position cannot occur (no king, side not to move in check...).
    Illegal(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Syntax(why) => write!(f, "malformed FEN ({why})"),
            FenError::Illegal(why) => write!(f, "impossible position in FEN ({why})"),
        }
    }
}

/// Why a move in UCI notation could not be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveError {
    /// Not UCI move notation (like `e2e4`, `e7e8q`).
    Malformed(String),
    /// Well-formed, but not a legal move in the position.
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Malformed(text) => write!(f, "malformed move '{text}'"),
            MoveError::Illegal(text) => write!(f, "illegal move '{text}'"),
        }
    }
}

/// Parses a FEN into a standard chess position.
pub fn parse_fen(text: &str) -> Result<Chess, FenError> {
    parse_fen_in(text, CastlingMode::Standard)
}

/// Parses a FEN in a castling mode; Chess960 also takes Shredder-FEN (`HAha`) and X-FEN
/// castling rights. In standard mode, rights that only Chess960 allows are refused with a hint.
/// Impossible castling rights and en passant squares are dropped, as other programs do (see
/// [`parse_fen_noting`] for what was dropped).
pub fn parse_fen_in(text: &str, mode: CastlingMode) -> Result<Chess, FenError> {
    parse_fen_noting(text, mode).map(|parsed| parsed.position)
}

/// A position read from a FEN, and what of the FEN had to be dropped to get it.
#[derive(Debug, Clone)]
pub struct ParsedFen {
    pub position: Chess,
    /// Castling rights or an en passant square the position cannot have, dropped as other
    /// programs (Stockfish, python-chess) drop them; None when nothing was dropped.
    pub dropped: Option<String>,
}

/// Parses a FEN as [`parse_fen_in`] does, and says what was dropped. Move counters that do not
/// fit (a halfmove clock or fullmove number above 4294967295) are refused, not saturated.
pub fn parse_fen_noting(text: &str, mode: CastlingMode) -> Result<ParsedFen, FenError> {
    let text = text.trim();
    check_counters(text)?;
    let fen: Fen = text.parse().map_err(|e| FenError::Syntax(format!("{e}")))?;
    let error = match fen.clone().into_position::<Chess>(mode) {
        Ok(position) => {
            return Ok(ParsedFen {
                position,
                dropped: None,
            });
        }
        Err(error) => error,
    };
    if mode == CastlingMode::Standard && needs_chess960(text, &fen) {
        return Err(FenError::Illegal(format!(
            "{error}; these castling rights need the option UCI_Chess960"
        )));
    }
    let why = error.to_string();
    let position = error
        .ignore_invalid_castling_rights()
        .or_else(PositionError::ignore_invalid_ep_square)
        .map_err(|_| FenError::Illegal(why))?;
    let dropped = dropped_rights(text, &fen, &position);
    Ok(ParsedFen { position, dropped })
}

/// Whether a FEN that standard chess refuses is a Chess960 position rather than a standard one
/// with impossible castling rights: Chess960 reads it, and its castling field names a rook by
/// its file (Shredder-FEN or X-FEN letters) or gives rights to a king off its start square.
/// `KQkq` rights with the kings at home are a standard FEN's, and an impossible one among them
/// is dropped as python-chess and Stockfish drop it.
fn needs_chess960(text: &str, fen: &Fen) -> bool {
    let Ok(position) = fen.clone().into_position::<Chess>(CastlingMode::Chess960) else {
        return false;
    };
    let field = text.split_whitespace().nth(2).unwrap_or("-");
    let file_letters = field
        .chars()
        .any(|c| !matches!(c, 'K' | 'Q' | 'k' | 'q' | '-'));
    let king_away = Color::ALL.into_iter().any(|color| {
        let home = Square::from_coords(File::E, color.backrank());
        position.castles().has_color(color) && position.board().king_of(color) != Some(home)
    });
    file_letters || king_away
}

/// Refuses a halfmove clock or fullmove number that is not a number of at most 4294967295
/// (shakmaty would saturate it silently).
fn check_counters(text: &str) -> Result<(), FenError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    for (index, name) in [(4, "halfmove clock"), (5, "fullmove number")] {
        let Some(field) = fields.get(index) else {
            continue;
        };
        // A three-check field ("3+3") is shakmaty's to judge.
        if field.contains('+') {
            return Ok(());
        }
        if field.parse::<u32>().is_err() || field.starts_with('+') {
            return Err(FenError::Syntax(format!(
                "the {name} '{field}' is not a number from 0 to {}",
                u32::MAX
            )));
        }
    }
    Ok(())
}

/// What the FEN `text` (read as `fen`) claimed that `position` lacks: castling rights, an en
/// passant square.
fn dropped_rights(text: &str, fen: &Fen, position: &Chess) -> Option<String> {
    let given: Vec<&str> = text.split_whitespace().collect();
    let mut dropped = Vec::new();
    if fen.as_setup().castling_rights != position.castles().castling_rights() {
        let kept_fen = Fen::from_position(position, EnPassantMode::Always).to_string();
        let kept = kept_fen.split_whitespace().nth(2).unwrap_or("-");
        let before = given.get(2).copied().unwrap_or("-");
        dropped.push(format!("castling rights {before} -> {kept}"));
    }
    if fen.as_setup().ep_square.is_some() && position.maybe_ep_square().is_none() {
        let ep = given.get(3).copied().unwrap_or("-");
        dropped.push(format!("en passant square {ep}"));
    }
    (!dropped.is_empty()).then(|| dropped.join(", "))
}

/// The standard start position, set up in a castling mode (it is also Chess960 position 518).
pub fn start_position(mode: CastlingMode) -> Chess {
    Chess::from_setup(shakmaty::Setup::default(), mode).unwrap_or_default()
}

/// Parses a move in UCI notation and checks that it is legal in `pos`.
pub fn parse_uci_move(pos: &Chess, text: &str) -> Result<Move, MoveError> {
    let uci: UciMove = text
        .parse()
        .map_err(|_| MoveError::Malformed(text.to_owned()))?;
    uci.to_move(pos)
        .map_err(|_| MoveError::Illegal(text.to_owned()))
}

/// Writes a move in UCI notation: castling as `e1g1` in standard chess, as king takes rook
/// (`e1h1`) in Chess960.
pub fn uci_text(m: Move, mode: CastlingMode) -> String {
    m.to_uci(mode).to_string()
}

/// A game: its start position, the moves played, and the key of every position since the start.
#[derive(Debug, Clone)]
pub struct Game {
    start: Chess,
    moves: Vec<Move>,
    current: Chess,
    /// `keys[i]` is the key of the position after `i` plies; `keys[0]` is the start position.
    keys: Vec<u64>,
}

impl Default for Game {
    fn default() -> Self {
        Game::new(Chess::default())
    }
}

impl Game {
    /// The castling mode the game was set up in (moves are written in it).
    pub fn castling_mode(&self) -> CastlingMode {
        self.start.castles().mode()
    }

    /// A game starting at `start`, with no moves yet.
    pub fn new(start: Chess) -> Game {
        let key = position_key(&start);
        Game {
            current: start.clone(),
            start,
            moves: Vec::new(),
            keys: vec![key],
        }
    }

    /// Plays a legal move.
    pub fn play(&mut self, m: Move) {
        let mut after = self.current.clone();
        after.play_unchecked(m);
        let key = key_after(&self.current, self.key(), m, &after);
        self.current = after;
        self.moves.push(m);
        self.keys.push(key);
    }

    /// Plays a move given in UCI notation, if it is legal.
    pub fn play_uci(&mut self, text: &str) -> Result<Move, MoveError> {
        let m = parse_uci_move(&self.current, text)?;
        self.play(m);
        Ok(m)
    }

    /// The position now.
    pub fn position(&self) -> &Chess {
        &self.current
    }

    /// The position the game started from.
    pub fn start(&self) -> &Chess {
        &self.start
    }

    /// The moves played since the start.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The key of every position since the start, the current one last.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// The key of the current position.
    pub fn key(&self) -> u64 {
        self.keys.last().copied().unwrap_or_default()
    }

    /// Halfmoves since the last capture or pawn move (counting those before a FEN start).
    pub fn halfmove_clock(&self) -> u32 {
        self.current.halfmoves()
    }

    /// How often the current position has occurred in this game, itself included. Positions
    /// count as the same under FIDE's identity (same side to move, castling rights and
    /// en passant captures), whatever the move counters say.
    ///
    /// ```
    /// use threefold::game::Game;
    /// let mut game = Game::default();
    /// assert_eq!(game.occurrences(), 1);
    /// for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
    ///     game.play_uci(m).unwrap();
    /// }
    /// assert_eq!(game.occurrences(), 2); // the start position again
    /// game.play_uci("e2e4").unwrap();
    /// assert_eq!(game.occurrences(), 1); // a new position
    /// ```
    pub fn occurrences(&self) -> usize {
        self.occurrences_of(self.key())
    }

    /// The same game with castling in `mode` (the same positions and moves; castling is then
    /// read and written in that mode). None if the start position cannot be set up in `mode`.
    pub fn in_mode(&self, mode: CastlingMode) -> Option<Game> {
        if self.castling_mode() == mode {
            return Some(self.clone());
        }
        let setup = self.start.to_setup(EnPassantMode::Always);
        let start = Chess::from_setup(setup, mode).ok()?;
        let mut game = Game::new(start);
        for &m in &self.moves {
            if !game.current.is_legal(m) {
                return None;
            }
            game.play(m);
        }
        Some(game)
    }

    /// If `target` is the current position or can be reached from it by one or two legal moves,
    /// the game continued by those moves (its halfmove clock must agree too). GUIs that send a bare
    /// `position fen` each turn keep their repetition history this way.
    pub fn continued_to(&self, target: &Chess) -> Option<Game> {
        let wanted = position_key(target);
        let matches = |g: &Game| g.key() == wanted && g.halfmove_clock() == target.halfmoves();
        if matches(self) {
            return Some(self.clone());
        }
        for first in self.current.legal_moves() {
            let mut one = self.clone();
            one.play(first);
            if matches(&one) {
                return Some(one);
            }
            for second in one.current.legal_moves() {
                let mut two = one.clone();
                two.play(second);
                if matches(&two) {
                    return Some(two);
                }
            }
        }
        None
    }

    /// The keys a search needs: those since the last capture or pawn move, the current one last.
    /// Earlier positions can never recur.
    pub fn reversible_keys(&self) -> &[u64] {
        let window = self.current.halfmoves() as usize + 1;
        let first = self.keys.len().saturating_sub(window);
        &self.keys[first..]
    }
}
