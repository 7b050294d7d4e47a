//! Checkpoints: the float network and the optimiser's state after an epoch, so that
//! `threefold train --resume FILE` continues where a run stopped.
//!
//! Layout, little-endian: magic `TFCK`, version (u32, 3), hidden size (u32), epochs done
//! (u32), optimiser steps (u64), output buckets (u32), input layout (u32: 0 plain, 1
//! mirrored), then the parameters, AdamW's means and its variances (f32 each,
//! `FloatNet::parameter_count` of each). Version 1 had no bucket count (one bucket), version 2
//! no input layout (plain); both are still read. Written to a temporary file and renamed, so a run
//! killed while writing leaves the previous checkpoint whole.

use std::path::Path;

use super::net::FloatNet;
use super::optim::AdamW;
use crate::eval::nnue::{self, InputLayout};

const MAGIC: [u8; 4] = *b"TFCK";
const VERSION: u32 = 3;
const HEADER_BYTES_V1: usize = 24;
const HEADER_BYTES_V2: usize = 28;
const HEADER_BYTES: usize = 32;

/// A training run's state between epochs.
#[derive(Debug, Clone, PartialEq)]
pub struct Checkpoint {
    pub net: FloatNet,
    pub optimiser: AdamW,
    pub epochs_done: usize,
}

impl Checkpoint {
    pub fn to_bytes(&self) -> Vec<u8> {
        let count = self.net.params.len();
        let mut out = Vec::with_capacity(HEADER_BYTES + 12 * count);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.net.hidden as u32).to_le_bytes());
        out.extend_from_slice(&(self.epochs_done as u32).to_le_bytes());
        out.extend_from_slice(&self.optimiser.steps.to_le_bytes());
        out.extend_from_slice(&(self.net.buckets as u32).to_le_bytes());
        out.extend_from_slice(&self.net.layout.code().to_le_bytes());
        for list in [
            &self.net.params,
            &self.optimiser.mean,
            &self.optimiser.variance,
        ] {
            for x in list.iter() {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        out
    }

    /// Reads a checkpoint; `weight_decay` is the run's option (not stored).
    pub fn from_bytes(bytes: &[u8], weight_decay: f32) -> Result<Checkpoint, String> {
        if bytes.len() < HEADER_BYTES_V1 || bytes[0..4] != MAGIC {
            return Err("not a Threefold training checkpoint".into());
        }
        let u32_at = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let (header, buckets, layout) = match u32_at(4) {
            1 => (HEADER_BYTES_V1, 1, 0),
            2 if bytes.len() >= HEADER_BYTES_V2 => (HEADER_BYTES_V2, u32_at(24) as usize, 0),
            3 if bytes.len() >= HEADER_BYTES => (HEADER_BYTES, u32_at(24) as usize, u32_at(28)),
            2 | 3 => return Err("a cut checkpoint".into()),
            version => {
                return Err(format!(
                    "checkpoint version {version}, this build reads 1 to {VERSION}"
                ));
            }
        };
        let layout = InputLayout::from_code(layout)
            .ok_or_else(|| format!("checkpoint of input layout {layout}"))?;
        let hidden = u32_at(8) as usize;
        let epochs_done = u32_at(12) as usize;
        let mut steps = [0u8; 8];
        steps.copy_from_slice(&bytes[16..24]);
        if hidden == 0 || hidden > nnue::MAX_HIDDEN || !(1..=nnue::MAX_BUCKETS).contains(&buckets) {
            return Err(format!(
                "checkpoint of hidden size {hidden} and {buckets} output buckets"
            ));
        }
        let count = FloatNet::parameter_count(hidden, buckets);
        if bytes.len() != header + 12 * count {
            return Err(format!(
                "checkpoint of {} bytes does not match its hidden size {hidden} and {buckets} buckets",
                bytes.len()
            ));
        }
        let floats = |i: usize| -> Vec<f32> {
            bytes[header + 4 * count * i..header + 4 * count * (i + 1)]
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect()
        };
        let mut optimiser = AdamW::new(count, weight_decay);
        optimiser.steps = u64::from_le_bytes(steps);
        optimiser.mean = floats(1);
        optimiser.variance = floats(2);
        Ok(Checkpoint {
            net: FloatNet {
                hidden,
                buckets,
                layout,
                params: floats(0),
            },
            optimiser,
            epochs_done,
        })
    }

    /// Writes the checkpoint (through a temporary file and a rename).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        write_atomically(path, &self.to_bytes())
    }

    pub fn load(path: &Path, weight_decay: f32) -> Result<Checkpoint, String> {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Checkpoint::from_bytes(&bytes, weight_decay).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// Writes `bytes` to `path` through `path.tmp` and a rename.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    std::fs::write(&tmp, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checkpoint_round_trips_and_a_cut_one_is_refused() {
        let net = FloatNet::random(16, 8, 3);
        let mut optimiser = AdamW::new(net.params.len(), 0.01);
        let mut params = net.params.clone();
        let grad: Vec<f32> = (0..params.len()).map(|i| (i % 7) as f32 - 3.0).collect();
        optimiser.step(&mut params, &grad, 0.001);
        let checkpoint = Checkpoint {
            net: FloatNet {
                hidden: 16,
                buckets: 8,
                layout: InputLayout::Mirrored,
                params,
            },
            optimiser,
            epochs_done: 4,
        };
        let bytes = checkpoint.to_bytes();
        assert_eq!(Checkpoint::from_bytes(&bytes, 0.01), Ok(checkpoint));
        assert!(Checkpoint::from_bytes(&bytes[..bytes.len() - 1], 0.01).is_err());
        assert!(Checkpoint::from_bytes(b"TFNN", 0.01).is_err());
    }
}
