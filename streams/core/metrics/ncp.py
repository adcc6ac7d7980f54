"""Non-Contradiction Probability (seed 002)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike


def ncp(p_contra_ab: ArrayLike, p_contra_ba: ArrayLike) -> float:
    r"""Mean non-contradiction probability of a response against m candidates.

    Seed 002: ``NCP(y_i; ỹ_i) = 1 - \frac{1}{m} \sum_{j=1}^m \frac{p_contra(y_i, ỹ_ij) + p_contra(ỹ_ij, y_i)}{2}``
    where p_contra is the (asymmetric) NLI contradiction probability.

    `p_contra_ab[j]` is p_contra(y, ỹ_j) and `p_contra_ba[j]` is p_contra(ỹ_j, y). Both must be
    non-empty 1-D arrays of the same length with values in [0, 1]; otherwise ValueError.
    The result lies in [0, 1]; 1 means no contradiction.
    """
    ab = np.asarray(p_contra_ab, dtype=float)
    ba = np.asarray(p_contra_ba, dtype=float)
    if ab.ndim != 1 or ba.ndim != 1:
        raise ValueError(f"expected 1-D arrays, got shapes {ab.shape} and {ba.shape}")
    if ab.size == 0 or ab.shape != ba.shape:
        raise ValueError(f"expected two non-empty arrays of equal length, got {ab.size} and {ba.size}")
    if not (np.all((ab >= 0) & (ab <= 1)) and np.all((ba >= 0) & (ba <= 1))):
        raise ValueError("contradiction probabilities must lie in [0, 1]")
    return float(1.0 - np.mean((ab + ba) / 2.0))
