//! The tower machine: pairing arithmetic as data (issue 15). A kernel of a
//! few hundred lines (`wgsl/tower_vm.wgsl`) runs a program of F_p
//! instructions (multiply, add, subtract, copy, compare, load, output;
//! F_p2's multiply, square, add and subtract as two-word instructions)
//! over a file of F_p registers in storage memory, one thread per item,
//! every thread the same instruction at the same time; the programs (a
//! pair's curve and subgroup checks and Miller loop, the final
//! exponentiation) are written here in Rust over F_p2, F_p6 and F_p12
//! built from those instructions, and uploaded as words. For few items on
//! a hardware GPU, a program's wide code runs instead: bundles of
//! independent instructions, one thread per instruction ([`lanes`]).
//!
//! Why: a pairing written as WGSL functions is inlined by drivers into one
//! enormous function over 144-word aggregates. llvmpipe needs a minute to
//! compile the Miller loop that way, and NVIDIA's driver did not finish
//! within 150 s on an H200 (docs/bench/h200-2026-12-04). Here the kernel
//! holds a few 384-bit multiplications (F_p's, and F_p2's three and two)
//! and no aggregate larger than one F_p element, whatever the program (the
//! H200 created the version of one multiplication in 0.92 s, and ran this
//! one's benches: docs/bench/h200-2026-12-04b); a program is cut into
//! passes of at most [`PASS_LEN`] words (one dispatch each, the registers
//! staying in storage between them), which keeps every invocation far
//! under llvmpipe's 65,535-iteration loop limit.
//!
//! Registers hold F_p elements in Montgomery form (x R mod p, R =
//! 2^(32 N)); `EQ` writes the plain integer 1 or 0, which `ADD`/`SUB`
//! combine as small integers (flags and counts below p). The tests run
//! every program through [`host::run`], an interpreter over arkworks'
//! field, against arkworks' own pairing, and the device against the host.

pub(crate) mod lanes;

use std::sync::{Arc, OnceLock};

use lanes::Laned;

use super::Gpu;
use super::bigint::{Limbs, mont_form, small};
use super::driver::{self, Dst, Input, Kernel};
use super::shaders::{self, Tower};

/// Words of code per pass (one dispatch; an instruction is one or two):
/// with the guard's two, an invocation's loop iterations stay under a
/// third of llvmpipe's limit.
pub(crate) const PASS_LEN: usize = 20_000;
/// Registers a program may use; operand indices from here on name
/// constants (index - `CONST_BASE`).
const CONST_BASE: u32 = 256;
/// Most constants of a program.
const MAX_CONSTS: u32 = 256;

/// The instructions: `op | d << 4 | a << 13 | b << 22` (9-bit operands).
/// The F_p2 operations are two words, the second ([`Op::Ext`]) naming the
/// second coefficients' registers: one iteration of the interpreter reads
/// both words, all four operands before it writes either coefficient, and
/// runs the coefficients' independent products side by side (one trip
/// through the loop and the register file instead of five to eight).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
enum Op {
    /// d = a.
    Copy = 0,
    /// d = a b (Montgomery).
    Mul = 1,
    /// d = a + b mod p.
    Add = 2,
    /// d = a - b mod p.
    Sub = 3,
    /// d = 1 if a = b else 0 (plain integers).
    Eq = 4,
    /// d = the thread's input element a (words as given).
    Load = 5,
    /// The thread's output slot d = register a.
    Out = 6,
    /// d = a if the flag b is 1 (else d unchanged).
    CMov = 7,
    /// d = 1 if a's canonical value exceeds (p - 1) / 2 else 0 (the sign
    /// of the ZCash encoding's sort flag).
    Largest = 8,
    /// d = bit b of a's words (a plain integer: a scalar).
    Bit = 9,
    /// F_p2 (u^2 = -1): d = a b, Karatsuba.
    Mul2 = 10,
    /// F_p2: d = a^2 (complex squaring; b unused).
    Sq2 = 11,
    /// F_p2: d = a + b.
    Add2 = 12,
    /// F_p2: d = a - b.
    Sub2 = 13,
    /// The second word of an F_p2 operation: d1, a1, b1.
    Ext = 15,
}

const OPS: [(Op, &str); 15] = [
    (Op::Copy, "COPY"),
    (Op::Mul, "MUL"),
    (Op::Add, "ADD"),
    (Op::Sub, "SUB"),
    (Op::Eq, "EQ"),
    (Op::Load, "LOAD"),
    (Op::Out, "OUT"),
    (Op::CMov, "CMOV"),
    (Op::Largest, "LARGEST"),
    (Op::Bit, "BIT"),
    (Op::Mul2, "MUL2"),
    (Op::Sq2, "SQ2"),
    (Op::Add2, "ADD2"),
    (Op::Sub2, "SUB2"),
    (Op::Ext, "EXT"),
];

/// An F_p operand: a register (< [`CONST_BASE`]) or a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fe(u32);

/// c0 + c1 u.
pub(crate) type Fe2 = [Fe; 2];
/// c0 + c1 v + c2 v^2.
pub(crate) type Fe6 = [Fe2; 3];
/// c0 + c1 w.
pub(crate) type Fe12 = [Fe6; 2];

/// A finished program: its instructions, its constants (`N` words each,
/// in order), the registers it uses, and its inputs and outputs per
/// thread (F_p elements).
#[derive(Clone, Debug)]
pub(crate) struct Program {
    pub(crate) code: Vec<u32>,
    pub(crate) consts: Vec<u32>,
    pub(crate) inputs: usize,
    pub(crate) outputs: usize,
    /// The code as written, an instruction per bundle (one lane).
    pub(crate) narrow: Laned,
    /// The code over several lanes, built on first use (none where it
    /// gains nothing).
    wide: OnceLock<Option<Laned>>,
}

impl Program {
    /// Its instructions (an F_p2 operation's two words are one).
    #[cfg(test)]
    pub(crate) fn instructions(&self) -> usize {
        self.code.iter().filter(|w| *w & 15 != Op::Ext as u32).count()
    }

    /// The code over the lanes that cost its items' threads least time:
    /// of 2, 4, 8 and 16 lanes, the fewest whose bundles' estimated cost
    /// is within a tenth of the least (lanes beyond that idle), if that is
    /// under nine tenths of the one-lane cost.
    pub(crate) fn wide(&self) -> Option<&Laned> {
        self.wide
            .get_or_init(|| {
                let narrow = lanes::cost_of(&self.narrow);
                let spreads: Vec<(u64, Laned)> = lanes::spread(&self.code, &[2, 4, 8, 16])
                    .ok()?
                    .into_iter()
                    .map(|l| (lanes::cost_of(&l), l))
                    .collect();
                let least = spreads.iter().map(|(c, _)| *c).min()?;
                let (cost, laned) = spreads.into_iter().find(|(c, _)| *c * 10 <= least * 11)?;
                (cost * 10 < narrow * 9).then_some(laned)
            })
            .as_ref()
    }
}

/// A program under construction over the field of modulus `p` (`N` u32
/// limbs) whose sextic non-residue is xi = `xi0` + u. Registers are taken
/// from a stack: [`Asm::mark`] and [`Asm::release`] free a function's
/// temporaries.
pub(crate) struct Asm<const N: usize> {
    p: Limbs<N>,
    xi0: u32,
    code: Vec<u32>,
    consts: Vec<Limbs<N>>,
    top: u32,
    most: u32,
    inputs: u32,
    outputs: u32,
}

impl<const N: usize> Asm<N> {
    pub(crate) fn new(p: Limbs<N>, xi0: u32) -> Self {
        Asm {
            p,
            xi0,
            code: Vec::new(),
            consts: Vec::new(),
            top: 0,
            most: 0,
            inputs: 0,
            outputs: 0,
        }
    }

    pub(crate) fn finish(self) -> Program {
        Program {
            narrow: lanes::single(&self.code, self.most as usize),
            code: self.code,
            consts: self.consts.concat(),
            inputs: self.inputs as usize,
            outputs: self.outputs as usize,
            wide: OnceLock::new(),
        }
    }

