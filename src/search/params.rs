//! The search's numbers in one place: piece values, pruning margins, reductions, extensions and
//! windows.
//!
//! The numbers a tune may move are declared once, in the `tunables!` table below: each is a
//! function of that name (`params::reverse_futility_margin()`) and a row of [`TUNABLES`]. In a
//! normal build the function returns the number written here, a constant the compiler folds
//! in. In a tuning build (`cargo build --release --features tune`, see [`TUNING`]) it reads the
//! value a UCI option of the same name has set, and `threefold spsa` prints every row as
//! OpenBench's SPSA input (`bench/tuning/spsa.py` runs such a tune on one machine). The rest
//! (timing, counts that make a rule, the piece values of ordering and of the win/draw/loss
//! model) are plain constants.
//!
//! Naming legend:
//! - `*_depth`: a remaining depth in plies (the deepest or shallowest a rule applies at);
//! - `*_margin`: centipawns; `*_per_ply` / `*_per_depth`: centipawns per ply of depth;
//! - `*_window`: half the width of a search window, in centipawns;
//! - `*_percent`: hundredths of the unit their doc gives;
//! - `exchange_*`: a piece's value in static exchange evaluation, in centipawns;
//! - plain nouns (`POLL_INTERVAL`): counts, in the unit their doc gives.
//!
//! ```
//! use threefold::search::params::{self, TUNABLES};
//!
//! let rfp = TUNABLES.iter().find(|t| t.name == "reverse_futility_margin").unwrap();
//! assert_eq!(rfp.default, 90);
//! assert_eq!(rfp.openbench_line(), "reverse_futility_margin, int, 90, 40, 160, 6, 0.002");
//! // What the search reads: the default, unless a tuning build's option has moved it.
//! if !params::TUNING {
//!     assert_eq!(params::reverse_futility_margin(), 90);
//! }
//! ```

use std::sync::atomic::{AtomicI32, Ordering};

use shakmaty::Role;

/// What a piece is worth for each use but the exchange ([`exchange_value`]), in centipawns
/// (`material` in pawns).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PieceValue {
    /// For ordering captures (most valuable victim, least valuable attacker).
    pub ordering: i32,
    /// For the win/draw/loss model's material count (`UCI_ShowWDL`): pawn 1, minor 3, rook 5,
    /// queen 9, king 0, as the model was fitted.
    pub material: u32,
}

/// The piece values of ordering and of the win/draw/loss model, by role: pawn, knight, bishop,
/// rook, queen, king (the bench node count rests on them).
#[rustfmt::skip]
pub const PIECE_VALUES: [PieceValue; 6] = [
    PieceValue { ordering: 100,  material: 1 },
    PieceValue { ordering: 300,  material: 3 },
    PieceValue { ordering: 320,  material: 3 },
    PieceValue { ordering: 500,  material: 5 },
    PieceValue { ordering: 900,  material: 9 },
    PieceValue { ordering: 2000, material: 0 },
];

/// The values of a piece of kind `role`.
pub fn piece_value(role: Role) -> PieceValue {
    PIECE_VALUES[role as usize - 1]
}

/// A pawn in static exchange evaluation: the unit the other exchange values are tuned against.
pub const EXCHANGE_PAWN: i32 = 100;
/// The king in static exchange evaluation: above any exchange, so it is never given up.
pub const EXCHANGE_KING: i32 = 20_000;

/// What a piece of kind `role` is worth in static exchange evaluation, in centipawns.
#[inline]
pub fn exchange_value(role: Role) -> i32 {
    match role {
        Role::Pawn => EXCHANGE_PAWN,
        Role::Knight => exchange_knight(),
        Role::Bishop => exchange_bishop(),
        Role::Rook => exchange_rook(),
        Role::Queen => exchange_queen(),
        Role::King => EXCHANGE_KING,
    }
}

