//! The transposition table, shared by every search thread without locks.
//!
//! Each entry is two atomic words: the key XOR the data, and the data. A torn write (two
//! threads storing at once) makes the key check fail, so a reader never trusts a mixed
//! entry. Entries sit in buckets of four; a store replaces the same position, else the
//! shallowest or oldest entry of the bucket.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// What a stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact score.
    Exact,
    /// At least this score (a beta cut-off).
    Lower,
    /// At most this score (no move reached alpha).
    Upper,
}

/// A stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The best move's encoding (`GameMove::bits`), 0 when none.
    pub mv: u16,
    /// The score, mate scores relative to the node (see `score::to_tt`).
    pub score: i32,
    /// The static evaluation.
    pub eval: i32,
    /// The depth searched.
    pub depth: i32,
    /// What the score means.
    pub bound: Bound,
}

const BUCKET: usize = 4;
const DEPTH_OFFSET: i32 = 16;

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The table.
pub struct TranspositionTable {
    slots: Vec<Slot>,
    buckets: usize,
    generation: AtomicU8,
}

fn pack(e: &Entry, generation: u8) -> u64 {
    let bound = match e.bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    let depth = (e.depth + DEPTH_OFFSET).clamp(0, 255) as u64;
    (e.mv as u64)
        | ((e.score as i16 as u16 as u64) << 16)
        | ((e.eval as i16 as u16 as u64) << 32)
        | (depth << 48)
        | (bound << 56)
        | (((generation & 63) as u64) << 58)
}

fn unpack(d: u64) -> Option<Entry> {
    let bound = match (d >> 56) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    Some(Entry {
        mv: d as u16,
        score: (d >> 16) as u16 as i16 as i32,
        eval: (d >> 32) as u16 as i16 as i32,
        depth: ((d >> 48) & 255) as i32 - DEPTH_OFFSET,
        bound,
    })
}

fn generation_of(d: u64) -> u8 {
    ((d >> 58) & 63) as u8
}

/// Why a table of the size asked for cannot be made; nothing was allocated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableAllocError {
    /// The machine has less memory available than the table needs.
    #[error("a table of {megabytes} MB needs more memory than this machine has available ({available_mb} MB)")]
    NotAvailable {
        /// The size asked for.
        megabytes: usize,
        /// The memory available now, in MB.
        available_mb: usize,
    },
    /// The allocator refused the memory.
    #[error("the {megabytes} MB of a table of that size could not be allocated")]
    Refused {
        /// The size asked for.
        megabytes: usize,
    },
}

/// The memory the system says it can give without swapping (Linux's `MemAvailable`), in
/// bytes; `None` where it cannot tell.
fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb.saturating_mul(1024))
}

impl TranspositionTable {
    /// A table of about `megabytes` MB (at least one bucket). Aborts when the memory cannot
    /// be had: [`TranspositionTable::try_new`] says so instead.
    pub fn new(megabytes: usize) -> TranspositionTable {
        let buckets = Self::buckets_for(megabytes);
        let mut slots = Vec::with_capacity(buckets * BUCKET);
        slots.resize_with(buckets * BUCKET, Slot::default);
        Self::from_slots(slots, buckets)
    }

    /// A table of about `megabytes` MB, or why it cannot be had: more than the memory the
    /// system has available, or refused by the allocator.
    ///
    /// ```
    /// use chuhe_engine::tt::TranspositionTable;
    /// assert_eq!(TranspositionTable::try_new(1).unwrap().megabytes(), 1);
    /// assert!(TranspositionTable::try_new(usize::MAX >> 20).is_err());
    /// ```
    pub fn try_new(megabytes: usize) -> Result<TranspositionTable, TableAllocError> {
        let buckets = Self::buckets_for(megabytes);
        let bytes = (buckets * BUCKET) as u64 * std::mem::size_of::<Slot>() as u64;
        if let Some(available) = available_memory() {
            if bytes > available {
                return Err(TableAllocError::NotAvailable {
                    megabytes,
                    available_mb: (available >> 20) as usize,
                });
            }
        }
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(buckets * BUCKET)
            .map_err(|_| TableAllocError::Refused { megabytes })?;
        slots.resize_with(buckets * BUCKET, Slot::default);
        Ok(Self::from_slots(slots, buckets))
    }

