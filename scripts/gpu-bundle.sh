#!/usr/bin/env bash
# Prepares .device/ (git-ignored) for one run on a lent NVIDIA machine (see
# README, Performance): the release binary (built here; CARGO_TARGET_DIR
# honoured), the Vulkan loader and the libglvnd packages the NVIDIA Vulkan
# driver needs there (amd64 .debs, unpacked there with dpkg -x), this
# repo's run script and the commit measured. The steps of
# ../shared/gpu-bundle/make-bundle.sh, with the target folder cargo uses.
# Then, with the device tool: run `bash .device/gpu-run.sh $OUT` with
# carry [".device"].
set -euo pipefail
root=$(git rev-parse --show-toplevel)
cd "$root"
mkdir -p .git/info
grep -qx '/.device/' .git/info/exclude 2>/dev/null || echo '/.device/' >> .git/info/exclude
rm -rf .device && mkdir -p .device/debs
cargo build --release --locked --bin batchcrypto
cp "${CARGO_TARGET_DIR:-target}/release/batchcrypto" .device/
cp scripts/gpu-run.sh .device/
lists=/tmp/gpu-bundle-apt; mkdir -p "$lists/partial"
o="-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=$lists"
apt-get $o update -qq
(cd .device/debs && apt-get $o download libvulkan1 libglvnd0 libegl1 libgl1 libglx0 libopengl0 libgles2 >/dev/null)
# The gpu fuzz target (fuzz/, cargo fuzz; its own workspace), stripped and
# compressed (about 10 MB), with 600 inputs drawn from a corpus seeded from
# the committed inputs (and any campaign's units here; libFuzzer runs every
# seed before fuzzing, and thousands would take the section's time): the
# last section of gpu-run.sh runs a differential campaign on the device's
# GPU. Left out without cargo-fuzz.
if command -v cargo-fuzz >/dev/null; then
  (cd fuzz && cargo fuzz build --sanitizer none --features wgpu gpu && python3 seed_corpus.py gpu)
  strip -o .device/gpu-fuzz fuzz/target/x86_64-unknown-linux-gnu/release/gpu && gzip -f .device/gpu-fuzz
  seeds=$(mktemp -d) && mkdir "$seeds/gpu"
  find fuzz/corpus/gpu -type f | shuf -n 600 --random-source=<(yes) | xargs cp -t "$seeds/gpu"
  tar -czf .device/gpu-corpus.tar.gz -C "$seeds" gpu && rm -rf "$seeds"
else
  echo "note: no cargo-fuzz here (cargo install cargo-fuzz --locked): the bundle has no gpu fuzz target"
fi
git rev-parse HEAD > .device/commit
git diff --quiet HEAD -- crates Cargo.toml Cargo.lock || echo "note: the binary includes uncommitted changes" >> .device/commit
du -sh .device; ls .device .device/debs
size=$(du -sm .device | cut -f1)
if [ "$size" -gt 60 ]; then
  echo "warning: .device holds ${size} MiB and the device tool carries 64 MiB in all;" \
    "the fuzz target can go: rm .device/gpu-fuzz.gz .device/gpu-corpus.tar.gz"
fi
