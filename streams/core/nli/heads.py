"""The NLI model's two heads. A model directory holds the general NLI graph (`model.onnx`)
and may hold a dialogue graph (`dialogue.onnx`): a model trained for the sentence rule from
the general one, with the same tokenizer and labels. It does not carry its own copy of the
weights it shares with model.onnx (the word embeddings, half of either graph): they are ONNX
external data pointing into model.onnx, so both ship in 34 MB instead of 46 and general NLI
keeps the general graph's answers exactly.

The dialogue graph lists what it borrows in its metadata (`contraflow.shared_weights`, a JSON
list of name, file, offset, length and sha256); loading checks every range against its file,
so a model.onnx replaced since fails loudly instead of scoring with someone else's weights.
`contraflow nli dialogue-head` writes the graph (streams/training/dialogue_head.py).

An int8 graph may have a float32-compute twin beside it (`dialogue_float.onnx` for
`dialogue.onnx`): the same int8 weights, dequantised at load instead of quantising the
activations, for the pairs the float recheck scores again. It borrows every weight from the
graph's files the same way, so it is a few kilobytes (`contraflow nli float-twin`,
streams/training/float_twin.py; `dialogue-head` writes it too)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from pydantic import BaseModel, TypeAdapter

DIALOGUE_FILE = "dialogue.onnx"
SHARED_WEIGHTS_KEY = "contraflow.shared_weights"
# ONNX Runtime's session option that keeps DequantizeLinear out of its QDQ fusions, so that a
# float twin's dequantised weights are folded into float initializers at load
FOLD_DEQUANTIZE = ("session.disable_quant_qdq", "1")


class SharedWeight(BaseModel):
    """One initializer of the dialogue graph stored in another file of the model directory."""

    name: str
    location: str
    offset: int
    length: int
    sha256: str


SHARED_WEIGHTS = TypeAdapter(list[SharedWeight])


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def stale_shared_weights(model_dir: Path, metadata: dict[str, str]) -> list[str]:
    """The borrowed weights (from a graph's metadata) whose bytes in model_dir are not the ones
    the graph was written against; empty when all match or nothing is borrowed."""
    raw = metadata.get(SHARED_WEIGHTS_KEY)
    if not raw:
        return []
    stale = []
    for weight in SHARED_WEIGHTS.validate_json(raw):
        try:
            with (model_dir / weight.location).open("rb") as source:
                source.seek(weight.offset)
                data = source.read(weight.length)
        except OSError:
            data = b""
        if len(data) != weight.length or digest(data) != weight.sha256:
            stale.append(f"{weight.name} (in {weight.location})")
    return stale


def has_dialogue_head(model_dir: Path) -> bool:
    return (model_dir / DIALOGUE_FILE).is_file()


def twin_file(graph: str) -> str:
    """The file of `graph`'s float32-compute twin."""
    return f"{Path(graph).stem}_float.onnx"
