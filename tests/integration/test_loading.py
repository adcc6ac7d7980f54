"""Models load in a thread while the worker joins its group (agents/loading.py): agents get
the built value, and a build that fails stops the process with exit code 1 and the
traceback, instead of dead-lettering records."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
from pathlib import Path

from contraflow.agents.loading import EXIT_LOAD_FAILED, Loading


def test_parts_are_given_once_built_and_the_build_runs_off_the_calling_thread() -> None:
    built_on: list[str] = []

    def build() -> dict[str, str]:
        built_on.append(threading.current_thread().name)
        return {"turns": "pipeline"}

    loading = Loading(build, "the models")
    turns = loading.part(lambda built: built["turns"])
    assert asyncio.run(turns()) == "pipeline"
    assert not loading.pending
    assert built_on and built_on[0] != threading.current_thread().name


FAILING_BUILD = """
import asyncio
from contraflow.agents.loading import Loading

def build():
    raise FileNotFoundError("model.onnx is not there")

asyncio.run(Loading(build, "the models").get())
print("carried on")
"""


def test_a_failed_build_stops_the_process_with_its_traceback() -> None:
    done = subprocess.run([sys.executable, "-c", FAILING_BUILD], capture_output=True, text=True, timeout=300)
    assert done.returncode == EXIT_LOAD_FAILED
    assert "carried on" not in done.stdout
    assert "loading the models failed" in done.stderr
    assert "FileNotFoundError: model.onnx is not there" in done.stderr


LOAD_THE_MODELS_AND_STORE = """
import sys, tempfile
import contraflow.agents.worker, contraflow.streams.tools.cli, contraflow.streams.tools.demo
import contraflow.streams.runtime.model_host, contraflow.streams.tools.replay, contraflow.streams.runtime.store_process
from contraflow.streams.runtime.services import load_components, open_store
from contraflow.streams.settings import Settings

settings = Settings(data_dir=tempfile.mkdtemp())
load_components(settings)
open_store(settings)
print("torch imported:", "torch" in sys.modules)
print("training libraries imported:", sorted({"transformers", "sentence_transformers", "onnx"} & set(sys.modules)))
print("spacy.cli imported:", "spacy.cli" in sys.modules)
import torch
print("torch importable:", bool(torch.__version__))
import spacy.cli
print("spacy.cli importable:", callable(spacy.cli.download))
"""


def test_the_models_and_store_load_without_importing_torch_or_spacys_cli() -> None:
    """torch took over half of loading the models (spaCy's thinc imports it), and spaCy's
    command line another tenth of importing spaCy; the worker (its modules, model process
    and store process), the demo, `replay` and the benchmarks run NLI on ONNX Runtime and
    embeddings in numpy and never call spaCy's CLI, so they must not pay for them (the base
    install has no torch or transformers at all), and code that needs either can still
    import it."""
    result = subprocess.run(
        [sys.executable, "-c", LOAD_THE_MODELS_AND_STORE], capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.splitlines()[-5:] == [
        "torch imported: False",
        "training libraries imported: []",
        "spacy.cli imported: False",
        "torch importable: True",
        "spacy.cli importable: True",
    ]


def test_the_install_is_one_namespace(tmp_path: Path) -> None:
    """Outside the repository, contraflow's folders are contraflow.streams, … and nothing
    generic (a `models` or `streams` package) is importable from the install."""
    script = (
        "import importlib.util\n"
        "import contraflow.models, contraflow.streams.tools.cli, contraflow.agents.worker, contraflow.topics\n"
        "print([name for name in ('streams', 'agents', 'models', 'topics') if importlib.util.find_spec(name)])\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[]"
