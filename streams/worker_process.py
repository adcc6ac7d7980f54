"""A `contraflow worker` in a child process: started with settings as environment
variables, stopped with SIGTERM (then SIGKILL). Used by the demo, tests and benchmarks."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path


def settings_env(overrides: dict[str, object]) -> dict[str, str]:
    """CONTRAFLOW_* variables for the given settings fields."""
    return {f"CONTRAFLOW_{name.upper()}": str(value) for name, value in overrides.items()}


class WorkerProcess:
    """One worker process; its output goes to `log`."""

    def __init__(self, overrides: dict[str, object], log: Path, loglevel: str = "warning") -> None:
        self.overrides = overrides
        self.log = log
        self.loglevel = loglevel
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> WorkerProcess:
        self.log.parent.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, **settings_env(self.overrides), "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "streams.cli", "worker", "--loglevel", self.loglevel],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,
            )
        return self

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def stop(self, timeout_s: float = 20.0) -> int | None:
        """SIGTERM, wait, then SIGKILL; returns the exit code."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout_s)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        return self.proc.returncode

    def __enter__(self) -> WorkerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
