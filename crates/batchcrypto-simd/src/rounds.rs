//! The rounds of Keccak-f\[1600\] and the sponge, written once for every
//! SIMD level.
//!
//! [`level_fns!`] defines a level's `permute` over 25 registers, one lane
//! of every state per register, from FIPS 202 §3.2 (θ, ρ and π, χ, ι per
//! round), and on it `f1600` and `sponge256`, the entry points `lib.rs`
//! calls. The level's module supplies, as `#[target_feature]` functions in
//! scope: `gather(words)` (one word per state into a register),
//! `scatter(v)` (back), `xor(a, b)`, `xor5(a, b, c, d, e)`, `chi(a, b, c)` =
//! `a ^ (!b & c)`, `rol::<L, R>(v)` (each lane left by `L` bits, `R` =
//! 64 - `L`), `splat(w)` (`w` in every lane) and `zero()`. AVX2 builds the
//! rotation from two shifts and χ from `andnot`; AVX-512 has both as one
//! instruction each (`vprolq`, `vpternlogq`).

/// A level's `permute`, `f1600` and `sponge256` over registers of type
/// `$vec` holding `$lanes` states, each function under
/// `#[target_feature(enable = $feature)]`, from the level's helpers
/// (module docs).
macro_rules! level_fns {
    ($feature:literal, $vec:ty, $lanes:literal) => {
        /// States per register.
        const LANES: usize = $lanes;

        /// Keccak-f\[1600\] on every state in the registers' lanes.
        #[target_feature(enable = $feature)]
        #[inline]
        fn permute(mut a: [$vec; 25]) -> [$vec; 25] {
            for rc in $crate::spec::RC {
                // θ: each lane gets the parities of the two neighbouring columns.
                let c: [$vec; 5] = core::array::from_fn(|x| xor5(a[x], a[x + 5], a[x + 10], a[x + 15], a[x + 20]));
                for x in 0..5 {
                    let d = xor(c[(x + 4) % 5], rol::<1, 63>(c[(x + 1) % 5]));
                    for y in 0..5 {
                        a[x + 5 * y] = xor(a[x + 5 * y], d);
                    }
                }
                // ρ and π: each lane rotated and moved.
                let mut b = [zero(); 25];
                unrolled!(I in 0..25 {
                    b[$crate::spec::PI_TO[I]] =
                        rol::<{ $crate::spec::RHO[I] as i32 }, { 64 - $crate::spec::RHO[I] as i32 }>(a[I]);
                });
                // χ: a = b ^ (!b[x+1] & b[x+2]) along each row.
                for y in 0..5 {
                    for x in 0..5 {
                        a[x + 5 * y] = chi(b[x + 5 * y], b[(x + 1) % 5 + 5 * y], b[(x + 2) % 5 + 5 * y]);
                    }
                }
                // ι.
                a[0] = xor(a[0], splat(rc));
            }
            a
        }

        /// [`crate::f1600_lanes`] on this level.
        #[target_feature(enable = $feature)]
        pub(crate) fn f1600(states: &mut [$crate::State; LANES]) {
            let a: [$vec; 25] = core::array::from_fn(|i| gather(states.map(|s| s[i])));
            let a = permute(a);
            for (i, v) in a.into_iter().enumerate() {
                for (s, w) in states.iter_mut().zip(scatter(v)) {
                    s[i] = w;
                }
            }
        }

        /// [`crate::sponge256_lanes`] on this level, for messages of
        /// `blocks` blocks each.
        #[target_feature(enable = $feature)]
        pub(crate) fn sponge256(
            hash: $crate::Hash256,
            msgs: [&[u8]; LANES],
            blocks: usize,
        ) -> [[u8; $crate::DIGEST]; LANES] {
            let mut a = [zero(); 25];
            for b in 0..blocks {
                let absorbed = $crate::absorbed(&msgs, b);
                for (i, lane) in a.iter_mut().take(absorbed).enumerate() {
                    let off = b * $crate::RATE + 8 * i;
                    *lane = xor(*lane, gather(msgs.map(|m| $crate::word(hash, m, off))));
                }
                if b + 1 == blocks {
                    let last = $crate::RATE_WORDS - 1;
                    a[last] = xor(a[last], splat($crate::LAST_BYTE));
                }
                a = permute(a);
            }
            let out: [[u64; LANES]; $crate::DIGEST / 8] = core::array::from_fn(|i| scatter(a[i]));
            core::array::from_fn(|l| $crate::squeeze(out.map(|lanes| lanes[l])))
        }
    };
}
