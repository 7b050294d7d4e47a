//! A game's tags as read, in the file's order, with what its start position needs: the `FEN`
//! tag and a `Variant` tag, which may name Chess960 or a game other than chess.
//!
//! ```
//! use threefold::record::tags::{Variant, is_chess960_variant, variant};
//! assert!(is_chess960_variant("fischerandom"));
//! assert!(!is_chess960_variant("Standard"));
//! assert_eq!(variant("Standard"), Variant::Chess);
//! assert_eq!(variant("Chess960"), Variant::Chess960);
//! assert_eq!(variant("3check"), Variant::Other("Three-check".into()));
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

/// The game a `Variant` tag names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Variant {
    /// Chess (the tag absent, or a name python-chess reads as standard chess).
    Chess,
    Chess960,
    /// Any other game, by its usual name (or the tag's own words for one not known): not chess,
    /// so a record of it is refused rather than read as chess.
    Other(String),
}

/// A game's tags, in the file's order: one type for every tool that reads games (the arbiter,
/// `analyse`, `datagen --from-pgn`).
///
/// ```
/// use threefold::record::tags::Tags;
/// let tags = Tags::from(vec![("White".to_string(), "Fischer".to_string())]);
/// assert_eq!(tags.get("White"), Some("Fischer"));
/// assert_eq!(tags.get("Black"), None);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tags(Vec<(String, String)>);

impl Tags {
    /// The value of the first tag called `name`, if any.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Every tag, name and value, in the file's order.
    pub fn iter(&self) -> std::slice::Iter<'_, (String, String)> {
        self.0.iter()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl From<Vec<(String, String)>> for Tags {
    fn from(tags: Vec<(String, String)>) -> Tags {
        Tags(tags)
    }
}

impl<'a> IntoIterator for &'a Tags {
    type Item = &'a (String, String);
    type IntoIter = std::slice::Iter<'a, (String, String)>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// The tags of one game as they are read, with what the start position needs.
#[derive(Debug, Default)]
pub struct GameTags {
    pub tags: Tags,
    fen: Option<String>,
    chess960: bool,
    /// The first `Variant` tag that names a game other than chess.
    other: Option<String>,
}

impl GameTags {
    /// Records one tag.
    pub fn push(&mut self, name: &[u8], value: RawTag<'_>) {
        let name = String::from_utf8_lossy(name).into_owned();
        let value = value.decode_utf8_lossy().into_owned();
        match name.as_str() {
            "FEN" => self.fen = Some(value.clone()),
            "Variant" => match variant(&value) {
                Variant::Chess => {}
                Variant::Chess960 => self.chess960 = true,
                Variant::Other(name) => {
                    self.other.get_or_insert(name);
                }
            },
            _ => {}
        }
        self.tags.0.push((name, value));
    }

    /// The game other than chess a `Variant` tag names, if one does.
    pub fn other_variant(&self) -> Option<&str> {
        self.other.as_deref()
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
    is_chess960_name(&variant_name(value))
}

/// A `Variant` tag's letters and digits in lower case: how the names below are compared.
fn variant_name(value: &str) -> String {
    value
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Whether a name as [`variant_name`] gives it is one of Chess960's.
fn is_chess960_name(name: &str) -> bool {
    name.contains("960") || name == "fischerandom" || name == "fischerrandom"
}

/// The game a PGN `Variant` tag names, read as python-chess reads it: chess under its usual
/// names ("Standard", "Chess", "Classical", "Normal", "From Position", the empty tag, the
/// `wild/N` of chess servers), Chess960 (see [`is_chess960_variant`]), and the variants
/// python-chess knows by their aliases (Three-check, Atomic, Crazyhouse, Antichess and its
/// Suicide and Giveaway forms, Horde, Racing Kings, King of the Hill); any other name is a game
/// Threefold does not know, named by the tag.
pub fn variant(value: &str) -> Variant {
    let name = variant_name(value);
    if is_chess960_name(&name) {
        return Variant::Chess960;
    }
    if value.trim().to_ascii_lowercase().starts_with("wild/") {
        return Variant::Chess;
    }
    let known = match name.as_str() {
        "" | "standard" | "chess" | "classical" | "normal" | "fromposition" | "illegal" => {
            return Variant::Chess;
        }
        "threecheck" | "3check" | "threecheckchess" => "Three-check",
        "atomic" | "atom" | "atomicchess" => "Atomic",
        "crazyhouse" | "house" | "zh" => "Crazyhouse",
        "antichess" | "anti" => "Antichess",
        "suicide" | "suicidechess" => "Suicide",
        "giveaway" | "giveawaychess" => "Giveaway",
        "horde" | "hordechess" => "Horde",
        "racingkings" | "racing" | "race" => "Racing Kings",
        "kingofthehill" | "koth" => "King of the Hill",
        _ => return Variant::Other(value.trim().to_string()),
    };
    Variant::Other(known.to_string())
}
