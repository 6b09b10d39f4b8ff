//! Host side of the hashing kernel (`hash.wgsl`): uploads the messages as
//! stored (flat bytes and offsets), one thread per message, reads back eight
//! digest words and a completion flag per item.

use super::{Alg, Digest};
use crate::batch::FlatBytes;
use crate::gpu::{Dispatch, Gpu, shaders};

/// Flag the kernel writes after each item's digest.
const DONE_FLAG: u32 = 0x100;
/// Threads per workgroup of `hash_main`.
const WORKGROUP: u32 = 64;
/// Most items per dispatch.
const MAX_ITEMS: usize = 1 << 20;
/// u32 words per item in the output: 8 of digest, 1 flag.
const OUT_WORDS: usize = 9;

/// The digest of every item of `msgs` under `alg`, on the GPU.
pub(crate) fn hash(gpu: &Gpu, alg: Alg, msgs: &FlatBytes) -> Result<Vec<Digest>, String> {
    let pipeline = gpu.pipeline("hash", "hash_main", shaders::hash)?;
    let mut pool = gpu.pool();
    let mut digests = Vec::with_capacity(msgs.len());
    let mut start = 0;
    while start < msgs.len() {
        let end = gpu.sub_batch_end(msgs, start, MAX_ITEMS)?;
        let n = end - start;
        let alg_code: u32 = match alg {
            Alg::Keccak256 => 0,
            Alg::Sha3_256 => 1,
            Alg::Sha256 => 2,
        };
        let params = gpu.params(&mut pool, "hash_params", [n as u32, alg_code, shaders::LOOP_GUARD, 0]);
        let (bytes, offsets) = gpu.upload_flat(&mut pool, ("hash_msgs", "hash_offsets"), msgs, start, end);
        let out_bytes = (n * OUT_WORDS * 4) as u64;
        let out = gpu.cleared_output(&mut pool, "hash_out", out_bytes);
        let bind_group = gpu.bind(
            &pipeline,
            "hash",
            &[(0, &params), (1, &bytes), (2, &offsets), (3, &out)],
        );
        let words = gpu.dispatch(
            &mut pool,
            Dispatch {
                pipeline: &pipeline,
                bind_group: &bind_group,
                items: n as u32,
                workgroup: WORKGROUP,
                out: &out,
                out_bytes,
            },
        )?;
        for (i, item) in words.chunks_exact(OUT_WORDS * 4).take(n).enumerate() {
            let flag = u32::from_le_bytes([item[32], item[33], item[34], item[35]]);
            if flag == crate::gpu::LOOPS_CUT_FLAG {
                return Err(crate::gpu::LoopsCut(start + i).to_string());
            }
            if flag != DONE_FLAG {
                return Err(format!(
                    "item {} came back without a digest (flag {flag:#x})",
                    start + i
                ));
            }
            let mut d = [0u8; 32];
            d.copy_from_slice(&item[..32]);
            digests.push(d);
        }
        start = end;
    }
    Ok(digests)
}
