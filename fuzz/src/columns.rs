//! The bindings' calls ([`batchcrypto::flat`], under the C ABI and the
//! Python package) on columns of any layout: widths that do not divide
//! the buffer, offsets that decrease or run past it, counts that differ
//! between columns, aggregate groups out of range. Each call must return
//! an error or one answer per item, and never panic.

use arbitrary::Unstructured;
use batchcrypto::flat::{self, Column};
use batchcrypto::ops::{bls, ed25519, evm, hash, kzg, merkle, mldsa, mlkem, ntt};

use super::engine;

/// Widths the calls take, and a few they do not.
const WIDTHS: [usize; 12] = [0, 1, 8, 16, 32, 33, 48, 64, 65, 96, 128, 1_184];

/// A column's buffer and layout, owned.
struct Spec {
    bytes: Vec<u8>,
    width: Option<usize>,
    offsets: Vec<u64>,
}

impl Spec {
    fn draw(u: &mut Unstructured<'_>) -> Spec {
        let width = u.choose(&WIDTHS).copied().unwrap_or(32);
        let items = u.int_in_range(0..=6usize).unwrap_or(0);
        // Mostly whole items, sometimes a few bytes more.
        let extra = if u.ratio(1, 8).unwrap_or(false) {
            1 + usize::from(u.arbitrary::<u8>().unwrap_or(0) % 7)
        } else {
            0
        };
        let mut bytes = vec![0u8; width * items + extra];
        let _partial = u.fill_buffer(&mut bytes);
        if u.ratio(2, 3).unwrap_or(true) {
            return Spec {
                bytes,
                width: Some(width),
                offsets: Vec::new(),
            };
        }
        // Offsets: mostly increasing within the buffer, sometimes not.
        let mut offsets: Vec<u64> = (0..=items)
            .map(|_| u64::from(u.arbitrary::<u16>().unwrap_or(0)) % (bytes.len() as u64 + 2))
            .collect();
        if u.ratio(3, 4).unwrap_or(true) {
            offsets.sort_unstable();
        }
        if u.ratio(1, 16).unwrap_or(false) {
            offsets.push(u.arbitrary().unwrap_or(u64::MAX));
        }
        Spec {
            bytes,
            width: None,
            offsets,
        }
    }

