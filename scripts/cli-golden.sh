#!/usr/bin/env bash
# Rewrites testdata/cli-golden/<name>.out from the release binary for every
# case of testdata/cli-golden/cases.txt (CPU backend). The test
# `cli_output_matches_the_golden_files` then holds every later binary, on
# every backend, to these bytes: run this only when an output is meant to
# change, and say why in the commit.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/target/release/batchcrypto"
cd "$root/testdata/cli-golden"
grep -v '^#' cases.txt | while read -r name input args; do
  # shellcheck disable=SC2086
  if "$bin" $args --backend cpu --input "$input" > "$name.out" 2>/dev/null; then
    echo 0 > "$name.status"
  else
    echo "$?" > "$name.status"
  fi
done
