#!/usr/bin/env bash
# Runs on the lent GPU machine from the repo root, with .device/ made by
# scripts/gpu-bundle.sh: bash .device/gpu-run.sh OUTDIR (about 10 minutes,
# most of it timeouts that are ceilings, not waits).
# Writes at most 8 files (the device tool's limit). Most important first:
# correctness on the device, then issue 14's targets (the streaming
# driver), issue 17's (Schnorr), issue 16's (ML-DSA, ML-KEM), issue 15's
# (BLS) and issue 18's (NTT), then issue 14's open questions
# (end-to-end vs kernel gap, field rates).
set -uo pipefail
out=${1:?usage: gpu-run.sh OUTDIR}
mkdir -p "$out"
exec > >(tee "$out/log.txt") 2>&1
for f in .device/debs/*.deb; do dpkg -x "$f" /; done
ldconfig
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f "$icd" ] && export VK_DRIVER_FILES=$icd
bin=.device/batchcrypto
echo "commit: $(cat .device/commit)"; nvidia-smi -L; nproc; lscpu | grep 'Model name'
timeout 120 $bin selftest --backend gpu 2>&1 | tee "$out/selftest.txt"

# Targets, the GPU alone (gpu = end to end through the driver, gpu_kernel =
# GPU timestamps): Ed25519 strict >= 0.8x kernel at 262,144 and >= 5M/s;
# ecrecover >= 3M/s; P-256 measured at 262,144; keccak256_32 >= 200M/s at 2^22.
timeout 120 $bin bench --backend gpu --op ed25519_verify_strict,ecrecover,p256_verify,secp256k1_verify \
  --sizes 65536,262144 --oracle-max-n 0 --max-seconds 100 --json "$out/targets.json" 2>&1 | tee "$out/targets.md"
timeout 60 $bin bench --backend gpu --op keccak256_32,merkle_keccak256 --sizes 1048576,4194304 \
  --oracle-max-n 0 --max-seconds 45 2>&1 | tee -a "$out/targets.md"
# Issue 17: BIP-340 and sr25519 >= 3M/s end to end.
timeout 90 $bin bench --backend gpu --op bip340_verify,sr25519_verify --sizes 65536,262144 \
  --oracle-max-n 0 --max-seconds 70 2>&1 | tee -a "$out/targets.md"
# Issue 16: ML-DSA-65 verify >= 1M/s, ML-KEM-768 encaps and decaps >= 2M/s
# end to end, the 16 cores beside them.
timeout 90 $bin bench --backend cpu,gpu --op mldsa_verify_65,mlkem_encaps_768,mlkem_decaps_768 \
  --sizes 16384,65536 --oracle-max-n 0 --max-seconds 70 2>&1 | tee -a "$out/targets.md"
# Issue 15: the EIP-2537 pairing check <= 5 us per pair at >= 1,024 pairs
# (one pair per call here), blst on the 16 cores beside it.
timeout 90 $bin bench --backend cpu,gpu --op eip2537_pairing --sizes 1024,16384 \
  --oracle-max-n 0 --max-seconds 70 2>&1 | tee -a "$out/targets.md"
# Issue 15's signature targets against blst on one thread (oracle_1t) and
# on the 16 cores: aggregate verify of k = 1,024 distinct messages (one
# item; hash to G2 included), batch verify of 4,096 sets (blst's per-item
# rate from N = 256).
timeout 60 $bin bench --backend cpu,gpu --op bls_aggregate_verify,bls_fast_aggregate_verify --sizes 1024 \
  --oracle-max-n 1024 --max-seconds 40 2>&1 | tee -a "$out/targets.md"
timeout 60 $bin bench --backend cpu,gpu --op bls_verify,bls_batch_verify --sizes 256,4096 \
  --oracle-max-n 256 --max-seconds 40 2>&1 | tee -a "$out/targets.md"

# Issue 18: Goldilocks NTT of 2^14 elements >= 17x the oracle (ark-poly)
# on one thread end to end (bench rows ntt_goldilocks_16384), the 16 cores
# beside it, and the negacyclic rows (tfhe-ntt the oracle: Goldilocks, and
# prime64 over PRIME62 on the Montgomery layer, whose prime is a parameter); MSM BN254 G1 at 2^20 <= 10 ms with bases resident (gpu_kernel:
# the device plan's five passes and the chunk, segment and group passes,
# points and scalars uploaded once; a sum over resident bases adds the
# scalars' copy and upload, 32 MiB at 2^20, and the host's weighing of 512
# group sums; the gpu row also uploads the points) and >= 100x arkworks on
# one thread (oracle_1t at 2^16), BLS12-381 G1 beside.
timeout 60 $bin bench --backend cpu,gpu --op ntt_goldilocks,ntt_goldilocks_negacyclic,ntt_prime64_negacyclic \
  --sizes 64,1024 --oracle-max-n 64 --max-seconds 45 2>&1 | tee -a "$out/targets.md"
timeout 100 $bin bench --backend cpu,gpu --op msm_bn254_g1 --sizes 65536,1048576 \
  --oracle-max-n 65536 --max-seconds 80 2>&1 | tee -a "$out/targets.md"
timeout 60 $bin bench --backend cpu,gpu --op msm_bls12_381_g1 --sizes 65536 \
  --oracle-max-n 65536 --max-seconds 45 2>&1 | tee -a "$out/targets.md"

# The end-to-end vs kernel gap: the same cells with the 16-core CPU column
# interleaved (GPU idle between its runs); compare gpu/gpu_kernel with the
# GPU-alone rows above. Then GPU alone again right after, traced.
timeout 70 $bin bench --backend cpu,gpu --op ed25519_verify_strict,ecrecover --sizes 65536 \
  --oracle-max-n 0 --max-seconds 50 2>&1 | tee "$out/gap.md"
timeout 40 bash -c "BATCHCRYPTO_GPU_TRACE=1 $bin bench --backend gpu --op ed25519_verify_strict \
  --sizes 262144 --oracle-max-n 0 --max-seconds 20" 2>&1 | tail -40 | tee -a "$out/gap.md"

# hash --raw at 2^22 records of 32 bytes, and 10 million streamed through
# the CLI with its peak resident memory.
peak() { # peak RSS (kB) of the command, polled
  "$@" & local pid=$! max=0 v
  while kill -0 $pid 2>/dev/null; do
    v=$(awk '/VmHWM/ {print $2}' /proc/$pid/status 2>/dev/null); [ -n "$v" ] && [ "$v" -gt "$max" ] && max=$v
    sleep 0.2
  done
  wait $pid; echo "peak RSS ${max} kB"
}
head -c $((32 * 4194304)) /dev/urandom > /tmp/raw22
TIMEFORMAT="hash --raw 32, 2^22 records, gpu: %R s"
{ for i in 1 2 3; do time $bin hash keccak256 --raw 32 --backend gpu --input /tmp/raw22 --output /dev/null; done
  head -c 320000000 /dev/urandom > /tmp/raw10m
  peak $bin hash keccak256 --raw 32 --backend gpu --input /tmp/raw10m --output /dev/null
  peak $bin hash keccak256 --raw 32 --backend cpu --input /tmp/raw10m --output /dev/null
} 2>&1 | tee "$out/hash-raw.txt"

# Issue 18: one BN254 Fr polynomial of 2^24 elements (512 MB, zeros: the
# passes' work does not depend on the values) through the CLI end to end,
# file in and out included, GPU then CPU (16 cores), three runs each.
head -c $((32 << 24)) /dev/zero > /tmp/ntt24
{ for backend in gpu cpu; do
    TIMEFORMAT="ntt bn254-fr 2^24, $backend: %R s"
    for i in 1 2 3; do time timeout 60 $bin ntt --field bn254-fr --log-n 24 --backend $backend \
      --input /tmp/ntt24 --output /dev/null; done
  done
} 2>&1 | tee -a "$out/hash-raw.txt"

timeout 60 $bin bench --field-rates 262144 2>&1 | tee "$out/field-rates.md"
echo done
