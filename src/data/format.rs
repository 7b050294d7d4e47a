//! The training-data format: one record per game, laid out like Viridithas's game format
//! (`viriformat` on crates.io), written here for shakmaty's types.
//!
//! A game record is
//!
//! ```text
//! header   32 bytes   the start position, packed (below), and the game's result
//! moves    4 bytes    per ply: u16 move (below), i16 score; both little-endian
//! end      4 bytes    all zero (a null move with score 0)
//! ```
//!
//! so a position costs 4 bytes. The layout is viriformat's: the crate's own reader (version
//! 3.0.0, with its move-legality checks on) reads a batch of Threefold's data back with the same
//! positions. Header, all little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | occupancy: bit `i` set when square `i` (a1 = 0, b1 = 1, ..., h8 = 63) holds a piece |
//! | 8..24 | one nibble per occupied square, in square order, low nibble first: bits 0-2 the piece (0 pawn, 1 knight, 2 bishop, 3 rook, 4 queen, 5 king, 6 rook that still has a castling right), bit 3 set for Black |
//! | 24 | side to move in bit 7 (set: Black); en passant square in bits 0-6, 64 for none (only a legal en passant capture is recorded) |
//! | 25 | halfmove clock (saturates at 255) |
//! | 26..28 | fullmove number (u16, saturates) |
//! | 28..30 | score: 0 (unused in game records) |
//! | 30 | result for White: 2 win, 1 draw, 0 loss |
//! | 31 | 0 (reserved) |
//!
//! A move is `from | to << 6 | promotion << 12 | flag << 14`: `promotion` 0 knight, 1 bishop,
//! 2 rook, 3 queen (only with the promotion flag); `flag` 0 normal, 1 en passant, 2 castling
//! (`to` is the rook's square: king takes rook), 3 promotion. The move code 0 (a1 to a1) never
//! occurs in a game, so it ends the record.
//!
//! **Scores are White-relative** centipawns from the search of the side to move (positive:
//! White is better); mate scores are kept (`±(32000 - plies)`, beyond ±31872 they are mates).
//!
//! Every position of a game is recorded, the first few and the noisy ones included: the
//! trainer filters when it reads ([`super::filter`]), so the filter can change without
//! generating the data again. The files and their names: [`super::files`].

use std::io::{self, Read};
use std::num::NonZeroU32;

use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, EnPassantMode, FromSetup, Move, Piece, Position,
    Role, Setup, Square,
};

/// Bytes of a packed start position.
pub const HEADER_BYTES: usize = 32;
/// Bytes per recorded move (and of the end marker).
pub const MOVE_BYTES: usize = 4;
/// Scores are clamped to this (mates are within it).
pub const MAX_SCORE: i32 = 32_000;
/// The longest game a record may hold; longer ones are taken as corrupt.
pub const MAX_RECORD_PLIES: usize = 10_000;

const UNMOVED_ROOK: u8 = 6;
const FLAG_EN_PASSANT: u16 = 1;
const FLAG_CASTLE: u16 = 2;
const FLAG_PROMOTION: u16 = 3;

/// The result of a game, for White.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    BlackWins,
    Draw,
    WhiteWins,
}

impl GameResult {
    /// The byte stored in the header.
    pub fn code(self) -> u8 {
        match self {
            GameResult::BlackWins => 0,
            GameResult::Draw => 1,
            GameResult::WhiteWins => 2,
        }
    }

    pub fn from_code(code: u8) -> Option<GameResult> {
        match code {
            0 => Some(GameResult::BlackWins),
            1 => Some(GameResult::Draw),
            2 => Some(GameResult::WhiteWins),
            _ => None,
        }
    }

    /// 1, 0.5 or 0 for White.
    pub fn white_score(self) -> f64 {
        f64::from(self.code()) / 2.0
    }

    /// The winner's result, from `winner` (None: a draw).
    pub fn won_by(winner: Option<Color>) -> GameResult {
        match winner {
            Some(Color::White) => GameResult::WhiteWins,
            Some(Color::Black) => GameResult::BlackWins,
            None => GameResult::Draw,
        }
    }
}

/// One game: where it started, each move with the score of the search that chose it
/// (White-relative), and the result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    pub start: Chess,
    pub moves: Vec<(Move, i16)>,
    pub result: GameResult,
}