    fn emit(&mut self, op: Op, d: u32, a: u32, b: u32) {
        assert!(d < 512 && a < 512 && b < 512, "operand out of range");
        assert!(op == Op::Out || d < CONST_BASE, "a constant as a destination");
        self.code.push(op as u32 | d << 4 | a << 13 | b << 22);
    }

    /// An F_p2 operation: its word and the [`Op::Ext`] word after it.
    fn emit2(&mut self, op: Op, d: Fe2, a: Fe2, b: Fe2) {
        assert!(d[0] != d[1], "one register for both coefficients");
        self.emit(op, d[0].0, a[0].0, b[0].0);
        self.emit(Op::Ext, d[1].0, a[1].0, b[1].0);
    }

    // ---- registers and constants ----

    pub(crate) fn reg(&mut self) -> Fe {
        assert!(
            self.top < CONST_BASE,
            "a program needs more than {CONST_BASE} registers"
        );
        let r = Fe(self.top);
        self.top += 1;
        self.most = self.most.max(self.top);
        r
    }

    pub(crate) fn reg2(&mut self) -> Fe2 {
        [self.reg(), self.reg()]
    }

    pub(crate) fn reg6(&mut self) -> Fe6 {
        [self.reg2(), self.reg2(), self.reg2()]
    }

    pub(crate) fn reg12(&mut self) -> Fe12 {
        [self.reg6(), self.reg6()]
    }

    pub(crate) fn mark(&self) -> u32 {
        self.top
    }

    pub(crate) fn release(&mut self, mark: u32) {
        self.top = mark;
    }

    /// A constant of these words, as they are (flags, counts, Montgomery
    /// forms made by the caller).
    pub(crate) fn raw(&mut self, words: Limbs<N>) -> Fe {
        let k = match self.consts.iter().position(|c| *c == words) {
            Some(k) => k,
            None => {
                self.consts.push(words);
                self.consts.len() - 1
            }
        };
        assert!((k as u32) < MAX_CONSTS, "too many constants");
        Fe(CONST_BASE + k as u32)
    }

    /// The constant x (< p), in Montgomery form.
    pub(crate) fn konst(&mut self, x: &Limbs<N>) -> Fe {
        self.raw(mont_form(x, &self.p))
    }

    pub(crate) fn small(&mut self, v: u32) -> Fe {
        self.konst(&small(v))
    }

    pub(crate) fn zero(&mut self) -> Fe {
        self.raw([0; N])
    }

    pub(crate) fn one(&mut self) -> Fe {
        self.small(1)
    }

    pub(crate) fn konst2(&mut self, c: [Limbs<N>; 2]) -> Fe2 {
        [self.konst(&c[0]), self.konst(&c[1])]
    }

    // ---- F_p ----

    pub(crate) fn copy(&mut self, d: Fe, a: Fe) {
        if d != a {
            self.emit(Op::Copy, d.0, a.0, 0);
        }
    }

    pub(crate) fn mul(&mut self, d: Fe, a: Fe, b: Fe) {
        self.emit(Op::Mul, d.0, a.0, b.0);
    }

    pub(crate) fn add(&mut self, d: Fe, a: Fe, b: Fe) {
        self.emit(Op::Add, d.0, a.0, b.0);
    }

    pub(crate) fn sub(&mut self, d: Fe, a: Fe, b: Fe) {
        self.emit(Op::Sub, d.0, a.0, b.0);
    }

    pub(crate) fn neg(&mut self, d: Fe, a: Fe) {
        let z = self.zero();
        self.sub(d, z, a);
    }

    /// d = 1 if a = b else 0, as plain integers.
    pub(crate) fn eq(&mut self, d: Fe, a: Fe, b: Fe) {
        self.emit(Op::Eq, d.0, a.0, b.0);
    }

    /// d = a when the flag f (an EQ result) is 1.
    pub(crate) fn cmov(&mut self, d: Fe, a: Fe, f: Fe) {
        self.emit(Op::CMov, d.0, a.0, f.0);
    }

    pub(crate) fn cmov2(&mut self, d: Fe2, a: Fe2, f: Fe) {
        self.cmov(d[0], a[0], f);
        self.cmov(d[1], a[1], f);
    }

    /// d = 1 if a > (p - 1) / 2 as a canonical integer, else 0.
    pub(crate) fn largest(&mut self, d: Fe, a: Fe) {
        self.emit(Op::Largest, d.0, a.0, 0);
    }

    /// d = bit k of a's words (a plain integer's, such as a scalar's).
    pub(crate) fn bit(&mut self, d: Fe, a: Fe, k: u32) {
        assert!((k as usize) < 32 * N, "bit {k} of {N} words");
        self.emit(Op::Bit, d.0, a.0, k);
    }

    /// d = a's canonical value (out of Montgomery form: a times the plain
    /// integer 1).
    pub(crate) fn canonical(&mut self, d: Fe, a: Fe) {
        let one = self.raw(small(1));
        self.mul(d, a, one);
    }

    /// d = 1 - f for a flag f.
    pub(crate) fn not(&mut self, d: Fe, f: Fe) {
        let one = self.raw(small(1));
        self.sub(d, one, f);
    }

    /// A new register with the thread's next input element in Montgomery
    /// form (inputs are canonical integers below p).
    pub(crate) fn input(&mut self) -> Fe {
        let d = self.reg();
        self.load(d);
        let r2 = self.raw(super::bigint::r_squared(&self.p));
        self.mul(d, d, r2);
        d
    }

    /// d = the thread's next input element as given (a Montgomery form
    /// already).
    pub(crate) fn load(&mut self, d: Fe) {
        self.emit(Op::Load, d.0, self.inputs, 0);
        self.inputs += 1;
    }

    /// Appends `a` to the thread's outputs.
    pub(crate) fn output(&mut self, a: Fe) {
        self.emit(Op::Out, self.outputs, a.0, 0);
        self.outputs += 1;
    }

    /// Appends the twelve coefficients of `a` (arkworks' order).
    pub(crate) fn output12(&mut self, a: Fe12) {
        for c in a.iter().flatten().flatten() {
            self.output(*c);
        }
    }

    /// d = a^e (square and multiply from the top bit of e > 0).
    pub(crate) fn pow(&mut self, d: Fe, a: Fe, e: &Limbs<N>) {
        let m = self.mark();
        let (base, acc) = (self.reg(), self.reg());
        self.copy(base, a);
        let one = self.one();
        self.copy(acc, one);
        for i in (0..32 * N).rev() {
            self.mul(acc, acc, acc);
            if (e[i / 32] >> (i % 32)) & 1 == 1 {
                self.mul(acc, acc, base);
            }
        }
        self.copy(d, acc);
        self.release(m);
    }

    /// d = a^e in F_p2 (square and multiply from the top bit of e > 0).
    pub(crate) fn pow2(&mut self, d: Fe2, a: Fe2, e: &Limbs<N>) {
        let m = self.mark();
        let (base, acc) = (self.reg2(), self.reg2());
        self.copy2(base, a);
        let (one, zero) = (self.one(), self.zero());
        self.copy2(acc, [one, zero]);
        for i in (0..32 * N).rev() {
            self.sq2(acc, acc);
            if (e[i / 32] >> (i % 32)) & 1 == 1 {
                self.mul2(acc, acc, base);
            }
        }
        self.copy2(d, acc);
        self.release(m);
    }

    /// d = a square root of a in F_p2 for p = 3 mod 4 and ok = 1 when a is
    /// a square (Adj and Rodriguez-Henriquez, eprint 2012/685, algorithm
    /// 9): a1 = a^((p-3)/4), x0 = a1 a, alpha = a1 x0; the root is u x0
    /// when alpha = -1, else (1 + alpha)^((p-1)/2) x0. d apart from a.
    pub(crate) fn sqrt2(&mut self, d: Fe2, ok: Fe, a: Fe2) {
        let m = self.mark();
        let (t, x0, is_minus_one) = (self.reg2(), self.reg2(), self.reg());
        let (one, zero) = (self.one(), self.zero());
        let p = self.p;
        let minus = |k: u32| super::bigint::sub(&p, &small(k)).0;
        self.pow2(t, a, &super::bigint::div_small(&minus(3), 4).0);
        self.mul2(x0, t, a);
        self.mul2(t, t, x0);
        let minus_one = [self.konst(&minus(1)), zero];
        self.eq2(is_minus_one, t, minus_one);
        self.add2(t, t, [one, zero]);
        self.pow2(t, t, &super::bigint::div_small(&minus(1), 2).0);
        self.mul2(d, t, x0);
        self.neg(t[0], x0[1]);
        self.copy(t[1], x0[0]);
        self.cmov2(d, t, is_minus_one);
        self.sq2(t, d);
        self.eq2(ok, t, a);
        self.release(m);
    }

