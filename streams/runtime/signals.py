"""SIGTERM as Ctrl-C for the commands that hold child processes (`broker`, `demo --hold`):
a supervisor's or `kill`'s SIGTERM then unwinds the same `with` blocks as Ctrl-C does, so
the Tansu broker and the worker they started stop with them instead of living on."""

from __future__ import annotations

import signal


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def sigterm_interrupts() -> None:
    """From now on SIGTERM (and SIGINT) raise KeyboardInterrupt in the main thread."""
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)
