"""The demo's sample conversations through the turn pipeline with the shipped models: the
steady session must raise no conflict (a monitor that cries wolf on its own demo is switched
off), the warfarin flip must be a contradiction, and the metformin flip, which follows the
user's "I feel a bit nauseous", a revision."""

from importlib.resources import files

import pytest

from contraflow.streams.runtime.services import local_turn_pipeline
from contraflow.streams.settings import Settings
from contraflow.streams.tools.replay import read_turns

pytestmark = pytest.mark.model


async def test_the_demo_flags_its_flips_and_not_its_steady_session() -> None:
    sample = read_turns(files("contraflow.streams.samples").joinpath("demo_turns.jsonl"))
    pipeline = local_turn_pipeline(Settings())
    kinds: dict[str, list[str]] = {}
    states = {}
    for turn in sample.turns:
        outcome = await pipeline.process(states.get(turn.session_id), turn)
        states[turn.session_id] = outcome.state
        kinds.setdefault(turn.session_id, []).extend(c.kind for c in outcome.conflicts)
    assert kinds["demo-asthma-steady"] == []
    assert "turn_self_contradiction" in kinds["demo-warfarin-flip"]
    assert kinds["demo-metformin-flip"] == ["turn_revision"]
