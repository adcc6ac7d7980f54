"""Fleet rate alerts and the metrics endpoint, through the real broker and a real worker.

The worker judges with the rules (`verdict=regimen`: the shipped general model and the
instruction's slots); the test first picks pairs that both call contradictions and pairs
that neither does, so the assertions do not rest on the model's accuracy (v0.5 calls "Take
ibuprofen for the pain." / "Avoid ibuprofen completely." p 0.01, the slots a reversal).
"""

from __future__ import annotations

import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path

import orjson
from prometheus_client.parser import text_string_to_metric_families

from contraflow.streams.core.nli.scorer import load_scorer
from contraflow.streams.core.verdict import claim_of, slot_decision
from contraflow.streams.settings import BUILTIN_MODEL_DIR, Settings
from contraflow.topics.catalog import SCORES
from tests.integration.workers import collect, send, send_to, start_worker, worker_overrides

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
CANDIDATES = [
    ("Take aspirin every day.", "Never take aspirin."),
    ("Keep taking warfarin every evening.", "Stop taking warfarin."),
    ("You should take metformin with meals.", "You must not take metformin."),
    ("Use the inhaler twice daily.", "Do not use the inhaler."),
    ("Take ibuprofen for the pain.", "Avoid ibuprofen completely."),
    ("Take aspirin every day.", "Take aspirin every day with water."),
    ("Keep taking warfarin every evening.", "Keep taking warfarin each evening."),
    ("Use the inhaler twice daily.", "Use the inhaler two times a day."),
    ("Take metformin with meals.", "Take metformin with food."),
    ("Take ibuprofen for the pain.", "Take ibuprofen when the pain starts."),
]


def slot(pair: tuple[str, str]) -> str | None:
    return slot_decision(claim_of(pair[0]), claim_of(pair[1]))[1]


def pick_pairs() -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(clear contradictions, clear non-contradictions) according to the shipped model and the slots."""
    probabilities = load_scorer(str(BUILTIN_MODEL_DIR)).score(CANDIDATES)
    judged = list(zip(CANDIDATES, probabilities, strict=True))
    contradicting = [pair for pair, p in judged if p[2] > 0.7 and slot(pair) is not None]
    consistent = [pair for pair, p in judged if p[2] < 0.2 and slot(pair) is None]
    assert contradicting and consistent, f"the shipped model gives no clear pairs: {probabilities}"
    return contradicting, consistent


def session_lines(session: str, model: str, pair: tuple[str, str], minute: float) -> list[bytes]:
    """A two-turn session: one evaluated adjacent pair at `minute` past T0."""
    return [
        orjson.dumps(
            {
                "event_id": f"{session}-{i}",
                "session_id": session,
                "turn_index": i,
                "role": "assistant",
                "text": text,
                "ts": (T0 + timedelta(minutes=minute, seconds=i)).isoformat(),
                "model": model,
            }
        )
        for i, text in enumerate(pair)
    ]


def phase(model_pairs: dict[str, list[tuple[str, str]]], minute: float, tag: str) -> tuple[list[bytes], int]:
    lines: list[bytes] = []
    for model, pairs in model_pairs.items():
        for n, pair in enumerate(pairs):
            lines += session_lines(f"{model}-{tag}-{n}", model, pair, minute + n / 100)
    return lines, len(lines)


def rate_alerts(events: dict[str, list[dict]]) -> list[dict]:
    return [a for a in events["contraflow.alerts"] if a["kind"].startswith("contradiction_rate")]


def test_one_failure_and_one_recovery_alert_for_the_drifting_model_only(broker, tmp_path: Path) -> None:
    contradicting, consistent = pick_pairs()
    overrides = worker_overrides(
        broker.url,
        BUILTIN_MODEL_DIR,
        tmp_path / "data",
        "rates-test",
        nli_backend="onnx",
        rate_windows_s=[60],
        rate_min_pairs=5,
        verdict="regimen",
    )
    settings = Settings(**overrides)
    worker = start_worker(overrides, tmp_path / "worker.log")
    try:
        scores_seen = 0

        def run_phase(model_pairs: dict[str, list[tuple[str, str]]], minute: float, tag: str) -> dict:
            nonlocal scores_seen
            lines, count = phase(model_pairs, minute, tag)
            send(settings, lines)
            scores_seen += count
            return collect(settings, worker, lambda ev: len(ev["contraflow.scores"]) >= scores_seen)

        six = [contradicting[i % len(contradicting)] for i in range(6)]
        calm = [consistent[i % len(consistent)] for i in range(6)]
        run_phase({"model-a": six, "model-b": calm}, 0, "w0")  # model-a: 6 of 6 pairs contradict
        minute_1 = run_phase({"model-a": calm, "model-b": calm}, 1, "w1")  # model-a clean again
        # A worker that crashed after sending these scores sends them again: counted once.
        redelivered = [
            orjson.dumps(s) for s in minute_1["contraflow.scores"] if s["session_id"].startswith("model-a-w1")
        ]
        send_to(settings, SCORES.name, redelivered)
        events = run_phase({"model-a": calm[:1], "model-b": calm[:1]}, 2, "w2")  # closes minute 1
        alerts = collect(settings, worker, lambda ev: len(rate_alerts(ev)) >= 2)
        rates = rate_alerts(alerts)
        assert [(a["model"], a["previous_status"], a["status"]) for a in rates] == [
            ("model-a", "pass", "failure"),
            ("model-a", "failure", "pass"),
        ]
        assert rates[0]["window_start"].startswith("2026-03-01T12:00:00")
        assert rates[1]["window_start"].startswith("2026-03-01T12:01:00")
        assert len(redelivered) == 12 and rates[1]["pairs"] == 6, rates[1]["message"]  # 6 sessions of 2 turns
        assert not [a for a in rate_alerts(events) if a["model"] == "model-b"]

        with urllib.request.urlopen(f"http://127.0.0.1:{settings.web_port}/metrics", timeout=10) as response:
            exposition = response.read().decode()
        for metric in (
            'contraflow_events_in_total{topic="contraflow.turns"}',
            'contraflow_events_out_total{topic="contraflow.scores"}',
            'contraflow_events_out_total{topic="contraflow.alerts"}',
            "contraflow_nli_batch_size_count",
            "contraflow_record_latency_seconds_count",
            "contraflow_sessions",
        ):
            line = next((x for x in exposition.splitlines() if x.startswith(metric)), None)
            assert line is not None and float(line.split()[-1]) > 0, f"{metric} missing or zero"
        # the contradiction series by model: model-a's contradictions, none of model-b's
        by_model: dict[tuple[str, str], float] = {}
        for family in text_string_to_metric_families(exposition):
            for sample in family.samples:
                if "model" in sample.labels:
                    key = (sample.name, sample.labels["model"])
                    by_model[key] = by_model.get(key, 0.0) + sample.value
        assert by_model[("contraflow_turn_contradictions_total", "model-a")] >= 6
        assert by_model.get(("contraflow_turn_contradictions_total", "model-b"), 0.0) == 0
        assert by_model[("contraflow_turn_pairs_evaluated_total", "model-b")] >= 6
        assert by_model[("contraflow_sessions_by_status", "model-a")] > 0
        for probe in ("healthz", "readyz"):
            with urllib.request.urlopen(f"http://127.0.0.1:{settings.web_port}/{probe}", timeout=10) as response:
                assert response.status == 200
    finally:
        worker.stop()
