"""examples/ray/verify_parquet.py on a local Ray instance (2 CPUs, 2
workers) over 50,000 generated items (a fifth hostile) in four files, read
in batches of 4,096: sixteen batches, four a file, as 200,000 items in
batches of 16,384 were (the test took 92 s with those, 55 s now, on the
2-core VM): every verdict and reason equals the CLI's for the same items."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conftest import REPO

ray = pytest.importorskip("ray")

ITEMS = 50_000


def test_ray_pipeline_answers_as_the_cli(cli, tmp_path):
    sample = tmp_path / "items.jsonl"
    subprocess.run([cli, "sample", "ed25519", "--count", str(ITEMS), "--output", sample], check=True)
    answers = subprocess.run(
        [cli, "verify", "ed25519", "--backend", "cpu", "--input", sample],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.splitlines()
    want = [json.loads(a) for a in answers]
    assert len(want) == ITEMS and all("error" not in w for w in want)
    assert 0 < sum(w["valid"] for w in want) < ITEMS

    rows = [json.loads(line) for line in sample.read_text().splitlines()]
    table = pa.table(
        {
            "id": pa.array(range(len(rows)), type=pa.int64()),
            "pk": pa.array([bytes.fromhex(r["pk"]) for r in rows], type=pa.binary()),
            "sig": pa.array([bytes.fromhex(r["sig"]) for r in rows], type=pa.binary()),
            "msg": pa.array([bytes.fromhex(r["msg"]) for r in rows], type=pa.binary()),
        }
    )
    (tmp_path / "in").mkdir()
    # Several files, so that the pipeline has several blocks to spread.
    for part in range(4):
        chunk = table.slice(part * ITEMS // 4, ITEMS // 4)
        pq.write_table(chunk, tmp_path / "in" / f"part-{part}.parquet")

    example = str(REPO / "examples" / "ray")
    sys.path.insert(0, example)
    import verify_parquet

    # The workers import the example's module too.
    path = os.pathsep.join(p for p in (example, os.environ.get("PYTHONPATH")) if p)
    ray.init(num_cpus=2, include_dashboard=False, runtime_env={"env_vars": {"PYTHONPATH": path}})
    try:
        verify_parquet.verify(
            str(tmp_path / "in"), str(tmp_path / "out"), workers=2, batch_size=4_096, ray_cpus_per_worker=0.5
        )
    finally:
        ray.shutdown()

    out = pq.read_table(tmp_path / "out").sort_by("id")
    assert out.num_rows == ITEMS
    assert out["id"].to_pylist() == list(range(ITEMS))
    valid, reason = out["valid"].to_pylist(), out["reason"].to_pylist()
    for i, w in enumerate(want):
        assert valid[i] == w["valid"], f"item {i}"
        assert reason[i] == w.get("reason"), f"item {i}"
