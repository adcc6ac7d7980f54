"""`contraflow nli dialogue-head STUDENT MODEL_DIR`: put an exported student (a model trained
for the sentence rule from MODEL_DIR's general model) into MODEL_DIR as its dialogue head,
`dialogue.onnx` (streams/core/nli/heads.py).

Every large initializer of the student that is byte for byte one of model.onnx's (the word
embeddings, which training keeps frozen) is not copied: it becomes ONNX external data that
points at its bytes inside model.onnx. A protobuf `bytes` field is stored contiguously, so
ONNX Runtime reads it there like any external data file; the metadata records each range's
sha256 so that loading can tell when model.onnx has been replaced."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel

from contraflow.streams.core.nli.heads import DIALOGUE_FILE, SHARED_WEIGHTS, SHARED_WEIGHTS_KEY, SharedWeight, digest
from contraflow.streams.core.nli.scorer import ONNX_FILE
from contraflow.streams.errors import BadInput

SHARED_MIN_BYTES = 1 << 18  # smaller identical tensors are copied: not worth a pointer


class DialogueHead(BaseModel):
    """What `write_dialogue_head` wrote."""

    path: Path
    bytes: int
    shared: list[SharedWeight]


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
    general_bytes = (model_dir / ONNX_FILE).read_bytes()
    general = {t.name: t for t in onnx.load(str(model_dir / ONNX_FILE)).graph.initializer}
    head = onnx.load(str(student / ONNX_FILE))
    shared = []
    for tensor in head.graph.initializer:
        twin = general.get(tensor.name)
        if len(tensor.raw_data) < SHARED_MIN_BYTES or twin is None or twin.raw_data != tensor.raw_data:
            continue
        offset = general_bytes.find(tensor.raw_data)
        if offset < 0 or general_bytes.find(tensor.raw_data, offset + 1) >= 0:
            continue  # not at one place in the file: copied as it is
        weight = SharedWeight(
            name=tensor.name,
            location=ONNX_FILE,
            offset=offset,
            length=len(tensor.raw_data),
            sha256=digest(tensor.raw_data),
        )
        tensor.ClearField("raw_data")
        tensor.data_location = onnx.TensorProto.EXTERNAL
        for key, value in (("location", weight.location), ("offset", weight.offset), ("length", weight.length)):
            entry = tensor.external_data.add()
            entry.key, entry.value = key, str(value)
        shared.append(weight)
    entry = head.metadata_props.add()
    entry.key, entry.value = SHARED_WEIGHTS_KEY, SHARED_WEIGHTS.dump_json(shared).decode()
    path = model_dir / DIALOGUE_FILE
    onnx.save(head, str(path))
    return DialogueHead(path=path, bytes=path.stat().st_size, shared=shared)