    /// 1/a by Fermat (0 for 0).
    pub(crate) fn inv(&mut self, d: Fe, a: Fe) {
        let e = super::bigint::sub(&self.p, &small(2)).0;
        self.pow(d, a, &e);
    }

    // ---- F_p2 = F_p[u] / (u^2 + 1) ----

    pub(crate) fn copy2(&mut self, d: Fe2, a: Fe2) {
        self.copy(d[0], a[0]);
        self.copy(d[1], a[1]);
    }

    pub(crate) fn add2(&mut self, d: Fe2, a: Fe2, b: Fe2) {
        self.emit2(Op::Add2, d, a, b);
    }

    pub(crate) fn sub2(&mut self, d: Fe2, a: Fe2, b: Fe2) {
        self.emit2(Op::Sub2, d, a, b);
    }

    pub(crate) fn neg2(&mut self, d: Fe2, a: Fe2) {
        let z = self.zero();
        self.sub2(d, [z, z], a);
    }

    pub(crate) fn conj2(&mut self, d: Fe2, a: Fe2) {
        self.copy(d[0], a[0]);
        self.neg(d[1], a[1]);
    }

    /// Karatsuba: a0 b0 - a1 b1, (a0 + a1)(b0 + b1) - a0 b0 - a1 b1. Every
    /// operand is read before d is written (d may be a or b), as in every
    /// operation below.
    pub(crate) fn mul2(&mut self, d: Fe2, a: Fe2, b: Fe2) {
        self.emit2(Op::Mul2, d, a, b);
    }

    /// (a0 + a1)(a0 - a1) + 2 a0 a1 u.
    pub(crate) fn sq2(&mut self, d: Fe2, a: Fe2) {
        self.emit2(Op::Sq2, d, a, a);
    }

    /// a s for s in F_p (s not a register of d).
    pub(crate) fn mul2_fp(&mut self, d: Fe2, a: Fe2, s: Fe) {
        self.mul(d[0], a[0], s);
        self.mul(d[1], a[1], s);
    }

    /// a xi = (xi0 a0 - a1) + (xi0 a1 + a0) u: straight into d when d
    /// shares no register with a, else through temporaries.
    pub(crate) fn mul_by_xi(&mut self, d: Fe2, a: Fe2) {
        let m = self.mark();
        let disjoint = !d.iter().any(|r| a.contains(r));
        let out = if disjoint { d } else { [self.reg(), self.reg()] };
        if self.xi0 == 1 {
            self.sub(out[0], a[0], a[1]);
            self.add(out[1], a[0], a[1]);
        } else {
            let x = self.small(self.xi0);
            self.mul(out[0], a[0], x);
            self.sub(out[0], out[0], a[1]);
            self.mul(out[1], a[1], x);
            self.add(out[1], out[1], a[0]);
        }
        self.copy2(d, out);
        self.release(m);
    }

    /// 1/a = conj(a) / (a0^2 + a1^2) (0 for 0).
    pub(crate) fn inv2(&mut self, d: Fe2, a: Fe2) {
        let m = self.mark();
        let [t0, t1] = [self.reg(), self.reg()];
        self.mul(t0, a[0], a[0]);
        self.mul(t1, a[1], a[1]);
        self.add(t0, t0, t1);
        self.inv(t0, t0);
        self.mul(t1, a[1], t0);
        self.mul(d[0], a[0], t0);
        self.neg(d[1], t1);
        self.release(m);
    }

    pub(crate) fn eq2(&mut self, d: Fe, a: Fe2, b: Fe2) {
        let m = self.mark();
        let t = self.reg();
        self.eq(d, a[0], b[0]);
        self.eq(t, a[1], b[1]);
        self.add(d, d, t);
        let two = self.raw(small(2));
        self.eq(d, d, two);
        self.release(m);
    }

    // ---- F_p6 = F_p2[v] / (v^3 - xi) ----

    fn each6(&mut self, d: Fe6, a: Fe6, b: Fe6, f: fn(&mut Self, Fe2, Fe2, Fe2)) {
        for k in 0..3 {
            f(self, d[k], a[k], b[k]);
        }
    }

    pub(crate) fn add6(&mut self, d: Fe6, a: Fe6, b: Fe6) {
        self.each6(d, a, b, Self::add2);
    }

    pub(crate) fn sub6(&mut self, d: Fe6, a: Fe6, b: Fe6) {
        self.each6(d, a, b, Self::sub2);
    }

    pub(crate) fn neg6(&mut self, d: Fe6, a: Fe6) {
        for k in 0..3 {
            self.neg2(d[k], a[k]);
        }
    }

    pub(crate) fn copy6(&mut self, d: Fe6, a: Fe6) {
        for k in 0..3 {
            self.copy2(d[k], a[k]);
        }
    }

    /// a v = xi a2 + a0 v + a1 v^2, as a handle: xi a2 in a new register
    /// (the caller's to release), a0 and a1 where they are (no copies).
    pub(crate) fn times_v(&mut self, a: Fe6) -> Fe6 {
        let t = self.reg2();
        self.mul_by_xi(t, a[2]);
        [t, a[0], a[1]]
    }

    /// Karatsuba over three coefficients: v0 = a0 b0, v1 = a1 b1,
    /// v2 = a2 b2; c0 = v0 + xi ((a1 + a2)(b1 + b2) - v1 - v2),
    /// c1 = (a0 + a1)(b0 + b1) - v0 - v1 + xi v2,
    /// c2 = (a0 + a2)(b0 + b2) - v0 - v2 + v1.
    pub(crate) fn mul6(&mut self, d: Fe6, a: Fe6, b: Fe6) {
        let m = self.mark();
        let v = [self.reg2(), self.reg2(), self.reg2()];
        let (s, t) = (self.reg2(), self.reg2());
        // The result straight into d unless d shares a register with a or b.
        let shared = d.iter().flatten().any(|r| a.iter().chain(&b).flatten().any(|x| x == r));
        let c = if shared {
            [self.reg2(), self.reg2(), self.reg2()]
        } else {
            d
        };
        for k in 0..3 {
            self.mul2(v[k], a[k], b[k]);
        }
        // c0
        self.add2(s, a[1], a[2]);
        self.add2(t, b[1], b[2]);
        self.mul2(s, s, t);
        self.sub2(s, s, v[1]);
        self.sub2(s, s, v[2]);
        self.mul_by_xi(s, s);
        self.add2(c[0], s, v[0]);
        // c1
        self.add2(s, a[0], a[1]);
        self.add2(t, b[0], b[1]);
        self.mul2(s, s, t);
        self.sub2(s, s, v[0]);
        self.sub2(s, s, v[1]);
        self.mul_by_xi(t, v[2]);
        self.add2(c[1], s, t);
        // c2
        self.add2(s, a[0], a[2]);
        self.add2(t, b[0], b[2]);
        self.mul2(s, s, t);
        self.sub2(s, s, v[0]);
        self.sub2(s, s, v[2]);
        self.add2(c[2], s, v[1]);
        self.copy6(d, c);
        self.release(m);
    }

    /// 1/a (0 for 0): t0 = a0^2 - xi a1 a2, t1 = xi a2^2 - a0 a1,
    /// t2 = a1^2 - a0 a2; 1/a = (t0, t1, t2) / (a0 t0 + xi (a2 t1 + a1 t2)).
    pub(crate) fn inv6(&mut self, d: Fe6, a: Fe6) {
        let m = self.mark();
        let t = [self.reg2(), self.reg2(), self.reg2()];
        let (s, e) = (self.reg2(), self.reg2());
        self.mul2(t[0], a[0], a[0]);
        self.mul2(s, a[1], a[2]);
        self.mul_by_xi(s, s);
        self.sub2(t[0], t[0], s);
        self.mul2(t[1], a[2], a[2]);
        self.mul_by_xi(t[1], t[1]);
        self.mul2(s, a[0], a[1]);
        self.sub2(t[1], t[1], s);
        self.mul2(t[2], a[1], a[1]);
        self.mul2(s, a[0], a[2]);
        self.sub2(t[2], t[2], s);
        self.mul2(e, a[2], t[1]);
        self.mul2(s, a[1], t[2]);
        self.add2(e, e, s);
        self.mul_by_xi(e, e);
        self.mul2(s, a[0], t[0]);
        self.add2(e, e, s);
        self.inv2(e, e);
        for k in 0..3 {
            self.mul2(d[k], t[k], e);
        }
        self.release(m);
    }

