#!/usr/bin/env bash
# The second call: what the first (gpu-run.sh) lost to BLS kernels that did not finish.
set -uo pipefail
out=$1; mkdir -p "$out"; exec > >(tee "$out/log2.txt") 2>&1
t0=$(date +%s)
within() { local e=$(( $(date +%s) - t0 )); [ "$e" -lt "$1" ] && return 0; echo "skipped at ${e} s: $2"; return 1; }
stamp() { echo "== $(( $(date +%s) - t0 )) s: $*"; }
for f in .device/debs/*.deb; do dpkg -x "$f" /; done; ldconfig
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json; [ -f "$icd" ] && export VK_DRIVER_FILES=$icd
bin=.device/batchcrypto; echo "commit: $(cat .device/commit)"
stamp msm; timeout 45 $bin bench --backend gpu --op msm_bn254_g1 --sizes 1048576 --oracle-max-n 0 --max-seconds 8 2>&1
within 60 keccak && { stamp keccak; timeout 25 $bin bench --backend gpu --op keccak256_32 --sizes 1048576 --oracle-max-n 0 --max-seconds 5 2>&1; }
if within 85 "hash raw, ntt24"; then
  stamp "hash raw, ntt24"
  head -c $((32 * 4194304)) /dev/urandom > /tmp/raw22
  TIMEFORMAT="hash --raw 32, 2^22 records, gpu: %R s"
  for i in 1 2; do time timeout 20 $bin hash keccak256 --raw 32 --backend gpu --input /tmp/raw22 --output /dev/null; done
  head -c $((32 << 24)) /dev/zero > /tmp/ntt24
  for b in gpu gpu cpu; do TIMEFORMAT="ntt bn254-fr 2^24, $b: %R s"
    time timeout 25 $bin ntt --field bn254-fr --log-n 24 --backend $b --input /tmp/ntt24 --output /dev/null; done
  BATCHCRYPTO_GPU_TRACE=1 timeout 25 $bin ntt --field bn254-fr --log-n 24 --backend gpu --input /tmp/ntt24 --output /dev/null 2>&1 | tail -12
fi
within 150 selftest && { stamp selftest; timeout 40 $bin selftest --backend gpu --count 64 --op ed25519_verify_strict,ed25519_verify_zip215,keccak256_32,sha3_256_32,sha256_64,merkle_keccak256,merkle_sha256,secp256k1_verify,ecrecover,p256_verify,ntt_goldilocks_16384,ntt_goldilocks_negacyclic_16384,ntt_prime64_negacyclic_16384,ntt_bn254_fr_16384,msm_bn254_g1,bip340_verify,sr25519_verify 2>&1; }
within 175 pq && { stamp pq; timeout 45 $bin bench --backend cpu,gpu --op mlkem_encaps_768,mldsa_verify_65 --sizes 65536 --oracle-max-n 0 --max-seconds 12 2>&1; }
stamp done
