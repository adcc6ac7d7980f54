"""Models load in a thread while the worker joins its group (agents/loading.py): agents get
the built value, and a build that fails stops the process with exit code 1 and the
traceback, instead of dead-lettering records."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading

from agents.loading import EXIT_LOAD_FAILED, Loading


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
from agents.loading import Loading

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
