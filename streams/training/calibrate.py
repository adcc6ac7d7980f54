"""Contradiction-probability thresholds for the three sensitivities of seed 001.

- strict flags subtle tensions: the highest threshold that still recalls 90 % of the
  dev contradictions;
- balanced flags clear contradictions: the threshold with the best contradiction-vs-rest F1;
- lenient flags only direct opposites: the lowest threshold whose precision is 95 %.

All three are read off one precision/recall sweep over the dev files' pairs.
"""

from __future__ import annotations

import numpy as np
from pydantic import BaseModel

from contraflow.streams.errors import BadInput

STRICT_RECALL = 0.90
LENIENT_PRECISION = 0.95


class Calibration(BaseModel):
    strict: float
    balanced: float
    lenient: float
    pairs: int
    contradictions: int
    balanced_f1: float
    strict_precision: float
    lenient_recall: float


def calibrate(p_contradiction: np.ndarray, is_contradiction: np.ndarray) -> Calibration:
    """Thresholds from contradiction probabilities and gold contradiction flags."""
    if not is_contradiction.any() or is_contradiction.all():
        raise BadInput("calibration needs both contradictions and other pairs")
    thresholds = np.round(np.arange(0.05, 0.995, 0.01), 2)
    said = p_contradiction[None, :] >= thresholds[:, None]
    tp = (said & is_contradiction).sum(axis=1)
    fp = (said & ~is_contradiction).sum(axis=1)
    positives = is_contradiction.sum()
    precision = np.where(tp + fp > 0, tp / np.maximum(tp + fp, 1), 1.0)
    recall = tp / positives
    f1 = np.where(precision + recall > 0, 2 * precision * recall / np.maximum(precision + recall, 1e-12), 0.0)
    strict_i = int(np.nonzero(recall >= STRICT_RECALL)[0].max()) if (recall >= STRICT_RECALL).any() else 0
    balanced_i = int(f1.argmax())
    precise = np.nonzero(precision >= LENIENT_PRECISION)[0]
    lenient_i = int(precise.min()) if len(precise) else len(thresholds) - 1
    return Calibration(
        strict=float(thresholds[strict_i]),
        balanced=float(thresholds[balanced_i]),
        lenient=float(thresholds[max(lenient_i, balanced_i)]),
        pairs=len(p_contradiction),
        contradictions=int(positives),
        balanced_f1=float(f1[balanced_i]),
        strict_precision=float(precision[strict_i]),
        lenient_recall=float(recall[max(lenient_i, balanced_i)]),
    )
