//! `batchcrypto kzg compute-cells|recover-cells`: EIP-7594's cells and
//! proofs, one blob or one recovery per line (README, "kzg").
//!
//! compute-cells in `{"blob":"<131072>"}`, out
//! `{"commitment","cells":[128],"proofs":[128]}` or
//! `{"commitment":null,"reason"}`; recover-cells in
//! `{"cell_indices":[numbers],"cells":["<2048>",...]}`, out
//! `{"cells":[128],"proofs":[128]}` or `{"cells":null,"reason"}`. A blob
//! or cell of another length, or a missing or mistyped field, makes the
//! line malformed; the indices' and cells' counts, order and range are the
//! item's checks (its reason).

use std::io::Write;

use batchcrypto::ops::kzg::{self, BlobCells, Extended, RecoverItem};
use batchcrypto::{Engine, Reason, Selection};

use crate::Fatal;
use crate::lines::{Field, LineJob, LineVerb, VerbArgs, hex_fixed, hex_into, parse_object, write_refused};

#[derive(clap::Subcommand)]
pub enum Kzg {
    /// A blob's commitment, cells and cell proofs: in {"blob":131072}, out {"commitment","cells","proofs"} or {"commitment":null,"reason"}.
    #[command(name = "compute-cells")]
    ComputeCells(VerbArgs),
    /// All 128 cells and proofs from 64 or more: in {"cell_indices","cells"}, out {"cells","proofs"} or {"cells":null,"reason"}.
    #[command(name = "recover-cells")]
    RecoverCells(VerbArgs),
}

pub fn job(cmd: Kzg) -> LineJob {
    match cmd {
        Kzg::ComputeCells(a) => a.job(Compute, "kzg compute-cells"),
        Kzg::RecoverCells(a) => a.job(Recover, "kzg recover-cells"),
    }
}

/// Bytes of one item's answer, counted in a batch's bytes (a chunk of
/// input is bounded by the memory its answers take as well).
const ANSWER_BYTES: usize = kzg::EXTENDED_CELLS_LEN + kzg::EXTENDED_PROOFS_LEN + kzg::POINT_LEN;

/// `"cells":[...],"proofs":[...]` of an extended blob.
fn write_extended(extended: &Extended, w: &mut dyn Write) -> std::io::Result<()> {
    let mut digits = vec![0u8; 2 * kzg::CELL_LEN];
    let mut list = |key: &str, items: &mut dyn Iterator<Item = &[u8]>, w: &mut dyn Write| {
        write!(w, "\"{key}\":[")?;
        for (i, bytes) in items.enumerate() {
            let hex = &mut digits[..2 * bytes.len()];
            // The buffer holds twice the longest item's bytes.
            hex::encode_to_slice(bytes, hex).map_err(std::io::Error::other)?;
            w.write_all(if i == 0 { b"\"" } else { b",\"" })?;
            w.write_all(hex)?;
            w.write_all(b"\"")?;
        }
        w.write_all(b"]")
    };
    list("cells", &mut extended.cells.iter().map(|c| &c[..]), w)?;
    w.write_all(b",")?;
    list("proofs", &mut extended.proofs.iter().map(|p| &p[..]), w)
}

#[derive(serde::Deserialize)]
struct BlobLine<'a> {
    #[serde(borrow, default)]
    blob: Field<'a>,
}

/// `kzg compute-cells`: the batch is the blobs back to back.
struct Compute;

impl LineVerb for Compute {
    type Batch = Vec<u8>;
    type Out = Result<BlobCells, Reason>;
    const OK_LABEL: &'static str = "computed";
    const HAS_INVALID: bool = true;

    fn parse(line: &str, batch: &mut Self::Batch, scratch: &mut Vec<u8>) -> Result<(), String> {
        let l: BlobLine = parse_object(line)?;
        hex_into("blob", &l.blob, scratch)?;
        if scratch.len() != kzg::BLOB_LEN {
            return Err(format!(
                "field \"blob\": expected {} bytes ({} hex digits), got {} bytes",
                kzg::BLOB_LEN,
                2 * kzg::BLOB_LEN,
                scratch.len()
            ));
        }
        batch
            .try_reserve(kzg::BLOB_LEN)
            .map_err(|_| "no memory for the blob".to_string())?;
        batch.extend_from_slice(scratch);
        Ok(())
    }

    fn batch_bytes(batch: &Self::Batch) -> usize {
        batch.len() / kzg::BLOB_LEN * (kzg::BLOB_LEN + ANSWER_BYTES)
    }

    fn run(&self, engine: &Engine, batch: &Self::Batch) -> Result<(Vec<Self::Out>, Selection), Fatal> {
        let outcome = engine.kzg_compute_cells(batch)?;
        Ok((outcome.output, outcome.selection))
    }

    fn write(out: &Self::Out, w: &mut dyn Write) -> std::io::Result<bool> {
        match out {
            Ok(made) => {
                write!(w, "{{\"commitment\":\"{}\",", hex::encode(made.commitment))?;
                write_extended(&made.extended, w)?;
                w.write_all(b"}\n")?;
                Ok(true)
            }
            Err(reason) => write_refused("commitment", reason, w),
        }
    }
}

#[derive(serde::Deserialize)]
struct RecoverLine<'a> {
    #[serde(default)]
    cell_indices: Option<Vec<u64>>,
    #[serde(borrow, default)]
    cells: Option<Vec<Field<'a>>>,
}

/// `kzg recover-cells`: the batch is the recoveries.
struct Recover;

impl LineVerb for Recover {
    type Batch = Vec<RecoverItem>;
    type Out = Result<Extended, Reason>;
    const OK_LABEL: &'static str = "recovered";
    const HAS_INVALID: bool = true;

    fn parse(line: &str, batch: &mut Self::Batch, _scratch: &mut Vec<u8>) -> Result<(), String> {
        let l: RecoverLine = parse_object(line)?;
        let indices = l
            .cell_indices
            .ok_or("field \"cell_indices\": missing (an array of numbers, 0 to 127)")?;
        let fields = l.cells.ok_or("field \"cells\": missing (an array of hex cells)")?;
        let cells = fields
            .iter()
            .enumerate()
            .map(|(i, f)| hex_fixed::<{ kzg::CELL_LEN }>(&format!("cells[{i}]"), f))
            .collect::<Result<Vec<_>, _>>()?;
        batch.push(RecoverItem { indices, cells });
        Ok(())
    }

    fn batch_bytes(batch: &Self::Batch) -> usize {
        batch
            .iter()
            .map(|it| it.cells.len() * kzg::CELL_LEN + it.indices.len() * 8 + ANSWER_BYTES)
            .sum()
    }

    fn run(&self, engine: &Engine, batch: &Self::Batch) -> Result<(Vec<Self::Out>, Selection), Fatal> {
        let outcome = engine.kzg_recover_cells(batch)?;
        Ok((outcome.output, outcome.selection))
    }

    fn write(out: &Self::Out, w: &mut dyn Write) -> std::io::Result<bool> {
        match out {
            Ok(extended) => {
                w.write_all(b"{")?;
                write_extended(extended, w)?;
                w.write_all(b"}\n")?;
                Ok(true)
            }
            Err(reason) => write_refused("cells", reason, w),
        }
    }
}
