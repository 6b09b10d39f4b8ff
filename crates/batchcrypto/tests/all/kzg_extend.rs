//! EIP-7594's computing and recovery of cells (`kzg_compute_cells`,
//! `kzg_recover_cells`): the consensus specs' reference tests (as
//! c-kzg-4844 keeps them, `testdata/c-kzg-4844`) on every engine, each
//! case's cells and proofs byte for byte or its failure; generated blobs
//! and recoveries, honest and of each hostile kind, on every engine
//! against the oracle item by item and in number; what is computed
//! verifies, and what is recovered from half the cells is what was
//! computed; the reasons in c-kzg's order; the bindings' layouts; a
//! device fault at each stage sends a call to the CPU.

use batchcrypto::flat::{self, Column};
use batchcrypto::gpu::FaultStage;
use batchcrypto::ops::kzg::{self, BlobCells, Extended, RecoverItem, oracle, sample};
use batchcrypto::{Backend, Error, Op, Reason, Verdict};

use crate::support;

/// A case's output: the 128 cells, then the 128 proofs.
type Output = (Vec<Vec<u8>>, Vec<Vec<u8>>);

/// One reference test: the hex strings of its input (the blob, or the
/// cells), its indices, and its output (`None`: the call must fail; else
/// the 128 cells and the 128 proofs).
struct Case {
    name: String,
    input: Vec<Vec<u8>>,
    indices: Vec<u64>,
    output: Option<Output>,
}

/// The `'0x..'` strings of `text`, decoded.
fn hex_strings(text: &str) -> Vec<Vec<u8>> {
    text.split('\'')
        .skip(1)
        .step_by(2)
        .map(|h| hex::decode(h.trim_start_matches("0x")).expect("hex"))
        .collect()
}

/// The cases of one function's folder, by name (none when the vectors
/// are not here and not required).
fn cases(function: &str) -> Vec<Case> {
    let Some(dir) = support::vectors_dir() else {
        return Vec::new();
    };
    let dir = dir.join("c-kzg-4844").join(function).join("kzg-mainnet");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        assert!(
            std::env::var("BATCHCRYPTO_REQUIRE_VECTORS").as_deref() != Ok("1"),
            "{} is missing",
            dir.display()
        );
        return Vec::new();
    };
    let mut cases: Vec<Case> = entries
        .map(|e| {
            let path = e.expect("entry").path();
            let text = std::fs::read_to_string(path.join("data.yaml")).expect("data.yaml");
            let (input, output) = text.split_once("\noutput:").expect("an output");
            let indices = input
                .split_once("cell_indices: [")
                .map(|(_, rest)| {
                    let list = rest.split_once(']').expect("the indices' end").0;
                    list.split(',')
                        .map(str::trim)
                        .filter(|s| !s.is_empty())
                        .map(|s| s.parse().expect("an index"))
                        .collect()
                })
                .unwrap_or_default();
            let output = (output.trim() != "null").then(|| {
                let mut all = hex_strings(output);
                assert_eq!(all.len(), 256, "{}: 128 cells and 128 proofs", path.display());
                let proofs = all.split_off(128);
                (all, proofs)
            });
            Case {
                name: path.file_name().expect("name").to_string_lossy().into_owned(),
                input: hex_strings(input),
                indices,
                output,
            }
        })
        .collect();
    cases.sort_by(|a, b| a.name.cmp(&b.name));
    cases
}

/// Whether an extension is the case's output.
fn is_output(got: &Extended, (cells, proofs): &Output) -> bool {
    got.cells.len() == 128
        && got.proofs.len() == 128
        && got.cells.iter().zip(cells).all(|(g, w)| g[..] == w[..])
        && got.proofs.iter().zip(proofs).all(|(g, w)| g[..] == w[..])
}

