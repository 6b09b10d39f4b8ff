//! A tower-machine program spread over lanes: several threads per item,
//! each running one instruction of a bundle at the same time.
//!
//! Why: on a large GPU a few thousand items leave it mostly idle, and a
//! program then costs its length times one instruction's latency (a
//! 384-bit product is a long chain of dependent operations in one
//! thread): the H200 ran both EIP-2537 stages in 70 ms at 1,024 calls as at
//! 16,384 (docs/bench/h200-2026-12-04b). A pairing's instructions are far
//! from a single chain (the BLS12-381 Miller loop's critical path is about
//! a twentieth of its multiplications), so lanes of one item can run
//! independent instructions side by side.
//!
//! How, at build time on the host:
//! 1. The program's registers are renamed into values (a register written
//!    again is a new value; a conditional move updates its value in
//!    place, after every earlier reader of it).
//! 2. List scheduling: each bundle takes up to `lanes` ready instructions
//!    of one operation (lanes of a bundle run the same branch of the
//!    interpreter), the operation of the ready instruction with the
//!    longest cost-weighted path to the program's end first.
//! 3. The values get registers again over the bundles: a register whose
//!    value was last read in bundle j takes a new value from bundle j + 1
//!    on (a bundle's lanes read before any writes: the interpreter's
//!    barrier separates bundles).
//!
//! The code is bundles of `lanes` slots of two words (an instruction and
//! its [`Op::Ext`] word, 0 after a one-word instruction; [`NOP`] in an empty
//! slot). One lane is the program as written, an instruction per bundle.

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap, HashMap};

use super::{CONST_BASE, Op, PASS_LEN};

/// An empty slot's word (an operation code the interpreter ignores).
pub(crate) const NOP: u32 = 14;

/// A program's code for the interpreter: bundles of `lanes` slots.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Laned {
    pub(crate) lanes: usize,
    pub(crate) code: Vec<u32>,
    /// Registers it uses.
    pub(crate) regs: usize,
}

impl Laned {
    /// Its bundles.
    #[cfg(test)]
    pub(crate) fn bundles(&self) -> usize {
        self.code.len() / (2 * self.lanes)
    }

    /// The passes, as ranges of words of at most [`PASS_LEN`] (rounded
    /// down to whole bundles).
    pub(crate) fn passes(&self) -> Vec<(usize, usize)> {
        let step = PASS_LEN / (2 * self.lanes) * (2 * self.lanes);
        (0..self.code.len())
            .step_by(step)
            .map(|start| (start, (start + step).min(self.code.len())))
            .collect()
    }
}

/// The estimated latency of `code`'s items' threads: its bundles' costs
/// (an operation's relative latency, F_p products 10) summed.
pub(crate) fn cost_of(code: &Laned) -> u64 {
    code.code
        .chunks(2 * code.lanes)
        .map(|b| u64::from(cost(b[0] & 15)))
        .sum()
}

/// What a field of an instruction word is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// A register read (or a constant, at [`CONST_BASE`] and above).
    Read,
    /// A register written.
    Write,
    /// A register read and written in place (the conditional move's).
    Update,
    /// An immediate (an input's or output's index, a bit's position).
    Imm,
    Unused,
}

/// The roles of fields d, a, b of `op`.
fn roles(op: u32) -> [Role; 3] {
    use Role::*;
    match op {
        x if x == Op::Copy as u32 || x == Op::Largest as u32 => [Write, Read, Unused],
        x if x == Op::Bit as u32 => [Write, Read, Imm],
        x if x == Op::Load as u32 => [Write, Imm, Unused],
        x if x == Op::Out as u32 => [Imm, Read, Unused],
        x if x == Op::CMov as u32 => [Update, Read, Read],
        _ => [Write, Read, Read],
    }
}

/// Relative latencies of the operations (F_p products 10, additions 1):
/// what the scheduler weighs paths by and [`cost_of`] sums.
fn cost(op: u32) -> u32 {
    match op {
        x if x == Op::Mul2 as u32 => 30,
        x if x == Op::Sq2 as u32 => 20,
        x if x == Op::Mul as u32 || x == Op::Largest as u32 => 10,
        x if x == Op::Add2 as u32 || x == Op::Sub2 as u32 => 2,
        _ => 1,
    }
}

fn field(word: u32, k: usize) -> u32 {
    (word >> (4 + 9 * k)) & 511
}

