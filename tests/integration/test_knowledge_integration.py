"""Knowledge writes through the real broker and a real worker (tiny random NLI model:
memory resolution does not depend on it). Seed 004's three worked examples, dead letters
for bad writes, a verdict, and a restart with the embedded store on disk."""

from __future__ import annotations

from pathlib import Path

import orjson

from contraflow.streams.core.knowledge.lance import LanceStore
from contraflow.streams.settings import Settings
from tests.integration.workers import collect, send_to, start_worker, worker_overrides

WRITES = "contraflow.knowledge.writes"


def memory(entry_id: str, subject: str, predicate: str, value: str, confidence: float, day: str, **extra) -> bytes:
    return orjson.dumps(
        {
            "entry_id": entry_id,
            "collection": "memories",
            "text": f"{subject} {predicate} is {value}",
            "subject": subject,
            "predicate": predicate,
            "object_value": value,
            "confidence": confidence,
            "created_at": f"{day}T09:00:00Z",
            **extra,
        }
    )


EXAMPLE_1 = [
    memory("so-mem", "sales_order_so_1001", "status", "in_fulfillment", 0.85, "2024-10-01"),
    memory("so-db", "sales_order_so_1001", "status", "shipped", 1.0, "2024-10-02", source="db"),
]
EXAMPLE_2 = [
    memory("gai-thu", "customer_gai_123", "delivery_pref", "Thursday", 0.75, "2024-10-01", reinforcement_count=1),
    memory("gai-fri", "customer_gai_123", "delivery_pref", "Friday", 0.85, "2024-10-10", reinforcement_count=2),
]
EXAMPLE_3 = [
    memory("amb-thu", "customer_amb_7", "delivery_pref", "Thursday", 0.80, "2024-10-05", reinforcement_count=2),
    memory("amb-fri", "customer_amb_7", "delivery_pref", "Friday", 0.82, "2024-10-08", reinforcement_count=2),
]
BAD = [
    orjson.dumps({"entry_id": "bad-1", "collection": "memories", "created_at": "2024-10-01T00:00:00Z"}),
    orjson.dumps(
        {"entry_id": "bad-2", "collection": "memories", "text": "x", "confidence": 1.5, "created_at": "2024-10-01"}
    ),
    orjson.dumps({"entry_id": "bad-3", "collection": "nowhere", "text": "x", "created_at": "2024-10-01T00:00:00Z"}),
    orjson.dumps({"entry_id": "bad-4", "collection": "memories", "text": "x", "created_at": "last tuesday"}),
]


def by_subject(events: list[dict], subject: str) -> list[dict]:
    return [e for e in events if subject in e["claim_a"]["text"]]


def test_seed_004_examples_dead_letters_and_restart(broker, tiny_model: Path, tmp_path: Path) -> None:
    overrides = worker_overrides(broker.url, tiny_model, tmp_path, app_id="it-knowledge")
    settings = Settings(**overrides)
    worker = start_worker(overrides, tmp_path / "worker-1.log")
    try:
        for line in EXAMPLE_1 + EXAMPLE_2 + EXAMPLE_3 + BAD:
            send_to(settings, WRITES, [line], key_field="subject")
        events = collect(
            settings,
            worker,
            lambda ev: (
                len([c for c in ev["contraflow.conflicts"] if c["kind"] == "memory"]) >= 3
                and len(ev["contraflow.deadletter"]) >= 4
            ),
        )
        memory_conflicts = [c for c in events["contraflow.conflicts"] if c["kind"] == "memory"]
        [one] = by_subject(memory_conflicts, "sales_order_so_1001")
        assert one["conflict_type"] == "memory_vs_db" and one["resolution"]["strategy"] == "trust_db"
        assert one["resolution"]["chosen_value"] == "shipped" and one["resolution"]["action"] == "decay_memory"
        [two] = by_subject(memory_conflicts, "customer_gai_123")
        assert two["resolution"]["chosen_value"] == "Friday" and two["resolution"]["action"] == "supersede_old"
        [three] = by_subject(memory_conflicts, "customer_amb_7")
        assert three["resolution"]["action"] == "ask_user" and three["resolution"]["chosen_value"] is None
        updates = {u["entry_id"]: u for u in events["contraflow.memory.updates"]}
        assert (updates["so-mem"]["status"], updates["so-mem"]["confidence"]) == ("conflicted", 0.425)
        assert updates["gai-thu"]["status"] == "superseded"
        errors = sorted(d["error"] for d in events["contraflow.deadletter"])
        assert any("text" in e and "Field required" in e for e in errors)
        assert any("confidence" in e for e in errors)
        assert any("unknown collection 'nowhere'" in e for e in errors)
        assert any("created_at" in e for e in errors)
        assert worker.alive
        # a person settles the ambiguous one: Friday is right
        verdict = {"conflict_id": three["conflict_id"], "verdict": "b_correct", "ts": "2024-10-09T00:00:00Z"}
        send_to(settings, "contraflow.knowledge.resolutions", [orjson.dumps(verdict)], key_field="conflict_id")
        events = collect(
            settings, worker, lambda ev: any(u["entry_id"] == "amb-thu" for u in ev["contraflow.memory.updates"])
        )
        [settled] = [u for u in events["contraflow.memory.updates"] if u["entry_id"] == "amb-thu"]
        assert settled["status"] == "superseded" and settled["conflict_id"] == three["conflict_id"]
    finally:
        worker.stop()

    # restart: the slot table and the embedded store come back; a db value conflicts with the stored memory
    worker = start_worker(overrides, tmp_path / "worker-2.log")
    try:
        send_to(
            settings,
            WRITES,
            [memory("gai-db", "customer_gai_123", "delivery_pref", "Monday", 1.0, "2024-10-12", source="db")],
            key_field="subject",
        )

        def memory_conflict_of(ev: dict) -> list[dict]:
            return [
                c for c in ev["contraflow.conflicts"] if c["kind"] == "memory" and c["claim_b"]["entry_id"] == "gai-db"
            ]

        events = collect(settings, worker, lambda ev: bool(memory_conflict_of(ev)))
        [after] = memory_conflict_of(events)
        assert after["claim_a"]["entry_id"] == "gai-fri"  # the slot remembered Friday across the restart
        assert after["conflict_type"] == "memory_vs_db"
    finally:
        worker.stop()
    # nothing the two workers wrote is lost from the embedded store, statuses included
    with LanceStore(settings.data_dir / "knowledge") as store:
        stored = {entry_id: store.get(entry_id) for entry_id in ("so-mem", "gai-thu", "gai-fri", "amb-thu", "gai-db")}
        assert all(entry is not None for entry in stored.values()), stored
        assert stored["so-mem"].status == "conflicted" and stored["so-mem"].confidence == 0.425
        assert stored["gai-thu"].status == "superseded" and stored["amb-thu"].status == "superseded"