/// The consensus specs' `compute_cells_and_kzg_proofs` cases (the zero
/// blob, random blobs, a blob of r - 1, blobs with an element at or above
/// r) on every engine in one batch; the two with a blob of another length
/// than 131,072 bytes, which the engine's input cannot hold, are refused
/// by the bindings' layout instead.
#[test]
fn compute_cells_reference_tests() {
    let all = cases("compute_cells_and_kzg_proofs");
    if all.is_empty() {
        return;
    }
    assert_eq!(all.len(), 11);
    assert!(all.iter().all(|c| c.input.len() == 1));
    let (cases, untyped): (Vec<&Case>, Vec<&Case>) = all.iter().partition(|c| c.input[0].len() == kzg::BLOB_LEN);
    assert_eq!(untyped.len(), 2, "the cases with a short or long blob");
    let engine = support::cpu_engine(None);
    for case in untyped {
        assert!(case.output.is_none(), "{}", case.name);
        let blob = &case.input[0];
        let offsets = [0, blob.len() as u64];
        let got = flat::kzg_compute_cells(&engine, &Column::offsets("blobs", blob, &offsets));
        assert!(matches!(got, Err(Error::InvalidInput { .. })), "{}", case.name);
    }
    let blobs: Vec<u8> = cases.iter().flat_map(|c| c.input[0].iter().copied()).collect();
    let outputs = support::on_every_engine_of(Op::KzgComputeCells, |engine| {
        engine.kzg_compute_cells(&blobs).expect("whole blobs")
    });
    for (name, got) in outputs {
        assert_eq!(got.len(), cases.len(), "{name}: one answer per blob");
        for (case, got) in cases.iter().zip(&got) {
            match (&case.output, got) {
                (None, Err(reason)) => assert_eq!(*reason, Reason::NonCanonicalElement, "{name}, {}", case.name),
                (Some(want), Ok(made)) => {
                    assert!(
                        is_output(&made.extended, want),
                        "{name}, {}: cells or proofs differ",
                        case.name
                    );
                    // Every computed cell verifies against the commitment.
                    let cell = kzg::CellItem {
                        commitment: made.commitment,
                        index: 77,
                        cell: Box::new(made.extended.cells[77]),
                        proof: made.extended.proofs[77],
                    };
                    assert_eq!(oracle::verify_cell(&cell), Verdict::Valid, "{}", case.name);
                }
                _ => panic!(
                    "{name}, {}: expected {:?}, got {:?}",
                    case.name,
                    case.output.is_some(),
                    got.is_ok()
                ),
            }
        }
    }
}

/// The consensus specs' `recover_cells_and_kzg_proofs` cases on every
/// engine; those with a cell of another length than 2,048 bytes, which the
/// typed items cannot hold, are refused by the bindings' layout instead.
#[test]
fn recover_cells_reference_tests() {
    let cases = cases("recover_cells_and_kzg_proofs");
    if cases.is_empty() {
        return;
    }
    assert_eq!(cases.len(), 18);
    let (typed, untyped): (Vec<&Case>, Vec<&Case>) = cases
        .iter()
        .partition(|c| c.input.iter().all(|cell| cell.len() == kzg::CELL_LEN));
    assert_eq!(untyped.len(), 2, "the cases with a short or long cell");
    for case in untyped {
        assert!(case.output.is_none(), "{}", case.name);
        let lens: Vec<u64> = std::iter::once(0)
            .chain(case.input.iter().scan(0u64, |at, c| {
                *at += c.len() as u64;
                Some(*at)
            }))
            .collect();
        let bytes: Vec<u8> = case.input.concat();
        let engine = support::cpu_engine(None);
        let cells = Column::offsets("cells", &bytes, &lens);
        let groups = [0, case.input.len() as u64];
        let got = flat::kzg_recover_cells(&engine, &groups, &case.indices, &cells);
        assert!(matches!(got, Err(Error::InvalidInput { .. })), "{}", case.name);
    }
    let items: Vec<RecoverItem> = typed
        .iter()
        .map(|c| RecoverItem {
            indices: c.indices.clone(),
            cells: c
                .input
                .iter()
                .map(|cell| cell[..].try_into().expect("2,048 bytes"))
                .collect(),
        })
        .collect();
    let outputs = support::on_every_engine_of(Op::KzgRecoverCells, |engine| {
        engine.kzg_recover_cells(&items).expect("kzg_recover_cells")
    });
    for (name, got) in outputs {
        assert_eq!(got.len(), items.len(), "{name}: one answer per item");
        for ((case, item), got) in typed.iter().zip(&items).zip(&got) {
            match (&case.output, got) {
                (None, Err(reason)) => assert_eq!(Err(*reason), kzg::recover_checks(item), "{name}, {}", case.name),
                (Some(want), Ok(recovered)) => {
                    assert!(
                        is_output(recovered, want),
                        "{name}, {}: cells or proofs differ",
                        case.name
                    )
                }
                _ => panic!(
                    "{name}, {}: expected {:?}, got {got:?}",
                    case.name,
                    case.output.is_some()
                ),
            }
        }
    }
}

