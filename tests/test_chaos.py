"""The short chaos run: a real worker process SIGKILLed three times under a steady stream of
turns, restarted at once each time, and compared with a run without kills (streams/chaos.py).
Nothing may be lost, no session and no fleet rate window may end in another state, and a
duplicate may only repeat an id with the same content."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from streams.chaos import ChaosConfig, run

pytestmark = pytest.mark.integration


def test_three_kills_lose_nothing(tiny_onnx: Path, tmp_path: Path) -> None:
    config = ChaosConfig(
        kills=3,
        sessions=12,
        rate=1.0,
        gap_s=(2.0, 5.0),
        model=str(tiny_onnx),
        workdir=tmp_path,
        settle_timeout_s=600.0,
    )
    report = asyncio.run(run(config, progress=False))
    summary = "\n".join(report.lines())
    assert report.assistant_turns > 10, summary
    assert report.lost == [], summary
    assert report.differing_duplicates == 0, summary
    assert report.differing_sessions == [], summary
    assert report.missing_ids == [] and report.extra_ids == [], summary
    assert report.rate_windows > 0 and report.differing_rate_windows == [], summary
    assert len(report.kill_to_output_s) == 3, summary
