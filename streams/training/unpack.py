"""An exported int8 NLI model back as a Hugging Face folder: every weight dequantised, named
as `BertForSequenceClassification` names it, beside the model's config and tokenizer.

`contraflow nli export` fuses the BERT graph (embedding + LayerNorm, attention with Q, K and
V packed into one matrix, bias + GELU, skip + LayerNorm) and quantises the weights to int8
(`QuantType.QInt8`, per output channel; the embedding tables per tensor, uint8). This reads
such a graph and undoes both: (q - zero point) × scale, Q/K/V split apart, matrices turned
back from [in, out] to torch's [out, in]. The float model computes what the int8 one
computes, up to ONNX Runtime quantising the activations on the fly. What it is for: the
shipped model (`builtin`), whose float weights are not shipped, as the `--backbone` of
`contraflow nli train`, to fine-tune it on your own pairs instead of starting again from
all-MiniLM-L6-v2.

    contraflow nli unpack builtin runs/shipped-hf
    contraflow nli unpack builtin runs/dialogue-hf --graph dialogue.onnx   # the dialogue head
    contraflow nli train my_pairs.jsonl --backbone runs/shipped-hf --out runs/mine ...
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np

from contraflow.streams.core.nli.scorer import ONNX_FILE
from contraflow.streams.errors import BadInput

QUANTIZED, SCALE, ZERO_POINT = "_quantized", "_scale", "_zero_point"
LAYER_MATRICES = ("attention.output.dense", "intermediate.dense", "output.dense")  # per layer, in graph order
EMBEDDINGS = {  # QEmbedLayerNormalization's weight inputs
    2: "word_embeddings.weight",
    3: "position_embeddings.weight",
    4: "token_type_embeddings.weight",
    5: "LayerNorm.weight",
    6: "LayerNorm.bias",
}
LAYER_NORMS = ("attention.output", "output")  # the two skip + LayerNorm of a layer, in graph order
TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "vocab.txt")


def unpack_onnx(model_dir: str | Path, out_dir: str | Path, graph: str = ONNX_FILE) -> Path:
    """Write model.safetensors (float32), config.json and the tokenizer of the int8 graph
    `graph` of the export in `model_dir` (`dialogue.onnx` for the dialogue head, whose shared
    weights ONNX loads from `model.onnx` beside it) to `out_dir`; returns the weights' path.

    Parameters are found by where the fused graph uses them, not by initializer names: the
    exporter stores equal tensors once (an untrained model's LayerNorms are all ones), so a
    name can stand for several parameters."""
    import onnx
    from safetensors.numpy import save_file

    model_dir, out_dir = Path(model_dir), Path(out_dir)
    config = json.loads((model_dir / "config.json").read_text())
    if config.get("model_type") != "bert":
        raise BadInput(f"{model_dir}: only BERT exports can be unpacked (model_type {config.get('model_type')!r})")
    source = model_dir / graph
    if not source.is_file():
        raise BadInput(f"{source} does not exist")
    proto = onnx.load(str(source)).graph
    nodes = _nodes_by_op(proto)
    layers = int(config["num_hidden_layers"])
    expected = {
        "QEmbedLayerNormalization": 1,
        "QAttention": layers,
        "MatMulInteger": layers * len(LAYER_MATRICES) + 2,  # and the pooler, the classifier
        "SkipLayerNormalization": layers * len(LAYER_NORMS),
        "BiasGelu": layers,
    }
    found = {op: len(nodes.get(op, [])) for op in expected}
    if found != expected:
        raise BadInput(
            f"{source} is not a fused int8 BERT graph as `contraflow nli export` writes "
            f"(nodes {found}, expected {expected} for {layers} layers)"
        )
    value, is_weight = _weights(proto)
    (embed,) = nodes["QEmbedLayerNormalization"]
    weights = {f"bert.embeddings.{name}": value(embed.input[index]) for index, name in EMBEDDINGS.items()}
    for layer, node in enumerate(nodes["QAttention"]):
        prefix = f"bert.encoder.layer.{layer}.attention.self."
        packed, biases = np.split(value(node.input[1]), 3, axis=1), np.split(value(node.input[2]), 3)
        for part, columns, bias in zip(("query", "key", "value"), packed, biases, strict=True):
            weights[prefix + part + ".weight"], weights[prefix + part + ".bias"] = columns.T, bias
    *matrices, pooler, classifier = nodes["MatMulInteger"]
    for index, node in enumerate(matrices):
        layer, role = divmod(index, len(LAYER_MATRICES))
        weights[f"bert.encoder.layer.{layer}.{LAYER_MATRICES[role]}.weight"] = value(node.input[1]).T
    for index, node in enumerate(nodes["SkipLayerNormalization"]):
        layer, role = divmod(index, len(LAYER_NORMS))
        prefix = f"bert.encoder.layer.{layer}.{LAYER_NORMS[role]}"
        weights[prefix + ".LayerNorm.weight"], weights[prefix + ".LayerNorm.bias"] = (
            value(node.input[2]),
            value(node.input[3]),
        )
        weights[prefix + ".dense.bias"] = value(node.input[4])
    for layer, node in enumerate(nodes["BiasGelu"]):
        weights[f"bert.encoder.layer.{layer}.intermediate.dense.bias"] = value(node.input[1])
    # the graph's two Adds of a weight: the pooler's bias, then the classifier's
    pooler_bias, classifier_bias = [value(name) for node in nodes["Add"] for name in node.input if is_weight(name)]
    weights |= {"bert.pooler.dense.weight": value(pooler.input[1]).T, "bert.pooler.dense.bias": pooler_bias}
    weights |= {"classifier.weight": value(classifier.input[1]).T, "classifier.bias": classifier_bias}
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / "model.safetensors"
    save_file({name: np.ascontiguousarray(v, dtype=np.float32) for name, v in weights.items()}, str(target))
    shutil.copyfile(model_dir / "config.json", out_dir / "config.json")
    for name in TOKENIZER_FILES:
        if (model_dir / name).is_file():
            shutil.copyfile(model_dir / name, out_dir / name)
    return target


def _nodes_by_op(graph) -> dict[str, list]:
    """The graph's nodes by operator, each list in graph (topological, so layer) order."""
    nodes: dict[str, list] = {}
    for node in graph.node:
        nodes.setdefault(node.op_type, []).append(node)
    return nodes


def _weights(graph):
    """Two functions of an input name: its float32 value (an initializer as stored, or
    dequantised, (q - zero point) × scale with per-channel scales along the last axis, the
    output's, when the name is a quantised tensor or a DequantizeLinear's output), and
    whether the name is a weight at all."""
    from onnx import numpy_helper

    stored = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    dequantized = {n.output[0]: n.input[0] for n in graph.node if n.op_type == "DequantizeLinear"}

    def value(name: str) -> np.ndarray:
        name = dequantized.get(name, name)
        if not name.endswith(QUANTIZED):
            return stored[name].astype(np.float32)
        prefix = name.removesuffix(QUANTIZED)
        steps = stored[name].astype(np.float32) - stored[prefix + ZERO_POINT].astype(np.float32)
        return steps * stored[prefix + SCALE]

    def is_weight(name: str) -> bool:
        return dequantized.get(name, name) in stored

    return value, is_weight
