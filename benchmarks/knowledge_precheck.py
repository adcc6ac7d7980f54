"""Knowledge-write precheck latency on an embedded store of 10,000 entries.

    python benchmarks/knowledge_precheck.py [--entries 10000] [--writes 50] [--model builtin]

Fills a LanceDB store under a temporary folder with generated claims (embedded in bulk
by the MiniLM embedder), then times new writes as the worker runs them (its NLI
micro-batcher and embedding thread): the precheck alone (embed, hybrid search top 5 of the
same tenant, both NLI directions for each hit, classification, report), and the whole
write (precheck, then storing the entry and its reports). Prints median and p90.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from contraflow.models.events import KnowledgeWrite
from contraflow.streams.core.embeddings import shared_embedder
from contraflow.streams.core.knowledge.lance import LanceStore
from contraflow.streams.core.knowledge.pipeline import KnowledgePipeline, entry_of
from contraflow.streams.core.knowledge.store import KnowledgeEntry
from contraflow.streams.runtime.services import knowledge_settings, load_components, nli_batcher, turn_services
from contraflow.streams.settings import Settings

SUBJECTS = ["The API gateway", "Service X", "The billing job", "Library Y", "The mobile app", "Cluster Z", "Model M"]
VERBS = ["improves", "reduces", "doubles", "does not change", "degrades", "halves", "stabilises"]
OBJECTS = ["latency", "throughput", "memory use", "error rates", "cold starts", "costs", "accuracy"]
CONTEXTS = ["", " under load", " for small teams", " in production", " in synthetic benchmarks", " since 2024"]


def claim(rng: random.Random) -> str:
    subject, verb, thing, context = (rng.choice(x) for x in (SUBJECTS, VERBS, OBJECTS, CONTEXTS))
    return f"{subject} {verb} {thing}{context} by {rng.randint(2, 90)}%."


def fill(store: LanceStore, n: int, rng: random.Random) -> None:
    embedder = shared_embedder()
    start = datetime(2025, 1, 1, tzinfo=UTC)
    for offset in range(0, n, 1000):
        texts = [claim(rng) for _ in range(min(1000, n - offset))]
        vectors = embedder.embed(texts, batch_size=64)
        store.upsert(
            [
                KnowledgeEntry(
                    entry_id=f"e{offset + i}",
                    collection="facts",
                    text=text,
                    created_at=start + timedelta(minutes=offset + i),
                    vector=[float(x) for x in vector],
                )
                for i, (text, vector) in enumerate(zip(texts, vectors, strict=True))
            ]
        )
    store.optimize()


async def time_writes(pipeline: KnowledgePipeline, writes: int, rng: random.Random) -> tuple[list[float], list[float]]:
    """(precheck times, whole-write times): the precheck alone (embed, search, NLI, report),
    then the full processing of another write (precheck + storing entry and reports)."""
    prechecks, whole = [], []
    for i in range(writes):
        write = KnowledgeWrite(
            entry_id=f"new{i}", collection="facts", text=claim(rng), created_at=datetime(2026, 1, 1, tzinfo=UTC)
        )
        started = time.perf_counter()
        await pipeline.precheck(entry_of(write))
        prechecks.append(time.perf_counter() - started)
        started = time.perf_counter()
        await pipeline.process(write, None)
        whole.append(time.perf_counter() - started)
    return sorted(prechecks), sorted(whole)


async def run(settings: Settings, entries: int, writes: int, rng: random.Random) -> tuple[list[float], list[float]]:
    """Fill a store, then time writes through the worker's own parts: its model loading, its
    NLI micro-batcher (with its wait for a batch to fill) and its embedding thread."""
    components = load_components(settings)
    batcher = nli_batcher(components.scorer, settings)
    services = turn_services(components, score=batcher.score)
    assert services.embed is not None
    with tempfile.TemporaryDirectory() as tmp:
        store = LanceStore(Path(tmp) / "knowledge")
        started = time.perf_counter()
        fill(store, entries, rng)
        print(f"filled {store.count()} entries in {time.perf_counter() - started:.0f}s")
        pipeline = KnowledgePipeline(store, batcher.score, services.embed, knowledge_settings(settings))
        try:
            return await time_writes(pipeline, writes, rng)
        finally:
            await batcher.stop()
            store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--writes", type=int, default=50)
    parser.add_argument("--model", default="builtin")
    args = parser.parse_args()
    settings = Settings(nli_model=args.model, knowledge_collections=["facts"])
    prechecks, whole = asyncio.run(run(settings, args.entries, args.writes, random.Random(3)))
    for name, times in (("precheck", prechecks), ("whole write", whole)):
        print(
            f"{name:12s} over {args.entries} entries: median {1000 * statistics.median(times):.0f} ms, "
            f"p90 {1000 * times[int(0.9 * len(times))]:.0f} ms ({args.writes} writes, model {args.model})"
        )


if __name__ == "__main__":
    main()
