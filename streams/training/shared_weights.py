"""Initializers of a graph written as pointers into other files of its model directory.

A protobuf `bytes` field is stored contiguously, so an initializer whose bytes lie at one
place in another graph file of the directory can be ONNX external data pointing there: ONNX
Runtime reads it like any external data file. The graph lists what it borrows in its metadata
(streams/core/nli/heads.py, with each range's sha256), so loading can tell when a file it
borrows from has been replaced."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from contraflow.streams.core.nli.heads import SHARED_WEIGHTS, SHARED_WEIGHTS_KEY, SharedWeight, digest

if TYPE_CHECKING:
    import onnx


def borrow_weights(
    model: onnx.ModelProto, model_dir: Path, sources: Sequence[str], min_bytes: int
) -> list[SharedWeight]:
    """Turn every initializer of `model` of `min_bytes` or more whose bytes are at exactly one
    place in one of `sources` (files of `model_dir`, looked in in this order) into a pointer
    there; record them in the model's metadata. Smaller or unmatched ones stay in the graph."""
    import onnx
    from onnx import numpy_helper

    files = {location: (model_dir / location).read_bytes() for location in sources}
    shared = []
    for tensor in model.graph.initializer:
        if tensor.data_location == onnx.TensorProto.EXTERNAL:
            continue
        # a packed repeated float field holds the same little-endian bytes as raw_data would
        values = tensor.raw_data or numpy_helper.to_array(tensor).tobytes()
        if len(values) < min_bytes:
            continue
        found = next(
            (
                (location, offset)
                for location, data in files.items()
                if (offset := data.find(values)) >= 0 and data.find(values, offset + 1) < 0
            ),
            None,
        )
        if found is None:
            continue
        location, offset = found
        weight = SharedWeight(
            name=tensor.name, location=location, offset=offset, length=len(values), sha256=digest(values)
        )
        for field in ("raw_data", "float_data", "int32_data", "int64_data", "double_data", "uint64_data"):
            tensor.ClearField(field)
        tensor.data_location = onnx.TensorProto.EXTERNAL
        del tensor.external_data[:]
        for key, value in (("location", weight.location), ("offset", weight.offset), ("length", weight.length)):
            entry = tensor.external_data.add()
            entry.key, entry.value = key, str(value)
        shared.append(weight)
    kept = [entry for entry in model.metadata_props if entry.key != SHARED_WEIGHTS_KEY]
    del model.metadata_props[:]
    model.metadata_props.extend(kept)
    entry = model.metadata_props.add()
    entry.key, entry.value = SHARED_WEIGHTS_KEY, SHARED_WEIGHTS.dump_json(shared).decode()
    return shared
