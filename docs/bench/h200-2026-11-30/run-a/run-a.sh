#!/usr/bin/env bash
# Run A (2026-11-30): the new kernels on the H200, old (32ddc74) side by side.
# (Reconstructed from the session: the bundle's copy was replaced by the next bundle.)
set -uo pipefail
out=${1:?usage: run-a.sh OUTDIR}
mkdir -p "$out"
exec > >(tee "$out/log.txt") 2>&1
for f in .device/debs/*.deb; do dpkg -x "$f" /; done
ldconfig
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f "$icd" ] && export VK_DRIVER_FILES=$icd
new=.device/batchcrypto; old=.device/batchcrypto-old
echo "new: $(cat .device/commit) old: 32ddc74"; nvidia-smi -L; nproc
timeout 50 $new selftest --backend gpu 2>&1 | tee "$out/selftest.txt"
E=secp256k1_verify,ecrecover,p256_verify
timeout 60 $new bench --backend cpu,gpu --op $E --sizes 4096,16384,65536,262144 --oracle-max-n 4096 \
  --max-seconds 45 --json "$out/ecdsa.json" 2>&1 | tee "$out/ecdsa.md"
timeout 25 $old bench --backend gpu --op $E --sizes 4096 --max-seconds 15 2>&1 | tee "$out/ecdsa-old.md"
timeout 40 $new bench --backend cpu,gpu --op keccak256_32,sha256_64,merkle_keccak256,merkle_sha256 \
  --sizes 65536,1048576 --oracle-max-n 65536 --max-seconds 30 2>&1 | tee "$out/hash.md"
timeout 20 $old bench --backend gpu --op keccak256_32,sha256_64 --sizes 1048576 --max-seconds 12 2>&1 | tee "$out/hash-old.md"
timeout 25 $new bench --backend cpu,gpu --op ed25519_verify_strict --sizes 16384,65536,262144 --oracle-max-n 0 \
  --max-seconds 20 2>&1 | tee "$out/ed25519.md"
echo done
