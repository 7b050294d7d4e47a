//! The transposition table: what earlier searches learned about positions, indexed by key.
//!
//! Scores are stored relative to the node (see `score::to_table`). Draws by repetition are
//! never stored at the node where they are detected. A score above such a draw that rests on
//! it (the node's best line ends in the repetition, or at halfmove 100) depends on the path.
//! The search stores it *for this search only* (`Scope::ThisSearch`): later iterations of the
//! same search use it, which is how a perpetual check or a fortress proven once stays proven,
//! while the next search (a new root, a new game history) sees only its move (the entry reads
//! as depth -1). Within one search a position reached by another path can take such a score
//! where its own path would not draw (graph-history interaction); the search accepts that, as
//! Stockfish does, and the next search starts clean. A node cut off by such an entry rests on
//! what it rests on, and stores its own score for no longer.
//!
//! A score can also rest on a repetition that did *not* draw: a second occurrence of the root
//! or of a position before it (see `repetition::Recurrence::Twofold`). Once the game has
//! repeated that position, the same line ends in a threefold. Such a score is stored with its
//! mark (`Scope::UntilRepeated`); a later search whose game has repeated a position reads it
//! as a bound toward the draw (`Entry::toward_draw`): the draws that the new repetitions make
//! can only move the score toward the draw value, never past it.
//!
//! The table is made of 64-byte buckets (one cache line) of four slots. A key maps to one
//! bucket; a new position replaces the slot whose entry is worth least: empty first, then the
//! one with the lowest depth less eight plies per search it has aged.
//!
//! All search threads share one table without locks: a slot is two atomic words, the entry
//! and the key xor the entry, so a slot torn by two threads writing at once fails the key test
//! on its next read instead of giving one position another's entry.

use std::sync::atomic::{AtomicU64, Ordering};

use shakmaty::{Move, Role};

/// What the stored score says about the true score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at least this (a beta cutoff).
    Lower,
    /// The true score is at most this (no move raised alpha).
    Upper,
    /// The true score.
    Exact,
}

/// A 16-byte slot: `check` is the key xor `data`; `data` packs an entry (see `pack`).
#[derive(Debug, Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// Slots per bucket: four 16-byte slots fill a 64-byte cache line.
const BUCKET_SLOTS: usize = 4;

/// Slots that share a cache line; a key may live in any of them.
#[derive(Debug, Default)]
#[repr(align(64))]
struct Bucket {
    slots: [Slot; BUCKET_SLOTS],
}

/// An entry loses this many plies of depth, for replacement, per search since it was written.
const AGE_WEIGHT: i32 = 8;

/// A probe's answer.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    pub packed_move: u16,
    pub score: i32,
    pub eval: i32,
    /// The draft of the stored search; 0 for quiescence, -1 for an entry that holds only a
    /// move (its score rested on the path and must not be used).
    pub depth: i32,
    pub bound: Bound,
    /// The score rests on this search's path (see `Scope::ThisSearch`).
    pub this_search: bool,
    /// The score rests on a twofold (see `Scope::UntilRepeated`), whichever search stored it:
    /// a score taken from it rests on that twofold too.
    pub twofold: bool,
    /// Stored by an earlier search, the score rested on a twofold then: if the game has
    /// repeated positions since, it may have become a draw.
    pub earlier_twofold: bool,
}

impl Entry {
    /// The entry with its bound loosened so that it also holds if some positions below it
    /// have become draws worth `draw` (to the side to move): a score above the draw is then
    /// an upper bound only, one below it a lower bound, and a bound on the far side of the
    /// draw says no more than the draw itself. (Turning leaves of a game tree into draws moves
    /// its value toward the draw, and never past it.)
    ///
    /// ```
    /// use threefold::search::tt::{Bound, Entry};
    /// let e = Entry {
    ///     packed_move: 0,
    ///     score: 900,
    ///     eval: 0,
    ///     depth: 12,
    ///     bound: Bound::Exact,
    ///     this_search: false,
    ///     twofold: true,
    ///     earlier_twofold: true,
    /// };
    /// let loose = e.toward_draw(0);
    /// assert_eq!((loose.score, loose.bound), (900, Bound::Upper));
    /// let lower = Entry { bound: Bound::Lower, ..e }.toward_draw(0);
    /// assert_eq!((lower.score, lower.bound), (0, Bound::Lower));
    /// let losing = Entry { score: -300, ..e }.toward_draw(0);
    /// assert_eq!((losing.score, losing.bound), (-300, Bound::Lower));
    /// ```
    pub fn toward_draw(self, draw: i32) -> Entry {
        let (score, bound) = match (self.score.cmp(&draw), self.bound) {
            (std::cmp::Ordering::Equal, bound) => (draw, bound),
            (std::cmp::Ordering::Greater, Bound::Lower) => (draw, Bound::Lower),
            (std::cmp::Ordering::Greater, _) => (self.score, Bound::Upper),
            (std::cmp::Ordering::Less, Bound::Upper) => (draw, Bound::Upper),
            (std::cmp::Ordering::Less, _) => (self.score, Bound::Lower),
        };
        // A bound loosened toward the draw holds whatever the game repeats later: no mark.
        Entry {
            score,
            bound,
            twofold: false,
            earlier_twofold: false,
            ..self
        }
    }
}

