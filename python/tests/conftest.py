"""Shared helpers: the repository's test data and a CPU engine."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import batchcrypto

REPO = Path(__file__).resolve().parents[2]
#: The public vectors (a copy with provenance in testdata/); BATCHCRYPTO_VECTORS may point elsewhere.
VECTORS = Path(os.environ.get("BATCHCRYPTO_VECTORS", REPO / "testdata"))
#: The CLI's golden inputs and outputs (its own tests pin the outputs).
GOLDEN = REPO / "testdata" / "cli-golden"


def jsonl(name: str) -> list[dict | None]:
    """The lines of a golden file, None for a line that is not a JSON object."""
    out = []
    for line in (GOLDEN / name).read_text().splitlines():
        try:
            v = json.loads(line)
        except ValueError:
            v = None
        out.append(v if isinstance(v, dict) else None)
    return out


def vectors(relative: str):
    """A JSON vector file; missing files skip the test unless required."""
    path = VECTORS / relative
    if not path.exists():
        if os.environ.get("BATCHCRYPTO_REQUIRE_VECTORS"):
            pytest.fail(f"{path} is missing and BATCHCRYPTO_REQUIRE_VECTORS is set")
        pytest.skip(f"{path} is missing")
    return json.loads(path.read_text())


@pytest.fixture(scope="session")
def cli() -> Path:
    """The batchcrypto CLI: $BATCHCRYPTO_CLI, else a build in the target
    directory; missing, the test skips (fails with BATCHCRYPTO_REQUIRE_CLI)."""
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    candidates = [os.environ.get("BATCHCRYPTO_CLI")] + [str(target / p / "batchcrypto") for p in ("release", "debug")]
    for c in candidates:
        if c and Path(c).is_file():
            return Path(c)
    if os.environ.get("BATCHCRYPTO_REQUIRE_CLI"):
        pytest.fail(f"no batchcrypto CLI among {candidates} and BATCHCRYPTO_REQUIRE_CLI is set")
    pytest.skip("no batchcrypto CLI built (cargo build -p batchcrypto-cli) and BATCHCRYPTO_CLI unset")


@pytest.fixture(scope="session")
def engine() -> batchcrypto.Engine:
    return batchcrypto.Engine(backend="cpu", threads=2)
