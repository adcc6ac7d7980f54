"""Session Goal Alignment (seed 003): cosine similarity of the session's actions and the target plan."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np

Embed = Callable[[list[str]], np.ndarray]
"""Maps n texts to an (n, d) array of embeddings, e.g. ``SentenceEmbedder().embed``."""


def concat_actions(actions: Iterable[str]) -> str:
    """The session's actions joined into one text (blank actions dropped), as seed 003 embeds them."""
    return " ".join(a.strip() for a in actions if a.strip())


def alignment_score(actions: str, plan: str, embed: Embed) -> float | None:
    """cos(φ, c) = φ·c / (‖φ‖₂ ‖c‖₂) for φ = embed(actions), c = embed(plan).

    None when `actions` or `plan` is blank: the metric is omitted, not scored as zero. None as well
    when an embedding is the zero vector (cosine undefined).
    """
    if not actions.strip() or not plan.strip():
        return None
    vectors = np.asarray(embed([actions, plan]), dtype=float)
    if vectors.shape[0] != 2:
        raise ValueError(f"embed returned {vectors.shape[0]} vectors for 2 texts")
    return cosine(vectors[0], vectors[1])


def cosine(phi: np.ndarray, c: np.ndarray) -> float | None:
    """φ·c / (‖φ‖₂ ‖c‖₂); None when either vector is zero."""
    norms = float(np.linalg.norm(phi) * np.linalg.norm(c))
    return float(np.dot(phi, c) / norms) if norms else None
