"""The KnowledgeStore protocol's behaviour, backend-independent (`StoreContract`): the
LanceStore tests (tests/unit/test_knowledge_store.py) run it with real MiniLM vectors, the
Weaviate tests (tests/unit/test_weaviate_store.py) against a live server when WEAVIATE_URL
is set."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from contraflow.streams.core.knowledge.store import ConflictReportRecord, KnowledgeEntry, KnowledgeStore, SearchHit

Embed = Callable[[str], list[float]]

QUERY = "Is aspirin safe for people with kidney disease?"
CORPUS: list[dict[str, Any]] = [
    {
        "entry_id": "a1",
        "collection": "ResearchFindings",
        "tenant": "t1",
        "text": "Aspirin is safe to take daily for adults with kidney disease.",
        "source": "tool",
        "source_tool": "research_deep",
        "confidence": 0.8,
    },
    {
        "entry_id": "a2",
        "collection": "VideoAnalyses",
        "tenant": "t1",
        "text": "Ibuprofen can damage the kidneys when taken at high doses.",
        "source": "tool",
        "source_tool": "video_analyze",
    },
    {
        "entry_id": "a3",
        "collection": "ResearchFindings",
        "tenant": "t1",
        "text": "Speculative decoding improves LLM inference throughput by 2-3x on long sequences.",
    },
    {
        "entry_id": "a4",
        "collection": "WebSearchResults",
        "tenant": "t1",
        "text": "The Eiffel Tower is located in Paris and opened in 1889.",
    },
    {
        "entry_id": "m1",
        "collection": "memory",
        "tenant": "t1",
        "text": "The user's preferred painkiller is paracetamol.",
        "subject": "user",
        "predicate": "preferred_painkiller",
        "object_value": "paracetamol",
        "source": "memory",
        "reinforcement_count": 3,
    },
    {
        "entry_id": "b1",
        "collection": "ResearchFindings",
        "tenant": "t2",
        "text": "Aspirin is safe to take daily for adults with kidney disease.",
    },
    {
        "entry_id": "q1",
        "collection": "ResearchFindings",
        "tenant": "o'brien",
        "text": "Metformin is the first-line treatment for type 2 diabetes.",
    },
    {
        "entry_id": "n1",
        "collection": "ResearchFindings",
        "tenant": None,
        "text": "Python 2 reached end of life in 2020.",
        "source": "db",
    },
]
CREATED = datetime(2026, 1, 15, 12, 30, tzinfo=UTC)


def cached_embed() -> Embed:
    """MiniLM vectors of texts, computed once per text (one torch thread: the machine is shared)."""
    import torch

    from contraflow.streams.core.embeddings import shared_embedder

    torch.set_num_threads(1)
    cache: dict[str, list[float]] = {}
    texts = [QUERY, *(row["text"] for row in CORPUS)]
    for text, vector in zip(texts, shared_embedder().embed(texts), strict=True):
        cache[text] = [float(x) for x in vector]

    def vector_of(text: str) -> list[float]:
        if text not in cache:
            cache[text] = [float(x) for x in shared_embedder().embed([text])[0]]
        return cache[text]

    return vector_of


def make_entry(embed: Embed, **fields: Any) -> KnowledgeEntry:
    fields.setdefault("created_at", CREATED)
    return KnowledgeEntry(**fields, vector=embed(fields["text"]))


def corpus(embed: Embed) -> list[KnowledgeEntry]:
    return [make_entry(embed, **row) for row in CORPUS]


def ids(hits: list[SearchHit]) -> list[str]:
    return [hit.entry.entry_id for hit in hits]


class StoreContract:
    """Behaviour every KnowledgeStore must show. Subclasses provide the `store` fixture (an
    empty store) and `reopen` (a fresh store object on the same data, `store` closed first)."""

    @pytest.fixture
    def filled(self, store: KnowledgeStore, embed: Embed) -> KnowledgeStore:
        store.upsert(corpus(embed))
        return store

    def test_satisfies_protocol(self, store: KnowledgeStore) -> None:
        assert isinstance(store, KnowledgeStore)
        assert store.count() == 0

    def test_upsert_then_get(self, filled: KnowledgeStore, embed: Embed) -> None:
        assert filled.count() == len(CORPUS)
        got = filled.get("m1")
        assert got is not None
        expected = make_entry(embed, **CORPUS[4])
        assert got.model_dump() == expected.model_dump()
        assert got.vector is not None and len(got.vector) == 384
        assert got.vector == pytest.approx(expected.vector, abs=1e-6)
        assert got.created_at == CREATED and got.created_at.tzinfo is not None
        assert filled.get("nope") is None
        assert filled.get("a1' OR '1'='1") is None

    def test_upsert_is_idempotent_by_entry_id(self, filled: KnowledgeStore, embed: Embed) -> None:
        filled.upsert(corpus(embed))
        assert filled.count() == len(CORPUS)
        changed = make_entry(
            embed, **{**CORPUS[0], "text": "Aspirin should be avoided by adults with kidney disease."}
        ).model_copy(update={"reinforcement_count": 2})
        filled.upsert([changed, changed])
        assert filled.count() == len(CORPUS)
        got = filled.get("a1")
        assert got is not None and got.text == changed.text and got.reinforcement_count == 2
        keyword_only = filled.hybrid_search("avoided", embed(QUERY), tenant="t1", alpha=0.0)
        assert ids(keyword_only)[:1] == ["a1"]

    def test_hybrid_search_ranks_the_closest_entry_first(self, filled: KnowledgeStore, embed: Embed) -> None:
        hits = filled.hybrid_search(QUERY, embed(QUERY), tenant="t1", limit=3)
        assert ids(hits)[0] == "a1"
        assert len(hits) == 3
        scores = [hit.score for hit in hits]
        assert scores == sorted(scores, reverse=True)
        assert all(0.0 <= s <= 1.0 + 1e-9 for s in scores)
        assert all(hit.entry.vector is None for hit in hits)
        similarities = [hit.vector_similarity for hit in hits]
        assert all(s is not None for s in similarities)
        assert similarities[0] == max(similarities)  # type: ignore[type-var]
        assert set(ids(filled.hybrid_search(QUERY, embed(QUERY), tenant="t1", limit=50))) == {
            "a1",
            "a2",
            "a3",
            "a4",
            "m1",
        }

    def test_alpha_weights_vector_against_keyword(self, filled: KnowledgeStore, embed: Embed) -> None:
        # keyword only: the lexical match wins although the query vector points elsewhere
        hits = filled.hybrid_search("Eiffel Tower", embed(QUERY), tenant="t1", alpha=0.0)
        assert ids(hits)[0] == "a4"
        # vector only: the text is ignored
        text = CORPUS[2]["text"]
        hits = filled.hybrid_search("Eiffel Tower", embed(text), tenant="t1", alpha=1.0)
        assert ids(hits)[0] == "a3"

    def test_tenant_is_an_exact_filter(self, filled: KnowledgeStore, embed: Embed) -> None:
        assert ids(filled.hybrid_search(QUERY, embed(QUERY), tenant="t2")) == ["b1"]
        assert ids(filled.hybrid_search(QUERY, embed(QUERY), tenant=None)) == ["n1"]
        assert filled.hybrid_search(QUERY, embed(QUERY), tenant="t3") == []

    def test_quotes_in_filter_values(self, filled: KnowledgeStore, embed: Embed) -> None:
        assert ids(filled.hybrid_search("diabetes", embed(QUERY), tenant="o'brien")) == ["q1"]
        for hostile in ("o'brien' OR '1'='1", "t1' OR tenant IS NOT NULL OR '", "o''brien", "t1\\"):
            assert filled.hybrid_search(QUERY, embed(QUERY), tenant=hostile) == []
        assert filled.hybrid_search(QUERY, embed(QUERY), tenant="t1", collections=["x') OR ('1'='1"]) == []

    def test_collection_and_status_filters(self, filled: KnowledgeStore, embed: Embed) -> None:
        vector = embed(QUERY)
        assert ids(filled.hybrid_search(QUERY, vector, tenant="t1", collections=["VideoAnalyses"])) == ["a2"]
        found = ids(filled.hybrid_search(QUERY, vector, tenant="t1", collections=["VideoAnalyses", "memory"]))
        assert sorted(found) == ["a2", "m1"]
        assert filled.hybrid_search(QUERY, vector, tenant="t1", collections=[]) == []
        assert filled.update_status("a1", "superseded") is not None
        assert "a1" not in ids(filled.hybrid_search(QUERY, vector, tenant="t1", limit=10))
        assert ids(filled.hybrid_search(QUERY, vector, tenant="t1", statuses=None))[0] == "a1"
        assert ids(filled.hybrid_search(QUERY, vector, tenant="t1", statuses=["superseded"])) == ["a1"]
        both = filled.hybrid_search(QUERY, vector, tenant="t1", statuses=["active", "superseded"], limit=10)
        assert len(both) == 5
        assert filled.hybrid_search(QUERY, vector, tenant="t1", statuses=["conflicted"]) == []

    def test_search_arguments_are_checked(self, filled: KnowledgeStore, embed: Embed) -> None:
        vector = embed(QUERY)
        assert len(filled.hybrid_search(QUERY, vector, tenant="t1", limit=2)) == 2
        with pytest.raises(ValueError):
            filled.hybrid_search(QUERY, vector, tenant="t1", limit=0)
        with pytest.raises(ValueError):
            filled.hybrid_search(QUERY, vector, tenant="t1", alpha=1.5)
        with pytest.raises(ValueError):
            filled.hybrid_search(QUERY, vector, tenant="t1", statuses=["deleted"])
        with pytest.raises(ValueError):
            filled.hybrid_search(QUERY, vector[:10], tenant="t1")
        assert ids(filled.hybrid_search("", vector, tenant="t1"))[0] == "a1"  # no text: vector only

    def test_upsert_needs_vectors_of_the_store_dimension(self, store: KnowledgeStore) -> None:
        with pytest.raises(ValueError, match="no vector"):
            store.upsert([KnowledgeEntry(entry_id="x", collection="c", text="t")])
        with pytest.raises(ValueError, match="384"):
            store.upsert([KnowledgeEntry(entry_id="x", collection="c", text="t", vector=[0.1, 0.2])])
        store.upsert([])
        assert store.count() == 0

    def test_update_status(self, filled: KnowledgeStore) -> None:
        updated = filled.update_status("m1", "conflicted", 0.4)
        assert updated is not None and updated.status == "conflicted" and updated.confidence == pytest.approx(0.4)
        got = filled.get("m1")
        assert got is not None and got.status == "conflicted" and got.confidence == pytest.approx(0.4)
        assert got.reinforcement_count == 3 and got.vector is not None and got.text == CORPUS[4]["text"]
        kept = filled.update_status("m1", "superseded")
        assert kept is not None and kept.confidence == pytest.approx(0.4)
        assert filled.update_status("missing", "superseded", 0.1) is None
        with pytest.raises(ValueError):
            filled.update_status("m1", "deleted")
        with pytest.raises(ValueError):
            filled.update_status("m1", "active", 1.5)
        got = filled.get("m1")
        assert got is not None and got.status == "superseded"
        assert filled.count() == len(CORPUS)

    def test_reports(self, store: KnowledgeStore) -> None:
        payload = {"topic": "aspirin", "conflicts": [{"claim_a": "safe", "claim_b": "avoid"}], "confidence": 0.7}
        record = ConflictReportRecord(
            report_id="r1", topic="aspirin", entry_id="a1", tenant="o'brien", created_at=CREATED, payload=payload
        )
        store.save_report(record)
        assert store.get_report("r1") == record
        assert store.get_report("r2") is None
        replaced = ConflictReportRecord(report_id="r1", topic="aspirin", created_at=CREATED, payload=json.dumps({}))
        store.save_report(replaced)
        got = store.get_report("r1")
        assert got is not None and got.payload == {} and got.entry_id is None
        assert store.count() == 0  # reports are not entries

    def test_data_survives_reopen(
        self, store: KnowledgeStore, reopen: Callable[[], KnowledgeStore], embed: Embed
    ) -> None:
        store.upsert(corpus(embed))
        store.update_status("a2", "conflicted", 0.3)
        store.save_report(ConflictReportRecord(report_id="r9", topic="t", created_at=CREATED, payload={"k": [1]}))
        store.close()
        store.close()  # idempotent
        again = reopen()
        try:
            assert again.count() == len(CORPUS)
            got = again.get("a2")
            assert got is not None and got.status == "conflicted" and got.confidence == pytest.approx(0.3)
            assert ids(again.hybrid_search(QUERY, embed(QUERY), tenant="t1"))[0] == "a1"
            assert ids(again.hybrid_search("Eiffel", embed(QUERY), tenant="t1", alpha=0.0)) == ["a4"]
            report = again.get_report("r9")
            assert report is not None and report.payload == {"k": [1]}
        finally:
            again.close()