fn with_field(word: u32, k: usize, v: u32) -> u32 {
    (word & !(511 << (4 + 9 * k))) | v << (4 + 9 * k)
}

/// One instruction: its words (the second 0 for a one-word operation)
/// and, per field (d, a, b of each word), the value it names (a renamed
/// register) if it names one.
struct Ins {
    words: [u32; 2],
    values: [[Option<usize>; 3]; 2],
}

impl Ins {
    /// (word, field, role, value) of each field that names a value.
    fn named(&self) -> impl Iterator<Item = (usize, usize, Role, usize)> + '_ {
        let r = roles(self.words[0] & 15);
        self.values.iter().enumerate().flat_map(move |(w, fields)| {
            fields
                .iter()
                .zip(r)
                .enumerate()
                .filter_map(move |(f, (v, role))| v.map(|v| (w, f, role, v)))
        })
    }
}

/// `code` (as [`super::Asm`] writes it) with each instruction in a slot
/// of its own: the program as written, for one lane.
pub(crate) fn single(code: &[u32], regs: usize) -> Laned {
    let mut out = Vec::with_capacity(code.len() * 2);
    let mut k = 0;
    while k < code.len() {
        let two = is_two_word(code[k]);
        out.push(code[k]);
        out.push(if two { code[k + 1] } else { 0 });
        k += 1 + usize::from(two);
    }
    Laned {
        lanes: 1,
        code: out,
        regs,
    }
}

fn is_two_word(word: u32) -> bool {
    (Op::Mul2 as u32..=Op::Sub2 as u32).contains(&(word & 15))
}

/// `code` over each of `widths` lanes where its registers fit (fewer
/// widths back then), or why not at all (a register a program reads
/// before writing it). The renaming and the dependencies are made once;
/// where a schedule's values need more registers than the machine has,
/// the scheduler looks fewer instructions ahead of the first unplaced one.
pub(crate) fn spread(code: &[u32], widths: &[usize]) -> Result<Vec<Laned>, String> {
    let (ins, values) = rename(code)?;
    let preds = dependencies(&ins, values)?;
    Ok(widths
        .iter()
        .filter_map(|&lanes| {
            [usize::MAX, 2048, 512, 128, 32]
                .into_iter()
                .find_map(|window| allocate(&ins, &schedule(&ins, &preds, lanes, window), values, lanes).ok())
        })
        .collect())
}

/// The instructions with their fields renamed to values, and the number
/// of values.
fn rename(code: &[u32]) -> Result<(Vec<Ins>, usize), String> {
    let mut current: HashMap<u32, usize> = HashMap::new();
    let mut values = 0;
    let mut ins = Vec::new();
    let mut k = 0;
    while k < code.len() {
        let two = is_two_word(code[k]);
        let words = [code[k], if two { code[k + 1] } else { 0 }];
        let r = roles(words[0] & 15);
        let mut named = [[None; 3]; 2];
        // Reads first (an operation may write a register it reads).
        for (w, word) in words.iter().enumerate().take(1 + usize::from(two)) {
            for f in 0..3 {
                let reg = field(*word, f);
                if matches!(r[f], Role::Read | Role::Update) && reg < CONST_BASE {
                    let v = current.get(&reg).ok_or_else(|| {
                        format!("instruction {} reads register {reg} before it is written", ins.len())
                    })?;
                    named[w][f] = Some(*v);
                }
            }
        }
        for (w, word) in words.iter().enumerate().take(1 + usize::from(two)) {
            if r[0] == Role::Write {
                let reg = field(*word, 0);
                current.insert(reg, values);
                named[w][0] = Some(values);
                values += 1;
            }
        }
        ins.push(Ins { words, values: named });
        k += 1 + usize::from(two);
    }
    Ok((ins, values))
}