/// How often (in nodes) the clock and the stop flag are read.
pub const POLL_INTERVAL: u64 = 1024;
/// From this long into a search, an aspiration window's failure is reported as an `info` line
/// with `lowerbound` or `upperbound` (earlier ones would only flood the GUI).
pub const BOUND_REPORT_AFTER: std::time::Duration = std::time::Duration::from_secs(3);
/// From this long into a search, the main thread reports each root move it starts on
/// (`currmove`), as Stockfish does.
pub const CURRMOVE_AFTER: std::time::Duration = std::time::Duration::from_secs(3);
/// How often (in nodes) a helper thread publishes its node count and reads the stop flag, and
/// every thread of a search with helpers and a node limit adds its nodes to their sum: `go
/// nodes` counts every thread's nodes, and may pass its limit by about this many a thread.
pub const NODE_COUNT_INTERVAL: u64 = 64;

/// True in a tuning build (the cargo feature `tune`): the tunable numbers are read from
/// [`VALUES`], which the UCI options of their names set; otherwise they are constants.
pub const TUNING: bool = cfg!(feature = "tune");

/// SPSA's learning rate at a tune's last iteration (OpenBench's `r_end`), the same for every
/// parameter.
pub const SPSA_LEARNING_RATE: f64 = 0.002;

/// One tunable number: its name (the function that reads it, and a tuning build's UCI option),
/// its value in this source, the range a tune may move it in, and SPSA's step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tunable {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// How far SPSA moves the value either way at a tune's last iteration (OpenBench's `c_end`),
    /// in the value's unit; earlier iterations move it further.
    pub step: f64,
}

impl Tunable {
    /// The row OpenBench's SPSA form takes: `name, int, value, min, max, c_end, r_end`.
    pub fn openbench_line(&self) -> String {
        format!(
            "{}, int, {}, {}, {}, {}, {}",
            self.name, self.default, self.min, self.max, self.step, SPSA_LEARNING_RATE
        )
    }
}

/// Why a tunable number was not set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParamError {
    /// The value lies outside the number's range.
    OutOfRange {
        name: &'static str,
        value: i64,
        min: i32,
        max: i32,
    },
}

impl std::fmt::Display for ParamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamError::OutOfRange {
                name,
                value,
                min,
                max,
            } => write!(f, "{name} must lie in {min}..={max}, got {value}"),
        }
    }
}

impl std::error::Error for ParamError {}

/// The current values of the tunable numbers, in the order of [`TUNABLES`]. A tuning build's
/// search reads [`VALUES`]; a store of one's own ([`Values::new`]) holds a set apart.
#[derive(Debug)]
pub struct Values([AtomicI32; TUNABLE_COUNT]);

impl Values {
    /// Every number at its default.
    pub const fn new() -> Self {
        Values(DEFAULT_VALUES)
    }

    /// The value of the number at `index` in [`TUNABLES`].
    pub fn get(&self, index: usize) -> i32 {
        self.0[index].load(Ordering::Relaxed)
    }

    /// Sets the number at `index` in [`TUNABLES`], refusing a value outside its range.
    pub fn set(&self, index: usize, value: i64) -> Result<(), ParamError> {
        let t = &TUNABLES[index];
        let taken = i32::try_from(value)
            .ok()
            .filter(|v| (t.min..=t.max).contains(v))
            .ok_or(ParamError::OutOfRange {
                name: t.name,
                value,
                min: t.min,
                max: t.max,
            })?;
        self.0[index].store(taken, Ordering::Relaxed);
        Ok(())
    }
}

impl Default for Values {
    fn default() -> Self {
        Values::new()
    }
}

/// The values a tuning build's search reads (the UCI options set them).
pub static VALUES: Values = Values::new();

/// The index in [`TUNABLES`] of the number called `name` (case-insensitive).
pub fn tunable_index(name: &str) -> Option<usize> {
    TUNABLES
        .iter()
        .position(|t| t.name.eq_ignore_ascii_case(name))
}

