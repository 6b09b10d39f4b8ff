#!/usr/bin/env bash
# Runs on the lent GPU machine from the repo root, with .device/ made by
# scripts/gpu-bundle.sh: bash .device/gpu-run.sh OUTDIR (about 4 minutes).
# Writes at most 8 files (the device tool's limit). Most important first:
# correctness on the device, then the sizes that fill the GPU, then the
# open questions of docs/bench/h200-2026-11-30/README.md.
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
timeout 60 $bin selftest --backend gpu 2>&1 | tee "$out/selftest.txt"
# ECDSA at the sizes that fill the GPU, the GPU alone (no interleaved CPU
# column: compare gpu with gpu_kernel), then with the CPU for the ratio.
E=secp256k1_verify,ecrecover,p256_verify
timeout 60 $bin bench --backend gpu --op $E --sizes 65536,262144 --oracle-max-n 0 --max-seconds 45 \
  --json "$out/ecdsa-gpu.json" 2>&1 | tee "$out/ecdsa-gpu.md"
timeout 50 $bin bench --backend cpu,gpu --op $E --sizes 65536 --oracle-max-n 0 --max-seconds 40 \
  2>&1 | tee "$out/ecdsa-cpu-gpu.md"
# Where end-to-end time goes for hashing at 2^20 and 2^22.
timeout 40 bash -c "BATCHCRYPTO_GPU_TRACE=1 $bin bench --backend gpu --op keccak256_32,merkle_keccak256 \
  --sizes 1048576,4194304 --oracle-max-n 0 --max-seconds 25" 2>&1 | tee "$out/hash-trace.md"
timeout 40 $bin calibrate --max-seconds 30 --output "$out/profile.json" 2>&1 | tail -20
echo done