impl GameRecord {
    /// The record's bytes, ready for a single write.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(HEADER_BYTES + MOVE_BYTES * (self.moves.len() + 1));
        bytes.extend_from_slice(&pack_position(&self.start, self.result));
        for &(m, score) in &self.moves {
            bytes.extend_from_slice(&encode_move(m).to_le_bytes());
            bytes.extend_from_slice(&score.to_le_bytes());
        }
        bytes.extend_from_slice(&[0; MOVE_BYTES]);
        bytes
    }

    /// Each position of the game with the move played from it and its score.
    pub fn positions(&self) -> Vec<(Chess, Move, i16)> {
        let mut pos = self.start.clone();
        let mut out = Vec::with_capacity(self.moves.len());
        for &(m, score) in &self.moves {
            out.push((pos.clone(), m, score));
            pos.play_unchecked(m);
        }
        out
    }
}

/// A White-relative score from one of the side to move, clamped to the stored range.
pub fn white_relative(score: i32, turn: Color) -> i16 {
    let white = if turn == Color::White { score } else { -score };
    white.clamp(-MAX_SCORE, MAX_SCORE) as i16
}

fn role_code(role: Role) -> u8 {
    match role {
        Role::Pawn => 0,
        Role::Knight => 1,
        Role::Bishop => 2,
        Role::Rook => 3,
        Role::Queen => 4,
        Role::King => 5,
    }
}

fn role_from_code(code: u8) -> Option<Role> {
    Some(match code {
        0 => Role::Pawn,
        1 => Role::Knight,
        2 => Role::Bishop,
        3 | UNMOVED_ROOK => Role::Rook,
        4 => Role::Queen,
        5 => Role::King,
        _ => return None,
    })
}

/// Packs a position and a result into the 32-byte header.
pub fn pack_position(pos: &Chess, result: GameResult) -> [u8; HEADER_BYTES] {
    let mut bytes = [0u8; HEADER_BYTES];
    let board = pos.board();
    let occupied = board.occupied();
    bytes[0..8].copy_from_slice(&occupied.0.to_le_bytes());
    let rights = pos.castles().castling_rights();
    for (i, sq) in occupied.into_iter().enumerate() {
        let Some(piece) = board.piece_at(sq) else {
            continue;
        };
        let mut code = role_code(piece.role);
        if piece.role == Role::Rook && rights.contains(sq) {
            code = UNMOVED_ROOK;
        }
        if piece.color == Color::Black {
            code |= 8;
        }
        // At most 32 pieces in a legal position, so i < 32.
        let byte = 8 + i / 2;
        if byte < 24 {
            bytes[byte] |= code << (4 * (i % 2));
        }
    }
    let ep = pos
        .ep_square(EnPassantMode::Legal)
        .map_or(64, |sq| sq as u8);
    let black = u8::from(pos.turn() == Color::Black) << 7;
    bytes[24] = black | ep;
    bytes[25] = pos.halfmoves().min(255) as u8;
    let fullmoves = pos.fullmoves().get().min(u32::from(u16::MAX)) as u16;
    bytes[26..28].copy_from_slice(&fullmoves.to_le_bytes());
    bytes[30] = result.code();
    bytes
}

/// Unpacks a header; the error says what is wrong with it.
pub fn unpack_position(bytes: &[u8; HEADER_BYTES]) -> Result<(Chess, GameResult), String> {
    let mut occupancy = [0u8; 8];
    occupancy.copy_from_slice(&bytes[0..8]);
    let occupied = Bitboard(u64::from_le_bytes(occupancy));
    if occupied.count() > 32 {
        return Err(format!("{} pieces on the board", occupied.count()));
    }
    let mut board = Board::empty();
    let mut castling_rights = Bitboard::EMPTY;
    for (i, sq) in occupied.into_iter().enumerate() {
        let code = (bytes[8 + i / 2] >> (4 * (i % 2))) & 0xf;
        let role = role_from_code(code & 7).ok_or_else(|| format!("piece code {code}"))?;
        if code & 7 == UNMOVED_ROOK {
            castling_rights.add(sq);
        }
        let color = if code & 8 != 0 {
            Color::Black
        } else {
            Color::White
        };
        board.set_piece_at(sq, Piece { color, role });
    }
    let ep_code = bytes[24] & 0x7f;
    let ep_square = match ep_code {
        64 => None,
        0..64 => Some(Square::new(u32::from(ep_code))),
        _ => return Err(format!("en passant code {ep_code}")),
    };
    let turn = if bytes[24] & 0x80 != 0 {
        Color::Black
    } else {
        Color::White
    };
    let fullmoves = u16::from_le_bytes([bytes[26], bytes[27]]);
    let setup = Setup {
        board,
        promoted: Bitboard::EMPTY,
        pockets: None,
        turn,
        castling_rights,
        ep_square,
        remaining_checks: None,
        halfmoves: u32::from(bytes[25]),
        fullmoves: NonZeroU32::new(u32::from(fullmoves)).unwrap_or(NonZeroU32::MIN),
    };
    let mode = CastlingMode::detect(&setup);
    let pos = Chess::from_setup(setup, mode).map_err(|e| format!("not a legal position: {e}"))?;
    let result = GameResult::from_code(bytes[30]).ok_or_else(|| format!("result {}", bytes[30]))?;
    Ok((pos, result))
}