/// Generated blobs (random, zero, all r - 1; 40% with an element at or
/// above r) on every engine against the oracle, item by item and in number.
#[test]
fn computed_blobs_against_c_kzg() {
    let made = sample::blobs_range(0..10, 0.4, 50);
    assert!(made.iter().any(|(_, k)| *k == "valid") && made.iter().any(|(_, k)| *k != "valid"));
    let blobs: Vec<u8> = made.iter().flat_map(|(b, _)| b.iter().copied()).collect();
    let want: Vec<Result<BlobCells, Reason>> = made.iter().map(|(b, _)| oracle::compute_cells(b)).collect();
    for ((_, kind), w) in made.iter().zip(&want) {
        assert_eq!(w.is_ok(), *kind == "valid", "{kind}");
    }
    for (name, got) in support::on_every_engine_of(Op::KzgComputeCells, |engine| {
        engine.kzg_compute_cells(&blobs).expect("whole blobs")
    }) {
        assert_eq!(got.len(), want.len(), "{name}: one answer per blob");
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!(g == w, "{name}: blob {i}");
        }
    }
    for (name, got) in support::on_every_engine_of(Op::KzgComputeCells, |engine| {
        engine.kzg_compute_cells(&[]).expect("no blobs")
    }) {
        assert!(got.is_empty(), "{name}");
    }
    let engine = support::cpu_engine(None);
    let part = engine.kzg_compute_cells(&blobs[..kzg::BLOB_LEN + 1]);
    assert!(matches!(part, Err(Error::InvalidInput { .. })), "a blob and a byte");
}

/// Generated recoveries (64 to 128 cells; 50% hostile of every kind) on
/// every engine against the oracle; an honest recovery gives back the
/// blob's cells and proofs, and so do cells of another blob's at some
/// indices not (they are recovered all the same, to other cells).
#[test]
fn recoveries_against_c_kzg() {
    let seed = 51;
    let made = sample::recover_range(0..24, 0.5, seed);
    let items: Vec<RecoverItem> = made.iter().map(|(item, _)| item.clone()).collect();
    let want: Vec<Result<Extended, Reason>> = items.iter().map(oracle::recover_cells).collect();
    for (name, got) in support::on_every_engine_of(Op::KzgRecoverCells, |engine| {
        engine.kzg_recover_cells(&items).expect("kzg_recover_cells")
    }) {
        assert_eq!(got.len(), want.len(), "{name}: one answer per item");
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!(g == w, "{name}: item {i} ({})", made[i].1);
        }
    }
    let blobs: Vec<Vec<kzg::CellItem>> = (0..3).map(|b| sample::blob_cells(b, seed)).collect();
    let mut kinds = std::collections::BTreeSet::new();
    for (i, ((_, kind), w)) in made.iter().zip(&want).enumerate() {
        kinds.insert(*kind);
        let blob = &blobs[i / sample::RECOVERIES_PER_BLOB];
        let whole = |x: &Extended| {
            x.cells.iter().zip(blob).all(|(c, item)| c[..] == item.cell[..])
                && x.proofs.iter().zip(blob).all(|(p, item)| *p == item.proof)
        };
        match (*kind, w) {
            ("valid", Ok(x)) => assert!(whole(x), "item {i}: the blob's cells and proofs"),
            ("other_blob", Ok(x)) => assert!(!whole(x), "item {i}: other cells"),
            (kind, Err(_)) => assert!(!["valid", "other_blob"].contains(&kind), "item {i}: {kind}"),
            (kind, Ok(_)) => panic!("item {i}: {kind} recovered"),
        }
    }
    assert!(kinds.len() >= 6, "kinds drawn: {kinds:?}");
}

/// A recovery's reasons in c-kzg's order: the counts first (mismatched,
/// too many, too few), then each index in turn (range, then order against
/// the one before), then the elements.
#[test]
fn recovery_reasons_in_c_kzg_order() {
    let cells: Vec<[u8; kzg::CELL_LEN]> = sample::blob_cells(0, 52).iter().map(|c| *c.cell).collect();
    let take = |indices: Vec<u64>| RecoverItem {
        cells: indices.iter().map(|&i| cells[(i % 128) as usize]).collect(),
        indices,
    };
    let mut over_r = take((0..64).collect());
    over_r.cells[63][..32].copy_from_slice(&[0xff; 32]);
    let mut late_range = take((0..64).collect());
    late_range.indices[63] = u64::MAX;
    late_range.cells[0][..32].copy_from_slice(&[0xff; 32]);
    let mut order_first = take((0..64).collect());
    order_first.indices[10] = 9;
    order_first.indices[20] = 200;
    let mut mismatched = take((0..200).collect());
    mismatched.indices.pop();
    let cases = [
        (mismatched, Reason::EmptyOrMismatched),
        (take((0..129).collect()), Reason::TooManyCells),
        (take((0..63).collect()), Reason::TooFewCells),
        (take(Vec::new()), Reason::TooFewCells),
        (late_range, Reason::CellIndexOutOfRange),
        (order_first, Reason::CellIndicesNotAscending),
        (over_r, Reason::NonCanonicalElement),
    ];
    for (k, (item, reason)) in cases.iter().enumerate() {
        assert_eq!(oracle::recover_cells(item), Err(*reason), "case {k}");
    }
    let items: Vec<RecoverItem> = cases.into_iter().map(|(item, _)| item).collect();
    let engine = support::cpu_engine(None);
    let got = engine.kzg_recover_cells(&items).expect("recover").output;
    assert_eq!(got.len(), items.len());
}

