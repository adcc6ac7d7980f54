"""NLI on the ONNX scorer: each pair in a forward pass of its own (what ships) against
length-sorted batched passes (what ran before session 38), on the same pairs, in one run:

1. throughput: the raw scorer on the whole list, and the micro-batcher fed by many
   concurrent callers (one pair per call), each way;
2. what batching did to the verdicts: the int8 graph scales its activations once per
   forward pass, over every row and the padding, so a pair's p(contradiction) depended on
   the pairs beside it. Printed: how far it moved from the pair's own score, and how many
   pairs landed on the other side of the sentence threshold.

    python benchmarks/nli_batching.py [--pairs 2000] [--callers 256] [--model builtin] [--decode]

`--decode` scores the DECODE dev pairs (../shared/data/nli/dev) instead of the generated
advice pairs: longer, the length of the sentences the pipeline compares.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import time
from pathlib import Path

import numpy as np
from advice_pairs import advice_pairs

from contraflow.streams.core.nli.batcher import MicroBatcher
from contraflow.streams.core.nli.heads import has_dialogue_head
from contraflow.streams.core.nli.scorer import load_scorer, resolve_model_dir
from contraflow.streams.settings import Settings

DECODE_DEV = Path(__file__).resolve().parents[2] / "shared" / "data" / "nli" / "dev" / "decode_pairs_dev.jsonl.gz"


def timed(scorer, pairs) -> tuple[float, np.ndarray]:
    started = time.perf_counter()
    rows = scorer.score(pairs)
    return len(pairs) / (time.perf_counter() - started), rows


async def micro_batched(scorer, pairs, callers: int, max_batch: int) -> float:
    batcher = MicroBatcher(scorer, max_batch=max_batch, max_wait_ms=10.0, sort_window=256)
    queue = list(pairs)

    async def caller() -> None:
        while queue:
            await batcher.score([queue.pop()])

    started = time.perf_counter()
    await asyncio.gather(*(caller() for _ in range(callers)))
    elapsed = time.perf_counter() - started
    await batcher.stop()
    return len(pairs) / elapsed


def decode_pairs(n: int) -> list[tuple[str, str]]:
    with gzip.open(DECODE_DEV, "rt", encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines]
    return [(row["premise"], row["hypothesis"]) for row in rows[:n]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=2000)
    parser.add_argument("--callers", type=int, default=256)
    parser.add_argument("--model", default="builtin")
    parser.add_argument("--max-batch", type=int, default=32, help="pairs per batched pass, and the batcher's window")
    parser.add_argument("--decode", action="store_true", help="DECODE dev pairs instead of generated advice pairs")
    args = parser.parse_args()

    settings = Settings(nli_model=args.model)
    threshold = settings.sentence_threshold
    dialogue = has_dialogue_head(resolve_model_dir(settings.nli_model_path))  # what judges turns by default
    scorer = load_scorer(settings.nli_model_path, settings.nli_backend, dialogue=dialogue)
    pairs = decode_pairs(args.pairs) if args.decode else advice_pairs(args.pairs)
    scorer.score(pairs[:64])  # warm up

    alone_rate, alone = timed(scorer, pairs)
    alone_batcher = asyncio.run(micro_batched(scorer, pairs, args.callers, args.max_batch))
    scorer.batch_size = args.max_batch  # the way it ran before: length-sorted batched passes
    batched_rate, batched = timed(scorer, pairs)
    batched_batcher = asyncio.run(micro_batched(scorer, pairs, args.callers, args.max_batch))

    moved = np.abs(alone[:, 2] - batched[:, 2])
    crossed = int(((alone[:, 2] >= threshold) != (batched[:, 2] >= threshold)).sum())
    what = "DECODE dev pairs" if args.decode else "generated advice pairs"
    graph = "dialogue head" if dialogue else "general graph"
    print(f"model: {scorer.model_dir}, {graph} ({type(scorer).__name__}), {len(pairs)} {what}, {args.callers} callers")
    print(f"raw scorer     : one pair per pass {alone_rate:7.1f} pairs/s, batched passes {batched_rate:7.1f} pairs/s")
    print(f"micro-batcher  : one pair per pass {alone_batcher:7.1f} pairs/s, batched {batched_batcher:7.1f} pairs/s")
    print(f"one pair per pass / batched passes = {alone_batcher / batched_batcher:.2f} (through the micro-batcher)")
    print(
        f"p(contradiction) in a batched pass against alone: mean |change| {moved.mean():.4f}, max {moved.max():.4f}; "
        f"{crossed} of {len(pairs)} pairs on the other side of {threshold}"
    )


if __name__ == "__main__":
    main()