/// The 16-bit code of a move (see the module documentation).
pub fn encode_move(m: Move) -> u16 {
    let squares = |from: Square, to: Square| from as u16 | (to as u16) << 6;
    match m {
        Move::Normal {
            from,
            to,
            promotion: Some(role),
            ..
        } => {
            let piece = match role {
                Role::Bishop => 1,
                Role::Rook => 2,
                Role::Queen => 3,
                _ => 0,
            };
            squares(from, to) | piece << 12 | FLAG_PROMOTION << 14
        }
        Move::Normal { from, to, .. } => squares(from, to),
        Move::EnPassant { from, to } => squares(from, to) | FLAG_EN_PASSANT << 14,
        Move::Castle { king, rook } => squares(king, rook) | FLAG_CASTLE << 14,
        Move::Put { .. } => 0,
    }
}

/// The legal move of `pos` with this code, if there is one.
pub fn decode_move(pos: &Chess, code: u16) -> Option<Move> {
    if code == 0 {
        return None;
    }
    pos.legal_moves()
        .into_iter()
        .find(|&m| encode_move(m) == code)
}

/// What reading a record found.
#[derive(Debug)]
pub enum ReadError {
    /// The input failed.
    Io(io::Error),
    /// The input ended inside a record (a run killed while writing, or a cut file).
    Truncated,
    /// The bytes are not a valid record.
    Corrupt(String),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::Truncated => write!(f, "the data ends inside a game record"),
            ReadError::Corrupt(why) => write!(f, "corrupt game record: {why}"),
        }
    }
}

/// Fills `buf`; false at a clean end of input before the first byte.
fn read_exact_or_end(input: &mut impl Read, buf: &mut [u8]) -> Result<bool, ReadError> {
    let mut filled = 0;
    while filled < buf.len() {
        match input.read(&mut buf[filled..]) {
            Ok(0) if filled == 0 => return Ok(false),
            Ok(0) => return Err(ReadError::Truncated),
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(ReadError::Io(e)),
        }
    }
    Ok(true)
}

/// Reads the next game record (None at the end of the input), checking every move is legal.
/// Returns the record and its length in bytes.
pub fn read_record(input: &mut impl Read) -> Result<Option<(GameRecord, usize)>, ReadError> {
    let mut header = [0u8; HEADER_BYTES];
    if !read_exact_or_end(input, &mut header)? {
        return Ok(None);
    }
    let (start, result) = unpack_position(&header).map_err(ReadError::Corrupt)?;
    let mut pos = start.clone();
    let mut moves = Vec::new();
    loop {
        let mut entry = [0u8; MOVE_BYTES];
        if !read_exact_or_end(input, &mut entry)? {
            return Err(ReadError::Truncated);
        }
        let code = u16::from_le_bytes([entry[0], entry[1]]);
        let score = i16::from_le_bytes([entry[2], entry[3]]);
        if code == 0 {
            break;
        }
        let m = decode_move(&pos, code).ok_or_else(|| {
            ReadError::Corrupt(format!(
                "move code {code:#06x} is not legal at ply {}",
                moves.len()
            ))
        })?;
        if moves.len() >= MAX_RECORD_PLIES {
            return Err(ReadError::Corrupt("more plies than any game has".into()));
        }
        pos.play_unchecked(m);
        moves.push((m, score));
    }
    let length = HEADER_BYTES + MOVE_BYTES * (moves.len() + 1);
    Ok(Some((
        GameRecord {
            start,
            moves,
            result,
        },
        length,
    )))
}