/// The bindings' layouts: blobs as one fixed-width column or as offsets;
/// recoveries as runs of cells and indices, whose positions are checked.
#[test]
fn bindings_layouts() {
    let made = sample::blobs_range(0..2, 0.0, 53);
    let bytes: Vec<u8> = made.iter().flat_map(|(b, _)| b.iter().copied()).collect();
    let engine = support::cpu_engine(None);
    let want = engine.kzg_compute_cells(&bytes).expect("blobs").output;
    let fixed = flat::kzg_compute_cells(&engine, &Column::fixed("blobs", &bytes, kzg::BLOB_LEN));
    assert!(fixed.expect("fixed").output == want);
    let offsets = [0, kzg::BLOB_LEN as u64, 2 * kzg::BLOB_LEN as u64];
    let by_offsets = flat::kzg_compute_cells(&engine, &Column::offsets("blobs", &bytes, &offsets));
    assert!(by_offsets.expect("offsets").output == want);
    let short = flat::kzg_compute_cells(&engine, &Column::fixed("blobs", &bytes[..1000], 500));
    assert!(matches!(short, Err(Error::InvalidInput { .. })));

    let item = sample::recover_range(0..1, 0.0, 53).remove(0).0;
    let flat_cells: Vec<u8> = item.cells.concat();
    let column = Column::fixed("cells", &flat_cells, kzg::CELL_LEN);
    let n = item.cells.len() as u64;
    let two = flat::kzg_recover_cells(&engine, &[0, n, n], &item.indices, &column).expect("two items");
    assert_eq!(two.output.len(), 2);
    assert!(two.output[0] == oracle::recover_cells(&item));
    assert_eq!(two.output[1], Err(Reason::TooFewCells), "an empty run");
    for groups in [&[][..], &[0, n + 1][..], &[5, 0][..]] {
        let got = flat::kzg_recover_cells(&engine, groups, &item.indices, &column);
        assert!(matches!(got, Err(Error::InvalidInput { .. })), "{groups:?}");
    }
    let got = flat::kzg_recover_cells(&engine, &[0, n], &item.indices[1..], &column);
    assert!(
        matches!(got, Err(Error::InvalidInput { .. })),
        "indices and cells differ in number"
    );
}

/// A fault at each stage of the device's first sub-batch (pack, upload,
/// kernel, readback) sends the whole call to the CPU, whose answers are
/// the oracle's, and says so; the next call runs on the device again.
#[test]
fn device_faults_fall_back_to_the_cpu() {
    let Some(engine) = support::gpu_engine() else { return };
    let blobs: Vec<u8> = sample::blobs_range(0..3, 0.3, 54)
        .iter()
        .flat_map(|(b, _)| b.iter().copied())
        .collect();
    let items: Vec<RecoverItem> = sample::recover_range(0..3, 0.3, 54)
        .into_iter()
        .map(|(i, _)| i)
        .collect();
    let want_blobs: Vec<Result<BlobCells, Reason>> = blobs
        .chunks_exact(kzg::BLOB_LEN)
        .map(|b| oracle::compute_cells(b.try_into().expect("a blob")))
        .collect();
    let want_items: Vec<Result<Extended, Reason>> = items.iter().map(oracle::recover_cells).collect();
    for stage in [
        FaultStage::Pack,
        FaultStage::Upload,
        FaultStage::Kernel,
        FaultStage::Readback,
    ] {
        for recover in [false, true] {
            assert!(engine.inject_gpu_fault_at(stage, 0));
            let selection = if recover {
                let got = engine.kzg_recover_cells(&items).expect("recover");
                assert!(got.output == want_items, "{stage:?}: recoveries");
                got.selection
            } else {
                let got = engine.kzg_compute_cells(&blobs).expect("compute");
                assert!(got.output == want_blobs, "{stage:?}: blobs");
                got.selection
            };
            assert_eq!(selection.backend, Backend::Cpu, "{stage:?}: {selection}");
            assert!(selection.why.contains("fell back to cpu"), "{stage:?}: {selection}");
        }
    }
    let again = engine.kzg_compute_cells(&blobs).expect("compute");
    assert_eq!(again.selection.backend, Backend::Gpu, "{}", again.selection);
    assert!(again.output == want_blobs);
}
