//! The network file: how a [`XiangqiNet`] is written and read.
//!
//! Little-endian throughout:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `CHUHENET` |
//! | 4 | format version (u32: 1; 2 with general-placement buckets; 3 with both views into the output) |
//! | 4 | game (u32: 1 = Xiangqi) |
//! | 4 | inputs (u32: 1260 = 14 pieces × 90 points, per bucket) |
//! | 4 | hidden units H (u32: a multiple of 16, at most [`MAX_HIDDEN`]) |
//! | 4 | formats 2 and 3: buckets B (u32: 9, [`PALACE_BUCKETS`]; format 3 also 1) |
//! | 4 | format 3: role (u32: 0 a correction to the weighted terms, 1 the whole evaluation) |
//! | 4 | `SCALE`, a hidden unit's full activation (u32) |
//! | 4 | `OUT_SCALE`, one centipawn in the output weights (u32) |
//! | 4 | description length in bytes (u32, at most [`MAX_DESCRIPTION`]) |
//! | n | description (UTF-8: how the network was trained) |
//! | 2 × B × 1260 × H | input weights `W1` (i16), row `bucket × 1260 + piece × 90 + point` (B = 1 in format 1) |
//! | 2 × H | hidden biases `B1` (i16) |
//! | 2 × H | formats 1 and 2: output weights `W2` (i16) |
//! | 4 × H | format 3: output weights `W2` (i16), the side to move's units then the other side's |
//! | 4 | format 3: output bias `B2` (i32, `SCALE × OUT_SCALE` a centipawn) |
//! | 4 | CRC-32 (IEEE) of every byte before it (u32) |
//!
//! `scripts/train_xiangqi_net.py` writes the same layout.

use std::io::Read;
use std::path::Path;

use super::{
    chunked, Kernel, Lanes, NetworkRole, XiangqiNet, INPUTS, LANES, MAX_HIDDEN, PALACE_BUCKETS,
    POINTS,
};

/// The first 8 bytes of a network file.
pub const MAGIC: [u8; 8] = *b"CHUHENET";
/// The newest format version this engine reads and writes (it reads and writes 1 and 2
/// too).
pub const FORMAT_VERSION: u32 = 3;
/// The game code of Xiangqi in the header.
pub const GAME_XIANGQI: u32 = 1;
/// The longest description accepted, in bytes.
pub const MAX_DESCRIPTION: usize = 64 * 1024;
/// The fixed header before the description, format 1.
const HEADER_LEN: usize = 8 + 7 * 4;
/// The fixed header before the description, format 2 (the bucket count added).
const HEADER_LEN_V2: usize = HEADER_LEN + 4;
/// The fixed header before the description, format 3 (the role added).
const HEADER_LEN_V3: usize = HEADER_LEN_V2 + 4;
/// The largest file worth reading: the header, the longest description, the largest
/// tables and the checksum.
const MAX_FILE_LEN: usize = HEADER_LEN_V3
    + MAX_DESCRIPTION
    + 2 * (PALACE_BUCKETS * INPUTS * MAX_HIDDEN + 3 * MAX_HIDDEN)
    + 4
    + 4;

