//! Multi-scalar multiplication: sum_i s_i P_i over n terms, the core of
//! zero-knowledge provers (most of a Groth16 proof's time), on BN254's G1
//! and BLS12-381's G1 and G2.
//!
//! Encodings (one call: points back to back, scalars back to back), each
//! point uncompressed or compressed ([`Encoding`], one for the call):
//!
//! | curve | uncompressed | bytes | compressed | bytes |
//! |---|---|---|---|---|
//! | `bn254-g1` | x ‖ y, 32-byte big-endian words; (0, 0) is the identity (EIP-196's form) | 64 | arkworks' (`CanonicalSerialize`, the oracle's): x little-endian, bit 7 of the last byte set when y is the larger of y and p - y, bit 6 the identity (x then any value below p: arkworks reads it as the identity) | 32 |
//! | `bls12-381-g1` | blst's (ZCash's) form: x ‖ y, 48-byte big-endian; the identity is the 0x40 flag and zeros | 96 | ZCash's: x with the flags 0x80 (compressed), 0x40 (identity, then zeros), 0x20 (y the larger) | 48 |
//! | `bls12-381-g2` | the same for G2: x.c1 ‖ x.c0 ‖ y.c1 ‖ y.c0 | 192 | the same: x.c1 ‖ x.c0 with the flags | 96 |
//!
//! No standard fixes a compressed BN254 point: arkworks' form is the one
//! its Rust provers write (gnark and snarkjs have big-endian ones of their
//! own). A compressed point costs a square root to decode.
//!
//! Scalars are 32 bytes little-endian, any 256-bit value (as the group has
//! prime order r, s and s mod r give the same term). The sum is returned
//! in the points' encoding. Every point must decode (coordinates
//! below p, valid flags: else `malformed_point`), lie on its curve
//! (compressed: some y has x; else `not_on_curve`)
//! and, on BLS12-381, in the prime-order subgroup
//! (`point_not_in_subgroup`, as EIP-2537's MSM requires; BN254's G1 has
//! cofactor 1): the first point that fails, in order, is the answer's
//! reason. Zero terms sum to the identity.
//!
//! Oracles: arkworks' `VariableBaseMSM` (BN254), blst's Pippenger
//! (BLS12-381). The CPU path: BN254 split into chunks summed on all cores
//! by arkworks; BLS12-381 by blst's Pippenger, which splits a large sum over
//! blst's own threads. The GPU path (`gpu.rs`, `pippenger.wgsl`): the
//! same checks on the CPU cores, then Pippenger's buckets on the device,
//! one kernel for the three groups with the group as a parameter.

pub(crate) mod bases;
pub(crate) mod blst_sum;
pub(crate) mod cpu;
#[cfg(feature = "wgpu")]
pub(crate) mod gpu;
pub mod oracle;
pub mod sample;
pub(crate) mod scalars;
pub(crate) mod workload;

use std::any::Any;
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use crate::verdict::Reason;

/// Bytes of a scalar (little-endian).
pub const SCALAR_LEN: usize = blst_sum::SCALAR_LEN;

/// The group of an MSM.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Curve {
    /// BN254 (alt_bn128) G1.
    Bn254G1,
    /// BLS12-381 G1.
    Bls12381G1,
    /// BLS12-381 G2.
    Bls12381G2,
}

impl Curve {
    /// All of them.
    pub const ALL: [Curve; 3] = [Curve::Bn254G1, Curve::Bls12381G1, Curve::Bls12381G2];