    fn column(&self, name: &'static str) -> Column<'_> {
        match self.width {
            Some(w) => Column::fixed(name, &self.bytes, w),
            None => Column::offsets(name, &self.bytes, &self.offsets),
        }
    }

    /// Items, where the layout is whole (what an answer count must equal).
    fn items(&self) -> Option<usize> {
        match self.width {
            Some(0) => None,
            Some(w) => self.bytes.len().is_multiple_of(w).then(|| self.bytes.len() / w),
            None => self.offsets.len().checked_sub(1),
        }
    }
}

/// One fuzz input: a call and its columns.
pub fn run(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(call) = u.int_in_range(0..=17u8) else {
        return;
    };
    let specs: Vec<Spec> = (0..4).map(|_| Spec::draw(&mut u)).collect();
    let groups: Vec<u64> = (0..u.int_in_range(0..=7usize).unwrap_or(0))
        .map(|_| u64::from(u.arbitrary::<u8>().unwrap_or(0) % 10))
        .collect();
    let c = |k: usize, name: &'static str| specs[k].column(name);
    let e = engine();
    // (answers, the column whose items they answer)
    let answered: Option<(usize, usize)> = match call {
        0 => count(
            flat::verify_ed25519(e, ed25519::Policy::Strict, &c(0, "pks"), &c(1, "sigs"), &c(2, "msgs")),
            0,
        ),
        1 => count(flat::verify_bip340(e, &c(0, "pks"), &c(1, "sigs"), &c(2, "msgs")), 0),
        2 => count(
            flat::verify_sr25519(e, b"substrate", &c(0, "pks"), &c(1, "sigs"), &c(2, "msgs")),
            0,
        ),
        3 => count(
            flat::verify_bls(e, bls::Mode::Batch, &c(0, "pks"), &c(1, "sigs"), &c(2, "msgs")),
            0,
        ),
        4 => {
            let ctxs = c(3, "ctxs");
            let with_ctx = u.arbitrary().unwrap_or(false).then_some(&ctxs);
            count(
                flat::verify_mldsa(
                    e,
                    mldsa::Level::Mldsa44,
                    &c(0, "pks"),
                    &c(1, "sigs"),
                    &c(2, "msgs"),
                    with_ctx,
                ),
                0,
            )
        }
        5 => count(
            flat::verify_secp256k1(e, false, &c(0, "pks"), &c(1, "sigs"), &c(2, "hashes")),
            0,
        ),
        6 => count(flat::verify_p256(e, &c(0, "pks"), &c(1, "sigs"), &c(2, "hashes")), 0),
        7 => count(flat::ecrecover(e, true, &c(0, "hashes"), &c(1, "sigs")), 0),
        8 => count(flat::hash(e, hash::Alg::Sha256, &c(0, "msgs")), 0),
        9 => {
            let all = evm::Precompile::ALL;
            let p = all[usize::from(u.arbitrary::<u8>().unwrap_or(0)) % all.len()];
            count(flat::evm(e, p, &c(0, "inputs")), 0)
        }
        10 => count(flat::eip2537_pairing(e, &c(0, "inputs")), 0),
        11 => count(flat::mlkem_keygen(e, mlkem::Set::Mlkem512, &c(0, "ds"), &c(1, "zs")), 0),
        12 => {
            let ms = c(1, "ms");
            let with_m = u.arbitrary().unwrap_or(false).then_some(&ms);
            count(flat::mlkem_encaps(e, mlkem::Set::Mlkem512, &c(0, "eks"), with_m), 0)
        }
        13 => count(
            flat::mlkem_decaps(e, mlkem::Set::Mlkem768, &c(0, "dks"), &c(1, "cts")),
            0,
        ),
        14 => {
            if u.arbitrary().unwrap_or(false) {
                count(
                    flat::bls_aggregate_verify(e, &c(0, "pks"), &c(1, "msgs"), &groups, &c(2, "sigs")),
                    2,
                )
            } else {
                count(
                    flat::bls_fast_aggregate_verify(e, &c(0, "pks"), &groups, &c(1, "msgs"), &c(2, "sigs")),
                    2,
                )
            }
        }
        15 => {
            if u.arbitrary().unwrap_or(false) {
                let t = ntt::Transform::new(ntt::Field::Goldilocks, u.int_in_range(0..=4).unwrap_or(1));
                count(flat::ntt(e, &t, &c(0, "polys")), 0)
            } else {
                let rule = if u.arbitrary().unwrap_or(false) {
                    merkle::Rule::Bitcoin
                } else {
                    merkle::Rule::SortedKeccak256
                };
                if flat::merkle_root(e, rule, &c(0, "leaves")).is_ok() {
                    assert!(specs[0].items().is_some_and(|n| n > 0), "a root of no whole leaves");
                }
                None
            }
        }
        16 => {
            // EIP-7594 cells: the commitments' and proofs' layouts drawn,
            // the cells 2,048 bytes for each whole commitment (the fourth
            // column's bytes, repeated), one index per drawn group value.
            let n = specs[0].items().unwrap_or(0);
            let fill = &specs[3].bytes;
            let cells: Vec<u8> = (0..kzg::CELL_LEN * n)
                .map(|i| fill.get(i % fill.len().max(1)).copied().unwrap_or(0))
                .collect();
            let indices: Vec<u64> = groups.iter().map(|g| g * 20).collect();
            count(
                flat::verify_kzg_cells(
                    e,
                    &c(0, "commitments"),
                    &indices,
                    &Column::fixed("cells", &cells, kzg::CELL_LEN),
                    &c(1, "proofs"),
                ),
                0,
            )
        }
        _ => {
            if u.arbitrary().unwrap_or(false) {
                // EIP-7594 blobs: the column's layout drawn, its bytes the
                // fourth column's repeated to blobs' lengths when whole
                // (mostly elements at or above r, sometimes none).
                let blobs = &specs[0];
                let fill = &specs[3].bytes;
                let low = u.arbitrary().unwrap_or(false);
                let bytes: Vec<u8> = match blobs.width {
                    Some(w) if w > 0 => (0..blobs.bytes.len() / w * kzg::BLOB_LEN)
                        .map(|i| match fill.get(i % fill.len().max(1)) {
                            Some(b) if !(low && i % 32 == 0) => *b,
                            _ => 0,
                        })
                        .collect(),
                    _ => blobs.bytes.clone(),
                };
                let column = match blobs.width {
                    Some(w) if w > 0 => Column::fixed("blobs", &bytes, kzg::BLOB_LEN),
                    Some(w) => Column::fixed("blobs", &bytes, w),
                    None => Column::offsets("blobs", &bytes, &blobs.offsets),
                };
                let items = match blobs.width {
                    Some(w) if w > 0 => Some(bytes.len() / kzg::BLOB_LEN),
                    _ => blobs.items(),
                };
                if let Ok(o) = flat::kzg_compute_cells(e, &column) {
                    assert_eq!(Some(o.output.len()), items, "blobs: {} answers", o.output.len());
                }
            } else {
                // EIP-7594 recoveries: the drawn groups over cells of the
                // fourth column's bytes, one index per cell from the third's.
                let cells = &specs[3].bytes;
                let n_cells = groups.iter().copied().max().unwrap_or(0) as usize;
                let cells: Vec<u8> = (0..kzg::CELL_LEN * n_cells)
                    .map(|i| {
                        if i % 32 == 0 {
                            0
                        } else {
                            cells.get(i % cells.len().max(1)).copied().unwrap_or(0)
                        }
                    })
                    .collect();
                let indices: Vec<u64> = (0..n_cells)
                    .map(|k| u64::from(specs[2].bytes.get(k).copied().unwrap_or(k as u8)))
                    .collect();
                let got = flat::kzg_recover_cells(e, &groups, &indices, &Column::fixed("cells", &cells, kzg::CELL_LEN));
                if let Ok(o) = got {
                    assert_eq!(
                        o.output.len() + 1,
                        groups.len(),
                        "recoveries: {} answers",
                        o.output.len()
                    );
                }
            }
            None
        }
    };
    if let Some((answers, k)) = answered {
        assert_eq!(Some(answers), specs[k].items(), "call {call}: {answers} answers");
    }
}

/// The number of answers of a call that was not refused.
fn count<T>(got: Result<batchcrypto::Outcome<Vec<T>>, batchcrypto::Error>, column: usize) -> Option<(usize, usize)> {
    got.ok().map(|o| (o.output.len(), column))
}
