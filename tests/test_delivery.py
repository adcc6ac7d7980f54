"""Acknowledged delivery (streams/delivery.py): failures are retried, and a send that is never
acknowledged ends in DeliveryFailed rather than being forgotten."""

from __future__ import annotations

import pytest

from streams.delivery import DeliveryFailed, deliver


async def test_a_failed_send_is_retried_until_acknowledged() -> None:
    attempts: list[int] = []

    async def flaky() -> None:
        attempts.append(1)
        if len(attempts) < 3:
            raise ConnectionError("broker away")

    await deliver(flaky, "send to t", timeout_s=10.0)
    assert len(attempts) == 3


async def test_a_send_never_acknowledged_raises_after_the_timeout() -> None:
    attempts: list[int] = []

    async def failing() -> None:
        attempts.append(1)
        raise ConnectionError("broker away")

    with pytest.raises(DeliveryFailed, match="send to t: not acknowledged after"):
        await deliver(failing, "send to t", timeout_s=1.0)
    assert len(attempts) >= 2
