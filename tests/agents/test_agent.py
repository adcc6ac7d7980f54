"""The turn agent in faust's test context: decoding, dead letters, table state, emits.
NLI verdicts are scripted (the pipeline's own tests cover its logic)."""

from pathlib import Path

import orjson
import pytest

from contraflow.agents.turns import attach_turn_agent
from contraflow.streams.core.turns import TurnPipeline, TurnSettings
from contraflow.streams.runtime.app import create_app
from contraflow.streams.settings import Settings
from tests.fixtures import CONTRA, ScriptedNLI


def record(index: int, text: str, role: str = "assistant", **extra) -> bytes:
    return orjson.dumps(
        {
            "event_id": f"e{index}",
            "session_id": "s1",
            "turn_index": index,
            "role": role,
            "text": text,
            "ts": "2026-11-22T09:00:00Z",
            **extra,
        }
    )


@pytest.fixture
def harness(tmp_path: Path):
    settings = Settings(broker_url="kafka://127.0.0.1:1", web_enabled=False, data_dir=tmp_path, max_text_chars=200)
    app = create_app(settings)
    sent: list[tuple[str, bytes | None, object]] = []

    async def emit(spec, key, event) -> None:
        sent.append((spec.name, key, event))

    pipeline = TurnPipeline(ScriptedNLI({"Never": CONTRA}), TurnSettings(verdict="regimen", stride=1))

    async def loaded() -> TurnPipeline:
        return pipeline

    agent = attach_turn_agent(app, loaded, settings, emit)
    return app, agent, sent


def topics_of(sent) -> list[str]:
    return [name for name, _, _ in sent]


async def test_turns_produce_scores_conflicts_and_alerts(harness) -> None:
    app, agent, sent = harness
    async with agent.test_context() as ctx:
        await ctx.put(key=b"s1", value=record(0, "Take aspirin daily."))
        await ctx.put(key=b"s1", value=record(1, "Never take aspirin."))
    assert topics_of(sent) == [
        "contraflow.scores",
        "contraflow.conflicts",
        "contraflow.alerts",
        "contraflow.scores",
    ]
    conflict = sent[1][2]
    assert conflict.claim_a.turn_index == 0 and conflict.claim_b.turn_index == 1
    assert all(key == b"s1" for _, key, _ in sent)
    state = app.tables["sessions"]["s1"]["state"]
    assert state["contradictions"] == 1 and state["last_turn_index"] == 1


async def test_bad_records_become_dead_letters_and_the_agent_goes_on(harness) -> None:
    _, agent, sent = harness
    async with agent.test_context() as ctx:
        await ctx.put(key=b"s1", value=b"{not json")
        await ctx.put(key=b"s1", value=orjson.dumps({"event_id": "x", "session_id": "s1"}))
        await ctx.put(key=b"s1", value=record(0, "x" * 201))
        await ctx.put(key=b"s1", value=record(1, "Take aspirin daily."))
    kinds = [event.error_kind for name, _, event in sent if name == "contraflow.deadletter"]
    assert kinds == ["not_json", "invalid", "too_large"]
    letters = [event for name, _, event in sent if name == "contraflow.deadletter"]
    assert [letter.offset for letter in letters] == sorted({letter.offset for letter in letters})
    assert topics_of(sent)[-1] == "contraflow.scores"


async def test_duplicates_emit_nothing(harness) -> None:
    _, agent, sent = harness
    async with agent.test_context() as ctx:
        await ctx.put(key=b"s1", value=record(0, "Take aspirin daily."))
        await ctx.put(key=b"s1", value=record(0, "Take aspirin daily."))
    assert topics_of(sent) == ["contraflow.scores"]


async def test_a_replayed_record_re_sends_its_outputs_under_the_same_ids(harness) -> None:
    """After a crash, records after the committed offset are consumed again although the
    session state already holds them: they must publish their outputs again."""
    _, agent, sent = harness
    async with agent.test_context() as ctx:
        await ctx.put(key=b"s1", value=record(0, "Take aspirin daily."))
        await ctx.put(key=b"s1", value=record(1, "Never take aspirin."))
        first = list(sent)
        ctx.sent_offset = 0  # the same two records (same offsets) again, as a restarted worker reads them
        await ctx.put(key=b"s1", value=record(0, "Take aspirin daily."))
        await ctx.put(key=b"s1", value=record(1, "Never take aspirin."))
    again = sent[len(first) :]
    assert [(name, event) for name, _, event in again] == [(name, event) for name, _, event in first]
