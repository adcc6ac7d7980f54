"""K_Conflict (seed 000): contradictions among sampled adjacent advice pairs."""

from __future__ import annotations

from contraflow.models.events import ConflictStatus
from contraflow.streams.settings import default


def k_conflict(contradictions: int, evaluated_pairs: int) -> float | None:
    """Contradictions / evaluated pairs; None before any pair was evaluated."""
    if evaluated_pairs < 0 or contradictions < 0 or contradictions > evaluated_pairs:
        raise ValueError(f"invalid counts: {contradictions} contradictions of {evaluated_pairs} pairs")
    return contradictions / evaluated_pairs if evaluated_pairs else None


def conflict_status(
    rate: float | None, caution: float = default("k_conflict_caution"), failure: float = default("k_conflict_failure")
) -> ConflictStatus:
    """pass below `caution`, caution from `caution` up to and including `failure`, failure above."""
    if rate is None or rate < caution:
        return ConflictStatus.passing
    if rate > failure:
        return ConflictStatus.failure
    return ConflictStatus.caution


def is_sampled_pair(pair_number: int, stride: int) -> bool:
    """Whether the `pair_number`-th adjacent pair (1-based) is evaluated at this stride.

    Pairs 1, 1 + stride, 1 + 2*stride, ... are sampled, so the first pair always is.
    """
    if stride < 1:
        raise ValueError(f"stride must be >= 1, got {stride}")
    return pair_number >= 1 and (pair_number - 1) % stride == 0
