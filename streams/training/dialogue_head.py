"""`contraflow nli dialogue-head STUDENT MODEL_DIR`: put an exported student (a model trained
for the sentence rule from MODEL_DIR's general model) into MODEL_DIR as its dialogue head,
`dialogue.onnx` (streams/core/nli/heads.py).

Every large initializer of the student that is byte for byte one of model.onnx's (the word
embeddings, which training keeps frozen) is not copied: it becomes ONNX external data that
points at its bytes inside model.onnx. A protobuf `bytes` field is stored contiguously, so
ONNX Runtime reads it there like any external data file; the metadata records each range's
sha256 so that loading can tell when model.onnx has been replaced.

An int8 student also gets its float32-compute twin, `dialogue_float.onnx`
(streams/training/float_twin.py), which the float recheck runs."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel

from contraflow.streams.core.nli.heads import DIALOGUE_FILE, SharedWeight, twin_file
from contraflow.streams.core.nli.scorer import ONNX_FILE
from contraflow.streams.errors import BadInput
from contraflow.streams.training.float_twin import NoTwinNeeded, write_float_twin
from contraflow.streams.training.shared_weights import borrow_weights

SHARED_MIN_BYTES = 1 << 18  # smaller identical tensors are copied: not worth a pointer


class DialogueHead(BaseModel):
    """What `write_dialogue_head` wrote."""

    path: Path
    bytes: int
    shared: list[SharedWeight]
    twin: Path | None  # its float32-compute twin; None for a graph that computes in float


def _same_files(student: Path, model_dir: Path) -> None:
    """The student must read the same tokens and answer in the same label order."""
    if (student / "tokenizer.json").read_bytes() != (model_dir / "tokenizer.json").read_bytes():
        raise BadInput(f"{student} has another tokenizer than {model_dir}: a dialogue head must share it")
    labels = [json.loads((d / "config.json").read_text()).get("id2label") for d in (student, model_dir)]
    if labels[0] != labels[1]:
        raise BadInput(f"{student} orders its labels {labels[0]}, {model_dir} {labels[1]}: they must match")


def write_dialogue_head(student: str | Path, model_dir: str | Path) -> DialogueHead:
    """Write MODEL_DIR/dialogue.onnx from STUDENT/model.onnx (both `contraflow nli export` layouts)."""
    import onnx

    student, model_dir = Path(student), Path(model_dir)
    for folder in (student, model_dir):
        if not (folder / ONNX_FILE).is_file():
            raise BadInput(f"{folder} has no {ONNX_FILE}: give the output folders of `contraflow nli export`")
    _same_files(student, model_dir)
    head = onnx.load(str(student / ONNX_FILE))
    shared = borrow_weights(head, model_dir, [ONNX_FILE], SHARED_MIN_BYTES)
    path = model_dir / DIALOGUE_FILE
    onnx.save(head, str(path))
    try:
        twin = write_float_twin(model_dir, DIALOGUE_FILE)
    except NoTwinNeeded:  # a float student: nothing to recheck
        (model_dir / twin_file(DIALOGUE_FILE)).unlink(missing_ok=True)
        twin = None
    return DialogueHead(path=path, bytes=path.stat().st_size, shared=shared, twin=twin)