    // ---- F_p12 = F_p6[w] / (w^2 - v) ----

    pub(crate) fn copy12(&mut self, d: Fe12, a: Fe12) {
        self.copy6(d[0], a[0]);
        self.copy6(d[1], a[1]);
    }

    /// The F_p12 constant one in new registers.
    pub(crate) fn one12(&mut self) -> Fe12 {
        let d = self.reg12();
        let (zero, one) = (self.zero(), self.one());
        for (k, c) in d.iter().flatten().flatten().enumerate() {
            self.copy(*c, if k == 0 { one } else { zero });
        }
        d
    }

    /// v0 = a0 b0, v1 = a1 b1: c0 = v0 + v1 v, c1 = (a0 + a1)(b0 + b1) - v0 - v1.
    pub(crate) fn mul12(&mut self, d: Fe12, a: Fe12, b: Fe12) {
        let m = self.mark();
        let (v0, v1, s, t) = (self.reg6(), self.reg6(), self.reg6(), self.reg6());
        self.mul6(v0, a[0], b[0]);
        self.mul6(v1, a[1], b[1]);
        self.add6(s, a[0], a[1]);
        self.add6(t, b[0], b[1]);
        self.mul6(s, s, t);
        self.karatsuba12(d, v0, v1, s);
        self.release(m);
    }

    /// The end of a Karatsuba product in F_p12 from v0 = a0 b0, v1 = a1 b1
    /// and s = (a0 + a1)(b0 + b1): d = (v0 + v1 v) + (s - v0 - v1) w. s is
    /// overwritten; d may be the operands' registers (read before).
    fn karatsuba12(&mut self, d: Fe12, v0: Fe6, v1: Fe6, s: Fe6) {
        let m = self.mark();
        self.sub6(s, s, v0);
        self.sub6(d[1], s, v1);
        let v1 = self.times_v(v1);
        self.add6(d[0], v0, v1);
        self.release(m);
    }

    /// d = a (b0 + b1 v): five F_p2 products (Karatsuba without b2).
    pub(crate) fn mul6_by_01(&mut self, d: Fe6, a: Fe6, b0: Fe2, b1: Fe2) {
        let m = self.mark();
        let [aa, bb, s, t, c0, c1, c2] = std::array::from_fn(|_| self.reg2());
        self.mul2(aa, a[0], b0);
        self.mul2(bb, a[1], b1);
        // c0 = xi a2 b1 + a0 b0 = xi ((a1 + a2) b1 - a1 b1) + a0 b0
        self.add2(s, a[1], a[2]);
        self.mul2(s, s, b1);
        self.sub2(s, s, bb);
        self.mul_by_xi(s, s);
        self.add2(c0, s, aa);
        // c1 = (b0 + b1)(a0 + a1) - a0 b0 - a1 b1
        self.add2(s, b0, b1);
        self.add2(t, a[0], a[1]);
        self.mul2(s, s, t);
        self.sub2(s, s, aa);
        self.sub2(c1, s, bb);
        // c2 = (a0 + a2) b0 - a0 b0 + a1 b1
        self.add2(s, a[0], a[2]);
        self.mul2(s, s, b0);
        self.sub2(s, s, aa);
        self.add2(c2, s, bb);
        self.copy6(d, [c0, c1, c2]);
        self.release(m);
    }

    /// d = a b1 v = xi a2 b1 + a0 b1 v + a1 b1 v^2.
    pub(crate) fn mul6_by_1(&mut self, d: Fe6, a: Fe6, b1: Fe2) {
        let m = self.mark();
        let c = [self.reg2(), self.reg2(), self.reg2()];
        self.mul2(c[0], a[2], b1);
        self.mul_by_xi(c[0], c[0]);
        self.mul2(c[1], a[0], b1);
        self.mul2(c[2], a[1], b1);
        self.copy6(d, c);
        self.release(m);
    }

    /// f <- f (c0 + c1 v + c4 v w), a line on an M-twist (arkworks'
    /// mul_by_014): thirteen F_p2 products instead of eighteen.
    pub(crate) fn mul12_by_014(&mut self, f: Fe12, c0: Fe2, c1: Fe2, c4: Fe2) {
        let m = self.mark();
        let (aa, bb, s) = (self.reg6(), self.reg6(), self.reg6());
        let o = self.reg2();
        self.mul6_by_01(aa, f[0], c0, c1);
        self.mul6_by_1(bb, f[1], c4);
        self.add2(o, c1, c4);
        self.add6(s, f[0], f[1]);
        self.mul6_by_01(s, s, c0, o);
        self.karatsuba12(f, aa, bb, s);
        self.release(m);
    }

    /// f <- f (c0 + c3 w + c4 v w), a line on a D-twist (arkworks'
    /// mul_by_034): thirteen F_p2 products instead of eighteen.
    pub(crate) fn mul12_by_034(&mut self, f: Fe12, c0: Fe2, c3: Fe2, c4: Fe2) {
        let m = self.mark();
        let (a, b, e) = (self.reg6(), self.reg6(), self.reg6());
        let o = self.reg2();
        for k in 0..3 {
            self.mul2(a[k], f[0][k], c0);
        }
        self.mul6_by_01(b, f[1], c3, c4);
        self.add2(o, c0, c3);
        self.add6(e, f[0], f[1]);
        self.mul6_by_01(e, e, o, c4);
        self.karatsuba12(f, a, b, e);
        self.release(m);
    }

    /// d = a^2 for a in the cyclotomic subgroup (Granger and Scott,
    /// "Faster squaring in the cyclotomic subgroup of sixth degree
    /// extensions", PKC 2010; arkworks' cyclotomic_square): three squarings
    /// in F_p4 = F_p2[w^3], six F_p2 products instead of twelve. Only for
    /// elements of norm one (after the final exponentiation's easy part).
    pub(crate) fn cyclotomic_sq12(&mut self, d: Fe12, a: Fe12) {
        let m = self.mark();
        // (r0, r1), (r2, r3), (r4, r5): the F_p4 coefficients.
        let r = [a[0][0], a[1][1], a[1][0], a[0][2], a[0][1], a[1][2]];
        let t: [Fe2; 6] = std::array::from_fn(|_| self.reg2());
        let (p, s, u) = (self.reg2(), self.reg2(), self.reg2());
        for k in 0..3 {
            let (x, y) = (r[2 * k], r[2 * k + 1]);
            // (x + y w^3)^2: t_even = (x + y)(x + xi y) - xy - xi xy, t_odd = 2 xy.
            self.mul2(p, x, y);
            self.add2(s, x, y);
            self.mul_by_xi(u, y);
            self.add2(u, u, x);
            self.mul2(s, s, u);
            self.sub2(s, s, p);
            self.mul_by_xi(u, p);
            self.sub2(t[2 * k], s, u);
            self.add2(t[2 * k + 1], p, p);
        }
        self.mul_by_xi(t[5], t[5]);
        // z = 3 t - 2 r or 3 t + 2 r, by place (t5 times xi).
        let z = [
            (d[0][0], t[0], r[0], false),
            (d[1][1], t[1], r[1], true),
            (d[1][0], t[5], r[2], true),
            (d[0][2], t[4], r[3], false),
            (d[0][1], t[2], r[4], false),
            (d[1][2], t[3], r[5], true),
        ];
        for (dst, tk, rk, plus) in z {
            if plus {
                self.add2(s, tk, rk);
            } else {
                self.sub2(s, tk, rk);
            }
            self.add2(s, s, s);
            self.add2(dst, s, tk);
        }
        self.release(m);
    }

