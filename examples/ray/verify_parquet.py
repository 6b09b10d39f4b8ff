"""Verify a Parquet dataset of Ed25519 signatures on a Ray cluster.

    python examples/ray/verify_parquet.py INPUT OUTPUT [--workers N] [--policy strict|zip215]

INPUT is a Parquet file or folder with binary columns ``pk`` (32 bytes),
``sig`` (64) and ``msg`` (any length), and any others (an ``id`` say),
which are kept. OUTPUT (a folder) gets every input row with ``valid``
(bool) and ``reason`` (the CLI's reason code, null when valid).

Ray Data reads the dataset in blocks and streams batches through a pool of
actors, each holding one batchcrypto Engine for its lifetime (engines are
built once: a GPU's pipelines are compiled then). An actor takes one GPU
where the cluster has GPUs (its engine then runs batches on it, or on the
CPU cores where calibration says they are faster) and ``--cpus-per-worker``
cores otherwise. Columns reach the engine as Arrow arrays, without a copy.

On a cluster, start Ray on each machine (``ray start --head`` on one,
``ray start --address=HEAD:6379`` on the others, each with batchcrypto
installed: ``pip install ./python``) and pass ``--address auto``; read and
write a shared store (``s3://...``, a shared file system).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyarrow as pa
import ray
import ray.data


class Verifier:
    """One actor: one engine, many batches."""

    def __init__(self, policy: str, backend: str, threads: int | None):
        import batchcrypto

        self.engine = batchcrypto.Engine(backend=backend, threads=threads)
        self.policy = policy
        # Reason number -> code, as an array for a vectorised lookup.
        self.names = np.array([batchcrypto.REASONS.get(i) for i in range(256)], dtype=object)

    def __call__(self, batch: pa.Table) -> pa.Table:
        v = self.engine.verify_ed25519(batch["pk"], batch["sig"], batch["msg"], policy=self.policy)
        batch = batch.append_column("valid", pa.array(v.valid))
        return batch.append_column("reason", pa.array(self.names[v.reasons], type=pa.string()))


def verify(
    input_path: str,
    output_path: str,
    workers: int,
    policy: str = "strict",
    batch_size: int = 65_536,
    cpus_per_worker: int = 1,
    ray_cpus_per_worker: float | None = None,
) -> float:
    """Runs the pipeline on the connected Ray cluster; returns its seconds.

    Each actor's engine runs ``cpus_per_worker`` threads and asks Ray for
    ``ray_cpus_per_worker`` CPUs (default the same). Ray Data's listing,
    reading and writing tasks need a CPU each while the actors hold theirs:
    on an instance with as many CPUs as the actors' threads, ask for less
    (2 CPUs, 2 actors of 1 thread: 0.5 each)."""
    gpus = ray.cluster_resources().get("GPU", 0)
    ray_cpus = cpus_per_worker if ray_cpus_per_worker is None else ray_cpus_per_worker
    resources = {"num_gpus": 1} if gpus >= workers else {"num_cpus": ray_cpus}
    backend = "auto"
    start = time.perf_counter()
    ds = ray.data.read_parquet(input_path)
    ds = ds.map_batches(
        Verifier,
        fn_constructor_args=(policy, backend, cpus_per_worker),
        batch_size=batch_size,
        batch_format="pyarrow",
        compute=ray.data.ActorPoolStrategy(size=workers),
        **resources,
    )
    ds.write_parquet(output_path)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--workers", type=int, default=2, help="actors, each with one engine (default 2)")
    parser.add_argument("--cpus-per-worker", type=int, default=1, help="CPU threads per actor's engine (default 1)")
    parser.add_argument("--ray-cpus-per-worker", type=float, default=None, help="CPUs each actor asks Ray for (default: its threads)")
    parser.add_argument("--policy", default="strict", choices=["strict", "zip215"])
    parser.add_argument("--batch-size", type=int, default=65_536)
    parser.add_argument("--address", default=None, help="a Ray cluster (`auto`); default: a local instance")
    parser.add_argument("--num-cpus", type=int, default=None, help="CPUs of the local instance")
    args = parser.parse_args()
    ray.init(address=args.address, num_cpus=args.num_cpus, include_dashboard=False)
    seconds = verify(
        args.input,
        args.output,
        args.workers,
        args.policy,
        args.batch_size,
        args.cpus_per_worker,
        args.ray_cpus_per_worker,
    )
    rows = ray.data.read_parquet(args.output).count()
    print(f"{rows} rows verified in {seconds:.2f} s ({rows / seconds:,.0f} items/s) by {args.workers} workers")


if __name__ == "__main__":
    main()
