"""The GIL is released while the engine works: Python code runs meanwhile."""

from __future__ import annotations

import threading
import time

import numpy as np

import batchcrypto


def test_gil_is_released_during_work():
    engine = batchcrypto.Engine(backend="cpu", threads=1)
    msgs = np.zeros((1 << 14, 4096), dtype=np.uint8)  # 64 MiB of SHA-256
    done = threading.Event()
    result = {}

    def work():
        start = time.perf_counter()
        result["digests"] = engine.hash("sha256", msgs)
        result["seconds"] = time.perf_counter() - start
        done.set()

    worker = threading.Thread(target=work)
    worker.start()
    ticks = 0
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    worker.join()
    assert result["digests"].shape == (1 << 14, 32)
    # With the GIL held for the whole call this loop would not run at all
    # meanwhile; released, it ticks about once per millisecond.
    assert result["seconds"] > 0.05, "the call was too short to tell"
    assert ticks >= 10, f"only {ticks} ticks during a {result['seconds']:.3f} s call"


def test_threads_share_one_engine(engine):
    msgs = [bytes([i]) * i for i in range(200)]
    want = engine.hash("keccak256", msgs)
    errors = []

    def work():
        for _ in range(20):
            if not np.array_equal(engine.hash("keccak256", msgs), want):
                errors.append("differs")

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
