"""NLI throughput on the same 2,000 advice pairs, three ways, in one run:

1. one pair per forward pass (what most tools do),
2. the micro-batcher fed by many concurrent callers (one pair each call),
3. the ceiling: the raw scorer on the whole list, length-sorted full batches.

    python benchmarks/nli_batching.py [--pairs 2000] [--callers 64] [--model builtin]
"""

from __future__ import annotations

import argparse
import asyncio
import time

from advice_pairs import advice_pairs

from contraflow.streams.core.nli.batcher import MicroBatcher
from contraflow.streams.core.nli.scorer import load_scorer
from contraflow.streams.settings import Settings


def one_per_forward(scorer, pairs) -> float:
    started = time.perf_counter()
    for pair in pairs:
        scorer.score([pair])
    return len(pairs) / (time.perf_counter() - started)


def ceiling(scorer, pairs) -> float:
    started = time.perf_counter()
    scorer.score(pairs)
    return len(pairs) / (time.perf_counter() - started)


async def micro_batched(
    scorer, pairs, callers: int, max_batch: int, max_wait_ms: float, sort_window: int
) -> tuple[float, float]:
    batcher = MicroBatcher(scorer, max_batch=max_batch, max_wait_ms=max_wait_ms, sort_window=sort_window)
    queue = list(pairs)

    async def caller() -> None:
        while queue:
            await batcher.score([queue.pop()])

    started = time.perf_counter()
    await asyncio.gather(*(caller() for _ in range(callers)))
    elapsed = time.perf_counter() - started
    mean_batch = batcher.stats.pairs / max(1, batcher.stats.batches)
    await batcher.stop()
    return len(pairs) / elapsed, mean_batch


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=2000)
    parser.add_argument("--callers", type=int, default=64)
    parser.add_argument("--model", default="builtin")
    parser.add_argument("--max-batch", type=int, default=32)
    parser.add_argument("--max-wait-ms", type=float, default=10.0)
    parser.add_argument("--sort-window", type=int, default=256)
    args = parser.parse_args()

    settings = Settings(nli_model=args.model)
    scorer = load_scorer(settings.nli_model_path, settings.nli_backend, batch_size=args.max_batch)
    pairs = advice_pairs(args.pairs)
    scorer.score(pairs[:64])  # warm up

    single = one_per_forward(scorer, pairs)
    batched, mean_batch = asyncio.run(
        micro_batched(scorer, pairs, args.callers, args.max_batch, args.max_wait_ms, args.sort_window)
    )
    best = ceiling(scorer, pairs)
    print(f"model: {scorer.model_dir} ({type(scorer).__name__}), {len(pairs)} pairs, {args.callers} callers")
    print(f"one pair per forward : {single:8.1f} pairs/s")
    print(f"micro-batcher        : {batched:8.1f} pairs/s  (mean batch {mean_batch:.1f})")
    print(f"ceiling (raw sorted) : {best:8.1f} pairs/s")
    print(f"micro-batcher / one-per-forward = {batched / single:.2f}x ; micro-batcher / ceiling = {batched / best:.2f}")


if __name__ == "__main__":
    main()