/// An entry as stored: move, score, eval, depth (low seven bits: the draft + 1; high bit:
/// the score holds for this search only), and flags (low two bits: bound, 0 = empty; bit 2:
/// the score rests on a twofold; high five bits: the search generation).
#[derive(Debug, Clone, Copy, Default)]
struct Packed {
    packed_move: u16,
    score: i16,
    eval: i16,
    depth: u8,
    flags: u8,
}

impl Packed {
    fn to_bits(self) -> u64 {
        u64::from(self.packed_move)
            | u64::from(self.score as u16) << 16
            | u64::from(self.eval as u16) << 32
            | u64::from(self.depth) << 48
            | u64::from(self.flags) << 56
    }

    fn from_bits(bits: u64) -> Packed {
        Packed {
            packed_move: bits as u16,
            score: (bits >> 16) as u16 as i16,
            eval: (bits >> 32) as u16 as i16,
            depth: (bits >> 48) as u8,
            flags: (bits >> 56) as u8,
        }
    }

    fn is_empty(self) -> bool {
        self.flags & 3 == 0
    }

    fn generation(self) -> u8 {
        self.flags >> 3
    }

    /// Whether the score rested on a twofold.
    fn twofold(self) -> bool {
        self.flags & TWOFOLD != 0
    }

    /// The draft of the stored search (-1 for a move-only entry).
    fn draft(self) -> i32 {
        (self.depth & DRAFT_BITS) as i32 - 1
    }

    /// The draft as a search of `generation` may use it: a score stored for its own search
    /// only is, in any other search, a move-only entry.
    fn usable_draft(self, generation: u8) -> i32 {
        if self.depth & THIS_SEARCH_ONLY != 0 && self.generation() != generation {
            -1
        } else {
            self.draft()
        }
    }

    /// What the entry is worth keeping, in plies: its depth, less for each search it has aged.
    fn worth(self, generation: u8) -> i32 {
        let age = (generation.wrapping_sub(self.generation()) & GENERATIONS) as i32;
        self.draft() + 1 - AGE_WEIGHT * age
    }
}

/// The bits of `Packed::depth` that hold the draft + 1 (drafts never reach 127 plies).
const DRAFT_BITS: u8 = 0x7f;
/// The bit of `Packed::depth` that marks a score valid in the search that stored it only.
const THIS_SEARCH_ONLY: u8 = 0x80;
/// The bit of `Packed::flags` that marks a score resting on a twofold.
const TWOFOLD: u8 = 0x04;
/// The generation counts searches modulo 32 (five bits of `Packed::flags`); this is its mask.
const GENERATIONS: u8 = 0x1f;

/// How long a stored score may be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// In any later search of the position.
    Always,
    /// In any later search of the position, as a bound toward the draw once the game has
    /// repeated a position: the score rests on a second occurrence of a game position, which a
    /// third would have drawn.
    UntilRepeated,
    /// In the search that stored it only (it rests on that search's path); later searches see
    /// only the move.
    ThisSearch,
}

/// Packs a move into 16 bits: from, to and promotion piece (castling as king takes rook).
pub fn pack_move(m: Move) -> u16 {
    let from = m.from().map_or(0, |s| s as u16);
    let to = m.to() as u16;
    let promo = m.promotion().map_or(0, |r: Role| r as u16);
    from | (to << 6) | (promo << 12)
}

/// Why the table could not be given the size asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResizeError(pub String);

/// Memory the system can still give, from /proc/meminfo (None where that cannot be read).
fn available_mib() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// The table itself.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: u8,
}

