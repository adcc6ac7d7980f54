"""`contraflow demo`, the README's first command, as a user runs it: a real broker, a real
worker process and the shipped model; it must end by itself and say what it found."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.model


def test_the_demo_runs_to_the_end_and_explains_its_counts(tmp_path: Path) -> None:
    env = {**os.environ, "CONTRAFLOW_DATA_DIR": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-m", "contraflow.streams.tools.cli", "demo"],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    summary = result.stdout.strip().splitlines()[-1]
    assert "between adjacent turns, K_Conflict's pairs" in summary and "against earlier turns" in summary
    assert "2 dead letters" in summary and "broker and worker stopped" in summary
    assert "Traceback" not in result.stdout + result.stderr
    log = (tmp_path / "demo" / "worker.log").read_text()
    assert "contraflow worker: ready" in log and "\x1b[" not in log  # a log file, not a terminal
