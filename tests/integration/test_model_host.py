"""A worker's models run in a process of their own (streams/runtime/model_host.py): the worker itself
imports no model library, gets the same answers as from models loaded in-process (the turn
pipeline's from the dialogue head when it judges with one), stops when its model process dies,
and never leaves that process behind, even when it is SIGKILLed."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from contraflow.streams.runtime.child_process import EXIT_CHILD_LOST
from contraflow.streams.training.dialogue_head import write_dialogue_head

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


TURNS_JUDGED_BY_THE_DIALOGUE_HEAD = """
import asyncio, sys
import numpy as np
from contraflow.streams.core.nli.scorer import load_scorer
from contraflow.streams.runtime.model_host import ModelHost
from contraflow.streams.runtime.services import load_models
from contraflow.streams.settings import Settings

if __name__ == "__main__":
    settings = Settings(nli_model=sys.argv[1], verdict="sentences")
    models = load_models(settings, ModelHost(settings))
    pair = ("Take the tablets with food.", "Take the tablets on an empty stomach.")

    async def ask():
        return await models.calls.score([pair]), await models.batcher.score([pair])

    turns, knowledge = asyncio.run(ask())
    print("turns by the dialogue head:", np.array_equal(turns, load_scorer(sys.argv[1], dialogue=True).score([pair])))
    print("knowledge by the general graph:", np.array_equal(knowledge, load_scorer(sys.argv[1]).score([pair])))
"""


def test_a_worker_judges_turns_with_the_dialogue_head_and_knowledge_with_the_general_graph(
    tiny_onnx: Path, tiny_student: Path, tmp_path: Path
) -> None:
    model = Path(shutil.copytree(tiny_onnx, tmp_path / "model"))
    write_dialogue_head(tiny_student, model)
    done = subprocess.run(
        [sys.executable, "-c", TURNS_JUDGED_BY_THE_DIALOGUE_HEAD, str(model)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.stdout.splitlines() == [
        "turns by the dialogue head: True",
        "knowledge by the general graph: True",
    ], done.stderr[-3000:]


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