const BUCKET_BYTES: usize = std::mem::size_of::<Bucket>();

impl TranspositionTable {
    /// A table of `mib` mebibytes.
    pub fn new(mib: usize) -> TranspositionTable {
        let mut tt = TranspositionTable {
            buckets: Vec::new(),
            generation: 0,
        };
        if let Err(e) = tt.resize(mib) {
            log::error!("{}", e.0);
            tt.buckets.resize_with(1024, Bucket::default);
        }
        tt
    }

    /// Changes the size; on failure the old table is kept.
    pub fn resize(&mut self, mib: usize) -> Result<(), ResizeError> {
        let count = (mib.max(1) * 1024 * 1024 / BUCKET_BYTES).max(1);
        if let Some(available) = available_mib()
            && mib > available
        {
            return Err(ResizeError(format!(
                "a {mib} MiB hash table does not fit in the {available} MiB of memory available; keeping the {} MiB table",
                self.size_mib()
            )));
        }
        let mut buckets = Vec::new();
        let current = self.size_mib();
        buckets.try_reserve_exact(count).map_err(|_| {
            ResizeError(format!(
                "cannot allocate a {mib} MiB hash table; keeping the {current} MiB table"
            ))
        })?;
        buckets.resize_with(count, Bucket::default);
        self.buckets = buckets;
        self.generation = 0;
        Ok(())
    }

    /// Size in mebibytes.
    pub fn size_mib(&self) -> usize {
        self.buckets.len() * BUCKET_BYTES / (1024 * 1024)
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        for slot in self.buckets.iter_mut().flat_map(|b| b.slots.iter_mut()) {
            *slot.check.get_mut() = 0;
            *slot.data.get_mut() = 0;
        }
        self.generation = 0;
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & GENERATIONS;
    }

    fn bucket(&self, key: u64) -> Option<&Bucket> {
        let index = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        self.buckets.get(index)
    }

    /// Asks the processor to bring `key`'s bucket into the cache, so that a probe of it a
    /// little later (the child node, after the move is made and its evaluation updated) does
    /// not wait on memory. A hint only: it changes no result.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        if let Some(bucket) = self.bucket(key) {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            // SAFETY: `_mm_prefetch` needs SSE, which every x86_64 processor has (it is part of
            // the architecture's baseline, enabled in every build for it). A prefetch reads
            // nothing into the program and cannot fault, whatever the address; this one points
            // into the table's live buckets besides.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(bucket).cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key` (None when no slot of its bucket holds it).
    fn read(&self, key: u64) -> Option<Packed> {
        let bucket = self.bucket(key)?;
        bucket.slots.iter().find_map(|slot| read_slot(slot, key).1)
    }

    /// The slot to write `key` into, and the entry it already holds for `key` if any: its own
    /// slot when present, else the empty or least worth keeping.
    fn slot_for(&self, key: u64) -> Option<(&Slot, Option<Packed>)> {
        let bucket = self.bucket(key)?;
        let mut victim = &bucket.slots[0];
        let mut victim_worth = i32::MAX;
        for slot in &bucket.slots {
            let (packed, own) = read_slot(slot, key);
            if own.is_some() {
                return Some((slot, own));
            }
            let worth = if packed.is_empty() {
                i32::MIN
            } else {
                packed.worth(self.generation)
            };
            if worth < victim_worth {
                victim = slot;
                victim_worth = worth;
            }
        }
        Some((victim, None))
    }

