"""A `contraflow worker` in a child process: started with settings as environment
variables, stopped with SIGTERM (then SIGKILL). Used by the demo, tests and benchmarks."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
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
                [sys.executable, "-m", "contraflow.streams.tools.cli", "worker", "--loglevel", self.loglevel],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,
            )
        return self

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def ready(self) -> bool:
        """Whether the worker's /readyz answers 200: it joined its group, recovered its tables,
        loaded its models and reached the broker."""
        url = f"http://127.0.0.1:{self.overrides['web_port']}/readyz"
        try:
            with urllib.request.urlopen(url, timeout=2.0) as response:
                return response.status == 200
        except (urllib.error.URLError, OSError):  # 503 (HTTPError is a URLError), or not listening yet
            return False

    def wait_ready(self, timeout_s: float) -> WorkerProcess:
        """Block until `ready()`; RuntimeError with the log's tail if the worker exits or the
        time runs out. Needs the worker's web server (`web_port` in the overrides)."""
        deadline = time.monotonic() + timeout_s
        while not self.ready():
            if not self.alive or time.monotonic() > deadline:
                state = "exited" if not self.alive else f"not ready after {timeout_s:g} s"
                raise RuntimeError(f"worker {state}:\n{self.log_tail()}")
            time.sleep(0.2)
        return self

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
