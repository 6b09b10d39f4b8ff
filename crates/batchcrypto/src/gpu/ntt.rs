//! The host's half of the small-prime NTT layer (`wgsl/ntt.wgsl`): the
//! constants a ring Z_q[X]/(X^256 + 1) needs, computed here once from q,
//! the root of unity and the depth, for the kernels to receive (rendered
//! into the source, or packed with the parameters for the zetas).
//!
//! ML-DSA (FIPS 204 section 7.5): q = 8380417, zeta = 1753 a primitive
//! 512th root of unity, eight layers. ML-KEM (FIPS 203 section 4.3):
//! q = 3329, zeta = 17 a primitive 256th root, seven layers (the
//! transform stops at degree-one pairs).

/// One ring's transform.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ntt {
    /// The prime modulus (< 2^23).
    pub(crate) q: u32,
    /// The root of unity whose powers are the zetas.
    pub(crate) zeta: u32,
    /// Layers: 8 (down to single coefficients) or 7 (down to pairs).
    pub(crate) layers: u32,
}

/// ML-DSA's ring.
pub(crate) const MLDSA: Ntt = Ntt {
    q: crate::ops::mldsa::Q,
    zeta: 1753,
    layers: 8,
};

/// ML-KEM's ring.
pub(crate) const MLKEM: Ntt = Ntt {
    q: crate::ops::mlkem::Q as u32,
    zeta: 17,
    layers: 7,
};

fn pow_mod(mut b: u64, mut e: u64, q: u64) -> u64 {
    let mut r = 1;
    b %= q;
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % q;
        }
        b = b * b % q;
        e >>= 1;
    }
    r
}

impl Ntt {
    /// The standard's zetas table: zeta^BitRev(m) mod q for m below
    /// 2^layers (bit reversal over `layers` bits).
    pub(crate) fn zetas(self) -> Vec<u32> {
        (0..1u32 << self.layers)
            .map(|m| {
                let e = m.reverse_bits() >> (32 - self.layers);
                pow_mod(u64::from(self.zeta), u64::from(e), u64::from(self.q)) as u32
            })
            .collect()
    }

    /// `x` R mod q, R = 2^32 (Montgomery form).
    pub(crate) fn mont(self, x: u32) -> u32 {
        ((u64::from(x) << 32) % u64::from(self.q)) as u32
    }

    /// The zetas in Montgomery form, as the kernels' `ntt_zeta` returns them.
    pub(crate) fn zetas_mont(self) -> Vec<u32> {
        self.zetas().into_iter().map(|z| self.mont(z)).collect()
    }

    /// ML-KEM's base-case factors zeta^(2 BitRev7(i) + 1) for i below 128
    /// (FIPS 203 algorithm 11), in Montgomery form.
    pub(crate) fn gammas_mont(self) -> Vec<u32> {
        (0..128u32)
            .map(|i| {
                let e = 2 * (i.reverse_bits() >> 25) + 1;
                self.mont(pow_mod(u64::from(self.zeta), u64::from(e), u64::from(self.q)) as u32)
            })
            .collect()
    }

    /// -q^-1 mod 2^32.
    pub(crate) fn qinv_neg(self) -> u32 {
        // Newton's iteration doubles the correct low bits each step.
        let mut inv: u32 = 1;
        for _ in 0..5 {
            inv = inv.wrapping_mul(2u32.wrapping_sub(self.q.wrapping_mul(inv)));
        }
        inv.wrapping_neg()
    }

    /// The inverse transform's final factor: 2^-layers R^2 mod q, so that
    /// inputs carrying R^-1 (Montgomery products) come out plain.
    pub(crate) fn inv_f(self) -> u32 {
        let q = u64::from(self.q);
        let f = pow_mod(pow_mod(2, u64::from(self.layers), q), q - 2, q);
        let r2 = pow_mod(1 << 32, 2, q);
        (f * r2 % q) as u32
    }

    /// The WGSL constants `wgsl/ntt.wgsl` expects before it.
    pub(crate) fn wgsl_constants(self) -> String {
        format!(
            "const NTT_Q: u32 = {}u;\nconst NTT_QINV_NEG: u32 = {:#010x}u;\nconst NTT_MIN_LEN: u32 = {}u;\nconst NTT_INV_F: u32 = {}u;\nconst NTT_R2: u32 = {}u;\n",
            self.q,
            self.qinv_neg(),
            256 >> self.layers,
            self.inv_f(),
            pow_mod(1 << 32, 2, u64::from(self.q))
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FIPS 204 appendix B's table begins 0 (unused; zeta^0 here),
    /// 4808194, 3765607, 3761513; zeta is a primitive 512th root of unity.
    #[test]
    fn mldsa_zetas_are_fips_204s() {
        let z = MLDSA.zetas();
        assert_eq!(z.len(), 256);
        assert_eq!(&z[1..4], &[4_808_194, 3_765_607, 3_761_513]);
        let q = u64::from(MLDSA.q);
        assert_eq!(pow_mod(1753, 256, q), q - 1);
    }

    /// FIPS 203 appendix A's table begins 1, 1729, 2580, 3289; zeta is a
    /// primitive 256th root of unity.
    #[test]
    fn mlkem_zetas_are_fips_203s() {
        let z = MLKEM.zetas();
        assert_eq!(z.len(), 128);
        assert_eq!(&z[..4], &[1, 1729, 2580, 3289]);
        assert_eq!(pow_mod(17, 128, 3329), 3328);
        // FIPS 203 appendix A: the gammas begin 17, -17, 2761, -2761.
        let r_inv = pow_mod(1 << 32, 3329 - 2, 3329);
        let plain: Vec<u64> = MLKEM
            .gammas_mont()
            .iter()
            .map(|&g| u64::from(g) * r_inv % 3329)
            .collect();
        assert_eq!(&plain[..4], &[17, 3329 - 17, 2761, 3329 - 2761]);
    }

    #[test]
    fn montgomery_constants() {
        for ntt in [MLDSA, MLKEM] {
            assert_eq!(ntt.q.wrapping_mul(ntt.qinv_neg()), u32::MAX, "q (-q^-1) = -1 mod 2^32");
            let q = u64::from(ntt.q);
            // inv_f R^-2 2^layers = 1 mod q.
            let r_inv = pow_mod(1 << 32, q - 2, q);
            let back = u64::from(ntt.inv_f()) * r_inv % q * r_inv % q * (1 << ntt.layers) % q;
            assert_eq!(back, 1);
            assert_eq!(u64::from(ntt.mont(1)), (1u64 << 32) % q);
        }
    }
}
