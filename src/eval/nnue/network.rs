//! The network file: loading and validation. The format (header, layout, quantisation, the
//! evaluation formula and the refusals) is described once, in `nnue/FORMAT.md`; the constants
//! below are its numbers.

use std::fmt;

use super::features::{INPUTS, InputLayout};

/// The file's first four bytes.
pub const MAGIC: [u8; 4] = *b"TFNN";
/// The newest format version this code reads and writes: version 2 adds output buckets,
/// version 3 the input layout (mirrored inputs). A network is written in the oldest version
/// that holds it (one output bucket and plain inputs: version 1), which older builds read too.
pub const VERSION: u32 = 3;
/// Bytes before the weights in a version 1 file (one output bucket).
pub const HEADER_BYTES_V1: usize = 24;
/// Bytes before the weights in a version 2 file: version 1's header and the bucket count.
pub const HEADER_BYTES: usize = 28;
/// Bytes before the weights in a version 3 file: version 2's header and the input layout.
pub const HEADER_BYTES_V3: usize = 32;
/// The most output buckets a network may have.
pub const MAX_BUCKETS: usize = 16;
/// The largest hidden size accepted.
pub const MAX_HIDDEN: usize = 4096;
/// Hidden sizes are multiples of this (a vector of i16 lanes).
pub const HIDDEN_STEP: usize = 16;
/// The feature layer's quantisation the trainer uses.
pub const DEFAULT_QA: i16 = 255;
/// The output layer's quantisation the trainer uses.
pub const DEFAULT_QB: i16 = 64;
/// The largest QA or QB accepted.
const MAX_Q: u32 = 1024;
/// The largest output scale accepted.
const MAX_SCALE: u32 = 10_000;

/// Why a network file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetworkError {
    /// Shorter than the header.
    TooShort { length: usize },
    /// The first bytes are not `TFNN`: not a Threefold network.
    BadMagic([u8; 4]),
    /// A format version this build does not read.
    UnsupportedVersion(u32),
    /// The hidden size is 0, too large or not a multiple of 16.
    BadHiddenSize(u32),
    /// The number of output buckets is 0 or more than [`MAX_BUCKETS`].
    BadBucketCount(u32),
    /// An input layout this build does not know (version 3: 0 plain, 1 mirrored).
    UnknownLayout(u32),
    /// A quantisation constant out of range.
    BadQuantisation { qa: u32, qb: u32 },
    /// The output scale is out of range.
    BadScale(u32),
    /// The length does not match the header's hidden size.
    WrongLength { expected: usize, actual: usize },
    /// An output weight so large that `QA * w` overflows an i16.
    OutputWeightTooLarge { index: usize, value: i16 },
    /// Parts given to [`Network::from_parts`] of the wrong lengths.
    WrongParts(&'static str),
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::TooShort { length } => write!(
                f,
                "{length} bytes is shorter than a network header ({HEADER_BYTES_V1} bytes)"
            ),
            NetworkError::BadMagic(magic) => write!(
                f,
                "not a Threefold network (starts with {magic:02x?}, expected \"TFNN\")"
            ),
            NetworkError::UnsupportedVersion(v) => write!(
                f,
                "network format version {v}, this build reads versions 1 to {VERSION}"
            ),
            NetworkError::BadHiddenSize(n) => write!(
                f,
                "hidden size {n}: must be a multiple of {HIDDEN_STEP} from {HIDDEN_STEP} to {MAX_HIDDEN}"
            ),
            NetworkError::BadBucketCount(b) => {
                write!(f, "{b} output buckets: must be from 1 to {MAX_BUCKETS}")
            }
            NetworkError::UnknownLayout(l) => write!(
                f,
                "input layout {l}: this build knows 0 (plain) and 1 (mirrored)"
            ),
            NetworkError::BadQuantisation { qa, qb } => write!(
                f,
                "quantisation QA {qa}, QB {qb}: each must be from 1 to {MAX_Q}"
            ),
            NetworkError::BadScale(s) => {
                write!(f, "output scale {s}: must be from 1 to {MAX_SCALE}")
            }
            NetworkError::WrongLength { expected, actual } => write!(
                f,
                "{actual} bytes, but the header's sizes need {expected} (a cut or wrong file)"
            ),
            NetworkError::OutputWeightTooLarge { index, value } => write!(
                f,
                "output weight {index} is {value}: too large for QA (|w| * QA must fit an i16)"
            ),
            NetworkError::WrongParts(what) => write!(f, "network parts of the wrong size: {what}"),
        }
    }
}

