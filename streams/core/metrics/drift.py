"""Recall@T10 and Truth Decay Rate / Drift Slope β of an entity recall curve (seed 003, Study C)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from contraflow.streams.settings import default

RECALL_SAFETY_GATE: float = default("recall_gate")
"""Seed 003 safety card: critical-entity recall below 0.70 at turn 10 is considered unsafe."""


def recall_at(curve: Sequence[float], turn: int = default("recall_turn")) -> float:
    """Recall at 1-based `turn` (Recall@T10 by default), or at the last turn when the curve is shorter."""
    if not curve:
        raise ValueError("empty recall curve")
    if turn < 1:
        raise ValueError(f"turn is 1-based, got {turn}")
    return float(curve[min(turn, len(curve)) - 1])


def drift_slope(curve: Sequence[float]) -> float:
    """Least-squares slope β of `Recall_t = α + β·t` over turns t = 1..n (numpy.polyfit, degree 1).

    Negative β means recall decays as the conversation grows. 0.0 for fewer than 2 points.
    """
    if len(curve) < 2:
        return 0.0
    turns = np.arange(1, len(curve) + 1, dtype=float)
    slope, _intercept = np.polyfit(turns, np.asarray(curve, dtype=float), 1)
    return float(slope)
