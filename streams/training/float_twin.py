"""`contraflow nli float-twin MODEL_DIR`: the float32-compute twin of a dynamically quantised
int8 graph, written beside it (`dialogue_float.onnx` for `dialogue.onnx`) with every weight
borrowed from the graph's own files, so it is a few kilobytes (streams/core/nli/heads.py).

`contraflow nli export` quantises every MatMul and the fused attention with int8 weights
(per output channel) and int8 activations whose scale is taken from each forward pass. The
activation scale is what costs accuracy: one scale over a whole pass, so a few large
activations coarsen every other (float32 K reaches DECODE 0.832 under the sentence rule,
the int8 graph 0.827). The twin keeps the same int8 weights but feeds them through
DequantizeLinear into float MatMul / Attention; ONNX Runtime folds those at load (with its
QDQ fusions off), so it computes in float32 on the int8-rounded weights: about half the int8
graph's pairs/s, and within 0.003 of the float32 model's p(contradiction) on average
(benchmarks/float_recheck.py; docs/nli-model.md). The scorer runs it on the pairs the int8
graph puts in the recheck's band (CONTRAFLOW_SENTENCE_FLOAT_RECHECK).

Rewritten: each MatMulInteger chain (DynamicQuantizeLinear → MatMulInteger → Cast → Mul by
the two scales) and each QAttention; the embedding tables (QEmbedLayerNormalization) stay
as they are, since they quantise no activation."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from contraflow.streams.core.nli.heads import DIALOGUE_FILE, twin_file
from contraflow.streams.core.nli.scorer import ONNX_FILE
from contraflow.streams.errors import BadInput
from contraflow.streams.training.shared_weights import borrow_weights

if TYPE_CHECKING:
    import onnx

TWIN_MIN_BYTES = 1 << 10  # the twin borrows every weight but the smallest (scales, zero points)
_ATTENTION_ATTRIBUTES = frozenset({"num_heads", "unidirectional", "mask_filter_value", "scale"})


class NotDynamicInt8(ValueError):
    """The graph holds no dynamically quantised node to rewrite: it computes in float already."""


class NoTwinNeeded(BadInput):
    """`write_float_twin` on a graph that computes in float already."""


class UnknownQuantisation(ValueError):
    """A quantised node is not in the shape `quantize_dynamic` writes, so it cannot be rewritten."""


def float_twin(model: onnx.ModelProto) -> onnx.ModelProto:
    """A copy of `model` whose quantised MatMuls and attention compute in float32."""
    import onnx
    from onnx import helper

    twin = onnx.ModelProto()
    twin.CopyFrom(model)
    graph = twin.graph
    producer = {output: node for node in graph.node for output in node.output}
    consumers: dict[str, list[onnx.NodeProto]] = {}
    for node in graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    replaced: dict[int, list[onnx.NodeProto]] = {}  # index of a node → what takes its place
    dropped: set[int] = set()
    index_of = {id(node): index for index, node in enumerate(graph.node)}

    def quantizer(quantized: str) -> onnx.NodeProto:
        """The DynamicQuantizeLinear that wrote an activation (float in; int8, scale, zero point out)."""
        source = producer.get(quantized)
        if source is None or source.op_type != "DynamicQuantizeLinear":
            raise UnknownQuantisation(f"{quantized} is not quantised per forward pass")
        return source

    def dequantized(weight: str, scale: str, zero_point: str, name: str) -> tuple[onnx.NodeProto, str]:
        output = f"{weight}_float"
        return helper.make_node("DequantizeLinear", [weight, scale, zero_point], [output], name=name, axis=1), output

    for node in graph.node:
        if node.op_type == "MatMulInteger":
            cast = _only(consumers.get(node.output[0], []), "Cast")
            rescale = _only(consumers.get(cast.output[0], []), "Mul")
            scales = producer.get(next(name for name in rescale.input if name != cast.output[0]))
            if scales is None or scales.op_type != "Mul":
                raise UnknownQuantisation(f"{node.name}: its output is not rescaled by the two scales")
            activation = quantizer(node.input[0])
            weight_scale = next(name for name in scales.input if name != activation.output[1])
            zero_point = node.input[3] if len(node.input) > 3 else ""
            dq, weight = dequantized(node.input[1], weight_scale, zero_point, f"{node.name}_dequantize")
            matmul = helper.make_node("MatMul", [activation.input[0], weight], [rescale.output[0]], name=node.name)
            replaced[index_of[id(node)]] = [dq, matmul]
            dropped.update(index_of[id(n)] for n in (cast, rescale, scales))
        elif node.op_type == "QAttention":
            dq, weight = dequantized(node.input[1], node.input[4], node.input[7], f"{node.name}_dequantize")
            inputs = [quantizer(node.input[0]).input[0], weight, node.input[2], node.input[5]]
            attention = helper.make_node("Attention", inputs, list(node.output), name=node.name, domain="com.microsoft")
            attention.attribute.extend(a for a in node.attribute if a.name in _ATTENTION_ATTRIBUTES)
            replaced[index_of[id(node)]] = [dq, attention]
    if not replaced:
        raise NotDynamicInt8("no dynamically quantised MatMul or attention in this graph")
    nodes = [
        new for index, node in enumerate(graph.node) if index not in dropped for new in replaced.get(index, [node])
    ]
    del graph.node[:]
    graph.node.extend(_without_unused(nodes, {output.name for output in graph.output}))
    return twin


def _only(nodes: list[onnx.NodeProto], op_type: str) -> onnx.NodeProto:
    if len(nodes) != 1 or nodes[0].op_type != op_type:
        raise UnknownQuantisation(f"expected one {op_type} after MatMulInteger, found {[n.op_type for n in nodes]}")
    return nodes[0]


def _without_unused(nodes: list[onnx.NodeProto], outputs: set[str]) -> list[onnx.NodeProto]:
    """`nodes` without those whose outputs nothing reads any more (the activations'
    DynamicQuantizeLinear)."""
    needed = set(outputs)
    kept = []
    for node in reversed(nodes):
        if any(output in needed for output in node.output):
            kept.append(node)
            needed.update(node.input)
    return kept[::-1]


def write_float_twin(model_dir: str | Path, graph: str = DIALOGUE_FILE) -> Path:
    """Write MODEL_DIR's twin of `graph`, borrowing its weights from model.onnx and `graph`;
    NoTwinNeeded when `graph` computes in float, BadInput when it cannot be rewritten."""
    import onnx

    model_dir = Path(model_dir)
    if not (model_dir / graph).is_file():
        raise BadInput(f"{model_dir} has no {graph}")
    try:
        twin = float_twin(onnx.load(str(model_dir / graph)))
    except NotDynamicInt8 as exc:
        raise NoTwinNeeded(
            f"{model_dir / graph} needs no float twin: {exc}; score it with CONTRAFLOW_SENTENCE_FLOAT_RECHECK=1"
        ) from exc
    except UnknownQuantisation as exc:
        raise BadInput(
            f"{model_dir / graph}: cannot write its float32-compute twin ({exc}); "
            "score it with CONTRAFLOW_SENTENCE_FLOAT_RECHECK=1"
        ) from exc
    borrow_weights(twin, model_dir, list(dict.fromkeys((ONNX_FILE, graph))), TWIN_MIN_BYTES)
    path = model_dir / twin_file(graph)
    onnx.save(twin, str(path))
    return path