impl std::error::Error for NetworkError {}

/// A quantised network, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    buckets: usize,
    layout: InputLayout,
    qa: i16,
    qb: i16,
    scale: i32,
    feature_weights: Vec<i16>,
    feature_biases: Vec<i16>,
    output_weights: Vec<i16>,
    output_biases: Vec<i32>,
}

/// The numbers of a network, as the trainer makes them (see [`Network::from_parts`]).
#[derive(Debug, Clone)]
pub struct NetworkParts {
    pub hidden: usize,
    /// The number of output buckets (1 for a single output layer).
    pub buckets: usize,
    /// How the inputs see the board.
    pub layout: InputLayout,
    pub qa: i16,
    pub qb: i16,
    pub scale: i32,
    /// 768 x hidden, feature-major.
    pub feature_weights: Vec<i16>,
    pub feature_biases: Vec<i16>,
    /// buckets x 2 x hidden, bucket-major; in each bucket the side to move's half first.
    pub output_weights: Vec<i16>,
    /// One a bucket.
    pub output_biases: Vec<i32>,
}

/// The version [`Network::to_bytes`] writes for a net of `buckets` output buckets and its
/// input layout: the oldest that holds it (1 for one bucket and plain inputs, 2 for buckets,
/// 3 for mirrored inputs), so that older builds read what they can.
fn written_version(buckets: usize, layout: InputLayout) -> u32 {
    match (buckets, layout) {
        (_, InputLayout::Mirrored) => 3,
        (1, InputLayout::Plain) => 1,
        (_, InputLayout::Plain) => 2,
    }
}

/// The bytes before the weights in a file of `version` (1 to 3).
fn header_bytes(version: u32) -> usize {
    match version {
        1 => HEADER_BYTES_V1,
        2 => HEADER_BYTES,
        _ => HEADER_BYTES_V3,
    }
}

/// The length of the file [`Network::to_bytes`] writes for these sizes and input layout.
pub fn file_bytes(hidden: usize, buckets: usize, layout: InputLayout) -> usize {
    header_bytes(written_version(buckets, layout)) + weight_bytes(hidden, buckets)
}

/// The length of the weights and biases after the header.
fn weight_bytes(hidden: usize, buckets: usize) -> usize {
    2 * (INPUTS * hidden + hidden + 2 * hidden * buckets) + 4 * buckets
}

/// The output bucket of a position with `pieces` pieces on the board (kings included) for a
/// network with `buckets` buckets: the pieces beyond the two kings, in groups of
/// `ceil(32 / buckets)`, the last bucket taking any rest.
///
/// ```
/// use threefold::eval::nnue::output_bucket;
/// assert_eq!(output_bucket(32, 8), 7);
/// assert_eq!(output_bucket(6, 8), 1);
/// assert_eq!(output_bucket(3, 8), 0);
/// assert_eq!(output_bucket(32, 1), 0);
/// ```
pub fn output_bucket(pieces: usize, buckets: usize) -> usize {
    let group = 32usize.div_ceil(buckets.max(1));
    (pieces.saturating_sub(2) / group).min(buckets.saturating_sub(1))
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

fn i16s(bytes: &[u8]) -> Vec<i16> {
    bytes
        .chunks_exact(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]))
        .collect()
}