/// Per instruction, the earlier instructions it must follow: the writers
/// of the values it reads, and for an in-place update also the earlier
/// readers of its value since its last writer.
fn dependencies(ins: &[Ins], values: usize) -> Result<Vec<Vec<usize>>, String> {
    let mut writer: Vec<Option<usize>> = vec![None; values];
    let mut readers: Vec<Vec<usize>> = vec![Vec::new(); values];
    let mut outputs = std::collections::HashSet::new();
    let mut preds = Vec::with_capacity(ins.len());
    for (i, x) in ins.iter().enumerate() {
        if x.words[0] & 15 == Op::Out as u32 && !outputs.insert(field(x.words[0], 0)) {
            return Err(format!("output {} written twice", field(x.words[0], 0)));
        }
        let mut p = Vec::new();
        for (_, _, role, v) in x.named() {
            match role {
                Role::Read => {
                    p.extend(writer[v]);
                    readers[v].push(i);
                }
                Role::Update => {
                    p.extend(writer[v]);
                    p.extend(readers[v].iter().copied().filter(|&j| j != i));
                }
                _ => {}
            }
        }
        for (_, _, role, v) in x.named() {
            if matches!(role, Role::Write | Role::Update) {
                writer[v] = Some(i);
                readers[v].clear();
            }
        }
        p.sort_unstable();
        p.dedup();
        preds.push(p);
    }
    Ok(preds)
}

/// The bundles: instruction indices, each bundle one operation, none
/// placed while `window` or more instructions before it are unplaced.
fn schedule(ins: &[Ins], preds: &[Vec<usize>], lanes: usize, window: usize) -> Vec<Vec<usize>> {
    let n = ins.len();
    let mut succs = vec![Vec::new(); n];
    for (i, p) in preds.iter().enumerate() {
        for &j in p {
            succs[j].push(i);
        }
    }
    // The cost-weighted longest path from each instruction to the end.
    let mut height = vec![0u64; n];
    for i in (0..n).rev() {
        let below = succs[i].iter().map(|&s| height[s]).max().unwrap_or(0);
        height[i] = below + u64::from(cost(ins[i].words[0] & 15));
    }
    let mut waiting: Vec<usize> = preds.iter().map(Vec::len).collect();
    // Ready instructions per operation, the highest first (earlier in
    // the program among equals); those ready but past the window; the
    // first unplaced instruction.
    let mut ready: HashMap<u32, BinaryHeap<(u64, Reverse<usize>)>> = HashMap::new();
    let mut deferred = BTreeSet::new();
    let mut done = vec![false; n];
    let mut low = 0;
    let op_of = |i: usize| ins[i].words[0] & 15;
    for i in (0..n).filter(|&i| waiting[i] == 0) {
        if i < window {
            ready.entry(op_of(i)).or_default().push((height[i], Reverse(i)));
        } else {
            deferred.insert(i);
        }
    }
    let mut bundles = Vec::new();
    let mut placed = 0;
    while placed < n {
        let op = *ready
            .iter()
            .filter_map(|(op, heap)| heap.peek().map(|top| (top, op)))
            .max()
            .expect("an instruction is ready while some are not placed")
            .1;
        let heap = ready.get_mut(&op).expect("the chosen operation's heap");
        let mut bundle = Vec::with_capacity(lanes);
        while bundle.len() < lanes {
            match heap.pop() {
                Some((_, Reverse(i))) => bundle.push(i),
                None => break,
            }
        }
        for &i in &bundle {
            done[i] = true;
        }
        while low < n && done[low] {
            low += 1;
        }
        for &i in &bundle {
            for &s in &succs[i] {
                waiting[s] -= 1;
                if waiting[s] == 0 {
                    deferred.insert(s);
                }
            }
        }
        // Whatever is ready within the window, for the next bundle.
        while let Some(&i) = deferred.first().filter(|&&i| i - low < window) {
            deferred.remove(&i);
            ready.entry(op_of(i)).or_default().push((height[i], Reverse(i)));
        }
        placed += bundle.len();
        bundles.push(bundle);
    }
    bundles
}

