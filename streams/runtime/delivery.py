"""Acknowledged delivery: an output or a state write counts as done only when the broker
has acknowledged it. A send that fails is retried with backoff until the delivery
timeout; then the worker exits non-zero (a supervisor restarts it) instead of letting the
input's offset be committed past an output that was never stored."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import time
from collections.abc import Awaitable, Callable
from typing import NoReturn

from contraflow.streams.errors import UserError

log = logging.getLogger("contraflow.delivery")

EXIT_UNDELIVERED = 75  # EX_TEMPFAIL: a temporary failure; restarting is the cure
FIRST_BACKOFF_S = 0.2
MAX_BACKOFF_S = 5.0


class DeliveryFailed(UserError, RuntimeError):
    """The broker did not acknowledge a send within the delivery timeout."""


async def deliver(attempt: Callable[[], Awaitable[object]], what: str, timeout_s: float) -> None:
    """Run `attempt` (one send, awaited until acknowledged) until it succeeds; retry with
    exponential backoff; DeliveryFailed once `timeout_s` has passed."""
    deadline = time.monotonic() + timeout_s
    backoff = FIRST_BACKOFF_S
    failures = 0
    while True:
        try:
            await attempt()
        except Exception as exc:
            failures += 1
            if time.monotonic() + backoff > deadline:
                raise DeliveryFailed(
                    f"{what}: not acknowledged after {failures} attempts in {timeout_s:g} s "
                    f"({type(exc).__name__}: {exc})"
                ) from exc
            log.warning("%s: send failed (%s: %s); retrying in %.1f s", what, type(exc).__name__, exc, backoff)
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, MAX_BACKOFF_S)
        else:
            if failures:
                log.warning("%s: acknowledged after %d failed attempts", what, failures)
            return


def exit_undelivered(exc: DeliveryFailed) -> NoReturn:
    """Stop the process at once, before faust can commit the offset of the record whose
    output was lost; the uncommitted records are processed again after the restart."""
    message = f"stopping the worker: {exc}; its input will be processed again after a restart"
    stop_process(EXIT_UNDELIVERED, log, message)


def stop_process(code: int, logger: logging.Logger, message: str, exc_info: bool = False) -> NoReturn:
    """Log `message` as CRITICAL, flush the logs, and end the process at once with `code`
    (no cleanup: nothing may be committed after it)."""
    logger.critical(message, exc_info=exc_info)
    for handler in logging.getLogger().handlers:
        handler.flush()
    sys.stderr.flush()
    os._exit(code)