    /// Complex squaring: m = a0 a1, c0 = (a0 + a1)(a0 + a1 v) - m - m v,
    /// c1 = 2 m.
    pub(crate) fn sq12(&mut self, d: Fe12, a: Fe12) {
        let m = self.mark();
        let (p, s, t) = (self.reg6(), self.reg6(), self.reg6());
        self.mul6(p, a[0], a[1]);
        self.add6(s, a[0], a[1]);
        let av = self.times_v(a[1]);
        self.add6(t, a[0], av);
        self.mul6(s, s, t);
        self.sub6(s, s, p);
        let pv = self.times_v(p);
        self.sub6(d[0], s, pv);
        self.add6(d[1], p, p);
        self.release(m);
    }

    /// a0 - a1 w: a^(p^6), the inverse on the cyclotomic subgroup.
    pub(crate) fn conj12(&mut self, d: Fe12, a: Fe12) {
        self.copy6(d[0], a[0]);
        self.neg6(d[1], a[1]);
    }

    /// 1/a = (a0 - a1 w) / (a0^2 - a1^2 v) (0 for 0).
    pub(crate) fn inv12(&mut self, d: Fe12, a: Fe12) {
        let m = self.mark();
        let (s, t) = (self.reg6(), self.reg6());
        self.mul6(s, a[0], a[0]);
        self.mul6(t, a[1], a[1]);
        let tv = self.times_v(t);
        self.sub6(s, s, tv);
        self.inv6(s, s);
        self.mul6(t, a[1], s);
        self.mul6(d[0], a[0], s);
        self.neg6(d[1], t);
        self.release(m);
    }

    /// a^(p^power): each F_p2 coefficient conjugated when the power is odd,
    /// then that of w^k times `frob[k]` (w^k = v^(k/2) w^(k%2); the
    /// constants of the tower, gpu/curve.rs).
    pub(crate) fn frob12(&mut self, d: Fe12, a: Fe12, power: u32, frob: &[[Limbs<N>; 2]; 6]) {
        let m = self.mark();
        let x = self.reg2();
        for k in 0..6 {
            let (src, dst) = (a[k % 2][k / 2], d[k % 2][k / 2]);
            if power % 2 == 1 {
                self.conj2(x, src);
            } else {
                self.copy2(x, src);
            }
            let g = self.konst2(frob[k]);
            self.mul2(dst, x, g);
        }
        self.release(m);
    }

    /// d = 1 if a is one else 0.
    pub(crate) fn is_one12(&mut self, d: Fe, a: Fe12) {
        let m = self.mark();
        let t = self.reg();
        let (zero, one) = (self.zero(), self.one());
        let raw_zero = self.raw([0; N]);
        self.copy(d, raw_zero);
        for (k, c) in a.iter().flatten().flatten().enumerate() {
            self.eq(t, *c, if k == 0 { one } else { zero });
            self.add(d, d, t);
        }
        let twelve = self.raw(small(12));
        self.eq(d, d, twelve);
        self.release(m);
    }

    /// Runs an F_p12 program (gpu/fp12_program.rs) over `regs`, its
    /// registers (`regs[0]` its input and output). Its squarings are
    /// cyclotomic: the programs (final exponentiations) square only after
    /// their easy part, in the cyclotomic subgroup.
    pub(crate) fn fp12_program(
        &mut self,
        program: &super::fp12_program::Program,
        regs: &[Fe12],
        frob: &[[[Limbs<N>; 2]; 6]; 2],
    ) {
        use super::fp12_program::Op as P;
        for (op, dst, a, b) in program.ops() {
            let (d, a, b) = (regs[dst], regs[a], regs[b]);
            match op {
                P::Copy => self.copy12(d, a),
                P::Mul => self.mul12(d, a, b),
                P::Sq => self.cyclotomic_sq12(d, a),
                P::Conj => self.conj12(d, a),
                P::Frob1 => self.frob12(d, a, 1, &frob[0]),
                P::Frob2 => self.frob12(d, a, 2, &frob[1]),
                P::Inv => self.inv12(d, a),
            }
        }
    }
}

/// The kernel's WGSL over a field of `n`-limb elements (`field`: its
/// F_p layer, gpu/shaders.rs `fp_layer`): the operation codes, the
/// machine's constants and the element loads and stores written out limb
/// by limb (no loops: each instruction is one iteration of the
/// interpreter's loop).
pub(crate) fn wgsl(field: &str, n: usize) -> String {
    let mut out: String = OPS
        .iter()
        .map(|(op, name)| format!("const VM_{name}: u32 = {}u;\n", *op as u32))
        .collect();
    out += &format!("const VM_CONST_BASE: u32 = {CONST_BASE}u;\n");
    let limbs = |f: &dyn Fn(usize) -> String| (0..n).map(f).collect::<Vec<_>>().join(", ");
    out += &format!(
        "fn vm_read(buf_base: u32, stride: u32) -> Fp {{\n    return Fp({});\n}}\n",
        limbs(&|j| format!("vm_out[buf_base + {j}u * stride]"))
    );
    out += &format!(
        "fn vm_const(k: u32) -> Fp {{\n    let b = k * FP_LIMBS;\n    return Fp({});\n}}\n",
        limbs(&|j| format!("vm_consts[b + {j}u]"))
    );
    out += &format!(
        "fn vm_input(t: u32, k: u32) -> Fp {{\n    let b = (t * params.in_fps + k) * FP_LIMBS;\n    return Fp({});\n}}\n",
        limbs(&|j| format!("vm_in[b + {j}u]"))
    );
    out += "fn vm_write(buf_base: u32, stride: u32, v: Fp) {\n";
    for j in 0..n {
        out += &format!("    vm_out[buf_base + {j}u * stride] = v[{j}];\n");
    }
    out += "}\n";
    [field.to_string(), out, TOWER_VM.to_string()].join("\n")
}

const TOWER_VM: &str = include_str!("wgsl/tower_vm.wgsl");

/// Which of a program's codes a run takes (see [`lanes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Spread {
    /// Lanes on a hardware adapter while the items' threads stay within
    /// [`WIDE_THREADS`] (a software rasteriser runs lanes one after
    /// another: one lane there); `BATCHCRYPTO_TOWER_LANES=1` keeps one
    /// lane everywhere, for measuring the two side by side.
    Auto,
    /// The program as written.
    #[cfg(test)]
    Narrow,
    /// Over lanes where the program has a wide code.
    #[cfg(test)]
    Wide,
}

/// The most threads (items times lanes) a wide run starts: about what an
/// H200 holds at once (132 multiprocessors of 2,048 threads); beyond, the
/// device is full and lanes that idle in part of the bundles cost
/// throughput. An estimate, not yet measured (docs/bench: the next H200
/// run times both codes).
pub(crate) const WIDE_THREADS: usize = 1 << 18;

/// A program over items of `program.inputs` elements each (`N` words
/// per element, `words`): per item, its outputs (`program.outputs`
/// elements, Montgomery form as computed). Registers live in the output
/// buffer after the outputs; each pass is one dispatch, `code.lanes`
/// threads per item.
pub(crate) struct VmKernel<'a> {
    pub(crate) name: &'static str,
    pub(crate) pipeline: Arc<wgpu::ComputePipeline>,
    pub(crate) program: &'a Program,
    pub(crate) code: &'a Laned,
    pub(crate) limbs: usize,
    pub(crate) words: &'a [u32],
}

impl<'a> VmKernel<'a> {
    /// `program` over `words` on `tower`'s machine, the input checked to
    /// be whole items.
    fn new(
        gpu: &Gpu,
        name: &'static str,
        tower: Tower,
        program: &'a Program,
        words: &'a [u32],
        spread: Spread,
    ) -> Result<Self, String> {
        let in_words = program.inputs * tower.limbs();
        if !words.len().is_multiple_of(in_words.max(1)) {
            return Err(format!(
                "{name}: {} words of input are not whole items of {in_words}",
                words.len(),
            ));
        }
        let items = words.len() / in_words.max(1);
        let code = match spread {
            Spread::Auto => program
                .wide()
                .filter(|w| {
                    !gpu.summary.software
                        && items * w.lanes <= WIDE_THREADS
                        && std::env::var("BATCHCRYPTO_TOWER_LANES").as_deref() != Ok("1")
                })
                .unwrap_or(&program.narrow),
            #[cfg(test)]
            Spread::Narrow => &program.narrow,
            #[cfg(test)]
            Spread::Wide => program.wide().unwrap_or(&program.narrow),
        };
        Ok(VmKernel {
            name,
            pipeline: pipeline(gpu, tower)?,
            program,
            code,
            limbs: tower.limbs(),
            words,
        })
    }

