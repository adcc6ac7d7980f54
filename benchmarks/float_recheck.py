"""The dialogue head three ways, on the same pairs in one run: its int8 graph alone
(CONTRAFLOW_SENTENCE_FLOAT_RECHECK=1), the int8 graph with the float recheck (pairs from
`--floor`, the value to give CONTRAFLOW_SENTENCE_FLOAT_RECHECK, 0.5 by default, up to its
ceiling scored again by the float32-compute twin, dialogue_float.onnx), and the twin alone
(every pair in float32 compute).

Printed per way: DECODE dev accuracy under the sentence rule (two-way mean p(contradiction)
at or above the sentence threshold), pairs/s over both directions, and the share of pairs
the recheck scored again; then the same throughput and share on generated advice pairs, and
on the pairs the sentence rule scores in a set of conversations (`--sessions`, trust.py's
sets; the pairs of a conversation mostly agree or are about other things, so few are
scored again).

    python benchmarks/float_recheck.py [--pairs 4362] [--advice 2000] [--sessions dev] [--floor 0.5] [--model builtin]
"""

from __future__ import annotations

import argparse
import asyncio
import time

import numpy as np
from advice_pairs import advice_pairs
from trust import DECODE_DEV, CachedScorer, build, read_jsonl, run_sessions, session_files

from contraflow.streams.core.nli.scorer import CONTRADICTION, load_scorer
from contraflow.streams.runtime.services import load_components
from contraflow.streams.settings import Settings

Pair = tuple[str, str]


def both_ways(scorer, pairs: list[Pair]) -> tuple[np.ndarray, np.ndarray, float]:
    started = time.perf_counter()
    forward = scorer.score(pairs)
    backward = scorer.score([(hypothesis, premise) for premise, hypothesis in pairs])
    return forward, backward, 2 * len(pairs) / (time.perf_counter() - started)


def session_pairs(settings: Settings, which: str) -> list[Pair]:
    """Every pair the sentence rule scores on a set of trust.py's sessions, in order."""
    sentences = settings.model_copy(update={"verdict": "sentences"})
    components = load_components(sentences)
    scorer = CachedScorer(components.turn_scorer.score)
    asyncio.run(run_sessions(build(sentences, scorer, components), session_files(which)))
    return list(scorer.rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=0, help="DECODE dev pairs to score (0: all)")
    parser.add_argument("--advice", type=int, default=2000, help="generated advice pairs to score")
    parser.add_argument("--sessions", default="dev", help="trust.py's set whose scored pairs to time (none: skip)")
    parser.add_argument(
        "--floor", type=float, default=0.5, help="the recheck's floor (CONTRAFLOW_SENTENCE_FLOAT_RECHECK)"
    )
    parser.add_argument("--model", default="builtin")
    args = parser.parse_args()

    settings = Settings(nli_model=args.model)
    threshold, floor = settings.sentence_threshold, args.floor
    ceiling = settings.sentence_float_recheck_ceiling
    rows = read_jsonl(DECODE_DEV)[: args.pairs or None]
    decode = [(row["premise"], row["hypothesis"]) for row in rows]
    gold = np.array([row["label"] == "contradiction" for row in rows])
    advice = advice_pairs(args.advice)
    named = {"DECODE": decode, "advice": advice}
    if args.sessions != "none":
        named[args.sessions] = session_pairs(settings, args.sessions)
    ways = {
        "int8 alone": (1.0, 1.0),
        f"int8, recheck {floor}-{ceiling}": (floor, ceiling),
        "float twin alone": (0.0, 1.0),
    }
    print(
        f"model: {settings.nli_model_path}, dialogue head; pairs: "
        + ", ".join(f"{k} {len(v)}" for k, v in named.items())
    )
    rates: dict[str, dict[str, float]] = {}
    for name, (recheck, up_to) in ways.items():
        scorer = load_scorer(settings.nli_model_path, dialogue=True, float_recheck=recheck, float_recheck_ceiling=up_to)
        scorer.score(advice[:32])  # warm up
        rates[name] = {}
        for what, pairs in named.items():
            forward, backward, rates[name][what] = both_ways(scorer, pairs)
            if what == "DECODE":
                mean = (forward[:, CONTRADICTION] + backward[:, CONTRADICTION]) / 2
                print(f"{name:24s} DECODE dev {((mean >= threshold) == gold).mean():.4f} under the sentence rule")
            if recheck == 1.0:
                p = np.concatenate([forward, backward])[:, CONTRADICTION]
                share = ((p >= floor) & (p < ceiling)).mean()
                print(
                    f"{name:24s} {what}: {share:.1%} of the rows in [{floor}, {ceiling}), "
                    "which the recheck scores again"
                )
        print(f"{name:24s} pairs/s: " + ", ".join(f"{what} {rate:.1f}" for what, rate in rates[name].items()))
    base = rates["int8 alone"]
    for name, rate in rates.items():
        print(f"{name:24s} × the int8 pairs/s: " + ", ".join(f"{what} {rate[what] / base[what]:.2f}" for what in rate))


if __name__ == "__main__":
    main()
