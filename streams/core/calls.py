"""The awaitable model calls the turn and knowledge pipelines are given: in the worker they
go to its model process, in replay and tests to a thread or a plain function."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

import numpy as np

ScoreFn = Callable[[Sequence[tuple[str, str]]], Awaitable[np.ndarray]]
"""(premise, hypothesis) pairs → an (n, 3) array of entailment / neutral / contradiction probabilities."""
ExtractFn = Callable[[str], Awaitable[list[str]]]
"""A text → the entity strings found in it."""
EmbedFn = Callable[[list[str]], Awaitable[np.ndarray]]
"""n texts → an (n, d) array of unit-length embeddings."""
