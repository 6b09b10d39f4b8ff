//! Straight-line programs over F_p12 for the pairing checks: written here
//! as calls, expanded into F_p instructions of the tower machine
//! (gpu/tower_vm.rs `Asm::fp12_program`). The programs are the final
//! exponentiations,
//! arkworks' line for line (BLS12-381: ark-ec
//! `Bls12Config::final_exponentiation`, after Hayashida, Hayasaka and
//! Teruya, eprint 2020/875; BN254: `BnConfig::final_exponentiation`, after
//! Fuentes-Castaneda, Knapp and Rodriguez-Henriquez, "Faster hashing to
//! G2"), so that the device's pairings equal arkworks' values.

use super::curve::BLS_X_ABS;

/// A register of the interpreter (F_p12 values; a program declares as
/// many as it uses, `FP12_REGS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Reg(u32);

/// The program's input and, at the end, its output.
pub(crate) const R: Reg = Reg(0);
const Y0: Reg = Reg(1);
const Y1: Reg = Reg(2);
const Y2: Reg = Reg(3);
const Y3: Reg = Reg(4);
const Y4: Reg = Reg(5);

/// The operations (the tower machine expands each into F_p instructions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub(crate) enum Op {
    Copy = 0,
    Mul = 1,
    Sq = 2,
    Conj = 3,
    Frob1 = 4,
    Frob2 = 5,
    Inv = 6,
}

const OPS: [Op; 7] = [Op::Copy, Op::Mul, Op::Sq, Op::Conj, Op::Frob1, Op::Frob2, Op::Inv];

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

    /// dst = a^e, or a^-e with `invert`, for a in the cyclotomic subgroup
    /// (where the conjugate is the inverse): square and multiply from the
    /// top bit of e > 0. dst and a differ.
    fn exp(&mut self, dst: Reg, a: Reg, e: u64, invert: bool) {
        self.copy(dst, a);
        for bit in (0..63 - e.leading_zeros()).rev() {
            self.sq(dst, dst);
            if (e >> bit) & 1 == 1 {
                self.mul(dst, dst, a);
            }
        }
        if invert {
            self.conj(dst, dst);
        }
    }

    /// dst = a^x for BLS12-381's (negative) parameter x (arkworks
    /// `exp_by_x`).
    fn exp_by_x(&mut self, dst: Reg, a: Reg) {
        self.exp(dst, a, BLS_X_ABS, true);
    }

    /// dst = a^-x for BN254's (positive) parameter x (arkworks
    /// `exp_by_neg_x`).
    fn exp_by_neg_bn_x(&mut self, dst: Reg, a: Reg) {
        self.exp(dst, a, BN254_X, true);
    }

    /// The instructions as (operation, destination, operands).
    pub(crate) fn ops(&self) -> impl Iterator<Item = (Op, usize, usize, usize)> + '_ {
        self.0.iter().map(|w| {
            let op = OPS[(w & 0xff) as usize];
            let reg = |shift: u32| ((w >> shift) & 0xff) as usize;
            (op, reg(8), reg(16), reg(24))
        })
    }

    /// The registers the program uses.
    pub(crate) fn registers(&self) -> u32 {
        let reg = |w: &u32, shift: u32| (w >> shift) & 0xff;
        self.0
            .iter()
            .map(|w| reg(w, 8).max(reg(w, 16)).max(reg(w, 24)))
            .max()
            .map_or(1, |r| r + 1)
    }
}

/// BN254's curve parameter x (positive; arkworks `Config::X`).
pub(crate) const BN254_X: u64 = 4_965_661_367_192_848_881;

/// The easy part of both final exponentiations: R <- R^((p^6 - 1)(p^2 + 1))
/// (arkworks' order), with Y0 and Y1 as scratch.
fn easy_part(p: &mut Program) {
    p.conj(Y0, R); // f^(p^6)
    p.inv(Y1, R); // f^-1
    p.mul(R, Y0, Y1); // f^(p^6 - 1)
    p.copy(Y1, R);
    p.frob(R, R, 2);
    p.mul(R, R, Y1);
}

/// R <- R^((p^12 - 1) / r) times arkworks' constant cofactor of the hard
/// part (so exactly arkworks' pairing value), for BLS12-381 and R != 0.
pub(crate) fn final_exponentiation() -> Program {
    let mut p = Program::default();
    easy_part(&mut p);
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

/// The same for BN254: arkworks' hard part, its y0..y16 in six registers
/// (R: r, then y15, y16; Y0: y0, y1, then y10, y11, y13, y14; Y1: y2, y3,
/// then y9; Y2: y4, then y12; Y3: y5; Y4: y6, y7, y8).
pub(crate) fn bn254_final_exponentiation() -> Program {
    let mut p = Program::default();
    easy_part(&mut p);
    p.exp_by_neg_bn_x(Y0, R); // y0
    p.sq(Y0, Y0); // y1
    p.sq(Y1, Y0); // y2
    p.mul(Y1, Y1, Y0); // y3
    p.exp_by_neg_bn_x(Y2, Y1); // y4
    p.sq(Y3, Y2); // y5
    p.exp_by_neg_bn_x(Y4, Y3); // y6
    p.conj(Y1, Y1); // y3^-1
    p.conj(Y4, Y4); // y6^-1
    p.mul(Y4, Y4, Y2); // y7
    p.mul(Y4, Y4, Y1); // y8
    p.mul(Y1, Y4, Y0); // y9
    p.mul(Y0, Y4, Y2); // y10
    p.mul(Y0, Y0, R); // y11
    p.frob(Y2, Y1, 1); // y12
    p.mul(Y0, Y2, Y0); // y13
    p.frob(Y4, Y4, 2); // y8^(p^2)
    p.mul(Y0, Y4, Y0); // y14
    p.conj(R, R);
    p.mul(R, R, Y1); // y15
    p.frob(R, R, 1);
    p.frob(R, R, 2); // y15^(p^3)
    p.mul(R, R, Y0); // y16
    p
}
