"""Turning what callers hold into the native module's columns.

A column is ``(data, width, offsets)``: ``data`` a byte buffer, ``width``
the bytes per item (0 when ``offsets`` delimits them), ``offsets`` ``None``
or a uint64 array of ``n + 1`` positions. Buffers are borrowed, not copied,
wherever the caller's layout allows it: a C-contiguous NumPy ``uint8``
array of shape ``(n, width)``, an Arrow fixed-size-binary array, or an
Arrow binary / large-binary array (its offsets are widened to uint64, a
copy of ``8 (n + 1)`` bytes; its data is borrowed). A list of byte strings
is joined into one buffer (one copy).

``bytes``, ``bytearray``, ``memoryview`` and one-dimensional ``uint8``
arrays are ONE item.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

_BYTES_LIKE = (bytes, bytearray, memoryview)


@dataclass(frozen=True)
class Column:
    """One argument, ready for the native module."""

    name: str
    data: Any
    width: int
    offsets: np.ndarray | None
    count: int

    def native(self) -> tuple[Any, int, Any]:
        offsets = None if self.offsets is None else memoryview(self.offsets).cast("B")
        return (self.data, self.width, offsets)


def _as_bytes(value: Any) -> memoryview:
    view = memoryview(value)
    if view.nbytes == 0:
        return memoryview(b"")
    return view if view.ndim == 1 and view.format == "B" else view.cast("B")


def _single(name: str, value: Any) -> Column:
    data = _as_bytes(value)
    return Column(name, data, 0, np.array([0, data.nbytes], dtype=np.uint64), 1)


def _ndarray(op: str, name: str, value: np.ndarray) -> Column:
    if value.dtype == object:
        return _sequence(op, name, list(value))
    if value.dtype != np.uint8:
        raise TypeError(f"{op}: {name}: expected a uint8 array, got dtype {value.dtype}")
    if value.ndim == 1:
        return _single(name, np.ascontiguousarray(value))
    if value.ndim != 2:
        raise ValueError(f"{op}: {name}: expected shape (n, width), got {value.shape}")
    n, width = value.shape
    value = np.ascontiguousarray(value)
    if width == 0:
        return Column(name, _as_bytes(b""), 0, np.zeros(n + 1, dtype=np.uint64), n)
    return Column(name, _as_bytes(value), width, None, n)


def _sequence(op: str, name: str, items: list[Any]) -> Column:
    parts = []
    for i, item in enumerate(items):
        if item is None:
            raise TypeError(f"{op}: {name}[{i}] is None")
        if isinstance(item, np.ndarray):
            if item.dtype != np.uint8 or item.ndim != 1:
                raise TypeError(f"{op}: {name}[{i}]: expected bytes or a 1-D uint8 array, got {item.dtype} {item.shape}")
            item = item.tobytes()
        elif not isinstance(item, _BYTES_LIKE):
            raise TypeError(f"{op}: {name}[{i}]: expected bytes, got {type(item).__name__}")
        parts.append(item)
    lengths = np.fromiter((len(memoryview(p).cast("B")) for p in parts), dtype=np.uint64, count=len(parts))
    offsets = np.zeros(len(parts) + 1, dtype=np.uint64)
    np.cumsum(lengths, out=offsets[1:])
    return Column(name, _as_bytes(b"".join(parts)), 0, offsets, len(parts))


def _arrow(op: str, name: str, value: Any) -> Column:
    import pyarrow as pa

    if isinstance(value, pa.ChunkedArray):
        value = value.combine_chunks()
    if value.null_count:
        first = value.is_null().index(True).as_py()
        raise ValueError(f"{op}: {name}[{first}] is null")
    n, start = len(value), value.offset
    kind = value.type
    if pa.types.is_fixed_size_binary(kind):
        width = kind.byte_width
        data = value.buffers()[1]
        view = _as_bytes(data)[start * width : (start + n) * width] if data is not None else _as_bytes(b"")
        if width == 0:
            return Column(name, view, 0, np.zeros(n + 1, dtype=np.uint64), n)
        return Column(name, view, width, None, n)
    if pa.types.is_binary(kind) or pa.types.is_large_binary(kind):
        raw_offsets, data = value.buffers()[1], value.buffers()[2]
        dtype = np.int64 if pa.types.is_large_binary(kind) else np.int32
        offsets = np.frombuffer(raw_offsets, dtype=dtype)[start : start + n + 1].astype(np.uint64)
        view = _as_bytes(data) if data is not None else _as_bytes(b"")
        return Column(name, view, 0, offsets, n)
    raise TypeError(f"{op}: {name}: expected an Arrow binary or fixed-size-binary array, got {kind}")


def column(op: str, name: str, value: Any) -> Column:
    """The column of argument ``name`` of operation ``op``."""
    if value is None:
        raise TypeError(f"{op}: {name} is None")
    if isinstance(value, _BYTES_LIKE):
        return _single(name, value)
    if isinstance(value, np.ndarray):
        return _ndarray(op, name, value)
    if type(value).__module__.startswith("pyarrow"):
        return _arrow(op, name, value)
    if isinstance(value, (list, tuple)):
        return _sequence(op, name, list(value))
    raise TypeError(
        f"{op}: {name}: expected bytes, a list of bytes, a uint8 NumPy array or an Arrow binary array, "
        f"got {type(value).__name__}"
    )


def columns(op: str, **values: Any) -> tuple[int, list[Column]]:
    """The columns of one call and their common item count."""
    cols = [column(op, name, value) for name, value in values.items()]
    for c in cols[1:]:
        if c.count != cols[0].count:
            raise ValueError(f"{op}: {cols[0].name} has {cols[0].count} items but {c.name} has {c.count}")
    return (cols[0].count if cols else 0), cols
