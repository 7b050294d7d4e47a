//! A game's tags as read, in the file's order, with what its start position needs: the `FEN`
//! tag and a `Variant` tag that names Chess960.
//!
//! ```
//! use threefold::record::tags::is_chess960_variant;
//! assert!(is_chess960_variant("fischerandom"));
//! assert!(!is_chess960_variant("Standard"));
//! ```

use pgn_reader::RawTag;
use shakmaty::{CastlingMode, Chess};

use crate::game::parse_fen_noting;

/// A `FEN` tag the engine cannot play from, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadFen {
    pub fen: String,
    pub why: String,
}

/// The tags of one game.
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

    /// The castling mode the tags give.
    pub fn mode(&self) -> CastlingMode {
        if self.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }

    /// The start position the tags give. The FEN is read as the engine reads it: impossible
    /// castling rights and en passant squares are dropped, as the programs that write such
    /// tags expect.
    pub fn start(&self) -> Result<Chess, BadFen> {
        match &self.fen {
            None => Ok(Chess::default()),
            Some(text) => parse_fen_noting(text, self.mode())
                .map(|parsed| parsed.position)
                .map_err(|e| BadFen {
                    fen: text.clone(),
                    why: e.to_string(),
                }),
        }
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
