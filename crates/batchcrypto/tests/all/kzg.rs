//! EIP-7594 cell proofs (`kzg_cell_verify`) against c-kzg-4844, cell by
//! cell: the cells c-kzg makes from random blobs and the zero blob, each
//! hostile kind, points of order 3 and of no curve, sizes across the CPU
//! path's thresholds (one item, under and past the batch threshold, a set
//! of one blob's 128 cells), and invalid items sprinkled through honest
//! ones so that the batch checks fail and are bisected. Every engine gives
//! the oracle's verdict and reason for every item, and one per item.

use batchcrypto::ops::kzg::{self, CellItem, oracle, sample};
use batchcrypto::{Op, Reason, Verdict};

use crate::support;

/// Every engine's verdicts equal the oracle's, item by item and in number.
fn assert_oracle(items: &[CellItem], what: &str) {
    let want: Vec<Verdict> = items.iter().map(oracle::verify_cell).collect();
    let outputs = support::on_every_engine_of(Op::KzgCellVerify, |engine| {
        engine.verify_kzg_cells(items).expect("verify_kzg_cells")
    });
    for (name, got) in outputs {
        assert_eq!(got.len(), items.len(), "{name}, {what}: one verdict per item");
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g, w, "{name}, {what}: item {i}");
        }
    }
}

#[test]
fn cells_against_c_kzg() {
    // Two random blobs and the zero blob (blob 1): 384 honest cells.
    let honest: Vec<CellItem> = (0..3).flat_map(|b| sample::blob_cells(b, 40)).collect();
    assert!(honest.iter().all(|c| oracle::verify_cell(c) == Verdict::Valid));
    assert_oracle(&[], "no items");
    assert_oracle(&honest[..1], "one item");
    assert_oracle(&honest[..15], "under the batch threshold");
    assert_oracle(&honest[..128], "one blob's cells");
    assert_oracle(&honest, "three blobs' cells");
    // Hostile items sprinkled through honest ones (40%, every kind), and
    // a batch of hostile items only.
    let mixed = sample::generate_range(0..512, 0.4, 41);
    let items: Vec<CellItem> = mixed.iter().map(|(item, _)| item.clone()).collect();
    assert_oracle(&items, "40% hostile");
    let hostile: Vec<CellItem> = mixed
        .iter()
        .filter(|(_, kind)| *kind != "valid")
        .map(|(item, _)| item.clone())
        .collect();
    assert_oracle(&hostile, "hostile only");
    // One invalid item among honest ones, at the start, in the middle and
    // at the end: the batch check fails and the bisection finds it.
    for at in [0, 200, 383] {
        let mut items = honest.clone();
        items[at].cell[100] ^= 1;
        assert_oracle(&items, &format!("one wrong cell at {at}"));
    }
}

/// The reasons of the failing checks, in c-kzg's order: the index before
/// the proof, the proof before the commitment, the commitment before the
/// cell's elements; points of order 3 (x = 0) outside G1, an x of no point
/// malformed.
#[test]
fn reasons_in_c_kzg_order() {
    let honest = sample::blob_cells(0, 42);
    let cell = &honest[5];
    let order_three = {
        let mut p = [0u8; 48];
        p[0] = 0x80;
        p
    };
    // x = 3: 3^3 + 4 = 31 is not a square mod p.
    let no_point = {
        let mut p = order_three;
        p[47] = 3;
        p
    };
    let mut r = [0u8; 32];
    r.copy_from_slice(&hex::decode("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001").expect("hex"));
    let cases: Vec<(CellItem, Reason)> = vec![
        (
            CellItem {
                index: 128,
                proof: no_point,
                ..cell.clone()
            },
            Reason::CellIndexOutOfRange,
        ),
        (
            CellItem {
                proof: no_point,
                commitment: no_point,
                ..cell.clone()
            },
            Reason::MalformedProof,
        ),
        (
            CellItem {
                proof: order_three,
                commitment: no_point,
                ..cell.clone()
            },
            Reason::ProofNotInSubgroup,
        ),
        (
            CellItem {
                commitment: no_point,
                ..cell.clone()
            },
            Reason::MalformedCommitment,
        ),
        (
            CellItem {
                commitment: order_three,
                ..cell.clone()
            },
            Reason::CommitmentNotInSubgroup,
        ),
        (
            CellItem {
                proof: {
                    let mut p = cell.proof;
                    p[0] &= 0x7f;
                    p
                },
                ..cell.clone()
            },
            Reason::MalformedProof,
        ),
        (
            CellItem {
                commitment: {
                    let mut p = cell.commitment;
                    p[0] |= 0x40;
                    p
                },
                ..cell.clone()
            },
            Reason::MalformedCommitment,
        ),
        (
            CellItem {
                commitment: order_three,
                cell: {
                    let mut c = cell.cell.clone();
                    c[64..96].copy_from_slice(&r);
                    c
                },
                ..cell.clone()
            },
            Reason::CommitmentNotInSubgroup,
        ),
        (
            CellItem {
                cell: {
                    let mut c = cell.cell.clone();
                    c[2016..].copy_from_slice(&r);
                    c
                },
                ..cell.clone()
            },
            Reason::NonCanonicalElement,
        ),
        (
            CellItem {
                index: 6,
                ..cell.clone()
            },
            Reason::Equation,
        ),
    ];
    for (k, (item, reason)) in cases.iter().enumerate() {
        assert_eq!(oracle::verify_cell(item), Verdict::Invalid(*reason), "case {k}");
        assert_eq!(kzg::checks(item).err().unwrap_or(Reason::Equation), *reason, "case {k}");
    }
    let mut items: Vec<CellItem> = honest[..40].to_vec();
    items.extend(cases.into_iter().map(|(item, _)| item));
    assert_oracle(&items, "each reason among honest cells");
}