    fn buckets_for(megabytes: usize) -> usize {
        let bytes = megabytes.max(1).saturating_mul(1 << 20);
        (bytes / (16 * BUCKET)).max(1)
    }

    fn from_slots(slots: Vec<Slot>, buckets: usize) -> TranspositionTable {
        TranspositionTable {
            slots,
            buckets,
            generation: AtomicU8::new(0),
        }
    }

    /// The size in MB.
    pub fn megabytes(&self) -> usize {
        (self.slots.len() * 16) >> 20
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for s in &self.slots {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &[Slot] {
        let i = ((key as u128 * self.buckets as u128) >> 64) as usize;
        &self.slots[i * BUCKET..(i + 1) * BUCKET]
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        for s in self.bucket(key) {
            let data = s.data.load(Ordering::Relaxed);
            if s.check.load(Ordering::Relaxed) ^ data == key {
                return unpack(data);
            }
        }
        None
    }

    /// Stores a result for `key`. A result without a move keeps the stored move.
    #[inline]
    pub fn store(&self, key: u64, mut entry: Entry) {
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, s) in bucket.iter().enumerate() {
            let data = s.data.load(Ordering::Relaxed);
            let stored_key = s.check.load(Ordering::Relaxed) ^ data;
            if stored_key == key || unpack(data).is_none() {
                if let Some(old) = unpack(data).filter(|_| stored_key == key) {
                    if entry.mv == 0 {
                        entry.mv = old.mv;
                    }
                    // A shallow bound (a quiescence result, say) does not replace a much
                    // deeper result of the same position.
                    if entry.bound != Bound::Exact && old.depth > entry.depth + 3 {
                        return;
                    }
                }
                victim = i;
                break;
            }
            let age = (generation.wrapping_sub(generation_of(data)) & 63) as i32;
            let value = unpack(data).map_or(-100, |e| e.depth) - 8 * age;
            if value < worst {
                worst = value;
                victim = i;
            }
        }
        let data = pack(&entry, generation);
        let s = &bucket[victim];
        s.check.store(key ^ data, Ordering::Relaxed);
        s.data.store(data, Ordering::Relaxed);
    }

    /// Permille of a sample of entries written in this search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                unpack(d).is_some() && generation_of(d) == generation
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_read_back_exactly() {
        let tt = TranspositionTable::new(1);
        let e = Entry {
            mv: 0x1234,
            score: -30_990,
            eval: 123,
            depth: 17,
            bound: Bound::Lower,
        };
        tt.store(42, e);
        assert_eq!(tt.probe(42), Some(e));
        assert_eq!(tt.probe(43), None);
        // A much shallower bound (a quiescence result) leaves the deeper result in place.
        let q = Entry {
            depth: -1,
            bound: Bound::Upper,
            mv: 0,
            ..e
        };
        tt.store(42, q);
        assert_eq!(tt.probe(42), Some(e));
        // A result of about the same depth replaces it; without a move it keeps the stored one.
        let r = Entry {
            depth: 15,
            bound: Bound::Upper,
            mv: 0,
            ..e
        };
        tt.store(42, r);
        assert_eq!(tt.probe(42), Some(Entry { mv: 0x1234, ..r }));
        tt.clear();
        assert_eq!(tt.probe(42), None);
    }

    #[test]
    fn a_full_bucket_replaces_the_shallowest_entry() {
        let tt = TranspositionTable::new(1);
        // Keys in the same bucket: the bucket is chosen by the high bits.
        let keys: Vec<u64> = (1..=5).map(|i| i as u64).collect();
        for (i, &k) in keys.iter().enumerate() {
            tt.store(
                k,
                Entry {
                    mv: 1,
                    score: 0,
                    eval: 0,
                    depth: 10 - i as i32,
                    bound: Bound::Exact,
                },
            );
        }
        // The fifth store evicted the shallowest of the first four (depth 7, key 4).
        assert!(tt.probe(1).is_some());
        assert!(tt.probe(4).is_none());
        assert!(tt.probe(5).is_some());
        assert!(tt.hashfull() <= 1000);
    }
}