    /// The CLI's name: `bn254-g1`, `bls12-381-g1`, `bls12-381-g2`.
    pub fn name(&self) -> &'static str {
        match self {
            Curve::Bn254G1 => "bn254-g1",
            Curve::Bls12381G1 => "bls12-381-g1",
            Curve::Bls12381G2 => "bls12-381-g2",
        }
    }

    /// Bytes of an uncompressed point.
    pub fn point_len(&self) -> usize {
        match self {
            Curve::Bn254G1 => 64,
            Curve::Bls12381G1 => 96,
            Curve::Bls12381G2 => 192,
        }
    }

    /// Bytes of a point in `encoding`.
    pub fn encoded_len(&self, encoding: Encoding) -> usize {
        match (encoding, self) {
            (Encoding::Uncompressed, _) => self.point_len(),
            (Encoding::Compressed, Curve::Bn254G1) => 32,
            (Encoding::Compressed, _) => self.point_len() / 2,
        }
    }

    /// Whole `encoding` points in `bytes`, or why not.
    pub fn points(&self, encoding: Encoding, bytes: usize) -> Result<usize, String> {
        let len = self.encoded_len(encoding);
        if !bytes.is_multiple_of(len) {
            return Err(format!(
                "{bytes} bytes of points are not whole {len}-byte {encoding} {self} points"
            ));
        }
        Ok(bytes / len)
    }

    /// How many terms `points` (in `encoding`) and `scalars` bytes hold, or
    /// why they are not a call (not whole points, or not one scalar per
    /// point).
    pub fn terms(&self, encoding: Encoding, points: usize, scalars: usize) -> Result<usize, String> {
        let n = self.points(encoding, points)?;
        if scalars != n * SCALAR_LEN {
            return Err(format!(
                "{n} points need {} bytes of scalars ({SCALAR_LEN} each), not {scalars}",
                n * SCALAR_LEN
            ));
        }
        Ok(n)
    }
}

impl fmt::Display for Curve {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Curve {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Curve::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| format!("unknown curve {s:?} (expected bn254-g1, bls12-381-g1 or bls12-381-g2)"))
    }
}

/// How a call's points (and its sum) are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Encoding {
    /// Both coordinates (see [`crate::ops::msm`]).
    #[default]
    Uncompressed,
    /// x and the flags that pick y.
    Compressed,
}

impl Encoding {
    /// Both of them.
    pub const ALL: [Encoding; 2] = [Encoding::Uncompressed, Encoding::Compressed];

    /// The CLI's name: `uncompressed`, `compressed`.
    pub fn name(&self) -> &'static str {
        match self {
            Encoding::Uncompressed => "uncompressed",
            Encoding::Compressed => "compressed",
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Encoding {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Encoding::ALL
            .into_iter()
            .find(|e| e.name() == s)
            .ok_or_else(|| format!("unknown point encoding {s:?} (expected uncompressed or compressed)"))
    }
}

/// The sum, encoded like the points, or the first bad point's reason.
pub type MsmResult = Result<Vec<u8>, Reason>;

/// What a device keeps of [`Bases`] (its buffer), made on the first sum
/// there, or why it could not be.
pub(crate) type OnDevice = OnceLock<Result<Box<dyn Any + Send + Sync>, String>>;

/// Points decoded and checked once for many sums over them, as provers
/// hold their fixed bases: made by [`crate::Engine::msm_bases`], summed by
/// [`crate::Engine::msm_with`]. On the GPU they are uploaded on the first
/// sum that runs there and stay on that device while this value lives
/// (another engine's GPU cannot read them: that engine sums them on its
/// CPU cores, and says so).
pub struct Bases {
    pub(crate) curve: Curve,
    pub(crate) decoded: bases::Decoded,
    pub(crate) device: OnDevice,
}

impl Bases {
    /// The group.
    pub fn curve(&self) -> Curve {
        self.curve
    }

    /// How the points were written (and the sums are).
    pub fn encoding(&self) -> Encoding {
        self.decoded.encoding
    }

    /// Points given (each call takes one scalar per point).
    pub fn len(&self) -> usize {
        self.decoded.given()
    }

    /// Whether no point was given.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl fmt::Debug for Bases {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Bases")
            .field("curve", &self.curve)
            .field("len", &self.len())
            .field("on_device", &matches!(self.device.get(), Some(Ok(_))))
            .finish()
    }
}