/// Why a network file was refused. Nothing is loaded then.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    /// The file could not be read.
    #[error("cannot read the network file {path}: {reason}")]
    Unreadable {
        /// The path as given.
        path: String,
        /// The system's reason.
        reason: String,
    },
    /// The file does not start with [`MAGIC`].
    #[error("not a chuhe network file: it does not start with CHUHENET")]
    BadMagic,
    /// A format version this engine does not read.
    #[error("network file format version {found} is not supported (this engine reads versions 1 to {FORMAT_VERSION})")]
    UnsupportedVersion {
        /// The version in the file.
        found: u32,
    },
    /// A network for another game.
    #[error("the network file is for game code {found}, not Xiangqi ({GAME_XIANGQI})")]
    WrongGame {
        /// The game code in the file.
        found: u32,
    },
    /// A network of another shape than the engine evaluates.
    #[error("the network has {inputs} inputs and {hidden} hidden units; this engine's Xiangqi networks have {INPUTS} inputs and a multiple of {LANES} hidden units up to {MAX_HIDDEN}")]
    WrongArchitecture {
        /// Inputs in the file.
        inputs: u32,
        /// Hidden units in the file.
        hidden: u32,
    },
    /// Another number of buckets than the palace's points (or 1, in format 3).
    #[error("the network has {found} input buckets; this engine's Xiangqi networks have {PALACE_BUCKETS}, one per point of the palace (or 1, in format 3)")]
    WrongBuckets {
        /// Buckets in the file.
        found: u32,
    },
    /// A role code this engine does not know.
    #[error("the network's role {found} is not known (0: a correction to the weighted terms, 1: the whole evaluation)")]
    UnknownRole {
        /// The role code in the file.
        found: u32,
    },
    /// The file ends before the tables its header describes.
    #[error("the network file is truncated: {found} bytes, its header needs {needed}")]
    Truncated {
        /// The file's length.
        found: usize,
        /// The length its header describes (or the header's own length).
        needed: usize,
    },
    /// Bytes after the checksum.
    #[error("the network file has {extra} bytes after its end (expected {expected} bytes in all)")]
    Oversize {
        /// Bytes past the end.
        extra: usize,
        /// The length its header describes.
        expected: usize,
    },
    /// The content does not match its checksum: the file is damaged.
    #[error("the network file is damaged: its checksum is {stored:08x}, its content sums to {computed:08x}")]
    ChecksumMismatch {
        /// The checksum written in the file.
        stored: u32,
        /// The checksum of the content.
        computed: u32,
    },
    /// The description is too long or not UTF-8.
    #[error("the network's description {0}")]
    BadDescription(String),
    /// Scales or weights the integer evaluation cannot use exactly.
    #[error("the network cannot be evaluated exactly: {0}")]
    OutOfRange(String),
}

/// Little-endian reader over a byte slice that has been checked to be long enough.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn u32(&mut self) -> u32 {
        let mut b = [0u8; 4];
        b.copy_from_slice(&self.bytes[self.at..self.at + 4]);
        self.at += 4;
        u32::from_le_bytes(b)
    }

    /// `n` i16 values (a multiple of [`LANES`]) in chunks.
    fn lanes(&mut self, n: usize) -> Vec<Lanes> {
        let values: Vec<i16> = self.bytes[self.at..self.at + 2 * n]
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect();
        self.at += 2 * n;
        chunked(&values)
    }
}

fn read_u32_at(bytes: &[u8], at: usize) -> u32 {
    Cursor { bytes, at }.u32()
}

/// The header's fields after the game code, as read.
struct Header {
    version: u32,
    hidden: usize,
    buckets: usize,
    role: NetworkRole,
    scale: u32,
    out_scale: u32,
    description_len: usize,
    /// Where the description starts.
    len: usize,
}

