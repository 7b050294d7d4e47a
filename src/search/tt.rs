//! The transposition table: what earlier searches learned about positions, indexed by key.
//!
//! Scores are stored relative to the node (see `score::to_table`). Draws by repetition are
//! never stored at the node where they are detected, since they depend on the path.
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

/// A probe's answer.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    pub packed_move: u16,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

/// An entry as stored: move, score, eval, depth, and flags (low two bits: bound, 0 = empty;
/// high six bits: the search generation).
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
        self.flags >> 2
    }
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
    slots: Vec<Slot>,
    generation: u8,
}

const SLOT_BYTES: usize = std::mem::size_of::<Slot>();

impl TranspositionTable {
    /// A table of `mib` mebibytes.
    pub fn new(mib: usize) -> TranspositionTable {
        let mut tt = TranspositionTable {
            slots: Vec::new(),
            generation: 0,
        };
        if let Err(e) = tt.resize(mib) {
            log::error!("{}", e.0);
            tt.slots.resize_with(1024, Slot::default);
        }
        tt
    }

    /// Changes the size; on failure the old table is kept.
    pub fn resize(&mut self, mib: usize) -> Result<(), ResizeError> {
        let count = (mib.max(1) * 1024 * 1024 / SLOT_BYTES).max(1);
        if let Some(available) = available_mib()
            && mib > available
        {
            return Err(ResizeError(format!(
                "a {mib} MiB hash table does not fit in the {available} MiB of memory available; keeping the {} MiB table",
                self.size_mib()
            )));
        }
        let mut slots = Vec::new();
        let current = self.size_mib();
        slots.try_reserve_exact(count).map_err(|_| {
            ResizeError(format!(
                "cannot allocate a {mib} MiB hash table; keeping the {current} MiB table"
            ))
        })?;
        slots.resize_with(count, Slot::default);
        self.slots = slots;
        self.generation = 0;
        Ok(())
    }

    /// Size in mebibytes.
    pub fn size_mib(&self) -> usize {
        self.slots.len() * SLOT_BYTES / (1024 * 1024)
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        for slot in &mut self.slots {
            *slot.check.get_mut() = 0;
            *slot.data.get_mut() = 0;
        }
        self.generation = 0;
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 0x3f;
    }

    fn slot(&self, key: u64) -> Option<&Slot> {
        let index = ((key as u128 * self.slots.len() as u128) >> 64) as usize;
        self.slots.get(index)
    }

    /// The entry stored for `key` (None when the slot is empty or holds another position).
    fn read(&self, key: u64) -> Option<Packed> {
        read_slot(self.slot(key)?, key).1
    }

    /// Looks a position up.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let packed = self.read(key)?;
        let bound = match packed.flags & 3 {
            1 => Bound::Lower,
            2 => Bound::Upper,
            _ => Bound::Exact,
        };
        Some(Entry {
            packed_move: packed.packed_move,
            score: packed.score as i32,
            eval: packed.eval as i32,
            depth: packed.depth as i32,
            bound,
        })
    }

    /// Stores what a search found; `score` must already be relative to the node.
    pub fn store(
        &self,
        key: u64,
        m: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let Some(slot) = self.slot(key) else {
            return;
        };
        let (victim, existing) = read_slot(slot, key);
        if let Some(old) = existing
            && depth == 0
            && old.depth > 0
        {
            // A move-only entry (a path-dependent result) keeps a deeper score already there.
            if let Some(m) = m {
                let kept = Packed {
                    packed_move: pack_move(m),
                    ..old
                };
                write(slot, key, kept);
            }
            return;
        }
        let stale = victim.is_empty() || victim.generation() != self.generation;
        if existing.is_none() && !stale && depth + 2 < victim.depth as i32 && bound != Bound::Exact
        {
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
            depth: depth.clamp(0, 255) as u8,
            flags: bound_bits | (self.generation << 2),
        };
        write(slot, key, entry);
    }

    /// Permille of the first thousand slots used in the current search.
    pub fn hashfull(&self) -> u32 {
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
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
        tt.store(0x1234_5678_9abc_def0, None, -31_000, 250, 17, Bound::Lower);
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
        tt.store(key, None, 10, 20, 5, Bound::Exact);
        let slot = tt.slot(key).expect("slot");
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
}