    /// Looks a position up.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let packed = self.read(key)?;
        let depth = packed.usable_draft(self.generation);
        let twofold = depth >= 0 && packed.twofold();
        let bound = match packed.flags & 3 {
            _ if depth < 0 => Bound::Upper,
            1 => Bound::Lower,
            2 => Bound::Upper,
            _ => Bound::Exact,
        };
        Some(Entry {
            packed_move: packed.packed_move,
            score: packed.score as i32,
            eval: packed.eval as i32,
            depth,
            bound,
            this_search: packed.depth & THIS_SEARCH_ONLY != 0,
            twofold,
            earlier_twofold: twofold && packed.generation() != self.generation,
        })
    }

    /// Stores what a search found; `score` must already be relative to the node. A `depth`
    /// of -1 keeps only the move (and eval): the score is not to be trusted elsewhere.
    /// `scope` says whether later searches may use the score.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        m: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        scope: Scope,
    ) {
        let Some((slot, existing)) = self.slot_for(key) else {
            return;
        };
        if let Some(old) = existing
            && self.keeps_score(old, depth, bound)
        {
            if let Some(m) = m {
                let kept = Packed {
                    packed_move: pack_move(m),
                    ..old
                };
                write(slot, key, kept);
            }
            return;
        }
        let packed_move = match (m, existing) {
            (Some(m), _) => pack_move(m),
            (None, Some(old)) => old.packed_move,
            (None, None) => 0,
        };
        let bound_bits = match bound {
            Bound::Lower => 1,
            Bound::Upper => 2,
            Bound::Exact => 3,
        };
        let entry = Packed {
            packed_move,
            score: score.clamp(-32_767, 32_767) as i16,
            eval: eval.clamp(-32_767, 32_767) as i16,
            depth: (depth + 1).clamp(0, DRAFT_BITS as i32) as u8
                | if scope == Scope::ThisSearch && depth >= 0 {
                    THIS_SEARCH_ONLY
                } else {
                    0
                },
            flags: bound_bits
                | if scope == Scope::UntilRepeated {
                    TWOFOLD
                } else {
                    0
                }
                | (self.generation << 3),
        };
        write(slot, key, entry);
    }

    /// True when a new result for a stored position should leave the stored score in place
    /// (and change at most the move): a move-only result over a real score, or a shallower
    /// bound over a result of this same search at least four plies deeper.
    fn keeps_score(&self, old: Packed, depth: i32, bound: Bound) -> bool {
        let old_depth = old.usable_draft(self.generation);
        if depth < 0 {
            return old_depth >= 0;
        }
        old.generation() == self.generation && bound != Bound::Exact && depth + 4 <= old_depth
    }

    /// Permille of the first thousand slots used in the current search.
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(1000 / BUCKET_SLOTS) * BUCKET_SLOTS;
        let used = self.buckets[..sample / BUCKET_SLOTS]
            .iter()
            .flat_map(|b| b.slots.iter())
            .map(|s| Packed::from_bits(s.data.load(Ordering::Relaxed)))
            .filter(|p| !p.is_empty() && p.generation() == self.generation)
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

/// What a slot holds, and that same entry again when it belongs to `key`.
fn read_slot(slot: &Slot, key: u64) -> (Packed, Option<Packed>) {
    let data = slot.data.load(Ordering::Relaxed);
    let check = slot.check.load(Ordering::Relaxed);
    let packed = Packed::from_bits(data);
    let own = check ^ data == key && !packed.is_empty();
    (packed, own.then_some(packed))
}

