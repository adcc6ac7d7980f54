"""The sentence embedder's encoder as an ONNX graph without its weights (`encoder.onnx`
beside the shipped weights): six BERT layers from the summed token embeddings to the last
hidden states, every weight an external initializer named as in model.safetensors. The
linear layers are ONNX Runtime's MatMulNBits (8 bits, blocks of 32 along the input axis:
the shipped int8 weights and their scales as they are, stored offset by 128); the embedder
hands ONNX Runtime the weights from the shipped file at load time, so the graph is a few
kilobytes, the weights ship once and stay int8 in memory.

`encoder_float32.onnx` is the same graph with float32 MatMul linear layers, for
`embedder_precision=float32` (the embedder widens the int8 blocks once at load).

    python -m contraflow.streams.training.embedder_graph   # rewrites both shipped graphs ([train] extra: onnx)
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from contraflow.streams.core.embeddings import BLOCK, ENCODER_GRAPH, SCALE, WIDE_ENCODER_GRAPH, default_model_path
from contraflow.streams.extras import TRAINING, require

OPSET = 20  # Gelu and LayerNormalization are single operators from here on
MICROSOFT = "com.microsoft"  # ONNX Runtime's own operators (MatMulNBits)
# MatMulNBits widens the int8 blocks and computes in float32, so the embeddings are the
# model card's; level 4 (int8 activations) was ~1.4x faster but moved them by up to 0.003 in cosine
ACCURACY = 0


def encoder_graph(config: dict, wide: bool = False) -> bytes:
    """The serialized graph for a BERT config (hidden_size, heads, layers, intermediate size);
    `wide`: the linear layers as float32 MatMul on [in, out] weights (the embedder widens the
    int8 blocks once at load), for `embedder_precision=float32`."""
    from onnx import TensorProto, helper

    hidden, heads, layers = config["hidden_size"], config["num_attention_heads"], config["num_hidden_layers"]
    inner, eps = config["intermediate_size"], float(config.get("layer_norm_eps", 1e-12))
    size = hidden // heads
    nodes, weights = [], {}

    def weight(name: str, shape: list[int], kind: int = TensorProto.FLOAT) -> str:
        weights[name] = shape, kind
        return name

    def dense(x: str, name: str, width_in: int, width_out: int, out: str) -> str:
        if wide:
            product, bias = weight(name + ".weight", [width_in, width_out]), weight(name + ".bias", [width_out])
            nodes.append(helper.make_node("MatMul", [x, product], [out + ".product"]))
            nodes.append(helper.make_node("Add", [out + ".product", bias], [out]))
            return out
        blocks = width_in // BLOCK
        inputs = [
            x,
            weight(name + ".weight", [width_out, blocks, BLOCK], TensorProto.UINT8),
            weight(name + ".weight" + SCALE, [width_out * blocks]),
            "",  # zero points: the default, 128
            "",  # no reordering of the input axis
            weight(name + ".bias", [width_out]),
        ]
        attributes = {"K": width_in, "N": width_out, "bits": 8, "block_size": BLOCK, "accuracy_level": ACCURACY}
        nodes.append(helper.make_node("MatMulNBits", inputs, [out], domain=MICROSOFT, **attributes))
        return out

    def norm(x: str, name: str, out: str) -> str:
        scale, bias = weight(name + ".weight", [hidden]), weight(name + ".bias", [hidden])
        nodes.append(helper.make_node("LayerNormalization", [x, scale, bias], [out], axis=-1, epsilon=eps))
        return out

    shapes = {
        "heads_shape": helper.make_tensor("heads_shape", TensorProto.INT64, [4], [0, 0, heads, size]),
        "hidden_shape": helper.make_tensor("hidden_shape", TensorProto.INT64, [3], [0, 0, hidden]),
        "scale": helper.make_tensor("scale", TensorProto.FLOAT, [], [size**-0.5]),
    }
    x = norm("embedded", "embeddings.LayerNorm", "x0")
    for layer in range(layers):
        p = f"encoder.layer.{layer}."
        split = {}
        for part in ("query", "key", "value"):
            flat = dense(x, p + f"attention.self.{part}", hidden, hidden, f"l{layer}.{part}")
            nodes.append(helper.make_node("Reshape", [flat, "heads_shape"], [f"l{layer}.{part}.heads"]))
            perm = [0, 2, 3, 1] if part == "key" else [0, 2, 1, 3]
            nodes.append(helper.make_node("Transpose", [f"l{layer}.{part}.heads"], [f"l{layer}.{part}.t"], perm=perm))
            split[part] = f"l{layer}.{part}.t"
        nodes += [
            helper.make_node("MatMul", [split["query"], split["key"]], [f"l{layer}.raw"]),
            helper.make_node("Mul", [f"l{layer}.raw", "scale"], [f"l{layer}.scaled"]),
            helper.make_node("Add", [f"l{layer}.scaled", "mask_bias"], [f"l{layer}.masked"]),
            helper.make_node("Softmax", [f"l{layer}.masked"], [f"l{layer}.attn"], axis=-1),
            helper.make_node("MatMul", [f"l{layer}.attn", split["value"]], [f"l{layer}.ctx.heads"]),
            helper.make_node("Transpose", [f"l{layer}.ctx.heads"], [f"l{layer}.ctx.t"], perm=[0, 2, 1, 3]),
            helper.make_node("Reshape", [f"l{layer}.ctx.t", "hidden_shape"], [f"l{layer}.ctx"]),
        ]
        attended = dense(f"l{layer}.ctx", p + "attention.output.dense", hidden, hidden, f"l{layer}.attended")
        nodes.append(helper.make_node("Add", [attended, x], [f"l{layer}.res1"]))
        x = norm(f"l{layer}.res1", p + "attention.output.LayerNorm", f"l{layer}.x1")
        up = dense(x, p + "intermediate.dense", hidden, inner, f"l{layer}.up")
        nodes.append(helper.make_node("Gelu", [up], [f"l{layer}.gelu"]))
        down = dense(f"l{layer}.gelu", p + "output.dense", inner, hidden, f"l{layer}.down")
        nodes.append(helper.make_node("Add", [down, x], [f"l{layer}.res2"]))
        x = norm(f"l{layer}.res2", p + "output.LayerNorm", "states" if layer == layers - 1 else f"l{layer}.x2")
    initializers = list(shapes.values())
    for name, (shape, kind) in weights.items():
        tensor = TensorProto(name=name, data_type=kind, dims=shape)
        tensor.data_location = TensorProto.EXTERNAL
        for key, value in (("location", "model.safetensors"), ("offset", "0"), ("length", "0")):
            entry = tensor.external_data.add()
            entry.key, entry.value = key, value
        initializers.append(tensor)
    graph = helper.make_graph(
        nodes,
        "contraflow-sentence-encoder",
        [
            helper.make_tensor_value_info("embedded", TensorProto.FLOAT, ["batch", "tokens", hidden]),
            helper.make_tensor_value_info("mask_bias", TensorProto.FLOAT, ["batch", 1, 1, "tokens"]),
        ],
        [helper.make_tensor_value_info("states", TensorProto.FLOAT, ["batch", "tokens", hidden])],
        initializers,
    )
    opsets = [helper.make_opsetid("", OPSET), helper.make_opsetid(MICROSOFT, 1)]
    model = helper.make_model(graph, opset_imports=opsets, producer_name="contraflow")
    model.ir_version = 10
    return model.SerializeToString(deterministic=True)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m contraflow.streams.training.embedder_graph", description=__doc__)
    parser.add_argument("--model", type=Path, default=default_model_path(), help="the embedder's folder")
    args = parser.parse_args()
    require((*TRAINING, "onnx"), "python -m contraflow.streams.training.embedder_graph")
    config = json.loads((args.model / "config.json").read_text())
    for name, wide in ((ENCODER_GRAPH, False), (WIDE_ENCODER_GRAPH, True)):
        out = args.model / name
        out.write_bytes(encoder_graph(config, wide))
        print(f"wrote {out} ({out.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
