//! Multi-scalar multiplication: sum_i s_i P_i over n terms, the core of
//! zero-knowledge provers (most of a Groth16 proof's time), on BN254's G1
//! and BLS12-381's G1 and G2.
//!
//! Encodings (one call: points back to back, scalars back to back):
//!
//! | curve | point | bytes |
//! |---|---|---|
//! | `bn254-g1` | x ‖ y, 32-byte big-endian words; (0, 0) is the identity (EIP-196's form) | 64 |
//! | `bls12-381-g1` | blst's (ZCash's) uncompressed form: x ‖ y, 48-byte big-endian; the identity is the 0x40 flag and zeros | 96 |
//! | `bls12-381-g2` | the same for G2: x.c1 ‖ x.c0 ‖ y.c1 ‖ y.c0 | 192 |
//!
//! Scalars are 32 bytes little-endian, any 256-bit value (as the group has
//! prime order r, s and s mod r give the same term). The sum is returned
//! in the curves' point encoding. Every point must decode (coordinates
//! below p, valid flags: else `malformed_point`), lie on its curve
//! (`not_on_curve`) and, on BLS12-381, in the prime-order subgroup
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

    /// Bytes of an encoded point.
    pub fn point_len(&self) -> usize {
        match self {
            Curve::Bn254G1 => 64,
            Curve::Bls12381G1 => 96,
            Curve::Bls12381G2 => 192,
        }
    }

    /// How many terms `points` and `scalars` bytes hold, or why they are
    /// not a call (not whole points, or not one scalar per point).
    pub fn terms(&self, points: usize, scalars: usize) -> Result<usize, String> {
        if !points.is_multiple_of(self.point_len()) {
            return Err(format!(
                "{points} bytes of points are not whole {}-byte {} points",
                self.point_len(),
                self
            ));
        }
        let n = points / self.point_len();
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
