#!/usr/bin/env bash
# Call 2 (bash .device/rerun.sh OUTDIR, carry .device, about 4 minutes):
# the tower machine's F_p2 instructions against the binary of call 1 on
# the same machine (EIP-2537 at 16,384 pairs), then issue 15's targets
# with the new binary (EIP-2537 at 65,536, batch verify of 4,096 sets,
# aggregate verify of k = 1,024), issue 14's gap traced with the GPU's
# clocks, and last the self-test of the operations call 1's self-test
# did not finish, traced (which pipeline is slow to create here).
set -uo pipefail
out=${1:?usage: rerun.sh OUTDIR}
exec > >(tee "$out/log2.txt") 2>&1
t0=$(date +%s)
stamp() { echo "== $(( $(date +%s) - t0 )) s: $*"; }
for f in .device/debs/*.deb; do dpkg -x "$f" /; done
for b in batchcrypto batchcrypto-old; do [ -f .device/$b.gz ] && gunzip -f .device/$b.gz; chmod +x .device/$b; done
ldconfig
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f "$icd" ] && export VK_DRIVER_FILES=$icd
new=.device/batchcrypto old=.device/batchcrypto-old
cat .device/commit; nvidia-smi -L
for b in old new; do
  stamp "eip2537_pairing 16384, $b binary"
  timeout 60 ${!b} bench --backend gpu --op eip2537_pairing --sizes 16384 --oracle-max-n 0 --max-seconds 8 2>&1 | grep '^|'
done
stamp "eip2537_pairing 65536, new"
timeout 60 $new bench --backend gpu --op eip2537_pairing,bn256_pairing --sizes 65536 --oracle-max-n 0 --max-seconds 12 2>&1 | grep '^|'
stamp "bls verify, batch verify"
# One size, so that no prediction from a smaller one skips it (blst on one
# thread: call 1's N = 256 row).
timeout 70 $new bench --backend gpu --op bls_verify,bls_batch_verify --sizes 4096 --oracle-max-n 0 --max-seconds 30 2>&1 | grep '^|'
stamp "aggregate"
timeout 40 $new bench --backend gpu --op bls_aggregate_verify,bls_fast_aggregate_verify --sizes 1024 --oracle-max-n 0 --max-seconds 10 2>&1 | grep '^|'
stamp "gap, traced"
nvidia-smi --query-gpu=timestamp,clocks.sm,utilization.gpu --format=csv,noheader -lms 200 > "$out/clocks2.csv" 2>&1 & smi=$!
BATCHCRYPTO_GPU_TRACE=1 timeout 30 $new bench --backend gpu --op ed25519_verify_strict --sizes 65536 --oracle-max-n 0 --max-seconds 5 2>&1 \
  | grep -E 'waited|timestamps|^\|' | tail -14
kill $smi 2>/dev/null
stamp "selftest, traced"
ops=$($new selftest --op '?' 2>&1 | sed 's/.*known: //' | tr -d ' ' | tr ',' '\n' \
  | grep -E '^(mldsa|mlkem|bn256_add|bn256_mul|eip2537_g|ntt_bls|msm_bls|secp256k1_verify_low|ecrecover_low)' | paste -sd, -)
BATCHCRYPTO_GPU_TRACE=1 BATCHCRYPTO_GPU_COMPILE_WAIT_S=40 timeout 75 $new selftest --backend gpu --op "$ops" 2>&1 \
  | grep -v 'sub-batch' | while IFS= read -r l; do echo "$(( $(date +%s) - t0 )) s: $l"; done
stamp done
