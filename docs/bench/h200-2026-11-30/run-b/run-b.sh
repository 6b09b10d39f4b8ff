#!/usr/bin/env bash
# Run B (2026-11-30): fixed-base table + GLV + host packing; large sizes, trace.
set -uo pipefail
out=${1:?usage: run-b.sh OUTDIR}
mkdir -p "$out"
exec > >(tee "$out/log.txt") 2>&1
for f in .device/debs/*.deb; do dpkg -x "$f" /; done
ldconfig
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f "$icd" ] && export VK_DRIVER_FILES=$icd
bin=.device/batchcrypto
echo "commit: $(cat .device/commit)"; nvidia-smi -L; nproc
timeout 60 $bin selftest --backend gpu 2>&1 | tee "$out/selftest.txt"
timeout 85 $bin bench --backend cpu,gpu --op secp256k1_verify,ecrecover,p256_verify --sizes 4096,65536,262144 \
  --oracle-max-n 4096 --max-seconds 70 --json "$out/ecdsa.json" 2>&1 | tee "$out/ecdsa.md"
timeout 40 bash -c "$bin sample ecrecover --count 262144 > /tmp/er.txt && BATCHCRYPTO_GPU_TRACE=1 $bin ecrecover --backend gpu < /tmp/er.txt > /tmp/er.gpu && $bin ecrecover --backend cpu < /tmp/er.txt | cmp - /tmp/er.gpu && echo 'ecrecover 262144 lines: gpu output = cpu output'" 2>&1 | tee "$out/trace.txt"
timeout 40 $bin bench --backend cpu,gpu --op keccak256_32,sha256_64,merkle_keccak256 --sizes 1048576,4194304 \
  --oracle-max-n 0 --max-seconds 30 --json "$out/hash.json" 2>&1 | tee "$out/hash.md"
timeout 30 $bin bench --backend cpu,gpu --op ed25519_verify_strict --sizes 16384,65536,262144 --oracle-max-n 0 \
  --max-seconds 22 2>&1 | tee "$out/ed25519.md"
echo done
