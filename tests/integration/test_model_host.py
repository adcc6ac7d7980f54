"""A worker's models run in a process of their own (streams/runtime/model_host.py): the worker itself
imports no model library, gets the same answers as from models loaded in-process, stops when
its model process dies, and never leaves that process behind, even when it is SIGKILLed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from contraflow.streams.runtime.child_process import EXIT_CHILD_LOST

pytestmark = pytest.mark.model

ASK_THEN_LOSE_THE_MODEL_PROCESS = """
import asyncio, os, signal, sys
import numpy as np
from contraflow.streams.runtime.model_host import ModelHost
from contraflow.streams.runtime.services import load_components, load_models
from contraflow.streams.settings import Settings

if __name__ == "__main__":
    settings = Settings()
    models = load_models(settings, ModelHost(settings))
    print("model libraries in the worker:", sorted({"spacy", "onnxruntime", "thinc"} & set(sys.modules)))
    pair = ("Take ibuprofen with food.", "Do not take ibuprofen.")
    text = "Take ibuprofen 400 mg for your back pain."

    async def ask():
        calls = models.calls
        return await models.batcher.score([pair]), await calls.extract_entities(text), await calls.embed([text])

    scores, entities, vectors = asyncio.run(ask())
    local = load_components(settings)
    print("same scores:", np.allclose(scores, local.scorer.score([pair]), atol=1e-5))
    print("same entities:", entities == local.extractor.extract(text))
    print("same embedding:", np.allclose(vectors, local.embedder.embed([text]), atol=1e-5))
    sys.stdout.flush()
    os.kill(models.host.wait_loaded(), signal.SIGKILL)
    models.host.score([pair])
    print("carried on")
"""


def test_the_worker_asks_its_model_process_and_stops_when_that_process_dies() -> None:
    done = subprocess.run(
        [sys.executable, "-c", ASK_THEN_LOSE_THE_MODEL_PROCESS], capture_output=True, text=True, timeout=600
    )
    assert done.stdout.splitlines()[:4] == [
        "model libraries in the worker: []",
        "same scores: True",
        "same entities: True",
        "same embedding: True",
    ], done.stderr[-3000:]
    assert done.returncode == EXIT_CHILD_LOST
    assert "carried on" not in done.stdout
    assert "stopping the worker: the model process died" in done.stderr


KILLED_WITH_ITS_MODELS_LOADED = """
import os, signal
from contraflow.streams.runtime.model_host import ModelHost
from contraflow.streams.settings import Settings

if __name__ == "__main__":
    print(ModelHost(Settings()).wait_loaded(), flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie has ended; only its exit status remains
        return stat.read().split(") ")[-1][0] != "Z"


def test_a_sigkilled_worker_leaves_no_model_process_behind() -> None:
    done = subprocess.run(
        [sys.executable, "-c", KILLED_WITH_ITS_MODELS_LOADED], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == -signal.SIGKILL
    child = int(done.stdout)
    deadline = time.monotonic() + 10
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(child)
