"""Session Goal Alignment (seed 003): cosine similarity of the session's actions and the target plan."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np


def alignment_texts(actions: Iterable[str], plan: str | None) -> list[str] | None:
    """[the session's actions joined into one text, the plan], as seed 003 embeds them (blank
    actions dropped); None when there is no action or no plan: the metric is omitted, not
    scored as zero."""
    joined = " ".join(a.strip() for a in actions if a.strip())
    if not joined or not plan or not plan.strip():
        return None
    return [joined, plan]


def alignment_score(vectors: np.ndarray) -> float | None:
    """cos(φ, c) = φ·c / (‖φ‖₂ ‖c‖₂) for the embeddings [φ, c] of `alignment_texts`; None when
    either vector is zero (cosine undefined)."""
    if len(vectors) != 2:
        raise ValueError(f"expected the embeddings of 2 texts, got {len(vectors)}")
    phi, c = np.asarray(vectors[0], dtype=float), np.asarray(vectors[1], dtype=float)
    norms = float(np.linalg.norm(phi) * np.linalg.norm(c))
    return float(np.dot(phi, c) / norms) if norms else None
