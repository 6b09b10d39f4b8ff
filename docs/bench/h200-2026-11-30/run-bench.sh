#!/usr/bin/env bash
# Adjusted copy of ../shared/gpu-bundle/run-bench.sh: main ladder + large sizes.
set -uo pipefail
out=${1:?usage: run-bench.sh OUTDIR}
mkdir -p "$out"
exec > >(tee "$out/log.txt") 2>&1
for f in .device/debs/*.deb; do dpkg -x "$f" /; done
ldconfig
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f "$icd" ] && export VK_DRIVER_FILES=$icd
bin=.device/batchcrypto
ldd /usr/local/nvidia/lib64/libGLX_nvidia.so.0 2>&1 | grep "not found" || true
echo "commit: $(cat .device/commit)"; nvidia-smi -L || true; nproc; lscpu | grep 'Model name' || true
$bin devices 2>&1 | tee "$out/devices.txt"
timeout 90 $bin selftest --backend gpu 2>&1 | tee "$out/selftest.txt"
timeout 240 $bin bench --backend cpu,gpu --max-seconds 200 \
  --json "$out/bench.json" --plot "$out/bench.svg" 2>&1 | tee "$out/bench.md"
timeout 100 $bin bench --backend cpu,gpu --max-seconds 80 \
  --op keccak256_32,sha256_64,merkle_keccak256 --sizes 1048576,4194304 \
  --json "$out/big.json" 2>&1 | tee "$out/big.md"
echo "done"
