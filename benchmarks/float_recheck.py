"""The dialogue head three ways, on the same pairs in one run: its int8 graph alone (as
before session 39), the int8 graph with the float recheck (what ships: pairs at or above
CONTRAFLOW_SENTENCE_FLOAT_RECHECK scored again by the float32-compute twin), and the twin
alone (every pair in float32 compute).

Printed per way: DECODE dev accuracy under the sentence rule (two-way mean p(contradiction)
at or above the sentence threshold), pairs/s over both directions, and the share of pairs
the recheck scored again; then the same throughput and share on generated advice pairs.

    python benchmarks/float_recheck.py [--pairs 4362] [--advice 2000] [--model builtin]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from advice_pairs import advice_pairs
from trust import DECODE_DEV, read_jsonl

from contraflow.streams.core.nli.scorer import CONTRADICTION, load_scorer
from contraflow.streams.settings import Settings

Pair = tuple[str, str]


def both_ways(scorer, pairs: list[Pair]) -> tuple[np.ndarray, np.ndarray, float]:
    started = time.perf_counter()
    forward = scorer.score(pairs)
    backward = scorer.score([(hypothesis, premise) for premise, hypothesis in pairs])
    return forward, backward, 2 * len(pairs) / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=0, help="DECODE dev pairs to score (0: all)")
    parser.add_argument("--advice", type=int, default=2000, help="generated advice pairs to score")
    parser.add_argument("--model", default="builtin")
    args = parser.parse_args()

    settings = Settings(nli_model=args.model)
    threshold, floor = settings.sentence_threshold, settings.sentence_float_recheck
    rows = read_jsonl(DECODE_DEV)[: args.pairs or None]
    decode = [(row["premise"], row["hypothesis"]) for row in rows]
    gold = np.array([row["label"] == "contradiction" for row in rows])
    advice = advice_pairs(args.advice)
    ways = {"int8 alone": 1.0, f"int8, recheck at {floor}": floor, "float twin alone": 0.0}
    print(
        f"model: {settings.nli_model_path}, dialogue head; {len(decode)} DECODE dev pairs, {len(advice)} advice pairs"
    )
    rates: dict[str, tuple[float, float]] = {}
    for name, recheck in ways.items():
        scorer = load_scorer(settings.nli_model_path, dialogue=True, float_recheck=recheck)
        scorer.score(advice[:32])  # warm up
        forward, backward, decode_rate = both_ways(scorer, decode)
        accuracy = (((forward[:, CONTRADICTION] + backward[:, CONTRADICTION]) / 2 >= threshold) == gold).mean()
        advice_forward, _, advice_rate = both_ways(scorer, advice)
        rates[name] = decode_rate, advice_rate
        print(
            f"{name:24s} DECODE dev {accuracy:.4f} at {threshold}, {decode_rate:6.1f} pairs/s; "
            f"advice {advice_rate:6.1f} pairs/s"
        )
        if recheck == 1.0:
            share = np.concatenate([forward, backward])[:, CONTRADICTION] >= floor
            advice_share = advice_forward[:, CONTRADICTION] >= floor
            print(
                f"{'':24s} pairs at or above {floor} (scored again by the recheck): DECODE {share.mean():.1%}, "
                f"advice {advice_share.mean():.1%}"
            )
    base = rates["int8 alone"]
    for name, (decode_rate, advice_rate) in rates.items():
        print(
            f"{name:24s} {decode_rate / base[0]:.2f}x the int8 pairs/s on DECODE, "
            f"{advice_rate / base[1]:.2f}x on advice"
        )


if __name__ == "__main__":
    main()