/// Reads and checks the header of a file whose magic is right.
fn read_header(bytes: &[u8]) -> Result<Header, NetworkError> {
    let truncated = |needed: usize| NetworkError::Truncated {
        found: bytes.len(),
        needed,
    };
    if bytes.len() < HEADER_LEN {
        return Err(truncated(HEADER_LEN));
    }
    let mut header = Cursor {
        bytes,
        at: MAGIC.len(),
    };
    let version = header.u32();
    let len = match version {
        1 => HEADER_LEN,
        2 => HEADER_LEN_V2,
        3 => HEADER_LEN_V3,
        _ => return Err(NetworkError::UnsupportedVersion { found: version }),
    };
    if bytes.len() < len {
        return Err(truncated(len));
    }
    let game = header.u32();
    if game != GAME_XIANGQI {
        return Err(NetworkError::WrongGame { found: game });
    }
    let (inputs, hidden) = (header.u32(), header.u32());
    let hidden_ok =
        hidden as usize % LANES == 0 && (LANES..=MAX_HIDDEN).contains(&(hidden as usize));
    if inputs as usize != INPUTS || !hidden_ok {
        return Err(NetworkError::WrongArchitecture { inputs, hidden });
    }
    let buckets = if version >= 2 {
        let found = header.u32();
        match found as usize {
            PALACE_BUCKETS => PALACE_BUCKETS,
            1 if version == 3 => 1,
            _ => return Err(NetworkError::WrongBuckets { found }),
        }
    } else {
        1
    };
    let role = if version == 3 {
        match header.u32() {
            0 => NetworkRole::Correction,
            1 => NetworkRole::Evaluation,
            found => return Err(NetworkError::UnknownRole { found }),
        }
    } else {
        NetworkRole::Correction
    };
    let (scale, out_scale) = (header.u32(), header.u32());
    let description_len = header.u32() as usize;
    if description_len > MAX_DESCRIPTION {
        return Err(NetworkError::BadDescription(format!(
            "is {description_len} bytes long, more than the {MAX_DESCRIPTION} allowed"
        )));
    }
    Ok(Header {
        version,
        hidden: hidden as usize,
        buckets,
        role,
        scale,
        out_scale,
        description_len,
        len,
    })
}

impl XiangqiNet {
    /// Reads a network from the bytes of a network file (the layout is in this module's
    /// documentation). Any damage or mismatch is a typed error, never a panic.
    ///
    /// ```
    /// use chuhe_engine::eval::xiangqi_net::{NetworkError, XiangqiNet};
    /// let net = XiangqiNet::embedded();
    /// let mut bytes = net.to_bytes();
    /// assert_eq!(XiangqiNet::from_bytes(&bytes).unwrap(), *net);
    /// bytes[100] ^= 1;
    /// assert!(matches!(
    ///     XiangqiNet::from_bytes(&bytes),
    ///     Err(NetworkError::ChecksumMismatch { .. })
    /// ));
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<XiangqiNet, NetworkError> {
        if bytes.len() < MAGIC.len() {
            return Err(if MAGIC.starts_with(bytes) {
                NetworkError::Truncated {
                    found: bytes.len(),
                    needed: HEADER_LEN,
                }
            } else {
                NetworkError::BadMagic
            });
        }
        if bytes[..MAGIC.len()] != MAGIC {
            return Err(NetworkError::BadMagic);
        }
        let h = read_header(bytes)?;
        let tables_at = h.len + h.description_len;
        let outputs = if h.version == 3 { 2 } else { 1 };
        let bias_len = if h.version == 3 { 4 } else { 0 };
        let checksum_at =
            tables_at + 2 * (h.buckets * INPUTS * h.hidden + (1 + outputs) * h.hidden) + bias_len;
        let expected = checksum_at + 4;
        if bytes.len() < expected {
            return Err(NetworkError::Truncated {
                found: bytes.len(),
                needed: expected,
            });
        }
        if bytes.len() > expected {
            return Err(NetworkError::Oversize {
                extra: bytes.len() - expected,
                expected,
            });
        }
        let stored = read_u32_at(bytes, checksum_at);
        let computed = crc32fast::hash(&bytes[..checksum_at]);
        if stored != computed {
            return Err(NetworkError::ChecksumMismatch { stored, computed });
        }
        let description = std::str::from_utf8(&bytes[h.len..tables_at])
            .map_err(|e| NetworkError::BadDescription(format!("is not UTF-8: {e}")))?
            .to_owned();
        let mut tables = Cursor {
            bytes,
            at: tables_at,
        };
        let w1 = tables.lanes(h.buckets * INPUTS * h.hidden);
        let b1 = tables.lanes(h.hidden);
        let w2_first = tables.lanes(h.hidden);
        let (w2_second, b2) = if h.version == 3 {
            let second = tables.lanes(h.hidden);
            (second, tables.u32() as i32)
        } else {
            (Vec::new(), 0)
        };
        let mut net = XiangqiNet {
            format: h.version,
            hidden: h.hidden,
            buckets: h.buckets,
            role: h.role,
            w1,
            b1,
            w2_first,
            w2_second,
            b2,
            scale: 1,
            out_scale: 1,
            divisor: 1,
            description,
            checksum: stored,
            kernel: Kernel::detect(),
        };
        let (scale, divisor) = check_ranges(h.scale, h.out_scale, &net)?;
        (net.scale, net.out_scale, net.divisor) = (scale, h.out_scale as i32, divisor);
        Ok(net)
    }

