"""Percentile bootstrap confidence intervals of a mean (seed 003: CIs only when n > 10)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

MIN_N_FOR_CI = 10
"""Confidence intervals are reported only for more than this many values."""


def bootstrap_ci(
    values: Sequence[float], n_resamples: int = 1000, confidence: float = 0.95, seed: int = 0
) -> tuple[float, float]:
    """Percentile bootstrap CI of the mean of `values`; the same `seed` gives the same interval.

    Draws `n_resamples` resamples of size n with replacement, takes each resample's mean and
    returns the (1 − confidence)/2 and (1 + confidence)/2 percentiles of those means.
    """
    data = np.asarray(values, dtype=float)
    if data.ndim != 1 or data.size == 0:
        raise ValueError("need a non-empty 1-D sequence of values")
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be >= 1, got {n_resamples}")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    rng = np.random.default_rng(seed)
    means = data[rng.integers(0, data.size, size=(n_resamples, data.size))].mean(axis=1)
    alpha = (1.0 - confidence) / 2.0
    low, high = np.quantile(means, [alpha, 1.0 - alpha])
    return float(low), float(high)


def ci_if_enough(
    values: Sequence[float], n_resamples: int = 1000, confidence: float = 0.95, seed: int = 0
) -> tuple[float, float] | None:
    """`bootstrap_ci(values, ...)` when there are more than MIN_N_FOR_CI values, else None."""
    if len(values) <= MIN_N_FOR_CI:
        return None
    return bootstrap_ci(values, n_resamples=n_resamples, confidence=confidence, seed=seed)
