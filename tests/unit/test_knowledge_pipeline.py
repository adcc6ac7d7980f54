"""The knowledge-write pipeline on a real embedded store with real MiniLM vectors; NLI
verdicts are scripted by keyword (the model is not under test here)."""

import asyncio
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from contraflow.models.events import KnowledgeWrite
from contraflow.streams.core.embeddings import shared_embedder
from contraflow.streams.core.knowledge.lance import LanceStore
from contraflow.streams.core.knowledge.memory import MemoryValue, slot_key, slot_of
from contraflow.streams.core.knowledge.pipeline import KnowledgePipeline, KnowledgeSettings
from contraflow.streams.core.knowledge.report import format_report
from contraflow.streams.core.knowledge.search import knowledge_conflicts

CONTRA, NEUTRAL = [0.02, 0.08, 0.9], [0.1, 0.8, 0.1]


class KeywordNLI:
    """Contradiction when the two texts hold different words of one opposing pair."""

    OPPOSED = (("improves", "no measurable"), ("improves", "degrades"), ("no measurable", "degrades"))

    async def __call__(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        rows = []
        for a, b in pairs:
            opposed = any((x in a and y in b) or (y in a and x in b) for x, y in self.OPPOSED)
            rows.append(CONTRA if opposed else NEUTRAL)
        return np.array(rows, dtype=np.float32)


async def embed(texts: list[str]) -> np.ndarray:
    return await asyncio.to_thread(shared_embedder().embed, texts)


@pytest.fixture
def pipeline(tmp_path: Path) -> KnowledgePipeline:
    store = LanceStore(tmp_path / "store")
    return KnowledgePipeline(store, KeywordNLI(), embed, KnowledgeSettings(collections=("default", "memories")))


def write(entry_id: str, text: str, when: datetime, **extra) -> KnowledgeWrite:
    return KnowledgeWrite(entry_id=entry_id, collection="default", text=text, created_at=when, **extra)


async def test_seed_001_three_claims_give_the_expected_pairs_and_types(pipeline: KnowledgePipeline) -> None:
    t = datetime(2026, 1, 1, tzinfo=UTC)
    claims = [
        ("video-a", "X improves performance by 40%."),
        ("video-b", "X has no measurable impact on performance."),
        ("research-c", "X degrades performance under load."),
    ]
    found = []
    for entry_id, text in claims:
        outcome = await pipeline.process(write(entry_id, text, t), None)
        found += [(e.claim_a.entry_id, e.claim_b.entry_id, e.conflict_type) for e in outcome.conflicts]
    assert sorted(found) == [
        ("video-a", "research-c", "scope"),
        ("video-a", "video-b", "factual"),
        ("video-b", "research-c", "scope"),
    ]
    assert pipeline.store.count() == 3  # stored despite the conflicts


async def test_conflict_ids_are_deterministic_and_reports_are_stored(pipeline: KnowledgePipeline) -> None:
    t = datetime(2026, 1, 1, tzinfo=UTC)
    await pipeline.process(write("a", "X improves performance.", t), None)
    first = await pipeline.process(write("b", "X degrades performance.", t), None)
    again = await pipeline.process(write("b", "X degrades performance.", t), None)
    assert [c.conflict_id for c in first.conflicts] == [c.conflict_id for c in again.conflicts]
    assert first.report is not None and pipeline.store.get_report(first.report.report_id) is not None
    assert first.conflicts[0].nli_ab.contradiction == pytest.approx(0.9) and first.conflicts[0].nli_ba is not None


def memory_write(
    entry_id: str, value: str, confidence: float, when: datetime, source: str = "memory"
) -> KnowledgeWrite:
    return KnowledgeWrite(
        entry_id=entry_id,
        collection="memories",
        text=f"sales_order_so_1001 status {value}",
        subject="sales_order_so_1001",
        predicate="status",
        object_value=value,
        source=source,
        confidence=confidence,
        created_at=when,
    )


async def test_seed_004_memory_vs_db_decays_the_memory(pipeline: KnowledgePipeline) -> None:
    memory = memory_write("mem-1", "in_fulfillment", 0.85, datetime(2024, 10, 1, tzinfo=UTC))
    first = await pipeline.process(memory, None)
    assert first.slot_value is not None and not first.conflicts
    db = memory_write("db-1", "shipped", 1.0, datetime(2024, 10, 2, tzinfo=UTC), source="db")
    outcome = await pipeline.process(db, first.slot_value)
    [conflict] = [c for c in outcome.conflicts if c.kind == "memory"]
    assert conflict.conflict_type == "memory_vs_db"
    assert conflict.resolution.strategy == "trust_db" and conflict.resolution.chosen_value == "shipped"
    assert conflict.nli_ab is None and conflict.p_contradiction is None  # decided on the values, not scored
    [update] = outcome.updates
    assert (update.entry_id, update.status, update.confidence) == ("mem-1", "conflicted", 0.425)
    stored = pipeline.store.get("mem-1")
    assert stored.status == "conflicted" and stored.confidence == 0.425
    assert outcome.slot_value.object_value == "shipped"
    assert slot_key(None, "Sales_Order_SO_1001", "status") == slot_key(None, "sales_order_so_1001", "STATUS")
    assert slot_of(db) == slot_of(memory) == slot_key(None, "sales_order_so_1001", "status")
    assert slot_of(write("free", "X improves performance.", datetime(2026, 1, 1, tzinfo=UTC))) is None


async def test_equal_value_reinforces_without_a_new_entry(pipeline: KnowledgePipeline) -> None:
    when = datetime(2024, 10, 1, tzinfo=UTC)
    first = await pipeline.process(memory_write("m1", "shipped", 0.7, when), None)
    again = await pipeline.process(memory_write("m2", "Shipped", 0.8, when), first.slot_value)
    assert not again.conflicts and again.slot_value.reinforcement_count == 2
    assert pipeline.store.get("m2") is None and pipeline.store.count() == 1
    assert isinstance(again.slot_value, MemoryValue)


async def test_recall_time_report_over_the_store(pipeline: KnowledgePipeline) -> None:
    t = datetime(2026, 1, 1, tzinfo=UTC)
    for entry_id, text in [
        ("video-a", "X improves performance by 40%."),
        ("video-b", "X has no measurable impact on performance."),
        ("research-c", "X degrades performance under load."),
        ("other", "Bananas are rich in potassium."),
    ]:
        await pipeline.process(write(entry_id, text, t), None)
    report = await knowledge_conflicts(pipeline.store, "X performance", KeywordNLI(), embed, limit=3)
    assert report.sources_analyzed == 3 and len(report.conflicts) == 3
    assert {(c.entry_a, c.entry_b) for c in report.conflicts} == {
        ("research-c", "video-a"),
        ("research-c", "video-b"),
        ("video-a", "video-b"),
    }
    text = format_report(report)
    assert "Conflicts about: X performance" in text and "[factual, high]" in text


def test_conflicts_command_prints_a_report(tmp_path: Path, tiny_onnx: Path) -> None:
    import os
    import subprocess
    import sys

    async def fill() -> None:
        pipe = KnowledgePipeline(
            LanceStore(tmp_path / "knowledge"), KeywordNLI(), embed, KnowledgeSettings(collections=("default",))
        )
        for entry_id, text in [("a", "X improves performance."), ("b", "X degrades performance.")]:
            await pipe.process(write(entry_id, text, datetime(2026, 1, 1, tzinfo=UTC)), None)
        pipe.store.close()

    asyncio.run(fill())
    env = {**os.environ, "CONTRAFLOW_DATA_DIR": str(tmp_path)}
    command = [
        sys.executable,
        "-m",
        "contraflow.streams.tools.cli",
        "conflicts",
        "X performance",
        "--model",
        str(tiny_onnx),
        "--json",
    ]
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    assert result.returncode == 0, result.stderr
    assert '"sources_analyzed": 2' in result.stdout