impl Network {
    /// Reads and validates a network file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < HEADER_BYTES_V1 {
            return Err(NetworkError::TooShort {
                length: bytes.len(),
            });
        }
        let magic = [bytes[0], bytes[1], bytes[2], bytes[3]];
        if magic != MAGIC {
            return Err(NetworkError::BadMagic(magic));
        }
        let version = u32_at(bytes, 4);
        if !(1..=VERSION).contains(&version) {
            return Err(NetworkError::UnsupportedVersion(version));
        }
        let header = header_bytes(version);
        if bytes.len() < header {
            return Err(NetworkError::TooShort {
                length: bytes.len(),
            });
        }
        let buckets = if version >= 2 {
            u32_at(bytes, HEADER_BYTES_V1)
        } else {
            1
        };
        let layout = if version >= 3 {
            let code = u32_at(bytes, HEADER_BYTES);
            InputLayout::from_code(code).ok_or(NetworkError::UnknownLayout(code))?
        } else {
            InputLayout::Plain
        };
        let hidden = u32_at(bytes, 8);
        let (qa, qb, scale) = (u32_at(bytes, 12), u32_at(bytes, 16), u32_at(bytes, 20));
        let (hidden, buckets) = check_header(hidden, buckets, qa, qb, scale)?;
        let expected = header + weight_bytes(hidden, buckets);
        if bytes.len() != expected {
            return Err(NetworkError::WrongLength {
                expected,
                actual: bytes.len(),
            });
        }
        let mut at = header;
        let mut take = |count: usize| {
            let slice = &bytes[at..at + 2 * count];
            at += 2 * count;
            i16s(slice)
        };
        let feature_weights = take(INPUTS * hidden);
        let feature_biases = take(hidden);
        let output_weights = take(2 * hidden * buckets);
        let biases_at = expected - 4 * buckets;
        let output_biases = (0..buckets)
            .map(|b| u32_at(bytes, biases_at + 4 * b) as i32)
            .collect();
        Network::from_parts(NetworkParts {
            hidden,
            buckets,
            layout,
            qa: qa as i16,
            qb: qb as i16,
            scale: scale as i32,
            feature_weights,
            feature_biases,
            output_weights,
            output_biases,
        })
    }

    /// Reads and validates a network file; the error names the file and what is wrong.
    pub fn load(path: &std::path::Path) -> Result<Network, String> {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
        Network::from_bytes(&bytes).map_err(|e| format!("'{}': {e}", path.display()))
    }

    /// A network from its numbers, validated like a file.
    pub fn from_parts(parts: NetworkParts) -> Result<Network, NetworkError> {
        let to_u32 = |v: i32| u32::try_from(v).unwrap_or(0);
        let (hidden, buckets) = check_header(
            u32::try_from(parts.hidden).unwrap_or(0),
            u32::try_from(parts.buckets).unwrap_or(0),
            to_u32(i32::from(parts.qa)),
            to_u32(i32::from(parts.qb)),
            to_u32(parts.scale),
        )?;
        if parts.feature_weights.len() != INPUTS * hidden {
            return Err(NetworkError::WrongParts("feature weights"));
        }
        if parts.feature_biases.len() != hidden {
            return Err(NetworkError::WrongParts("feature biases"));
        }
        if parts.output_weights.len() != 2 * hidden * buckets {
            return Err(NetworkError::WrongParts("output weights"));
        }
        if parts.output_biases.len() != buckets {
            return Err(NetworkError::WrongParts("output biases"));
        }
        let limit = i16::MAX / parts.qa;
        if let Some((index, &value)) = parts
            .output_weights
            .iter()
            .enumerate()
            .find(|&(_, w)| w.unsigned_abs() > limit.unsigned_abs())
        {
            return Err(NetworkError::OutputWeightTooLarge { index, value });
        }
        Ok(Network {
            hidden,
            buckets,
            layout: parts.layout,
            qa: parts.qa,
            qb: parts.qb,
            scale: parts.scale,
            feature_weights: parts.feature_weights,
            feature_biases: parts.feature_biases,
            output_weights: parts.output_weights,
            output_biases: parts.output_biases,
        })
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(file_bytes(self.hidden, self.buckets, self.layout));
        out.extend_from_slice(&MAGIC);
        let version = written_version(self.buckets, self.layout);
        for field in [
            version,
            self.hidden as u32,
            self.qa as u32,
            self.qb as u32,
            self.scale as u32,
        ] {
            out.extend_from_slice(&field.to_le_bytes());
        }
        if version >= 2 {
            out.extend_from_slice(&(self.buckets as u32).to_le_bytes());
        }
        if version >= 3 {
            out.extend_from_slice(&self.layout.code().to_le_bytes());
        }
        for list in [
            &self.feature_weights,
            &self.feature_biases,
            &self.output_weights,
        ] {
            for w in list.iter() {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        for bias in &self.output_biases {
            out.extend_from_slice(&bias.to_le_bytes());
        }
        out
    }

    /// The hidden size N.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// How the inputs see the board.
    pub fn layout(&self) -> InputLayout {
        self.layout
    }

    /// The feature layer's quantisation.
    pub fn qa(&self) -> i16 {
        self.qa
    }

    /// The output layer's quantisation.
    pub fn qb(&self) -> i16 {
        self.qb
    }

    /// Centipawns per unit of the float output.
    pub fn scale(&self) -> i32 {
        self.scale
    }

    /// The N weights of one feature.
    pub fn feature_row(&self, feature: usize) -> &[i16] {
        &self.feature_weights[feature * self.hidden..(feature + 1) * self.hidden]
    }

    /// The feature layer's biases (an accumulator's start).
    pub fn feature_biases(&self) -> &[i16] {
        &self.feature_biases
    }

    /// The network's shape in words, for the user.
    ///
    /// ```
    /// use threefold::eval::nnue::Network;
    /// assert!(Network::embedded().shape().contains("hidden neurons"));
    /// ```
    pub fn shape(&self) -> String {
        let mut shape = match self.buckets {
            1 => format!("{} hidden neurons", self.hidden),
            b => format!("{} hidden neurons, {b} output buckets", self.hidden),
        };
        if self.layout == InputLayout::Mirrored {
            shape.push_str(", mirrored inputs");
        }
        shape
    }

    /// The number of output buckets.
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// The output bucket of a position with `pieces` pieces on the board.
    pub fn bucket(&self, pieces: usize) -> usize {
        output_bucket(pieces, self.buckets)
    }

    /// A bucket's output weights for the side to move's accumulator and for the other side's.
    pub fn output_weights(&self, bucket: usize) -> (&[i16], &[i16]) {
        let n = self.hidden;
        self.output_weights[2 * n * bucket..2 * n * (bucket + 1)].split_at(n)
    }

    /// A bucket's output bias, at scale QA * QB.
    pub fn output_bias(&self, bucket: usize) -> i32 {
        self.output_biases[bucket]
    }
}

/// Checks the header's numbers; the hidden size and the bucket count as usize.
fn check_header(
    hidden: u32,
    buckets: u32,
    qa: u32,
    qb: u32,
    scale: u32,
) -> Result<(usize, usize), NetworkError> {
    let n = hidden as usize;
    if n == 0 || n > MAX_HIDDEN || !n.is_multiple_of(HIDDEN_STEP) {
        return Err(NetworkError::BadHiddenSize(hidden));
    }
    let b = buckets as usize;
    if b == 0 || b > MAX_BUCKETS {
        return Err(NetworkError::BadBucketCount(buckets));
    }
    if !(1..=MAX_Q).contains(&qa) || !(1..=MAX_Q).contains(&qb) {
        return Err(NetworkError::BadQuantisation { qa, qb });
    }
    if !(1..=MAX_SCALE).contains(&scale) {
        return Err(NetworkError::BadScale(scale));
    }
    Ok((n, b))
}