/// Declares the tunable numbers once: each row `name = default, min..=max, step s;` becomes a
/// function `name()` (the constant, or in a tuning build the value in [`VALUES`]), a row of
/// [`TUNABLES`] and a default in [`Values::new`].
macro_rules! tunables {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident = $default:literal, $min:literal..=$max:literal, step $step:literal;
    )*) => {
        /// Every tunable number, in the order `threefold spsa` prints them.
        pub const TUNABLES: [Tunable; TUNABLE_COUNT] = [$(
            Tunable { name: stringify!($name), default: $default, min: $min, max: $max, step: $step as f64 },
        )*];

        /// How many numbers are tunable.
        pub const TUNABLE_COUNT: usize = [$(stringify!($name)),*].len();

        #[allow(clippy::declare_interior_mutable_const)]
        const DEFAULT_VALUES: [AtomicI32; TUNABLE_COUNT] = [$(AtomicI32::new($default)),*];

        /// The position of each number in [`TUNABLES`].
        #[allow(non_camel_case_types, clippy::enum_variant_names)]
        #[derive(Clone, Copy)]
        enum Slot { $($name),* }

        $(
            $(#[doc = $doc])*
            #[inline(always)]
            pub fn $name() -> i32 {
                if TUNING { VALUES.get(Slot::$name as usize) } else { $default }
            }
        )*
    };
}

// Iterative deepening at the root.

/// From this depth on, a single line is searched in a window around the previous iteration's
/// score (aspiration), widened each time the score falls outside it.
pub const ASPIRATION_DEPTH: u32 = 5;

// The perpetual-check prover at the root (`proofs.rs`).

/// The prover's positions may number at most the main thread's nodes divided by this, over
/// the whole search (most questions are answered in a handful of positions).
pub const PROVER_NODE_SHARE: u64 = 1024;
/// The prover may take at most the search's time so far divided by this, over the whole
/// search: a prover position costs up to some sixty microseconds where queens check from many
/// squares, and the node share alone let it take half of a blitz move's time there.
pub const PROVER_TIME_SHARE: u32 = 64;
/// The positions of the first question whether the side to move has a perpetual, and, in
/// check, whether a best move lets the opponent check for ever, asked whatever the shares (a
/// proven perpetual takes a median of eight positions); of any other first question once the
/// node share reaches it. A question left unknown is asked again only once the node share
/// reaches twice its last budget.
pub const PROVER_FIRST_NODES: u64 = 64;

/// Reverse futility pruning spares a side with this many legal moves or fewer: there the
/// static evaluation misses most (a king walking into a mating net, zugzwang), and the node is
/// cheap to search. A rule for the mate tests, not tuned.
pub const REVERSE_FUTILITY_FEW_MOVES: usize = 2;

/// Ordering bonus in quiescence for the hash move, above every capture.
pub const QS_HASH_MOVE: i32 = 100_000;

// The coming fifty-move draw.

/// Halfmove clock above which the static evaluation shrinks, linearly to 0 at halfmove 100:
/// with no capture or pawn move before it, an advantage is worth less the fewer plies are left
/// to use it (see `evaluation::fifty_move_scale`).
pub const FIFTY_MOVE_SCALE_FROM: u32 = 80;

/// Plies before halfmove 100 within which a node whose depth reaches the draw is searched
/// whole: no pruning of the node or its moves, no reductions. Near the leaves those return
/// evaluations of positions short of the draw, which every continuation ends in unless it
/// captures, moves a pawn or mates.
pub const FIFTY_MOVE_EXACT_PLIES: i32 = 4;

