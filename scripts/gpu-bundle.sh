#!/usr/bin/env bash
# Prepares .device/ for one run on a lent NVIDIA machine (see README,
# Performance): the shared bundle (release binary + Vulkan loader), plus the
# libglvnd packages the NVIDIA Vulkan driver needs there, plus this repo's
# run script. Then, with the device tool: run `bash .device/gpu-run.sh $OUT`
# with carry [".device"].
set -euo pipefail
root=$(git rev-parse --show-toplevel)
cd "$root"
bash ../shared/gpu-bundle/make-bundle.sh
lists=/tmp/gpu-bundle-apt
o="-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=$lists"
(cd .device/debs && apt-get $o download libglvnd0 libegl1 libgl1 libglx0 libopengl0 libgles2 >/dev/null)
cp scripts/gpu-run.sh .device/
ls .device .device/debs
