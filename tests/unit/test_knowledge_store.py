"""The KnowledgeStore protocol's behaviour, checked against LanceStore with real MiniLM vectors.

`StoreContract` (tests/store_contract.py) holds the backend-independent checks; it runs
here against LanceStore.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import numpy as np
import pytest
from pydantic import ValidationError

from contraflow.streams.core.knowledge.keyword_index import KeywordIndex, analyze
from contraflow.streams.core.knowledge.lance import LanceStore
from contraflow.streams.core.knowledge.lance_tables import sql_literal
from contraflow.streams.core.knowledge.store import (
    ConflictReportRecord,
    KnowledgeEntry,
    KnowledgeStore,
    min_max,
    relative_score_fusion,
)
from tests.store_contract import (
    CORPUS,
    QUERY,
    Embed,
    StoreContract,
    corpus,
    ids,
    make_entry,
)


class TestLanceStore(StoreContract):
    @pytest.fixture
    def store(self, tmp_path: Path) -> Iterator[LanceStore]:
        store = LanceStore(tmp_path / "kb")
        yield store
        store.close()

    @pytest.fixture
    def reopen(self, tmp_path: Path) -> Callable[[], KnowledgeStore]:
        return lambda: LanceStore(tmp_path / "kb")

    def test_other_dimension_is_refused_on_reopen(self, store: LanceStore, tmp_path: Path) -> None:
        store.close()
        with pytest.raises(ValueError, match="384"):
            LanceStore(tmp_path / "kb", dim=8)

    def test_closed_store_refuses_calls(self, store: LanceStore) -> None:
        store.close()
        with pytest.raises(RuntimeError, match="closed"):
            store.count()

    def test_periodic_optimize_keeps_search_correct(self, tmp_path: Path, embed: Embed) -> None:
        with LanceStore(tmp_path / "opt", optimize_every=3) as store:
            for entry in corpus(embed):
                store.upsert([entry])
            assert store._writes_since_optimize < 3
            assert store._entries.stats()["fragment_stats"]["num_fragments"] < len(CORPUS)  # compacted
            assert ids(store.hybrid_search("Eiffel", embed(QUERY), tenant="t1", alpha=0.0)) == ["a4"]
            store.upsert([make_entry(embed, **{**CORPUS[3], "text": "The Louvre is a museum in Paris."})])
            assert store.hybrid_search("Eiffel", embed(QUERY), tenant="t1", alpha=0.0) == []
            assert store.count() == len(CORPUS)

    def test_vector_half_is_an_exact_filtered_cosine_ranking(self, tmp_path: Path) -> None:
        """The in-memory scan must rank exactly like brute-force cosine over the entries that
        pass the filters, after status changes, re-writes and a reopen alike."""
        rng = np.random.default_rng(7)
        vectors = rng.standard_normal((300, 8)).astype(np.float32)
        entries = [
            KnowledgeEntry(
                entry_id=f"v{i}",
                collection="facts" if i % 3 else "notes",
                tenant=None if i % 4 == 0 else f"t{i % 2}",
                text=f"claim number {i}",
                vector=[float(x) for x in vectors[i] * (1 + i % 5)],  # lengths differ: cosine ignores them
            )
            for i in range(300)
        ]
        query = rng.standard_normal(8).astype(np.float32)

        def expected(tenant: str | None, collections: set[str], inactive: set[str]) -> list[str]:
            chosen = [
                e for e in entries if e.tenant == tenant and e.collection in collections and e.entry_id not in inactive
            ]
            cosine = {
                e.entry_id: float(np.dot(e.vector, query) / (np.linalg.norm(e.vector) * np.linalg.norm(query)))
                for e in chosen
            }
            return sorted(cosine, key=lambda i: -cosine[i])[:7]

        def found(store: LanceStore, tenant: str | None, collections: list[str]) -> list[str]:
            hits = store.hybrid_search("", list(query), tenant=tenant, collections=collections, limit=7, alpha=1.0)
            return ids(hits)

        with LanceStore(tmp_path / "exact", dim=8) as store:
            store.upsert(entries)
            assert found(store, "t1", ["facts"]) == expected("t1", {"facts"}, set())
            assert found(store, None, ["facts", "notes"]) == expected(None, {"facts", "notes"}, set())
            best = found(store, "t0", ["facts", "notes"])[0]
            store.update_status(best, "superseded")
            assert found(store, "t0", ["facts", "notes"]) == expected("t0", {"facts", "notes"}, {best})
            assert found(store, "nobody", ["facts"]) == []
            moved = entries[1].model_copy(update={"tenant": "t9"})  # a re-write moves v1 to another tenant
            store.upsert([moved])
            entries[1] = moved
        with LanceStore(tmp_path / "exact", dim=8) as again:
            assert found(again, "t0", ["facts", "notes"]) == expected("t0", {"facts", "notes"}, {best})
            assert found(again, "t9", ["facts"]) == ["v1"]
            assert found(again, "t1", ["facts"]) == expected("t1", {"facts"}, set())


def test_keyword_analysis_folds_stems_and_drops_stop_words() -> None:
    assert analyze("The Cafés of Paris are NOT closing") == ["cafe", "pari", "close"]
    assert analyze("museums") == analyze("Museum") == ["museum"]
    assert analyze("x" * 41 + " ok") == ["ok"]
    assert analyze("the and of") == []


def test_bm25_prefers_rare_terms_and_short_texts() -> None:
    index = KeywordIndex()
    texts = ["aspirin thins the blood", "aspirin and kidney disease", "kidney stones", "aspirin aspirin aspirin"]
    for row, text in enumerate(texts):
        index.put(row, text)
    scores = index.scores("kidney aspirin", 5)
    assert scores[4] == 0.0 and scores.argmax() == 1  # both terms beat either alone
    assert scores[2] > scores[0]  # "kidney" (2 of 4 texts) is rarer than "aspirin" (3 of 4)
    assert index.scores("blood", 5)[0] > 0 and index.scores("stones", 5)[:2].tolist() == [0.0, 0.0]
    index.put(0, "kidney function")  # a re-write replaces the row's terms
    assert index.scores("blood", 5).tolist() == [0.0] * 5
    assert index.scores("function", 5)[0] > 0


def test_sql_literal_quotes_values() -> None:
    assert sql_literal("o'brien") == "'o''brien'"
    with pytest.raises(ValueError):
        sql_literal("nul\x00")


def test_entry_model() -> None:
    naive = KnowledgeEntry(entry_id="e", collection="c", text="t", created_at=datetime(2026, 1, 1, 8), vector=[1.0])
    assert naive.created_at == datetime(2026, 1, 1, 8, tzinfo=UTC)
    shifted = KnowledgeEntry(
        entry_id="e", collection="c", text="t", created_at=datetime(2026, 1, 1, 9, tzinfo=timezone(timedelta(hours=1)))
    )
    assert shifted.created_at == naive.created_at and shifted.created_at.tzinfo == UTC
    assert "vector" not in naive.model_dump() and "vector" not in naive.model_dump_json()
    assert naive.source == "tool" and naive.status == "active" and naive.reinforcement_count == 1
    for bad in ({"confidence": 1.2}, {"status": "deleted"}, {"source": "web"}, {"vector": [float("nan")]}):
        with pytest.raises(ValidationError):
            KnowledgeEntry(entry_id="e", collection="c", text="t", **bad)


def test_report_record_payload() -> None:
    record = ConflictReportRecord(report_id="r", payload='{"topic": "x", "conflicts": []}')
    assert record.payload == {"topic": "x", "conflicts": []}
    assert json.loads(record.payload_json()) == record.payload
    assert ConflictReportRecord.model_validate_json(record.model_dump_json()) == record
    for bad in ("not json", "[1, 2]", {"when": datetime.now()}):
        with pytest.raises((ValidationError, TypeError)):
            ConflictReportRecord(report_id="r", payload=bad)


def test_relative_score_fusion() -> None:
    assert min_max({"a": 2.0, "b": 2.0}) == {"a": 1.0, "b": 1.0}
    vector = {"a": 0.9, "b": 0.5, "c": 0.1}
    keyword = {"c": 7.0, "d": 1.0}
    fused = dict(relative_score_fusion(vector, keyword, 0.5))
    assert fused == pytest.approx({"a": 0.5, "b": 0.25, "c": 0.5, "d": 0.0})
    assert [key for key, _ in relative_score_fusion(vector, keyword, 0.5)][:2] == ["a", "c"]  # tie: vector decides
    assert relative_score_fusion(vector, keyword, 1.0)[0] == ("a", 1.0)
    assert relative_score_fusion(vector, keyword, 0.0)[0] == ("c", 1.0)
    assert relative_score_fusion({}, {}, 0.5) == []