/// Registers for the values over the bundles, and the code.
fn allocate(ins: &[Ins], bundles: &[Vec<usize>], values: usize, lanes: usize) -> Result<Laned, String> {
    let mut at = vec![0; ins.len()];
    for (b, bundle) in bundles.iter().enumerate() {
        for &i in bundle {
            at[i] = b;
        }
    }
    // Each value's last bundle (its writer's when nothing reads it).
    let mut last = vec![0usize; values];
    for (i, x) in ins.iter().enumerate() {
        for v in x.values.iter().flatten().flatten() {
            last[*v] = last[*v].max(at[i]);
        }
    }
    let mut ending: Vec<Vec<usize>> = vec![Vec::new(); bundles.len()];
    for (v, &b) in last.iter().enumerate() {
        ending[b].push(v);
    }
    let mut reg: Vec<Option<u32>> = vec![None; values];
    let mut free: BinaryHeap<Reverse<u32>> = BinaryHeap::new();
    let mut most = 0u32;
    let mut code = Vec::with_capacity(bundles.len() * lanes * 2);
    for (b, bundle) in bundles.iter().enumerate() {
        if b > 0 {
            for &v in &ending[b - 1] {
                free.push(Reverse(reg[v].expect("an ended value had a register")));
            }
        }
        for &i in bundle {
            let x = &ins[i];
            let mut words = x.words;
            for (w, f, role, v) in x.named() {
                if role == Role::Write {
                    let fresh = match free.pop() {
                        Some(Reverse(k)) => k,
                        None => {
                            most += 1;
                            most - 1
                        }
                    };
                    if fresh >= CONST_BASE {
                        return Err(format!("{lanes} lanes need more than {CONST_BASE} registers"));
                    }
                    reg[v] = Some(fresh);
                }
                let k = reg[v].expect("a value read after its writer's bundle has a register");
                words[w] = with_field(words[w], f, k);
            }
            code.extend(words);
        }
        code.extend(std::iter::repeat_n([NOP, 0], lanes - bundle.len()).flatten());
    }
    Ok(Laned {
        lanes,
        code,
        regs: most as usize,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pairing programs' wide codes against their one-lane codes, by
    /// the estimate the scheduler uses (each program's outputs over both
    /// codes are compared wherever a test runs it on the host: `host::run`).
    /// When written: BLS12-381's pairs 5.9x over 16 lanes, map to G2 2.8x
    /// over 4, product and final exponentiation 4.4x over 16; BN254's
    /// pairs 3.3x over 8, product 3.9x over 16.
    #[test]
    fn pairing_programs_spread_over_lanes() {
        use crate::gpu::pairing_vm::product_program;
        use crate::gpu::shaders::Tower;
        use crate::ops::bls::gpu::programs;
        let cases = [
            ("BLS12-381 pairs", programs::pairs(), 4.0),
            ("BLS12-381 map to G2", programs::map_to_g2(), 2.5),
            ("BLS12-381 product", product_program(Tower::Bls12381, true), 2.5),
            ("BN254 pairs", crate::ops::evm::programs::pairs(), 3.0),
            ("BN254 product", product_program(Tower::Bn254, true), 2.0),
        ];
        for (name, program, least) in cases {
            let wide = program.wide().unwrap_or_else(|| panic!("{name}: no wide code"));
            let gain = cost_of(&program.narrow) as f64 / cost_of(wide) as f64;
            eprintln!(
                "{name}: {} lanes, {} bundles for {} instructions ({gain:.2}x), {} registers (one lane: {})",
                wide.lanes,
                wide.bundles(),
                program.narrow.bundles(),
                wide.regs,
                program.narrow.regs
            );
            assert!(gain >= least, "{name}: {gain:.2}x");
            assert!(wide.regs <= CONST_BASE as usize, "{name}");
            assert_eq!(wide.code.len(), wide.bundles() * wide.lanes * 2);
            // Every instruction once, in slots of one operation per bundle.
            let count = |code: &Laned| code.code.chunks(2).filter(|s| s[0] & 15 != NOP).count();
            assert_eq!(count(wide), count(&program.narrow), "{name}");
            for bundle in wide.code.chunks(2 * wide.lanes) {
                let ops: Vec<u32> = bundle.chunks(2).map(|s| s[0] & 15).filter(|&op| op != NOP).collect();
                assert!(!ops.is_empty() && ops.iter().all(|&op| op == ops[0]), "{name}: {ops:?}");
            }
        }
    }

    /// A register read before any instruction writes it has no value to
    /// rename: an error, not a guess.
    #[test]
    fn a_register_read_before_written_is_refused() {
        let code = [Op::Add as u32 | 1 << 4 | 2 << 13 | 3 << 22];
        let Err(e) = spread(&code, &[4]) else {
            panic!("a program reading an unwritten register was spread")
        };
        assert!(e.contains("reads register 2"), "{e}");
    }

    #[test]
    fn fields_round_trip() {
        let w = Op::Mul as u32 | 5 << 4 | 300 << 13 | 7 << 22;
        assert_eq!((field(w, 0), field(w, 1), field(w, 2)), (5, 300, 7));
        assert_eq!(with_field(w, 1, 9), Op::Mul as u32 | 5 << 4 | 9 << 13 | 7 << 22);
    }
}
