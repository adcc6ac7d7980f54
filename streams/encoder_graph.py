"""A BERT encoder (all-MiniLM-L6-v2's shape) as an ONNX graph built in memory from its
safetensors weights, so ONNX Runtime runs it without torch and without a file on disk.

Inputs: `input_ids` int64 [batch, length], `positions` int64 [length] and `mask_bias`
float32 [batch, 1, 1, length] (0 for a token, the float32 minimum for padding); output:
`states`, the last hidden states [batch, length, hidden]. Post-layer-norm blocks, exact
(erf) GELU, absolute positions, token type 0: BERT as sentence-transformers runs it.
"""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17  # LayerNormalization
IR_VERSION = 8  # what onnxruntime reads for opset 17


class _Graph:
    """Nodes and weights of the graph under construction; each node has one output."""

    def __init__(self, weights: dict[str, np.ndarray], eps: float) -> None:
        self.weights = weights
        self.eps = eps
        self.nodes: list[onnx.NodeProto] = []
        self.initializers: list[onnx.TensorProto] = []

    def constant(self, name: str, value: np.ndarray) -> str:
        self.initializers.append(numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def node(self, op: str, *inputs: str, **attributes: object) -> str:
        output = f"n{len(self.nodes)}"
        self.nodes.append(helper.make_node(op, list(inputs), [output], **attributes))
        return output

    def dense(self, x: str, name: str) -> str:
        kernel = self.constant(name + ".kernel", self.weights[name + ".weight"].T.astype(np.float32))
        return self.node(
            "Add", self.node("MatMul", x, kernel), self.constant(name + ".b", self.weights[name + ".bias"])
        )

    def norm(self, x: str, name: str) -> str:
        scale = self.constant(name + ".g", self.weights[name + ".weight"])
        shift = self.constant(name + ".beta", self.weights[name + ".bias"])
        return self.node("LayerNormalization", x, scale, shift, axis=-1, epsilon=self.eps)


def encoder_graph(weights: dict[str, np.ndarray], heads: int, layers: int, eps: float) -> bytes:
    """The serialised ONNX model of the encoder whose weights (names without "bert.") are given."""
    g = _Graph(weights, eps)
    hidden = weights["embeddings.word_embeddings.weight"].shape[1]
    size = hidden // heads
    split = g.constant("split_heads", np.array([0, 0, heads, size], dtype=np.int64))
    merge = g.constant("merge_heads", np.array([0, 0, hidden], dtype=np.int64))
    scale = g.constant("scale", np.array(1.0 / np.sqrt(size), dtype=np.float32))
    half, one = g.constant("half", np.array(0.5, dtype=np.float32)), g.constant("one", np.array(1.0, dtype=np.float32))
    root2 = g.constant("root2", np.array(np.sqrt(2.0), dtype=np.float32))

    words = g.node("Gather", g.constant("words", weights["embeddings.word_embeddings.weight"]), "input_ids")
    places = g.node("Gather", g.constant("places", weights["embeddings.position_embeddings.weight"]), "positions")
    type0 = g.constant("type0", weights["embeddings.token_type_embeddings.weight"][0])
    x = g.norm(g.node("Add", g.node("Add", words, places), type0), "embeddings.LayerNorm")
    for layer in range(layers):
        prefix = f"encoder.layer.{layer}."

        def heads_of(name: str, perm: list[int], x: str = x, prefix: str = prefix) -> str:
            return g.node(
                "Transpose", g.node("Reshape", g.dense(x, prefix + "attention.self." + name), split), perm=perm
            )

        query, key, value = (
            heads_of("query", [0, 2, 1, 3]),
            heads_of("key", [0, 2, 3, 1]),
            heads_of("value", [0, 2, 1, 3]),
        )
        scores = g.node("Add", g.node("Mul", g.node("MatMul", query, key), scale), "mask_bias")
        context = g.node("MatMul", g.node("Softmax", scores, axis=-1), value)
        context = g.node("Reshape", g.node("Transpose", context, perm=[0, 2, 1, 3]), merge)
        attended = g.dense(context, prefix + "attention.output.dense")
        x = g.norm(g.node("Add", attended, x), prefix + "attention.output.LayerNorm")
        inner = g.dense(x, prefix + "intermediate.dense")
        gelu = g.node("Mul", g.node("Mul", inner, half), g.node("Add", g.node("Erf", g.node("Div", inner, root2)), one))
        x = g.norm(g.node("Add", g.dense(gelu, prefix + "output.dense"), x), prefix + "output.LayerNorm")
    g.nodes.append(helper.make_node("Identity", [x], ["states"]))
    graph = helper.make_graph(
        g.nodes,
        "encoder",
        [
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "length"]),
            helper.make_tensor_value_info("positions", TensorProto.INT64, ["length"]),
            helper.make_tensor_value_info("mask_bias", TensorProto.FLOAT, ["batch", 1, 1, "length"]),
        ],
        [helper.make_tensor_value_info("states", TensorProto.FLOAT, ["batch", "length", hidden])],
        g.initializers,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = IR_VERSION
    return model.SerializeToString()