/// Reads every game of `input`, handing each to `each`. Returns the number of bytes of whole,
/// valid records and what stopped the reading early, if anything.
pub fn read_games(
    input: &mut impl Read,
    mut each: impl FnMut(GameRecord),
) -> (u64, Option<ReadError>) {
    let mut valid = 0u64;
    loop {
        match read_record(input) {
            Ok(Some((record, length))) => {
                valid += length as u64;
                each(record);
            }
            Ok(None) => return (valid, None),
            Err(e) => return (valid, Some(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{parse_fen, parse_fen_in};

    fn round_trip(fen: &str) {
        let pos = parse_fen(fen)
            .or_else(|_| parse_fen_in(fen, CastlingMode::Chess960))
            .expect("legal");
        for result in [
            GameResult::WhiteWins,
            GameResult::Draw,
            GameResult::BlackWins,
        ] {
            let bytes = pack_position(&pos, result);
            let (back, back_result) = unpack_position(&bytes).expect("unpacks");
            assert_eq!(
                shakmaty::fen::Fen::from_position(&back, EnPassantMode::Legal).to_string(),
                shakmaty::fen::Fen::from_position(&pos, EnPassantMode::Legal).to_string(),
                "{fen}"
            );
            assert_eq!(back_result, result);
        }
    }

    #[test]
    fn positions_round_trip() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 17 40",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/8/8/8/8/8/6k1/4K3 w - - 99 300",
            // Chess960 rights (Shredder-FEN).
            "bqnrkrnb/pppppppp/8/8/8/8/PPPPPPPP/BQNRKRNB w FDfd - 0 1",
        ] {
            round_trip(fen);
        }
    }

    #[test]
    fn every_legal_move_round_trips() {
        for fen in [
            "r3k2r/pPpp1ppp/8/3Pp3/8/8/PPP2PpP/R3K2R w KQkq e6 0 1",
            "r3k2r/pPpp1ppp/8/3Pp3/8/8/PPP2PpP/R3K2R b KQkq - 0 1",
        ] {
            let pos = parse_fen(fen).expect("legal");
            for m in pos.legal_moves() {
                let code = encode_move(m);
                assert_ne!(code, 0);
                assert_eq!(decode_move(&pos, code), Some(m), "{m:?}");
            }
        }
    }

    #[test]
    fn records_round_trip_and_a_cut_record_is_truncated() {
        let mut pos = Chess::default();
        let mut moves = Vec::new();
        for (i, text) in ["e2e4", "d7d5", "e4d5", "g8f6"].iter().enumerate() {
            let m = crate::game::parse_uci_move(&pos, text).expect("legal");
            moves.push((m, (i as i16 - 2) * 37));
            pos.play_unchecked(m);
        }
        let record = GameRecord {
            start: Chess::default(),
            moves,
            result: GameResult::Draw,
        };
        let bytes = record.to_bytes();
        assert_eq!(bytes.len(), HEADER_BYTES + MOVE_BYTES * 5);
        let mut two = bytes.clone();
        two.extend_from_slice(&bytes);
        let mut games = Vec::new();
        let (valid, error) = read_games(&mut two.as_slice(), |g| games.push(g));
        assert!(error.is_none());
        assert_eq!(valid as usize, two.len());
        assert_eq!(games, vec![record.clone(), record.clone()]);
        for cut in [1, 31, 32, 35, bytes.len() - 1] {
            let mut cut_bytes = bytes.clone();
            cut_bytes.extend_from_slice(&bytes[..cut]);
            let (valid, error) = read_games(&mut cut_bytes.as_slice(), |_| {});
            assert_eq!(valid as usize, bytes.len());
            assert!(matches!(error, Some(ReadError::Truncated)), "cut at {cut}");
        }
    }

    #[test]
    fn scores_are_white_relative_and_clamped() {
        assert_eq!(white_relative(50, Color::White), 50);
        assert_eq!(white_relative(50, Color::Black), -50);
        assert_eq!(white_relative(40_000, Color::Black), -32_000);
    }
}