    fn in_words(&self) -> usize {
        self.program.inputs * self.limbs
    }

    fn out_words(&self) -> usize {
        self.program.outputs * self.limbs + 1
    }

    /// Words of one item's outputs and registers.
    fn item_words(&self) -> usize {
        self.out_words() + self.code.regs * self.limbs
    }
}

impl Kernel for VmKernel<'_> {
    type Out = Vec<u32>;

    fn name(&self) -> &'static str {
        self.name
    }

    fn pipeline(&self) -> &wgpu::ComputePipeline {
        &self.pipeline
    }

    fn units(&self) -> usize {
        self.words.len() / self.in_words().max(1)
    }

    fn threads_per_unit(&self) -> usize {
        self.code.lanes
    }

    fn max_units(&self) -> usize {
        1 << 20
    }

    fn end(&self, gpu: &Gpu, start: usize, max: usize) -> Result<usize, String> {
        // The output buffer holds the outputs and the register file.
        let per_item = self.item_words() * 4;
        let fit = (gpu.max_binding.min(1 << 30) as usize) / per_item;
        if fit == 0 {
            return Err(format!(
                "{}: one item's registers exceed the storage binding limit",
                self.name
            ));
        }
        Ok((start + max.min(fit)).min(self.units()))
    }

    fn inputs(&self, start: usize, end: usize) -> Vec<Input> {
        let mut inputs = vec![
            Input::storage(self.code.code.len() * 4),
            Input::storage(self.program.consts.len().max(1) * 4),
            Input::storage((end - start) * self.in_words() * 4)
                .with_room(((end - start) * self.in_words()).max(1) as u64 * 4),
        ];
        inputs.extend(self.code.passes().iter().map(|_| Input::uniform(48)));
        inputs
    }

    fn pack(&self, start: usize, end: usize, dst: Vec<Dst<'_>>) {
        let mut dst = dst.into_iter();
        let mut next = || dst.next().expect("an input per buffer");
        next().write_iter(self.code.code.iter().flat_map(|w| w.to_le_bytes()));
        let consts = next();
        if self.program.consts.is_empty() {
            consts.write_iter([0u8; 4]);
        } else {
            consts.write_iter(self.program.consts.iter().flat_map(|w| w.to_le_bytes()));
        }
        let (iw, n) = (self.in_words(), end - start);
        next().write_iter(self.words[start * iw..end * iw].iter().flat_map(|w| w.to_le_bytes()));
        let passes = self.code.passes();
        for (k, (s, e)) in passes.iter().enumerate() {
            let words = [
                n as u32,
                shaders::LOOP_GUARD,
                *s as u32,
                *e as u32,
                u32::from(k + 1 == passes.len()),
                self.program.inputs as u32,
                self.out_words() as u32,
                (n * self.out_words()) as u32,
                self.code.lanes as u32,
                self.code.regs as u32,
                0,
                0,
            ];
            next().write_iter(words.iter().flat_map(|w| w.to_le_bytes()));
        }
    }

    fn out_bytes(&self, start: usize, end: usize) -> u64 {
        ((end - start) * self.out_words() * 4) as u64
    }

    fn out_room(&self, start: usize, end: usize) -> u64 {
        ((end - start) * self.item_words() * 4) as u64
    }

    fn bind(
        &self,
        gpu: &Gpu,
        inputs: &[wgpu::Buffer],
        out: &wgpu::Buffer,
        start: usize,
        end: usize,
    ) -> Vec<(wgpu::BindGroup, u32)> {
        inputs[3..]
            .iter()
            .map(|params| {
                let entries = [(0, params), (1, &inputs[0]), (2, &inputs[1]), (3, &inputs[2]), (4, out)];
                (
                    gpu.bind(&self.pipeline, self.name, &entries),
                    ((end - start) * self.threads_per_unit()) as u32,
                )
            })
            .collect()
    }

    fn decode(&self, start: usize, _end: usize, out: &[u8], answers: &mut Vec<Vec<u32>>) -> Result<(), String> {
        driver::decode_words(
            out,
            self.out_words(),
            start,
            &format!("its {} answer", self.name),
            answers,
        )
    }
}

/// The machine's pipeline for `tower`'s field (created on the first call;
/// a caller timing a run calls it first, so that the creation is not in
/// the time).
pub(crate) fn pipeline(gpu: &Gpu, tower: Tower) -> Result<Arc<wgpu::ComputePipeline>, String> {
    let key = match tower {
        Tower::Bls12381 => "tower_vm_bls12_381",
        Tower::Bn254 => "tower_vm_bn254",
    };
    gpu.require_int64(key)?;
    gpu.pipeline(key, "tower_vm", || shaders::tower_vm(tower))
}

/// The words of `program`'s outputs for each item of `words` on the
/// device, over `tower`'s field.
pub(crate) fn run(
    gpu: &Gpu,
    name: &'static str,
    tower: Tower,
    program: &Program,
    words: &[u32],
) -> Result<Vec<Vec<u32>>, String> {
    run_with(gpu, name, tower, program, words, Spread::Auto)
}

/// [`run`] over the code `spread` picks.
pub(crate) fn run_with(
    gpu: &Gpu,
    name: &'static str,
    tower: Tower,
    program: &Program,
    words: &[u32],
    spread: Spread,
) -> Result<Vec<Vec<u32>>, String> {
    // Also for no items: a batch whose items all failed on the host then
    // runs where the others would (the CPU, on an adapter without it).
    gpu.require_int64(name)?;
    if words.is_empty() {
        return Ok(Vec::new());
    }
    let kernel = VmKernel::new(gpu, name, tower, program, words, spread)?;
    let out = driver::run(gpu, &kernel).map_err(|f| f.reason)?;
    if out.len() != kernel.units() {
        return Err(format!("{name}: {} answers for {} items", out.len(), kernel.units()));
    }
    Ok(out)
}

/// Device times of `runs` runs of `program` over `words` (inputs uploaded
/// once; GPU timestamps where the adapter has them): see [`run`].
pub(crate) fn time(
    gpu: &Gpu,
    name: &'static str,
    tower: Tower,
    program: &Program,
    words: &[u32],
    runs: usize,
) -> Result<Vec<f64>, String> {
    driver::time(
        gpu,
        &VmKernel::new(gpu, name, tower, program, words, Spread::Auto)?,
        runs,
    )
}

/// The machine on the host, over arkworks' field `F`, for the tests: the
/// same programs, the same words out.
#[cfg(test)]
pub(crate) mod host {
    use ark_ff::{BigInteger, PrimeField};

    use super::*;

    fn to_f<F: PrimeField>(words: &[u32]) -> F {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        F::from_le_bytes_mod_order(&bytes)
    }

    fn to_words<F: PrimeField>(x: F, n: usize) -> Vec<u32> {
        let bytes = x.into_bigint().to_bytes_le();
        (0..n)
            .map(|k| u32::from_le_bytes(std::array::from_fn(|j| bytes.get(4 * k + j).copied().unwrap_or(0))))
            .collect()
    }

    /// Runs `program` on one item's input words (`n` words per element);
    /// its output words. A register holds w R^-1 for the words w the
    /// device holds, so that the device's Montgomery product is the field's.
    /// The program's wide code (if it has one) runs too and must give the
    /// same words: every test of a program on the host tests its schedule.
    pub(crate) fn run<F: PrimeField>(program: &Program, n: usize, input: &[u32]) -> Vec<u32> {
        let out = run_code::<F>(program, &program.narrow, n, input);
        if let Some(wide) = program.wide() {
            assert_eq!(
                run_code::<F>(program, wide, n, input),
                out,
                "the program over {} lanes",
                wide.lanes
            );
        }
        out
    }