    /// Reads a network file from `path` ([`XiangqiNet::from_bytes`]).
    pub fn load(path: &Path) -> Result<XiangqiNet, NetworkError> {
        let unreadable = |reason: String| NetworkError::Unreadable {
            path: path.display().to_string(),
            reason,
        };
        let file = std::fs::File::open(path).map_err(|e| unreadable(e.to_string()))?;
        // Never more than a network can hold, plus one byte to tell an oversize file.
        let mut bytes = Vec::new();
        file.take(MAX_FILE_LEN as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| unreadable(e.to_string()))?;
        XiangqiNet::from_bytes(&bytes)
    }

    /// The network as the bytes of a network file in its format: what
    /// [`XiangqiNet::from_bytes`] reads.
    pub fn to_bytes(&self) -> Vec<u8> {
        let tables = 2 * (self.w1.len() + 3 * self.b1.len()) * LANES;
        let mut out = Vec::with_capacity(HEADER_LEN_V3 + self.description.len() + tables + 8);
        out.extend_from_slice(&MAGIC);
        let description = self.description.as_bytes();
        let mut fields = vec![self.format, GAME_XIANGQI, INPUTS as u32, self.hidden as u32];
        if self.format >= 2 {
            fields.push(self.buckets as u32);
        }
        if self.format == 3 {
            fields.push(match self.role {
                NetworkRole::Correction => 0,
                NetworkRole::Evaluation => 1,
            });
        }
        fields.extend([
            self.scale as u32,
            self.out_scale as u32,
            description.len() as u32,
        ]);
        for field in fields {
            out.extend_from_slice(&field.to_le_bytes());
        }
        out.extend_from_slice(description);
        let mut rows: Vec<&[Lanes]> = vec![&self.w1, &self.b1, &self.w2_first];
        if self.format == 3 {
            rows.push(&self.w2_second);
        }
        for chunk in rows.into_iter().flatten() {
            for v in chunk.0 {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        if self.format == 3 {
            out.extend_from_slice(&self.b2.to_le_bytes());
        }
        let checksum = crc32fast::hash(&out);
        out.extend_from_slice(&checksum.to_le_bytes());
        out
    }
}

/// Checks that the integer evaluation is exact for `net`'s tables and returns the hidden
/// scale and the output divisor (`SCALE × OUT_SCALE`):
///
/// - every hidden sum fits an i16 lane whatever the placement: the bias plus, for each
///   point, the largest weight any piece has there (one piece per point) stays within
///   ±32767 in every bucket's table — the same bound holds seen from Black, who sees the
///   same points;
/// - the output sum fits an i32: `H × SCALE × max |W2|` < 2³¹ (formats 1 and 2, whose two
///   views' activations are subtracted), `2 × H × SCALE × max |W2| + |B2|` < 2³¹ (format 3).
fn check_ranges(scale: u32, out_scale: u32, net: &XiangqiNet) -> Result<(i16, i32), NetworkError> {
    let scale_i16 = i16::try_from(scale)
        .ok()
        .filter(|&s| s > 0)
        .ok_or_else(|| {
            NetworkError::OutOfRange(format!("SCALE {scale} is not within 1..=32767"))
        })?;
    let divisor = i64::from(scale) * i64::from(out_scale);
    if out_scale == 0 || divisor > i64::from(i32::MAX) {
        return Err(NetworkError::OutOfRange(format!(
            "OUT_SCALE {out_scale} is 0 or SCALE × OUT_SCALE exceeds 2^31"
        )));
    }
    let n = net.chunks();
    let lane = |table: &[Lanes], row: usize, h: usize| table[row * n + h / LANES].0[h % LANES];
    for (bucket, table) in net.w1.chunks(INPUTS * n).enumerate() {
        for h in 0..net.hidden {
            let mut bound = i64::from(lane(&net.b1, 0, h)).abs();
            for point in 0..POINTS {
                bound += (0..INPUTS / POINTS)
                    .map(|piece| i64::from(lane(table, piece * POINTS + point, h)).abs())
                    .max()
                    .unwrap_or(0);
            }
            if bound > i64::from(i16::MAX) {
                let in_bucket = if net.buckets > 1 {
                    format!(" in bucket {bucket}")
                } else {
                    String::new()
                };
                return Err(NetworkError::OutOfRange(format!(
                    "hidden unit {h}{in_bucket} could reach {bound}, beyond the 16-bit sums (32767)"
                )));
            }
        }
    }
    let w2_max = net
        .w2_first
        .iter()
        .chain(&net.w2_second)
        .flat_map(|c| c.0)
        .map(|w| i64::from(w).abs())
        .max()
        .unwrap_or(0);
    let views = if net.format == 3 { 2 } else { 1 };
    let output_bound =
        views * net.hidden as i64 * i64::from(scale) * w2_max + i64::from(net.b2).abs();
    if output_bound >= 1 << 31 {
        return Err(NetworkError::OutOfRange(format!(
            "the output sum could reach {output_bound}, beyond 32 bits"
        )));
    }
    Ok((scale_i16, divisor as i32))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::tests::{format_1, FORMAT_1_FILE};
    use super::super::EMBEDDED_FILE;
    use super::*;

    /// A format-1 file with `edit` applied to its bytes and the checksum written again, so
    /// that only the edit is wrong.
    fn edited(edit: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
        let mut bytes = FORMAT_1_FILE.to_vec();
        bytes.truncate(bytes.len() - 4);
        edit(&mut bytes);
        let checksum = crc32fast::hash(&bytes);
        bytes.extend_from_slice(&checksum.to_le_bytes());
        bytes
    }

    fn set_u32(bytes: &mut [u8], at: usize, value: u32) {
        bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
    }

    #[test]
    fn the_embedded_file_reads_and_writes_back_the_same_bytes() {
        for file in [EMBEDDED_FILE, FORMAT_1_FILE] {
            let net = XiangqiNet::from_bytes(file).unwrap();
            assert_eq!(net.to_bytes(), file);
            assert!(net.description().contains("hidden units"));
            assert_eq!((net.scale(), net.out_scale()), (512, 16));
        }
    }

    #[test]
    fn each_fault_has_its_own_error() {
        let read = |bytes: &[u8]| XiangqiNet::from_bytes(bytes).unwrap_err();
        assert_eq!(read(b"PK\x03\x04 a zip file"), NetworkError::BadMagic);
        assert_eq!(
            read(b""),
            NetworkError::Truncated {
                found: 0,
                needed: HEADER_LEN
            }
        );
        assert!(matches!(
            read(&EMBEDDED_FILE[..20]),
            NetworkError::Truncated { .. }
        ));
        let version = edited(|b| set_u32(b, 8, 4));
        assert_eq!(
            read(&version),
            NetworkError::UnsupportedVersion { found: 4 }
        );
        let game = edited(|b| set_u32(b, 12, 7));
        assert_eq!(read(&game), NetworkError::WrongGame { found: 7 });
        for hidden in [0, 100, 1024] {
            let edited = edited(|b| set_u32(b, 20, hidden));
            assert_eq!(
                read(&edited),
                NetworkError::WrongArchitecture {
                    inputs: 1260,
                    hidden
                }
            );
        }
        let long = edited(|b| set_u32(b, 32, MAX_DESCRIPTION as u32 + 1));
        assert!(matches!(read(&long), NetworkError::BadDescription(_)));
        let cut = &EMBEDDED_FILE[..EMBEDDED_FILE.len() - 1];
        assert!(matches!(read(cut), NetworkError::Truncated { .. }));
        let mut longer = EMBEDDED_FILE.to_vec();
        longer.push(0);
        assert!(matches!(
            read(&longer),
            NetworkError::Oversize { extra: 1, .. }
        ));
        let mut flipped = EMBEDDED_FILE.to_vec();
        flipped[HEADER_LEN + 5000] ^= 0x10;
        assert!(matches!(
            read(&flipped),
            NetworkError::ChecksumMismatch { .. }
        ));
        // A first input weight so large that the 16-bit sums could overflow.
        let at = HEADER_LEN + read_u32_at(FORMAT_1_FILE, 32) as usize;
        let big = edited(|b| b[at..at + 2].copy_from_slice(&30_000i16.to_le_bytes()));
        let message = read(&big).to_string();
        assert!(message.contains("hidden unit 0 could reach"), "{message}");
        let scale = edited(|b| set_u32(b, 24, 0));
        assert!(matches!(read(&scale), NetworkError::OutOfRange(_)));
    }

    /// Format 2: the header carries the bucket count, the tables one input table per
    /// bucket, and the file reads back to the same network and the same bytes.
    #[test]
    fn a_bucketed_network_is_written_in_format_2() {
        let net = super::super::tests::bucketed();
        let bytes = net.to_bytes();
        assert_eq!(read_u32_at(&bytes, 8), 2, "format version");
        assert_eq!(read_u32_at(&bytes, 24), PALACE_BUCKETS as u32, "buckets");
        let description = read_u32_at(&bytes, 36) as usize;
        assert_eq!(
            bytes.len(),
            HEADER_LEN_V2 + description + 2 * (PALACE_BUCKETS * INPUTS * 64 + 2 * 64) + 4
        );
        let read = XiangqiNet::from_bytes(&bytes).unwrap();
        assert_eq!(read, net);
        assert_eq!(read.buckets(), PALACE_BUCKETS);
        assert_eq!(read.to_bytes(), bytes);
        assert_eq!(format_1().buckets(), 1);

        let mut wrong = bytes[..bytes.len() - 4].to_vec();
        wrong[24..28].copy_from_slice(&4u32.to_le_bytes());
        let checksum = crc32fast::hash(&wrong);
        wrong.extend_from_slice(&checksum.to_le_bytes());
        assert_eq!(
            XiangqiNet::from_bytes(&wrong).unwrap_err(),
            NetworkError::WrongBuckets { found: 4 }
        );
        assert_eq!(
            XiangqiNet::from_bytes(&bytes[..HEADER_LEN_V2 - 1]).unwrap_err(),
            NetworkError::Truncated {
                found: HEADER_LEN_V2 - 1,
                needed: HEADER_LEN_V2
            }
        );
        assert!(matches!(
            XiangqiNet::from_bytes(&bytes[..bytes.len() / 2]),
            Err(NetworkError::Truncated { .. })
        ));
    }

    /// Format 3: the header carries the buckets (9 or 1) and the role; the tables both
    /// views' output weights and the output bias. Each field out of range has its error.
    #[test]
    fn a_format_3_file_has_its_header_and_its_errors() {
        use super::super::tests::perspective;
        let net = perspective(32, 1, NetworkRole::Evaluation);
        let bytes = net.to_bytes();
        assert_eq!(read_u32_at(&bytes, 8), 3, "format version");
        assert_eq!(read_u32_at(&bytes, 20), 32, "hidden units");
        assert_eq!(read_u32_at(&bytes, 24), 1, "buckets");
        assert_eq!(read_u32_at(&bytes, 28), 1, "role");
        let description = read_u32_at(&bytes, 40) as usize;
        assert_eq!(
            bytes.len(),
            HEADER_LEN_V3 + description + 2 * (INPUTS * 32 + 3 * 32) + 4 + 4
        );
        let rewritten = |at: usize, value: u32| {
            let mut b = bytes[..bytes.len() - 4].to_vec();
            set_u32(&mut b, at, value);
            let checksum = crc32fast::hash(&b);
            b.extend_from_slice(&checksum.to_le_bytes());
            XiangqiNet::from_bytes(&b)
        };
        assert_eq!(
            rewritten(28, 2).unwrap_err(),
            NetworkError::UnknownRole { found: 2 }
        );
        assert_eq!(
            rewritten(24, 4).unwrap_err(),
            NetworkError::WrongBuckets { found: 4 }
        );
        let corrected = rewritten(28, 0).unwrap();
        assert_eq!(corrected.role(), NetworkRole::Correction);
        // A format-2 network must have the palace's buckets.
        let mut flat = super::super::tests::bucketed();
        flat.w1.truncate(flat.w1.len() / PALACE_BUCKETS);
        flat.buckets = 1;
        assert_eq!(
            XiangqiNet::from_bytes(&flat.to_bytes()).unwrap_err(),
            NetworkError::WrongBuckets { found: 1 }
        );
        // An output bias beyond what 32 bits can add to the sums.
        let at = bytes.len() - 8;
        let mut big = bytes[..at].to_vec();
        big.extend_from_slice(&i32::MAX.to_le_bytes());
        let checksum = crc32fast::hash(&big);
        big.extend_from_slice(&checksum.to_le_bytes());
        let message = XiangqiNet::from_bytes(&big).unwrap_err().to_string();
        assert!(message.contains("the output sum could reach"), "{message}");
        assert!(matches!(
            XiangqiNet::from_bytes(&bytes[..HEADER_LEN_V3 - 1]),
            Err(NetworkError::Truncated { .. })
        ));
    }

    #[test]
    fn an_unreadable_file_names_its_path() {
        let e = XiangqiNet::load(Path::new("/no/such/dir/net.nnue")).unwrap_err();
        assert!(matches!(e, NetworkError::Unreadable { .. }));
        assert!(e.to_string().contains("/no/such/dir/net.nnue"), "{e}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn random_bytes_are_refused_without_panic(
            bytes in proptest::collection::vec(any::<u8>(), 0..600),
            keep_magic in any::<bool>(),
        ) {
            let mut bytes = bytes;
            if keep_magic && bytes.len() >= HEADER_LEN {
                bytes[..HEADER_LEN].copy_from_slice(&EMBEDDED_FILE[..HEADER_LEN]);
            }
            prop_assert!(XiangqiNet::from_bytes(&bytes).is_err());
        }

        #[test]
        fn a_cut_file_is_truncated(len in 0..EMBEDDED_FILE.len()) {
            let is_truncated = matches!(
                XiangqiNet::from_bytes(&EMBEDDED_FILE[..len]),
                Err(NetworkError::Truncated { .. })
            );
            prop_assert!(is_truncated);
        }

        #[test]
        fn a_flipped_bit_is_refused(at in 0..EMBEDDED_FILE.len(), bit in 0u8..8) {
            let mut bytes = EMBEDDED_FILE.to_vec();
            bytes[at] ^= 1 << bit;
            prop_assert!(XiangqiNet::from_bytes(&bytes).is_err());
        }

        #[test]
        fn bytes_after_the_end_are_refused(extra in proptest::collection::vec(any::<u8>(), 1..64)) {
            let mut bytes = EMBEDDED_FILE.to_vec();
            bytes.extend_from_slice(&extra);
            let is_oversize = matches!(
                XiangqiNet::from_bytes(&bytes),
                Err(NetworkError::Oversize { .. })
            );
            prop_assert!(is_oversize);
        }
    }
}
