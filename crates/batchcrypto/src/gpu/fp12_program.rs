//! Straight-line programs over F_p12 for the BLS12-381 kernels: written here
//! as calls, rendered into a WGSL constant, run on the device by
//! `fp12_run` (wgsl/bls_pairing.wgsl), one site per operation in the
//! shader however long the program, and in slices when a kernel must stay
//! under a driver's loop limit. The final exponentiation is the first
//! program: arkworks' (ark-ec `Bls12Config::final_exponentiation`, after
//! Hayashida, Hayasaka and Teruya, eprint 2020/875), line for line, so that
//! the device's pairing equals arkworks' value.

use super::curve::BLS_X_ABS;

/// A register of the interpreter (four F_p12 values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Reg(u32);

/// The program's input and, at the end, its output.
pub(crate) const R: Reg = Reg(0);
const Y0: Reg = Reg(1);
const Y1: Reg = Reg(2);
const Y2: Reg = Reg(3);

/// The operations, as `fp12_run` decodes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
enum Op {
    Copy = 0,
    Mul = 1,
    Sq = 2,
    Conj = 3,
    Frob1 = 4,
    Frob2 = 5,
    Inv = 6,
}

const OPS: [(Op, &str); 7] = [
    (Op::Copy, "COPY"),
    (Op::Mul, "MUL"),
    (Op::Sq, "SQ"),
    (Op::Conj, "CONJ"),
    (Op::Frob1, "FROB1"),
    (Op::Frob2, "FROB2"),
    (Op::Inv, "INV"),
];

/// A program under construction.
#[derive(Default)]
pub(crate) struct Program(Vec<u32>);

impl Program {
    fn op(&mut self, op: Op, dst: Reg, a: Reg, b: Reg) {
        self.0.push(op as u32 | dst.0 << 8 | a.0 << 16 | b.0 << 24);
    }

    fn copy(&mut self, dst: Reg, a: Reg) {
        self.op(Op::Copy, dst, a, a);
    }

    fn mul(&mut self, dst: Reg, a: Reg, b: Reg) {
        self.op(Op::Mul, dst, a, b);
    }

    fn sq(&mut self, dst: Reg, a: Reg) {
        self.op(Op::Sq, dst, a, a);
    }

    /// The conjugate: the inverse in the cyclotomic subgroup.
    fn conj(&mut self, dst: Reg, a: Reg) {
        self.op(Op::Conj, dst, a, a);
    }

    /// a^(p^power), power 1 or 2.
    fn frob(&mut self, dst: Reg, a: Reg, power: u32) {
        self.op(if power == 1 { Op::Frob1 } else { Op::Frob2 }, dst, a, a);
    }

    fn inv(&mut self, dst: Reg, a: Reg) {
        self.op(Op::Inv, dst, a, a);
    }

    /// dst = a^x for the (negative) curve parameter x, a in the cyclotomic
    /// subgroup (arkworks `exp_by_x`): a^|x| by square and multiply from
    /// the top bit, then conjugated. dst and a differ.
    fn exp_by_x(&mut self, dst: Reg, a: Reg) {
        self.copy(dst, a);
        for bit in (0..63).rev() {
            self.sq(dst, dst);
            if (BLS_X_ABS >> bit) & 1 == 1 {
                self.mul(dst, dst, a);
            }
        }
        self.conj(dst, dst);
    }

    /// The program as WGSL: `FP12_PROGRAM_LEN`, the operation codes
    /// `FP12_OP_*` and the instructions as the constant `name`.
    pub(crate) fn wgsl(&self, name: &str) -> String {
        let mut out: String = OPS
            .iter()
            .map(|(op, n)| format!("const FP12_OP_{n}: u32 = {}u;\n", *op as u32))
            .collect();
        let words: Vec<String> = self.0.iter().map(|w| format!("{w:#x}u")).collect();
        out += &format!("const FP12_PROGRAM_LEN: u32 = {}u;\n", self.0.len());
        out += &format!("const {name} = array<u32, {}>({});\n", self.0.len(), words.join(", "));
        out
    }
}

/// R <- R^((p^12 - 1) / r) times arkworks' constant cofactor of the hard
/// part (so exactly arkworks' pairing value), for R != 0.
pub(crate) fn final_exponentiation() -> Program {
    let mut p = Program::default();
    // Easy part: r = f^((p^6 - 1)(p^2 + 1)).
    p.conj(Y0, R); // f^(p^6)
    p.inv(Y1, R); // f^-1
    p.mul(R, Y0, Y1); // f^(p^6 - 1)
    p.copy(Y1, R);
    p.frob(R, R, 2);
    p.mul(R, R, Y1);
    // Hard part, arkworks' sequence (y0, y1, y2 = its t[0], t[1], t[2]).
    p.sq(Y0, R);
    p.exp_by_x(Y1, R);
    p.conj(Y2, R);
    p.mul(Y1, Y1, Y2);
    p.exp_by_x(Y2, Y1);
    p.conj(Y1, Y1);
    p.mul(Y1, Y1, Y2);
    p.exp_by_x(Y2, Y1);
    p.frob(Y1, Y1, 1);
    p.mul(Y1, Y1, Y2);
    p.mul(R, R, Y0);
    p.exp_by_x(Y0, Y1);
    p.exp_by_x(Y2, Y0);
    p.copy(Y0, Y1);
    p.frob(Y0, Y0, 2);
    p.conj(Y1, Y1);
    p.mul(Y1, Y1, Y2);
    p.mul(Y1, Y1, Y0);
    p.mul(R, R, Y1);
    p
}
