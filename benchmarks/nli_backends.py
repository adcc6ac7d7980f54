"""CPU throughput at batch 32 of the same trained model three ways, in one run:
fp32 transformers/torch, fp32 ONNX Runtime and int8 ONNX Runtime.

    python benchmarks/nli_backends.py HF_MODEL_DIR INT8_ONNX_DIR [--pairs 1024]

The fp32 ONNX model is exported on the fly into a temporary folder.
"""

from __future__ import annotations

import argparse
import tempfile
import time

from advice_pairs import advice_pairs

from contraflow.streams.core.nli.scorer import load_scorer
from contraflow.streams.settings import NLIBackend
from contraflow.streams.training.export import export_onnx


def pairs_per_second(scorer, pairs, repeats: int = 3) -> float:
    scorer.score(pairs[:64])
    best = 0.0
    for _ in range(repeats):
        started = time.perf_counter()
        scorer.score(pairs)
        best = max(best, len(pairs) / (time.perf_counter() - started))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("hf_model")
    parser.add_argument("int8_onnx")
    parser.add_argument("--pairs", type=int, default=1024)
    args = parser.parse_args()
    pairs = advice_pairs(args.pairs)
    with tempfile.TemporaryDirectory() as tmp:
        export_onnx(args.hf_model, tmp, quantize=False)
        results = {
            "fp32 torch": pairs_per_second(load_scorer(args.hf_model, NLIBackend.transformers, batch_size=32), pairs),
            "fp32 onnx": pairs_per_second(load_scorer(tmp, NLIBackend.onnx, batch_size=32), pairs),
            "int8 onnx": pairs_per_second(load_scorer(args.int8_onnx, NLIBackend.onnx, batch_size=32), pairs),
        }
    for name, value in results.items():
        print(f"{name:11s}: {value:8.1f} pairs/s")
    print(
        f"int8 onnx / fp32 torch = {results['int8 onnx'] / results['fp32 torch']:.2f}x ; "
        f"int8 onnx / fp32 onnx = {results['int8 onnx'] / results['fp32 onnx']:.2f}x"
    )


if __name__ == "__main__":
    main()