    /// Runs `code` (one of `program`'s) as the device does: every slot of
    /// a bundle reads its operands before any slot writes.
    pub(crate) fn run_code<F: PrimeField>(program: &Program, code: &Laned, n: usize, input: &[u32]) -> Vec<u32> {
        let r = F::from(2u64).pow([32 * n as u64]);
        let r_inv = r.inverse().expect("R is invertible");
        let consts: Vec<F> = program.consts.chunks(n).map(|c| to_f::<F>(c) * r_inv).collect();
        let mut regs = vec![F::ZERO; code.regs];
        let mut out = vec![0u32; program.outputs * n];
        let get = |regs: &[F], k: u32| {
            if k >= CONST_BASE {
                consts[(k - CONST_BASE) as usize]
            } else {
                regs[k as usize]
            }
        };
        let fields = |ins: u32| (ins & 15, (ins >> 4) & 511, (ins >> 13) & 511, (ins >> 22) & 511);
        for bundle in code.code.chunks(2 * code.lanes) {
            let mut writes: Vec<(u32, F)> = Vec::new();
            for slot in bundle.chunks(2) {
                let (ins, ext) = (slot[0], slot[1]);
                let (op, d, a, b) = fields(ins);
                if (10..=13).contains(&op) {
                    let (ext_op, d1, a1, b1) = fields(ext);
                    assert_eq!(ext_op, Op::Ext as u32, "the second word of {ins:#x}");
                    let (x0, x1, y0, y1) = (get(&regs, a), get(&regs, a1), get(&regs, b), get(&regs, b1));
                    let (z0, z1) = match op {
                        10 => (x0 * y0 - x1 * y1, x0 * y1 + x1 * y0),
                        11 => (x0 * x0 - x1 * x1, x0 * x1 + x0 * x1),
                        12 => (x0 + y0, x1 + y1),
                        _ => (x0 - y0, x1 - y1),
                    };
                    writes.extend([(d, z0), (d1, z1)]);
                    continue;
                }
                let value = match op {
                    0 => get(&regs, a),
                    1 => get(&regs, a) * get(&regs, b),
                    2 => get(&regs, a) + get(&regs, b),
                    3 => get(&regs, a) - get(&regs, b),
                    4 => {
                        if get(&regs, a) == get(&regs, b) {
                            r_inv
                        } else {
                            F::ZERO
                        }
                    }
                    5 => to_f::<F>(&input[a as usize * n..(a as usize + 1) * n]) * r_inv,
                    6 => {
                        let words = to_words(get(&regs, a) * r, n);
                        out[d as usize * n..(d as usize + 1) * n].copy_from_slice(&words);
                        continue;
                    }
                    7 => {
                        if get(&regs, b) == r_inv {
                            get(&regs, a)
                        } else {
                            continue;
                        }
                    }
                    8 => {
                        if (get(&regs, a) * r).into_bigint() > F::MODULUS_MINUS_ONE_DIV_TWO {
                            r_inv
                        } else {
                            F::ZERO
                        }
                    }
                    9 => {
                        let words = to_words(get(&regs, a) * r, n);
                        if (words[b as usize / 32] >> (b % 32)) & 1 == 1 {
                            r_inv
                        } else {
                            F::ZERO
                        }
                    }
                    op if op == lanes::NOP => continue,
                    _ => panic!("unknown instruction {ins:#x}"),
                };
                writes.push((d, value));
            }
            for (d, value) in writes {
                regs[d as usize] = value;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    //! The F_p12 operations on the host machine against arkworks, on
    //! random values and edges (one, w, a line's sparse shape, a0 = 0,
    //! zero, whose "inverse" is zero on both, coefficients just below p),
    //! the sparse products against the dense one, the cyclotomic square on
    //! the cyclotomic subgroup; then the same values on the device.

    use ark_bls12_381::{Fq, Fq2, Fq6, Fq12, Fq12Config};
    use ark_ff::{Field, PrimeField};
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    use super::*;
    use crate::gpu::bigint::from_hex;
    use crate::gpu::curve::{BLS12_381_P, fp12_frobenius};

    fn fq12(c: &[Fq]) -> Fq12 {
        let f2 = |k: usize| Fq2::new(c[2 * k], c[2 * k + 1]);
        Fq12::new(Fq6::new(f2(0), f2(1), f2(2)), Fq6::new(f2(3), f2(4), f2(5)))
    }

    fn words(x: &Fq12) -> Vec<u32> {
        let p = from_hex::<12>(BLS12_381_P);
        x.to_base_prime_field_elements()
            .flat_map(|c| mont_form(&crate::gpu::bigint::from_ark::<12>(c.into_bigint()), &p))
            .collect()
    }

    /// The two-word F_p2 operations with their destination one of their
    /// operands, or both coefficients swapped, on the host and the device
    /// against arkworks; then a product long enough for two passes (cut
    /// between slots).
    #[test]
    fn fp2_operations_alias_and_passes_keep_them_whole() {
        let p = from_hex::<12>(BLS12_381_P);
        let mut a = Asm::<12>::new(p, 1);
        let (x, y) = (a.reg2(), a.reg2());
        for c in x.iter().chain(&y) {
            a.load(*c);
        }
        let cases = 9;
        for k in 0..cases {
            let m = a.mark();
            let (t, u) = (a.reg2(), a.reg2());
            a.copy2(t, x);
            a.copy2(u, y);
            let swapped = [t[1], t[0]];
            let d = match k {
                0 => (a.mul2(t, t, u), t).1,
                1 => (a.mul2(u, t, u), u).1,
                2 => (a.mul2(swapped, t, u), swapped).1,
                3 => (a.sq2(t, t), t).1,
                4 => (a.sq2(swapped, t), swapped).1,
                5 => (a.add2(swapped, t, u), swapped).1,
                6 => (a.sub2(u, t, u), u).1,
                7 => (a.sub2(swapped, t, u), swapped).1,
                _ => (a.neg2(t, t), t).1,
            };
            a.output(d[0]);
            a.output(d[1]);
            a.release(m);
        }
        // One word, then x y^k past the first pass's end: its last word
        // would be the first word of a multiplication.
        let acc = a.reg2();
        a.copy2(acc, x);
        if (PASS_LEN - a.code.len()).is_multiple_of(2) {
            let zero = a.zero();
            a.add(acc[0], acc[0], zero);
        }
        let before = a.code.len();
        let k = (PASS_LEN - before).div_ceil(2) + 1;
        for _ in 0..k {
            a.mul2(acc, acc, y);
        }
        a.output(acc[0]);
        a.output(acc[1]);
        let program = a.finish();
        // One lane: a slot of two words per instruction, passes of whole
        // slots.
        let passes = program.narrow.passes();
        assert_eq!(passes, [(0, PASS_LEN), (PASS_LEN, program.narrow.code.len())]);
        let mut rng = StdRng::seed_from_u64(22);
        let mut inputs = Vec::new();
        let mut wanted = Vec::new();
        for n in 0..3 {
            let edge = Fq::from(0u64) - Fq::from(1u64 + n as u64);
            let (x, y) = match n {
                0 => (Fq2::new(edge, Fq::from(0u64)), Fq2::new(edge, edge)),
                _ => {
                    let mut random = || Fq::from_le_bytes_mod_order(&rng.random::<[u8; 64]>());
                    (Fq2::new(random(), edge), Fq2::new(random(), random()))
                }
            };
            let input: Vec<u32> = [x.c0, x.c1, y.c0, y.c1]
                .iter()
                .flat_map(|c| mont_form(&crate::gpu::bigint::from_ark::<12>(c.into_bigint()), &p))
                .collect();
            let results = [x * y, x * y, x * y, x.square(), x.square(), x + y, x - y, x - y, -x];
            let mut want: Vec<Fq> = results.iter().flat_map(|v| [v.c0, v.c1]).collect();
            let power = x * y.pow([k as u64]);
            want.extend([power.c0, power.c1]);
            let want: Vec<u32> = want
                .iter()
                .flat_map(|c| mont_form(&crate::gpu::bigint::from_ark::<12>(c.into_bigint()), &p))
                .collect();
            let got = host::run::<Fq>(&program, 12, &input);
            let first = got.chunks(12).zip(want.chunks(12)).position(|(g, w)| g != w);
            assert!(
                first.is_none(),
                "value {n}: coefficient {first:?} of {}",
                want.len() / 12
            );
            inputs.extend(input);
            wanted.push(want);
        }
        let Some(gpu) = crate::gpu::probe::test_gpu() else {
            return;
        };
        let got = run(&gpu, "tower_vm_test", Tower::Bls12381, &program, &inputs).expect("tower_vm");
        assert_eq!(got.len(), wanted.len());
        for (n, (g, w)) in got.iter().zip(&wanted).enumerate() {
            assert_eq!(&g[..w.len()], &w[..], "device, value {n}");
        }
    }

    #[test]
    fn fp12_operations_are_arkworks() {
        let mut a = Asm::<12>::new(from_hex(BLS12_381_P), 1);
        let frob = fp12_frobenius::<Fq12Config, 12>();
        let (x, y, z) = (a.reg12(), a.reg12(), a.reg12());
        for c in x.iter().chain(&y).chain(&z).flatten().flatten() {
            a.load(*c);
        }
        let d = a.reg12();
        type Unary = fn(&mut Asm<12>, Fe12, Fe12);
        let unary: [Unary; 3] = [Asm::sq12, Asm::conj12, Asm::inv12];
        a.mul12(d, x, y);
        a.output12(d);
        for op in unary {
            op(&mut a, d, x);
            a.output12(d);
        }
        for power in [1, 2] {
            a.frob12(d, x, power, &frob[power as usize - 1]);
            a.output12(d);
        }
        // The sparse products by y's coefficients 0, 1, 4 and 0, 3, 4;
        // the cyclotomic square of z.
        a.copy12(d, x);
        a.mul12_by_014(d, y[0][0], y[0][1], y[1][1]);
        a.output12(d);
        a.copy12(d, x);
        a.mul12_by_034(d, y[0][0], y[1][0], y[1][1]);
        a.output12(d);
        a.cyclotomic_sq12(d, z);
        a.output12(d);
        let program = a.finish();
        let mut rng = StdRng::seed_from_u64(12);
        let (mut inputs, mut wanted) = (Vec::new(), Vec::new());
        for n in 0..12 {
            let mut v: Vec<Fq> = (0..24)
                .map(|_| Fq::from_le_bytes_mod_order(&rng.random::<[u8; 64]>()))
                .collect();
            match n {
                0 => v[..12]
                    .iter_mut()
                    .enumerate()
                    .for_each(|(k, c)| *c = Fq::from(u64::from(k == 0))),
                1 => v[..12]
                    .iter_mut()
                    .enumerate()
                    .for_each(|(k, c)| *c = Fq::from(u64::from(k == 6))),
                2 => v[12..].iter_mut().enumerate().for_each(|(k, c)| {
                    if ![0, 1, 2, 3, 8, 9].contains(&k) {
                        *c = Fq::from(0u64)
                    }
                }),
                3 => v[..6].iter_mut().for_each(|c| *c = Fq::from(0u64)),
                4 => v[..12].iter_mut().for_each(|c| *c = Fq::from(0u64)),
                // Every coefficient p - 1, and p - 1 against small ones.
                5 => v.iter_mut().for_each(|c| *c = -Fq::from(1u64)),
                6 => v.iter_mut().enumerate().for_each(|(k, c)| {
                    *c = if k < 12 {
                        -Fq::from(1u64 + k as u64)
                    } else {
                        Fq::from(k as u64)
                    }
                }),
                _ => {}
            }
            let (x, y) = (fq12(&v[..12]), fq12(&v[12..]));
            // z in the cyclotomic subgroup: y^((p^6 - 1)(p^2 + 1)).
            let mut z = y;
            z.conjugate_in_place();
            z *= y.inverse().unwrap_or_default();
            z = z.frobenius_map(2) * z;
            let input: Vec<u32> = [x, y, z].iter().flat_map(words).collect();
            let got = host::run::<Fq>(&program, 12, &input);
            let mut conj = x;
            conj.conjugate_in_place();
            let sparse = |keep: [usize; 3]| {
                let mut c = [Fq::from(0u64); 12];
                for k in keep {
                    c[2 * k] = v[12 + 2 * k];
                    c[2 * k + 1] = v[12 + 2 * k + 1];
                }
                fq12(&c)
            };
            let want: Vec<u32> = [
                x * y,
                x.square(),
                conj,
                x.inverse().unwrap_or_default(),
                x.frobenius_map(1),
                x.frobenius_map(2),
                x * sparse([0, 1, 4]),
                x * sparse([0, 3, 4]),
                z.square(),
            ]
            .iter()
            .flat_map(words)
            .collect();
            assert_eq!(got.len(), want.len());
            for (k, (g, w)) in got.chunks(144).zip(want.chunks(144)).enumerate() {
                assert_eq!(g, w, "value {n}, operation {k}");
            }
            inputs.extend(input);
            wanted.push(want);
        }
        // The same values through the device's machine.
        let Some(gpu) = crate::gpu::probe::test_gpu() else {
            return;
        };
        let got = run(&gpu, "tower_vm_test", Tower::Bls12381, &program, &inputs).expect("tower_vm");
        assert_eq!(got, wanted);
    }

    /// Every pairing program's wide code against its one-lane code on the
    /// device, item by item (three items of random elements below p: the
    /// two codes compute the same function of any input); the schedules
    /// are checked on the host wherever a test runs a program there.
    #[test]
    fn wide_codes_match_one_lane_on_the_device() {
        use crate::ops::bls::gpu::programs as bls;
        let Some(gpu) = crate::gpu::probe::test_gpu() else {
            return;
        };
        let sums = [bls::sum_programs(false), bls::sum_programs(true)];
        let mut programs: Vec<(&str, Tower, &Program)> = vec![
            ("bls pairs", Tower::Bls12381, bls::pairs()),
            ("bls map_to_g2", Tower::Bls12381, bls::map_to_g2()),
            ("bls points g1", Tower::Bls12381, bls::points(false)),
            ("bls points g2", Tower::Bls12381, bls::points(true)),
            ("bn254 pairs", Tower::Bn254, crate::ops::evm::programs::pairs()),
        ];
        let names = [
            ["g1 scale64", "g1 scale1", "g1 sum", "g1 affine"],
            ["g2 scale64", "g2 scale1", "g2 sum", "g2 affine"],
        ];
        for (sum, names) in sums.iter().zip(names) {
            let each = [&sum.scale64, &sum.scale1, &sum.sum, &sum.affine];
            programs.extend(
                names
                    .into_iter()
                    .zip(each)
                    .map(|(name, program)| (name, Tower::Bls12381, program)),
            );
        }
        for tower in [Tower::Bls12381, Tower::Bn254] {
            for check in [false, true] {
                programs.push((
                    "product",
                    tower,
                    super::super::pairing_vm::product_program(tower, check),
                ));
            }
        }
        let mut rng = StdRng::seed_from_u64(5);
        let mut spread_any = 0;
        for (name, tower, program) in programs {
            let Some(wide) = program.wide() else { continue };
            spread_any += 1;
            let limbs = tower.limbs();
            let words: Vec<u32> = (0..3 * program.inputs)
                .flat_map(|_| -> Vec<u32> {
                    let bytes = rng.random::<[u8; 64]>();
                    match tower {
                        Tower::Bls12381 => host_words(Fq::from_le_bytes_mod_order(&bytes), limbs),
                        Tower::Bn254 => host_words(ark_bn254::Fq::from_le_bytes_mod_order(&bytes), limbs),
                    }
                })
                .collect();
            let narrow = run_with(&gpu, "tower_vm_test", tower, program, &words, Spread::Narrow).expect(name);
            let spread = run_with(&gpu, "tower_vm_test", tower, program, &words, Spread::Wide).expect(name);
            assert_eq!(narrow.len(), 3, "{name}");
            assert_eq!(spread, narrow, "{name} over {} lanes", wide.lanes);
        }
        assert!(spread_any >= 6, "{spread_any} programs with a wide code");
    }

    fn host_words<F: PrimeField>(x: F, limbs: usize) -> Vec<u32> {
        use ark_ff::BigInteger;
        let bytes = x.into_bigint().to_bytes_le();
        (0..limbs)
            .map(|k| u32::from_le_bytes(std::array::from_fn(|j| bytes.get(4 * k + j).copied().unwrap_or(0))))
            .collect()
    }
}