tunables! {
    // Iterative deepening at the root.

    /// Half the width of the first aspiration window; it doubles at each re-search.
    aspiration_window = 20, 5..=60, step 3;

    // Pruning of whole nodes (non-PV, not in check).

    /// Razoring: at depth 1 and 2, a static evaluation this far (per ply) below alpha goes
    /// straight to quiescence.
    razor_margin = 250, 100..=500, step 20;
    /// The deepest depth razoring applies at.
    razor_depth = 2, 1..=4, step 1;
    /// Reverse futility pruning: margin per ply of depth (one ply less when improving).
    reverse_futility_margin = 90, 40..=160, step 6;
    /// The deepest depth reverse futility pruning applies at.
    reverse_futility_depth = 6, 3..=10, step 1;
    /// Null-move pruning: the least depth it is tried at.
    null_move_depth = 3, 2..=5, step 1;
    /// Null-move pruning: the base reduction, plus one ply per `null_move_depth_per_ply` of
    /// depth.
    null_move_reduction = 3, 2..=5, step 1;
    null_move_depth_per_ply = 4, 2..=8, step 1;
    /// Null-move pruning: every this many centipawns of static evaluation above beta reduce one
    /// ply more, up to `null_move_eval_plies`.
    null_move_eval_per_ply = 200, 80..=400, step 15;
    null_move_eval_plies = 3, 1..=5, step 1;
    /// ProbCut: from `probcut_depth` on, a capture whose exchange and a search
    /// `probcut_reduction` plies shallower both clear beta by `probcut_margin` cuts the node.
    probcut_depth = 5, 3..=8, step 1;
    probcut_margin = 200, 80..=400, step 15;
    probcut_reduction = 3, 2..=5, step 1;
    /// Internal iterative reduction: from this depth on, a node with no hash move is searched a
    /// ply shallower.
    iir_depth = 4, 2..=8, step 1;

    // Pruning of single moves near the leaves (non-PV).

    /// Deepest remaining depth at which moves are pruned by count, futility or exchange.
    shallow_depth = 6, 3..=10, step 1;
    /// Late-move pruning: at depth `d`, quiet moves after the first
    /// `(late_move_count + d²) / 2` are skipped (after `late_move_count + d²` when improving).
    late_move_count = 3, 0..=8, step 1;
    /// Futility pruning of quiet moves: margin at depth 0 and per ply of depth.
    futility_margin = 100, 30..=250, step 10;
    futility_per_depth = 80, 30..=200, step 8;
    /// Exchange pruning: a quiet move may lose up to this times depth squared in the exchange,
    /// a capture up to this times depth.
    see_quiet_per_depth_squared = 50, 10..=120, step 5;
    see_capture_per_depth = 100, 30..=200, step 8;

    // Late-move reductions.

    /// The base reduction of the `i`-th move at depth `d` is
    /// `lmr_base_percent / 100 + ln(d) * ln(i) / (lmr_divisor_percent / 100)` plies (rounded
    /// down).
    lmr_base_percent = 75, 0..=200, step 8;
    lmr_divisor_percent = 225, 150..=400, step 12;
    /// The least depth at which late moves are reduced.
    lmr_depth = 3, 2..=5, step 1;
    /// History score (butterfly plus continuation) worth one ply less (or more) of reduction,
    /// and the most plies it may take off or add.
    history_per_ply = 8_192, 2_048..=16_384, step 600;
    history_plies = 2, 1..=4, step 1;
    /// Extra plies of reduction at an expected cut node, where a late quiet move is unlikely to
    /// be the one that matters (the node should fail high on an earlier move).
    cut_node_reduction = 1, 0..=3, step 1;

    // History tables.

    /// A cutoff at depth `d` moves a history entry by `history_bonus_per_depth * d * (d + 2)`,
    /// at most `history_bonus_max`, of the 16,384 an entry can reach (the moves tried before it
    /// lose as much).
    history_bonus_per_depth = 16, 4..=48, step 2;
    history_bonus_max = 1_600, 400..=4_000, step 150;
    /// Capture history worth one point of a capture's ordering score (MVV-LVA, where a pawn
    /// victim is worth 800).
    capture_history_per_order = 4, 1..=16, step 1;
    /// History pruning: near the leaves of a non-PV node, a quiet move (not a killer or the
    /// counter-move) whose history is below `-history_prune_per_depth * depth` is not
    /// searched, up to depth `history_prune_depth`.
    history_prune_depth = 3, 1..=6, step 1;
    history_prune_per_depth = 2_048, 512..=6_000, step 250;

    // Correction history.

    /// The most the correction history may add to or take from a static evaluation, in
    /// centipawns, and the largest weight (out of 256) one update has: a search to depth `d`
    /// weighs `d + 1`, up to `correction_max_weight`.
    correction_max = 32, 8..=96, step 4;
    correction_max_weight = 16, 4..=48, step 2;

    // Extensions.

    /// Singular extensions: the least depth, and how far below the hash score (per ply of
    /// depth) the other moves must all stay for the hash move to count as singular.
    singular_depth = 8, 5..=12, step 1;
    singular_margin_per_ply = 2, 1..=6, step 1;
    /// How much shallower than the node the hash entry may be for the singular test.
    singular_entry_depth_slack = 3, 1..=5, step 1;
    /// How far below the singular window every other move must stay for the hash move to be
    /// searched two plies deeper instead of one (non-PV nodes only).
    double_extension_margin = 20, 5..=60, step 3;
    /// How many double extensions one line may take, so that they cannot feed on each other.
    double_extension_limit = 6, 1..=12, step 1;

    // Quiescence.

    /// Margin for delta pruning: a capture that cannot lift the stand-pat score this close to
    /// alpha is skipped.
    delta_margin = 200, 50..=400, step 15;

    // Static exchange evaluation (a pawn is `EXCHANGE_PAWN`).

    exchange_knight = 320, 250..=400, step 10;
    exchange_bishop = 330, 250..=400, step 10;
    exchange_rook = 500, 400..=650, step 15;
    exchange_queen = 950, 800..=1_200, step 25;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tunable_has_a_sound_row() {
        for (i, t) in TUNABLES.iter().enumerate() {
            assert!(
                t.name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'),
                "{}",
                t.name
            );
            assert_eq!(
                tunable_index(t.name),
                Some(i),
                "{} is declared twice",
                t.name
            );
            assert!(
                t.min < t.max && (t.min..=t.max).contains(&t.default),
                "{}",
                t.name
            );
            let span = f64::from(t.max - t.min);
            assert!(
                t.step >= 1.0 && t.step <= span / 2.0,
                "{}: step {}",
                t.name,
                t.step
            );
        }
    }

    #[test]
    fn a_store_sets_in_range_and_refuses_the_rest() {
        let values = Values::new();
        let index = tunable_index("Futility_Margin").expect("case-insensitive");
        assert_eq!(values.get(index), 100);
        assert_eq!(values.set(index, 120), Ok(()));
        assert_eq!(
            tunable_index("FUTILITY_MARGIN").map(|i| values.get(i)),
            Some(120)
        );
        let refused = values.set(index, 251);
        assert!(matches!(
            refused,
            Err(ParamError::OutOfRange {
                min: 30,
                max: 250,
                ..
            })
        ));
        assert!(values.set(index, i64::from(i32::MAX) + 1).is_err());
        assert_eq!(values.get(index), 120, "a refused value changes nothing");
        assert_eq!(tunable_index("no_such_margin"), None);
        // A store of one's own leaves the search's alone.
        assert_eq!(VALUES.get(index), TUNABLES[index].default);
    }

    #[test]
    fn the_search_reads_the_defaults_unless_tuning() {
        let index = tunable_index("razor_margin").expect("declared");
        let expected = if TUNING {
            VALUES.get(index)
        } else {
            TUNABLES[index].default
        };
        assert_eq!(razor_margin(), expected);
        assert_eq!(exchange_value(Role::Rook), exchange_rook());
    }

    #[test]
    fn exchange_values_keep_the_pieces_in_order_over_their_ranges() {
        let range = |name: &str| {
            let t = TUNABLES[tunable_index(name).expect("declared")];
            (t.min, t.max)
        };
        let (knight, bishop) = (range("exchange_knight"), range("exchange_bishop"));
        let (rook, queen) = (range("exchange_rook"), range("exchange_queen"));
        assert!(EXCHANGE_PAWN < knight.0.min(bishop.0));
        assert!(knight.1.max(bishop.1) <= rook.0);
        assert!(rook.1 < queen.0 && queen.1 < EXCHANGE_KING);
    }
}