/// Writes an entry with its check word.
fn write(slot: &Slot, key: u64, entry: Packed) {
    let data = entry.to_bits();
    slot.data.store(data, Ordering::Relaxed);
    slot.check.store(key ^ data, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_through_the_packed_word() {
        let tt = TranspositionTable::new(1);
        tt.store(
            0x1234_5678_9abc_def0,
            None,
            -31_000,
            250,
            17,
            Bound::Lower,
            Scope::Always,
        );
        let e = tt.probe(0x1234_5678_9abc_def0).expect("stored");
        assert_eq!(
            (e.score, e.eval, e.depth, e.bound),
            (-31_000, 250, 17, Bound::Lower)
        );
        assert!(tt.probe(0x1234_5678_9abc_def1).is_none());
    }

    #[test]
    fn a_torn_slot_is_a_miss() {
        let tt = TranspositionTable::new(1);
        let key = 0xdead_beef_0000_0001;
        tt.store(key, None, 10, 20, 5, Bound::Exact, Scope::Always);
        let (slot, own) = tt.slot_for(key).expect("slot");
        assert!(own.is_some());
        // Another thread's half-finished write: the entry word changed, the check word did not.
        slot.data.store(
            Packed {
                depth: 9,
                flags: 3,
                ..Packed::default()
            }
            .to_bits(),
            Ordering::Relaxed,
        );
        assert!(tt.probe(key).is_none());
    }

    #[test]
    fn a_bucket_keeps_four_positions_and_gives_way_by_depth_and_age() {
        let mut tt = TranspositionTable::new(1);
        // Keys that differ only in their low bits share a bucket.
        let key = |i: u64| 0x4000_0000_0000_0000 | i;
        for i in 0..4 {
            tt.store(
                key(i),
                None,
                0,
                0,
                10 + i as i32,
                Bound::Exact,
                Scope::Always,
            );
        }
        assert!((0..4).all(|i| tt.probe(key(i)).is_some()));
        // Two searches later a shallow new entry replaces the shallowest old one...
        tt.new_search();
        tt.new_search();
        tt.store(key(4), None, 0, 0, 1, Bound::Exact, Scope::Always);
        assert!(tt.probe(key(0)).is_none());
        // ...and the next one the next shallowest old one, not the fresh shallow entry.
        tt.store(key(5), None, 0, 0, 1, Bound::Exact, Scope::Always);
        assert!(tt.probe(key(1)).is_none());
        assert!([2, 3, 4, 5].iter().all(|&i| tt.probe(key(i)).is_some()));
    }

    #[test]
    fn a_score_for_this_search_is_only_a_move_in_the_next() {
        let mut tt = TranspositionTable::new(1);
        let key = 0x0123_4567_89ab_cdef;
        tt.store(key, None, 0, 40, 9, Bound::Exact, Scope::ThisSearch);
        let now = tt.probe(key).expect("stored");
        assert_eq!((now.score, now.depth, now.bound), (0, 9, Bound::Exact));
        tt.new_search();
        let later = tt.probe(key).expect("still there");
        assert_eq!((later.depth, later.bound), (-1, Bound::Upper));
        assert_eq!(
            later.eval, 40,
            "the evaluation is the position's own and stays usable"
        );
        // A real score of the new search replaces it, even a shallow one.
        tt.store(key, None, 25, 40, 1, Bound::Lower, Scope::Always);
        let e = tt.probe(key).expect("stored");
        assert_eq!((e.score, e.depth, e.bound), (25, 1, Bound::Lower));
    }

    #[test]
    fn a_score_resting_on_a_twofold_is_marked_for_later_searches_only() {
        let mut tt = TranspositionTable::new(1);
        let key = 0x0f0f_1234_5678_9999;
        tt.store(key, None, 700, 40, 8, Bound::Exact, Scope::UntilRepeated);
        let now = tt.probe(key).expect("stored");
        assert!(!now.earlier_twofold, "its own search uses it as it is");
        assert_eq!((now.score, now.depth, now.bound), (700, 8, Bound::Exact));
        tt.new_search();
        let later = tt.probe(key).expect("still there");
        assert!(later.earlier_twofold);
        assert_eq!(
            (later.score, later.depth, later.bound),
            (700, 8, Bound::Exact)
        );
        let loose = later.toward_draw(0);
        assert_eq!((loose.score, loose.bound), (700, Bound::Upper));
        // A score that rested on no twofold is never marked.
        tt.store(key, None, 700, 40, 9, Bound::Exact, Scope::Always);
        tt.new_search();
        assert!(!tt.probe(key).expect("stored").earlier_twofold);
    }

    #[test]
    fn the_generation_wraps_in_five_bits() {
        let mut tt = TranspositionTable::new(1);
        let key = 0x7777_0000_0000_0001;
        tt.store(key, None, 5, 0, 3, Bound::Exact, Scope::ThisSearch);
        for _ in 0..31 {
            tt.new_search();
            assert_eq!(tt.probe(key).map(|e| e.depth), Some(-1));
        }
        assert_eq!(tt.generation, 31);
        tt.new_search();
        assert_eq!(tt.generation, 0, "32 searches later the counter is back");
    }

    #[test]
    fn a_move_only_entry_never_overwrites_a_score() {
        let tt = TranspositionTable::new(1);
        let key = 0x1111_2222_3333_4444;
        tt.store(key, None, 55, 7, 6, Bound::Lower, Scope::Always);
        tt.store(key, None, 0, 7, -1, Bound::Upper, Scope::Always);
        let e = tt.probe(key).expect("stored");
        assert_eq!((e.score, e.depth, e.bound), (55, 6, Bound::Lower));
        // A quiescence result (depth 0) is a real score, above a move-only entry.
        let other = 0x5555_6666_7777_8888;
        tt.store(other, None, 0, 7, -1, Bound::Upper, Scope::Always);
        assert_eq!(tt.probe(other).map(|e| e.depth), Some(-1));
        tt.store(other, None, 30, 7, 0, Bound::Exact, Scope::Always);
        assert_eq!(tt.probe(other).map(|e| (e.score, e.depth)), Some((30, 0)));
    }
}
