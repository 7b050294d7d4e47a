//! The judge: follows one game move by move and records what the draw rules say.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position};

use crate::game::rules::{Ask, AutomaticEnd, History, Ruling, ruling};
use crate::game::{key_after, position_key};

/// Zobrist keys are already uniformly random: hash them as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

type KeyMap<V> = HashMap<u64, V, BuildHasherDefault<KeyHasher>>;

/// The positions since the last capture or pawn move, as the rulebook reads them.
#[derive(Default)]
struct Seen {
    /// Plies at which each position stood on the board.
    plies: KeyMap<Vec<usize>>,
    /// How many of them occurred at least twice (a threefold claim is then possible).
    repeated: usize,
}

impl History for Seen {
    fn occurrences_of(&self, key: u64) -> usize {
        self.plies.get(&key).map_or(0, Vec::len)
    }

    fn any_repeated(&self) -> bool {
        self.repeated > 0
    }
}

/// Which rule a claim is made under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimRule {
    Threefold,
    FiftyMoves,
}

/// The first valid claim of one side under one rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    pub rule: ClaimRule,
    pub side: Color,
    /// Plies played when the claim is made (the claimant is to move).
    pub ply: usize,
    /// The move the claimant announces, if the claim is by announcement (UCI notation).
    pub by_announcing: Option<String>,
    /// The announced move in SAN, with its move number (e.g. "26...Ra4").
    pub by_announcing_san: Option<String>,
}

/// A position that occurred three or more times.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repetition {
    pub fen: String,
    /// The plies after which it stood on the board (0 = start position).
    pub plies: Vec<usize>,
}

/// An automatic end of the game and where it happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct End {
    pub rule: AutomaticEnd,
    pub ply: usize,
    /// The side that was checkmated, for a checkmate.
    pub loser: Option<Color>,
}

/// Everything the arbiter found in one game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Verdict {
    pub plies: usize,
    pub repetitions: Vec<Repetition>,
    pub claims: Vec<Claim>,
    pub automatic_end: Option<End>,
    /// SAN of each move with its number, e.g. "30.Qe2" (index 0 is ply 1).
    pub move_labels: Vec<String>,
    pub error: Option<String>,
}

impl Verdict {
    /// Moves recorded after the automatic end (void under the Laws).
    pub fn void_moves(&self) -> usize {
        self.automatic_end
            .map_or(0, |e| self.plies.saturating_sub(e.ply))
    }

    /// The label of the move that produced the position after `ply` plies.
    pub fn label(&self, ply: usize) -> &str {
        ply.checked_sub(1)
            .and_then(|i| self.move_labels.get(i))
            .map_or("start", String::as_str)
    }

    /// The result the automatic end gives ("1-0", "0-1", "1/2-1/2"); None without one.
    pub fn rules_result(&self) -> Option<&'static str> {
        let end = self.automatic_end?;
        Some(match (end.rule, end.loser) {
            (AutomaticEnd::Checkmate, Some(Color::White)) => "0-1",
            (AutomaticEnd::Checkmate, Some(Color::Black)) => "1-0",
            // A checkmate always has a loser; without one no result agrees.
            (AutomaticEnd::Checkmate, None) => "?",
            _ => "1/2-1/2",
        })
    }

    /// Whether a recorded result ("1-0", "0-1", "1/2-1/2", "*") agrees with the automatic end.
    pub fn result_consistent(&self, result: &str) -> bool {
        self.rules_result().is_none_or(|given| given == result)
    }
}

/// Follows a game; feed it moves with [`Judge::play`], then call [`Judge::finish`].
pub struct Judge {
    pos: Chess,
    mode: CastlingMode,
    key: u64,
    /// Moves read, void ones included.
    ply: usize,
    /// Moves played on the board (all but the void ones after checkmate or stalemate).
    played: usize,
    /// The positions since the last capture or pawn move.
    seen: Seen,
    /// The FEN (without counters) of each position in `seen` that occurred at least twice.
    fens: KeyMap<String>,
    verdict: Verdict,
    threefold_claimed: [bool; 2],
    fifty_claimed: [bool; 2],
}

impl Judge {
    /// Starts judging from `start` (castling in `mode`, for Chess960 records).
    pub fn new(start: Chess, mode: CastlingMode) -> Judge {
        let key = position_key(&start);
        let mut judge = Judge {
            pos: start,
            mode,
            key,
            ply: 0,
            played: 0,
            seen: Seen::default(),
            fens: KeyMap::default(),
            verdict: Verdict::default(),
            threefold_claimed: [false; 2],
            fifty_claimed: [false; 2],
        };
        judge.arrive(false);
        judge
    }

    /// Plies played so far.
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// The position now.
    pub fn position(&self) -> &Chess {
        &self.pos
    }

    /// Plays a legal move; `san` is its text for the report.
    pub fn play(&mut self, m: Move, san: &str) {
        self.label_next(san);
        let mut after = self.pos.clone();
        after.play_unchecked(m);
        self.key = key_after(&self.pos, self.key, m, &after);
        self.pos = after;
        self.ply += 1;
        self.played += 1;
        if m.is_zeroing() {
            // Positions before a capture or pawn move can never occur again.
            self.harvest_repetitions();
            self.seen.plies.clear();
            self.seen.repeated = 0;
            self.fens.clear();
        }
        self.arrive(m.is_capture() || m.is_promotion());
    }

