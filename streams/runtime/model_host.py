"""A worker's models (the NLI scorer, the entity extractor and the sentence embedder) load and
run in a process of their own (streams/runtime/child_process.py says why): they load on the second
core while the worker imports faust, joins its group and recovers its tables, and the worker
itself never imports spaCy or ONNX Runtime."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from contraflow.streams.runtime.child_process import ChildProcess
from contraflow.streams.settings import Settings

if TYPE_CHECKING:
    import numpy as np

    from contraflow.streams.core.nli.scorer import Pair


def needs_models(settings: Settings) -> bool:
    """Whether the worker's roles score anything (the `rates` role alone loads no model)."""
    return bool({"turns", "knowledge"} & set(settings.roles))


class RemoteScorer:
    """A scorer of the model process, called by its dotted path there ("scorer.score")."""

    def __init__(self, process: ChildProcess, method: str) -> None:
        self._process = process
        self._method = method

    def score(self, pairs: Sequence[Pair]) -> np.ndarray:
        return self._process.call(self._method, list(pairs)).result()


class ModelHost:
    """The model process, started (its models loading) on construction. `score` blocks (the
    micro-batcher calls it from its thread); `extract` and `embed` are awaitables.
    `turn_scorer` scores with what the turn pipeline judges by (the dialogue head, when used)."""

    def __init__(self, settings: Settings, log_level: int = logging.WARNING) -> None:
        """`log_level`: what the model process logs (the worker's own level)."""
        self.log_level = log_level
        self._process = ChildProcess(
            "the model process", "contraflow.streams.runtime.services.load_components", settings, log_level=log_level
        )
        self._general = RemoteScorer(self._process, "scorer.score")
        self.turn_scorer = RemoteScorer(self._process, "turn_scorer.score")

    def wait_loaded(self) -> int:
        """Block until the models are loaded; the model process's pid. Raises what loading raised."""
        return self._process.wait_built()

    def score(self, pairs: Sequence[Pair]) -> np.ndarray:
        return self._general.score(pairs)

    async def extract(self, text: str) -> list[str]:
        return await asyncio.wrap_future(self._process.call("extractor.extract", text))

    async def embed(self, texts: list[str]) -> np.ndarray:
        return await asyncio.wrap_future(self._process.call("embedder.embed", list(texts)))
