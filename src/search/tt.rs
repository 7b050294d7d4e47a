//! The transposition table: what earlier searches learned about positions, indexed by key.
//!
//! Scores are stored relative to the node (see `score::to_table`). Draws by repetition are
//! never stored at the node where they are detected, since they depend on the path.

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

/// A 16-byte slot.
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    key: u64,
    packed_move: u16,
    score: i16,
    eval: i16,
    depth: u8,
    /// Low two bits: bound (0 = empty); high six bits: the search generation.
    flags: u8,
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
            tt.slots = vec![Slot::default(); 1024];
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
                "a {mib} MiB hash table does not fit in the {available} MiB of memory available; keeping the old size"
            )));
        }
        let mut slots = Vec::new();
        slots.try_reserve_exact(count).map_err(|_| {
            ResizeError(format!(
                "cannot allocate a {mib} MiB hash table; keeping the old size"
            ))
        })?;
        slots.resize(count, Slot::default());
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
        self.slots.fill(Slot::default());
        self.generation = 0;
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 0x3f;
    }

    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }

    /// Looks a position up.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slots.get(self.index(key))?;
        if slot.key != key || slot.flags & 3 == 0 {
            return None;
        }
        let bound = match slot.flags & 3 {
            1 => Bound::Lower,
            2 => Bound::Upper,
            _ => Bound::Exact,
        };
        Some(Entry {
            packed_move: slot.packed_move,
            score: slot.score as i32,
            eval: slot.eval as i32,
            depth: slot.depth as i32,
            bound,
        })
    }

    /// Stores what a search found; `score` must already be relative to the node.
    pub fn store(
        &mut self,
        key: u64,
        m: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let index = self.index(key);
        let generation = self.generation;
        let Some(slot) = self.slots.get_mut(index) else {
            return;
        };
        let same = slot.key == key;
        if same && depth == 0 && slot.depth > 0 && slot.flags & 3 != 0 {
            // A move-only entry (a path-dependent result) keeps a deeper score already there.
            if let Some(m) = m {
                slot.packed_move = pack_move(m);
            }
            return;
        }
        let stale = slot.flags >> 2 != generation;
        if !same && !stale && depth + 2 < slot.depth as i32 && bound != Bound::Exact {
            return;
        }
        let packed_move = match m {
            Some(m) => pack_move(m),
            None if same => slot.packed_move,
            None => 0,
        };
        let bound_bits = match bound {
            Bound::Lower => 1,
            Bound::Upper => 2,
            Bound::Exact => 3,
        };
        *slot = Slot {
            key,
            packed_move,
            score: score.clamp(-32_767, 32_767) as i16,
            eval: eval.clamp(-32_767, 32_767) as i16,
            depth: depth.clamp(0, 255) as u8,
            flags: bound_bits | (generation << 2),
        };
    }

    /// Permille of the first thousand slots used in the current search.
    pub fn hashfull(&self) -> u32 {
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
            .filter(|s| s.flags & 3 != 0 && s.flags >> 2 == self.generation)
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}
