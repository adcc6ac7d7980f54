"""The short chaos run: a real worker process SIGKILLed three times under a steady stream of
turns, restarted at once each time, and compared with a run without kills (streams/tools/chaos.py).
Nothing may be lost, no session and no fleet rate window may end in another state, and a
duplicate may only repeat an id with the same content."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path

import orjson

from contraflow.streams.tools.chaos import ChaosConfig, run, turn_stream


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


def test_the_stream_never_goes_long_without_an_assistant_turn() -> None:
    # user turns have no outputs: a stream with a run of them (all sessions' user turns, then
    # all their assistant turns) made a restart look 20 s slower than it was
    turns = [orjson.loads(line) for line in itertools.islice(turn_stream(sessions=60, seed=0), 500)]
    roles = [turn["role"] for turn in turns]
    assert "user,user" not in ",".join(roles) and "assistant,assistant" not in ",".join(roles)
    per_session: dict[str, list[int]] = {}
    for turn in turns:
        per_session.setdefault(turn["session_id"], []).append(turn["turn_index"])
    assert all(indices == list(range(len(indices))) for indices in per_session.values())
