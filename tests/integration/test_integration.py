"""A real worker process on the real (Tansu) broker, fed with aiokafka.

The model is the tiny random one: its verdicts are arbitrary, so the assertions hold
for any model (consistency between the probabilities scores carry and the conflicts and
alerts emitted, counts, dead letters, restarts)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from contraflow.models.events import TurnEvent
from contraflow.streams.core.nli.scorer import load_scorer
from contraflow.streams.core.turns import TurnPipeline, TurnSettings
from contraflow.streams.settings import NLIBackend, Settings
from tests.integration.workers import collect, send, start_worker, turn_line, worker_overrides

ADVICE = [
    "Take ibuprofen 400 mg with food.",
    "You should avoid ibuprofen completely.",
    "Keep taking ibuprofen twice daily.",
    "Stop all painkillers now.",
    "Use paracetamol instead of ibuprofen.",
    "Never take paracetamol.",
]


def conversation(session: str, n: int) -> list[bytes]:
    lines = []
    for i in range(n):
        lines.append(turn_line(session, 2 * i, f"question {i}", role="user"))
        lines.append(turn_line(session, 2 * i + 1, ADVICE[(i + len(session)) % len(ADVICE)]))
    return lines


def check_consistency(events: dict[str, list[dict]]) -> None:
    """An adjacent self-contradiction event exactly where a score counted its pair as one;
    alerts exactly where the status changed."""
    scores = events["contraflow.scores"]
    flagged = {(s["session_id"], s["turn_index"]) for s in scores if s["pair_contradiction"]}
    conflicts = {
        (c["session_id"], c["claim_b"]["turn_index"])
        for c in events["contraflow.conflicts"]
        if c["scope"] == "adjacent" and c["kind"] == "turn_self_contradiction"
    }
    assert conflicts == flagged
    changes, last = set(), {}
    for s in sorted(scores, key=lambda s: (s["session_id"], s["turn_index"])):
        if s["status"] != last.get(s["session_id"], "pass"):
            changes.add((s["session_id"], s["turn_index"], s["status"]))
        last[s["session_id"]] = s["status"]
    alerts = {(a["session_id"], a["turn_index"], a["status"]) for a in events["contraflow.alerts"]}
    assert alerts == changes


def test_turns_flow_through_a_real_worker(broker, tiny_model: Path, tmp_path: Path) -> None:
    overrides = worker_overrides(broker.url, tiny_model, tmp_path, app_id="it-flow")
    settings = Settings(**overrides)
    worker = start_worker(overrides, tmp_path / "worker.log")
    try:
        lines = conversation("alpha", 5) + conversation("beta", 4)
        lines.append(lines[1])  # a repeated event
        lines.append(turn_line("alpha", 1, "a replayed old turn with a new id", event_id="alpha-replay"))
        lines += [b"{broken json", turn_line("gamma", 0, "x" * 30_000), b'{"session_id": "gamma"}']
        send(settings, lines)
        events = collect(
            settings,
            worker,
            lambda ev: len(ev["contraflow.scores"]) >= 9 and len(ev["contraflow.deadletter"]) >= 3,
        )
        assert worker.alive
        scores = events["contraflow.scores"]
        assert sorted((s["session_id"], s["turn_index"]) for s in scores) == sorted(
            [("alpha", 2 * i + 1) for i in range(5)] + [("beta", 2 * i + 1) for i in range(4)]
        )
        assert len({s["score_id"] for s in scores}) == len(scores) == 9  # duplicates ignored
        assert sorted(d["error_kind"] for d in events["contraflow.deadletter"]) == ["invalid", "not_json", "too_large"]
        assert all(d["error"] and d["topic"] == "contraflow.turns" for d in events["contraflow.deadletter"])
        check_consistency(events)
        # the worker still serves new turns after the bad ones
        send(settings, [turn_line("delta", 1, "Take aspirin daily.")])
        later = collect(settings, worker, lambda ev: any(s["session_id"] == "delta" for s in ev["contraflow.scores"]))
        assert worker.alive and len(later["contraflow.scores"]) == 10
        said = worker.log.read_text()  # what an operator starting it by hand sees
        assert f"contraflow worker: broker {broker.url} answers" in said
        assert "contraflow worker: ready (broker" in said and str(tiny_model) in said
        assert "\x1b[" not in said  # no terminal control codes in a log file
    finally:
        worker.stop()


def reference_scores(model: Path, lines: list[bytes]) -> list[tuple]:
    """The same turns through the pipeline in-process, without any restart."""
    scorer = load_scorer(str(model), NLIBackend.transformers)

    async def score(pairs):
        return scorer.score(pairs)

    async def run() -> list[tuple]:
        pipeline, state, out = TurnPipeline(score, TurnSettings(stride=1)), None, []
        for line in lines:
            outcome = await pipeline.process(state, TurnEvent.model_validate_json(line))
            state = outcome.state
            out += [(s.turn_index, s.evaluated_pairs, s.contradictions, s.status.value) for s in outcome.scores]
        return out

    return asyncio.run(run())


def test_restart_keeps_session_state(broker, tiny_model: Path, tmp_path: Path) -> None:
    overrides = worker_overrides(broker.url, tiny_model, tmp_path, app_id="it-restart")
    settings = Settings(**overrides)
    lines = conversation("restart", 8)
    first, second = lines[:8], lines[8:]
    worker = start_worker(overrides, tmp_path / "worker-1.log")
    try:
        send(settings, first)
        collect(settings, worker, lambda ev: len(ev["contraflow.scores"]) >= 4)
    finally:
        assert worker.stop() is not None
    worker = start_worker(overrides, tmp_path / "worker-2.log")
    try:
        send(settings, second + first[-2:])  # the last turn again: must not count twice
        events = collect(settings, worker, lambda ev: len({s["turn_index"] for s in ev["contraflow.scores"]}) >= 8)
    finally:
        worker.stop()
    got = sorted(
        {(s["turn_index"], s["evaluated_pairs"], s["contradictions"], s["status"]) for s in events["contraflow.scores"]}
    )
    assert got == reference_scores(tiny_model, lines)


def test_replay_and_worker_give_identical_session_metrics(broker, tiny_model: Path, tmp_path: Path) -> None:
    from importlib.resources import files

    from contraflow.streams.runtime.services import load_components, turn_services, turn_settings
    from contraflow.streams.tools.replay import read_turns, replay_turns

    sample = Path(str(files("contraflow.streams.samples").joinpath("study_c_sample.json")))
    turns = read_turns(sample).turns
    overrides = worker_overrides(broker.url, tiny_model, tmp_path, app_id="it-replay", stride=2)
    settings = Settings(**overrides)
    worker = start_worker(overrides, tmp_path / "worker.log")
    try:
        send(settings, [t.model_dump_json().encode() for t in turns])
        events = collect(settings, worker, lambda ev: len(ev["contraflow.scores"]) >= len(turns), timeout_s=300)
    finally:
        worker.stop()

    def metrics(score: dict) -> tuple:
        critical, extended = score["entities_critical"], score["entities_extended"]
        return (
            score["session_id"],
            score["turn_index"],
            score["evaluated_pairs"],
            score["contradictions"],
            score["global_evaluated_pairs"],
            score["global_contradictions"],
            critical and round(critical["recall"], 6),
            extended and round(extended["recall"], 6),
            score["recall_at_t10"],
            score["drift_slope"] and round(score["drift_slope"], 6),
            score["alignment"] and round(score["alignment"], 4),
        )

    pipeline = TurnPipeline(turn_services(load_components(settings)), turn_settings(settings))
    _, scores = asyncio.run(replay_turns(pipeline, turns, progress=False))
    replayed = [s.model_dump(mode="json") for s in scores]
    streamed = sorted(metrics(s) for s in events["contraflow.scores"])
    assert streamed == sorted(metrics(s) for s in replayed)
    assert any(m[6] is not None for m in streamed)  # the sample carries cases: entity metrics were computed