    /// Records a move written after checkmate or stalemate: it cannot be played and is void,
    /// but it was recorded (it counts in the plies, after the automatic end).
    pub fn play_void(&mut self, san: &str) {
        self.label_next(san);
        self.ply += 1;
    }

    /// Labels the next recorded move `san` with its number (`12.` or `12...`), counting the
    /// void moves already written after the last position (none before the game ended).
    fn label_next(&mut self, san: &str) {
        let stuck = self.ply - self.played;
        let halfmoves = usize::from(self.pos.turn() == Color::Black) + stuck;
        let number = self.pos.fullmoves().get() as usize + halfmoves / 2;
        let dots = if halfmoves.is_multiple_of(2) {
            "."
        } else {
            "..."
        };
        self.verdict
            .move_labels
            .push(format!("{number}{dots}{san}"));
    }

    /// Records that the game stopped on a move that could not be read or played.
    pub fn fail(&mut self, error: String) {
        self.verdict.error = Some(error);
    }

    /// The verdict.
    pub fn finish(mut self) -> Verdict {
        self.harvest_repetitions();
        self.verdict
            .repetitions
            .sort_by_key(|r| r.plies.first().copied());
        self.verdict.plies = self.ply;
        self.verdict
    }

    /// Bookkeeping for the position just reached, then what the rulebook says about it
    /// ([`ruling`]): whether the game has ended here, or what the player to move may claim
    /// (only each side's first claim under each rule is wanted).
    fn arrive(&mut self, material_changed: bool) {
        let plies = self.seen.plies.entry(self.key).or_default();
        plies.push(self.ply);
        if plies.len() == 2 {
            self.seen.repeated += 1;
            self.fens.insert(self.key, position_fen(&self.pos));
        }
        if self.verdict.automatic_end.is_some() {
            return;
        }
        let side = self.pos.turn() as usize;
        let ask = Ask {
            threefold: !self.threefold_claimed[side],
            fifty_moves: !self.fifty_claimed[side],
            all_moves: false,
        };
        // At the start the material is new; after a quiet move it is that of the position
        // before, which was not dead (or the game would have ended there).
        let material_changed = material_changed || self.ply == 0;
        match ruling(&self.pos, self.key, &self.seen, material_changed, ask) {
            Ruling::Ended(end) => self.end(end),
            Ruling::Open(claims) => {
                if claims.threefold_now || !claims.threefold_by_moves.is_empty() {
                    self.claim(
                        ClaimRule::Threefold,
                        claims.threefold_by_moves.first().copied(),
                    );
                }
                if claims.fifty_now || !claims.fifty_by_moves.is_empty() {
                    self.claim(
                        ClaimRule::FiftyMoves,
                        claims.fifty_by_moves.first().copied(),
                    );
                }
            }
        }
    }

    fn end(&mut self, rule: AutomaticEnd) {
        let loser = (rule == AutomaticEnd::Checkmate).then(|| self.pos.turn());
        self.verdict.automatic_end = Some(End {
            rule,
            ply: self.ply,
            loser,
        });
    }

    fn claim(&mut self, rule: ClaimRule, by: Option<Move>) {
        let side = self.pos.turn();
        match rule {
            ClaimRule::Threefold => self.threefold_claimed[side as usize] = true,
            ClaimRule::FiftyMoves => self.fifty_claimed[side as usize] = true,
        }
        let san = by.map(|m| {
            let text = shakmaty::san::SanPlus::from_move(self.pos.clone(), m).to_string();
            let number = self.pos.fullmoves().get();
            let dots = if side == Color::White { "." } else { "..." };
            format!("{number}{dots}{text}")
        });
        self.verdict.claims.push(Claim {
            rule,
            side,
            ply: self.ply,
            by_announcing: by.map(|m| m.to_uci(self.mode).to_string()),
            by_announcing_san: san,
        });
    }

    /// Moves the positions seen three or more times into the verdict.
    fn harvest_repetitions(&mut self) {
        if self.seen.repeated == 0 {
            return;
        }
        let mut found: Vec<Repetition> = self
            .seen
            .plies
            .iter()
            .filter(|(_, plies)| plies.len() >= 3)
            .map(|(&key, plies)| Repetition {
                fen: self.fen_of(key),
                plies: plies.clone(),
            })
            .collect();
        self.verdict.repetitions.append(&mut found);
    }

    fn fen_of(&self, key: u64) -> String {
        self.fens.get(&key).cloned().unwrap_or_default()
    }
}

/// The FEN of a position, without the move counters (they differ between occurrences).
pub fn position_fen(pos: &Chess) -> String {
    let fen = Fen::from_position(pos, EnPassantMode::Legal).to_string();
    fen.splitn(5, ' ').take(4).collect::<Vec<_>>().join(" ")
}
